"""Installed bots by name, gathered from every plugin's ``register_bots`` hook.

Each plugin's hook is called on its own, so a plugin that raises loses only its own
bots, and each bot knows the package and version it came from. A second bot with a
name already taken is refused (names key ratings, so no silent renaming) and shows up
as an error naming both packages.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from dataclasses import dataclass

from kotarena import plugins
from kotarena.bots.base import Bot
from kotarena.games import get_spec, plays


class UnknownBotError(ValueError):
    """A bot name that no installed bot answers to."""


class SealedBotError(RuntimeError):
    """A sealed bot (see :func:`seal`) asked to play in this process."""


class BotGameError(ValueError):
    """A bot asked to play a game it does not declare in its ``games``."""


@dataclass(frozen=True)
class BotInfo:
    """An installed bot: its class and where it came from.

    ``cls`` is ``None`` for a *sealed* bot: one known only from what it declared in the
    sandbox (:func:`seal`), never imported in this process; it plays only sandboxed.
    """

    name: str
    cls: type[Bot] | None
    plugin: str
    package: str
    version: str
    games: tuple[str, ...]
    description: str
    #: The parameters the bot declares (``Bot.parameters``), ``None`` if it declares none.
    parameters: Mapping[str, type] | None = None

    def make(self, *, seed: int | None = None, **params: object) -> Bot:
        """A fresh bot for one seat of one game."""
        if self.cls is None:
            raise SealedBotError(f"the {self.name} bot was not imported here: it plays only in the sandbox")
        return self.cls(seed=seed, **params)

    def plays(self, game: str) -> bool:
        """Whether the bot declares ``game`` (a name or alias) among its ``games``."""
        return plays(self.games, game)

    def check_plays(self, game: str) -> None:
        """Raise :class:`BotGameError` unless the bot plays ``game``."""
        if not self.plays(game):
            raise BotGameError(game_refusal(self.name, self.games, game))

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "package": self.package,
            "version": self.version,
            "plugin": self.plugin,
            "games": list(self.games),
            "description": self.description,
        }


_BOTS: dict[str, BotInfo] | None = None


def reset() -> None:
    global _BOTS
    _BOTS = None


plugins.on_reset(reset)


def describe(cls: type) -> str:
    """A bot class's one-line description: its ``description``, or its docstring's first line.

    The docstring may come from a parent bot class, but never from :class:`Bot` itself,
    whose docstring describes bots in general.
    """
    text = getattr(cls, "description", "") or ""
    for klass in cls.__mro__:
        if text or klass is Bot:
            break
        text = inspect.cleandoc(klass.__doc__ or "")
    return text.strip().splitlines()[0] if text.strip() else ""


def _collect() -> dict[str, BotInfo]:
    found: dict[str, BotInfo] = {}

    def register_for(plugin: str, info: plugins.PluginInfo | None) -> dict[str, object]:
        package = info.package if info else "?"
        package_version = info.version if info else "?"

        def register(cls: type, *, name: str | None = None, description: str | None = None) -> None:
            if not (isinstance(cls, type) and issubclass(cls, Bot)):
                raise TypeError(f"register() needs a Bot subclass, got {cls!r}")
            bot_name = name or getattr(cls, "name", "") or ""
            if not bot_name:
                raise ValueError(f"bot class {cls.__name__} has no name")
            if bot_name in found:
                other = found[bot_name]
                plugins.add_error(plugins.PluginError(
                    plugin, package,
                    f"bot name {bot_name!r} is already taken by package {other.package!r}; this one is ignored",
                ))
                return
            games = tuple(sorted(getattr(cls, "games", ()) or ()))
            found[bot_name] = BotInfo(bot_name, cls, plugin, package, package_version, games,
                                      description or describe(cls), getattr(cls, "parameters", None))

        return {"register": register}

    plugins.call_each("register_bots", register_for)
    # Built-in plugins are called last by pluggy (registered first); list them first.
    return dict(sorted(found.items(), key=lambda item: (item[1].package != "kotarena", item[0])))


#: The parameter types a sealed bot's declaration may name (those ladders accept).
_PARAMETER_TYPES: dict[str, type] = {"int": int, "float": float, "str": str, "bool": bool}


def seal(catalogue: dict, trusted: set[str] = frozenset()) -> None:
    """Know the installed bots from ``catalogue`` (what they declared in the sandbox,
    :func:`kotarena.sandbox.catalogue.read_catalogue`), importing here only kotarena's
    own plugins and those of the ``trusted`` packages; the other bots are sealed."""
    global _BOTS
    plugins.restrict({"kotarena", *trusted})
    bots = _collect()
    for entry in catalogue.get("bots", []):
        name = entry.get("name")
        if not isinstance(name, str) or name in bots:
            continue
        declared = entry.get("parameters")
        parameters = None if not isinstance(declared, dict) else {
            key: _PARAMETER_TYPES.get(kind, object) for key, kind in declared.items()}
        bots[name] = BotInfo(name, None, str(entry.get("plugin", "?")), str(entry.get("package", "?")),
                             str(entry.get("version", "?")), tuple(entry.get("games", ())),
                             str(entry.get("description", "")), parameters)
    _BOTS = dict(sorted(bots.items(), key=lambda item: (item[1].package != "kotarena", item[0])))
    for error in catalogue.get("errors", []):
        plugins.add_error(plugins.PluginError(str(error.get("plugin")), str(error.get("package")),
                                              str(error.get("message"))))


def get_bots() -> dict[str, BotInfo]:
    """Every installed bot by name (built-in bots first)."""
    return dict(_installed())


def _installed() -> dict[str, BotInfo]:
    # The table itself, not a copy: get_bot runs for every seat of every match.
    global _BOTS
    if _BOTS is None:
        _BOTS = _collect()
    return _BOTS


def bot_names() -> list[str]:
    return list(get_bots())


def get_bot(name: str) -> BotInfo:
    """The installed bot called ``name``."""
    bots = _installed()
    try:
        return bots[name]
    except KeyError:
        import difflib

        hint = difflib.get_close_matches(name, bots, n=1)
        suggestion = f" Did you mean {hint[0]!r}?" if hint else ""
        raise UnknownBotError(
            f"unknown bot {name!r}.{suggestion} Installed bots: {', '.join(bots) or 'none'} "
            "(see 'kotarena bots')"
        ) from None


def game_refusal(bot: str, claimed: tuple[str, ...], game: str) -> str:
    """Why the bot called ``bot``, whose ``games`` are ``claimed``, cannot play ``game``."""
    return (f"the {bot} bot does not play {get_spec(game).title} (it plays: {', '.join(claimed) or 'nothing'}; "
            "a bot lists the games it plays in its 'games')")


def get_bot_class(name: str) -> type[Bot]:
    """The class of the installed bot called ``name`` (:class:`SealedBotError` for a
    sealed one)."""
    cls = get_bot(name).cls
    if cls is None:
        raise SealedBotError(f"the {name} bot was not imported here: it plays only in the sandbox")
    return cls
