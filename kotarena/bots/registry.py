"""Installed bots by name: the trusted ones imported here, the others known from the sandbox.

Each trusted plugin's ``register_bots`` hook is called on its own, so a plugin that
raises loses only its own bots, and each bot knows the package and version it came
from. The bots of untrusted distributions are never imported here: they are known from
what they declared in the sandbox (:func:`seal`, with the catalogue of
:mod:`kotarena.sandbox.catalogue`; :mod:`kotarena.sandbox.untrusted` reads it for a
command), and play only sandboxed.

**A bot name belongs to its distribution.** Every bot answers to ``DIST:NAME`` (its
distribution's name, a colon, its name: ``kotarena-heuristic:heuristic``), and to its
plain name unless another distribution registers that name too: then the plain name is
refused for both (names key ratings; neither may take the other's place). A third-party
bot named like one of kotarena's own is refused, and a distribution registering one
name twice keeps its first. Each refusal shows up as an error of the packages involved.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from kotarena import plugins
from kotarena.bots.base import Bot
from kotarena.games import get_spec, plays


class UnknownBotError(ValueError):
    """A bot name that no installed bot answers to."""


class AmbiguousBotError(UnknownBotError):
    """A plain bot name that two distributions register: name one as ``DIST:NAME``."""


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
    #: Directories a sealed bot's sandbox puts on ``sys.path`` besides the environment's
    #: (a bot store directory; empty for a bot installed in the operator's environment).
    path: tuple[str, ...] = ()
    #: Whether the bot is a program (:class:`~kotarena.bots.command.CommandBot`): for a
    #: sealed bot, as the catalogue says.
    program: bool = False

    @property
    def sealed(self) -> bool:
        """Whether the bot is known only from the sandbox (untrusted: never imported here)."""
        return self.cls is None

    @property
    def qualified(self) -> str:
        """``DIST:NAME``: the name no other distribution can take."""
        return f"{plugins.normal(self.package)}:{self.name}"

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
        from kotarena.bots.command import is_program

        return {
            "name": self.name,
            "package": self.package,
            "version": self.version,
            "plugin": self.plugin,
            "games": list(self.games),
            "description": self.description,
            "program": self.program or is_program(self.cls),
            "sandboxed": self.sealed,
        }


#: The bots by plain name (unambiguous ones only); every bot by ``DIST:NAME``; the
#: plain names two distributions register.
_BOTS: dict[str, BotInfo] | None = None
_QUALIFIED: dict[str, BotInfo] = {}
_AMBIGUOUS: dict[str, list[BotInfo]] = {}
#: What the untrusted bots declared in the sandbox (:func:`seal`), if it was read.
_CATALOGUE: dict | None = None


#: The plugin errors the table's last build recorded (a new build replaces them).
_RECORDED: list[plugins.PluginError] = []


def reset() -> None:
    global _BOTS, _CATALOGUE
    _BOTS = None
    _CATALOGUE = None
    _QUALIFIED.clear()
    _AMBIGUOUS.clear()
    _RECORDED.clear()


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


def _collect() -> list[BotInfo]:
    """Every bot the trusted plugins register here, in the order they register them."""
    found: list[BotInfo] = []

    def register_for(plugin: str, info: plugins.PluginInfo | None) -> dict[str, object]:
        package = info.package if info else "?"
        package_version = info.version if info else "?"

        def register(cls: type, *, name: str | None = None, description: str | None = None) -> None:
            if not (isinstance(cls, type) and issubclass(cls, Bot)):
                raise TypeError(f"register() needs a Bot subclass, got {cls!r}")
            bot_name = name or getattr(cls, "name", "") or ""
            if not bot_name:
                raise ValueError(f"bot class {cls.__name__} has no name")
            if ":" in bot_name:
                raise ValueError(f"bot name {bot_name!r} has a ':', which separates a package's name from a bot's")
            games = tuple(sorted(getattr(cls, "games", ()) or ()))
            found.append(BotInfo(bot_name, cls, plugin, package, package_version, games,
                                 description or describe(cls), getattr(cls, "parameters", None)))

        return {"register": register}

    plugins.call_each("register_bots", register_for)
    return found


#: The parameter types a sealed bot's declaration may name (those ladders accept).
_PARAMETER_TYPES: dict[str, type] = {"int": int, "float": float, "str": str, "bool": bool}


def _sealed_bots(catalogue: dict) -> list[BotInfo]:
    """The untrusted bots ``catalogue`` declares (those of trusted distributions are
    imported here instead, kotarena's own included)."""
    bots = []
    for entry in catalogue.get("bots", []):
        name, package = entry.get("name"), str(entry.get("package", "?"))
        if not isinstance(name, str) or not name or ":" in name or plugins.is_trusted(package):
            continue
        declared = entry.get("parameters")
        parameters = None if not isinstance(declared, dict) else {
            key: _PARAMETER_TYPES.get(kind, object) for key, kind in declared.items()}
        path = entry.get("path") or ()
        bots.append(BotInfo(name, None, str(entry.get("plugin", "?")), package, str(entry.get("version", "?")),
                            tuple(str(game) for game in entry.get("games", ())), str(entry.get("description", "")),
                            parameters, tuple(str(p) for p in path), entry.get("program") is True))
    return bots


def _refuse(info: BotInfo, message: str) -> None:
    plugins.add_error(plugins.PluginError(info.plugin, info.package, message))


def _build(found: list[BotInfo]) -> dict[str, BotInfo]:
    """The table of bots by plain name, filling the ``DIST:NAME`` table and the
    ambiguous names; each refusal is recorded as an error of its package."""
    by_name: dict[str, dict[str, BotInfo]] = {}
    for info in found:
        mine = by_name.setdefault(info.name, {})
        dist = plugins.normal(info.package)
        if dist in mine:
            _refuse(info, f"bot name {info.name!r} is already taken by package {mine[dist].package!r}; "
                          "this one is ignored")
            continue
        mine[dist] = info
    table: dict[str, BotInfo] = {}
    for name, mine in by_name.items():
        own = mine.get("kotarena")
        if own is not None:
            for dist, info in mine.items():
                if dist != "kotarena":
                    _refuse(info, f"bot name {name!r} is already taken by package 'kotarena'; this one is ignored")
            mine = {"kotarena": own}
        for info in mine.values():
            _QUALIFIED[info.qualified] = info
        if len(mine) == 1:
            table[name] = next(iter(mine.values()))
        else:
            ambiguous = sorted(mine.values(), key=lambda info: plugins.normal(info.package))
            _AMBIGUOUS[name] = ambiguous
            plugins.add_error(plugins.PluginError(name, ", ".join(info.package for info in ambiguous),
                                                  ambiguity(name, ambiguous)))
    # Built-in bots first, then by name.
    return dict(sorted(table.items(), key=lambda item: (item[1].package != "kotarena", item[0])))


def ambiguity(name: str, infos: list[BotInfo]) -> str:
    """Why the plain name ``name`` is refused: one line naming the distributions and the
    ``DIST:NAME`` forms that do work."""
    packages = [info.package for info in infos]
    both = " and ".join(packages) if len(packages) == 2 else ", ".join(packages)
    forms = " or ".join(repr(info.qualified) for info in infos)
    return (f"bot name {name!r} is registered by both {both}, so neither plays as {name!r}: "
            f"name the one you mean as {forms}")


def seal(catalogue: dict, trusted: Iterable[str] = ()) -> None:
    """Know the untrusted bots from ``catalogue`` (what they declared in the sandbox,
    :func:`kotarena.sandbox.catalogue.read_catalogue`), trusting the distributions
    ``trusted`` too: this process imports only kotarena's own plugins and the trusted
    distributions' (``KOTARENA_TRUST``, and ``trusted``); the other bots are sealed."""
    global _BOTS, _CATALOGUE
    plugins.trust(trusted)
    _CATALOGUE = catalogue
    _BOTS = None
    _installed()


def catalogue() -> dict | None:
    """The catalogue the registry was sealed with, if any."""
    return _CATALOGUE


def get_bots() -> dict[str, BotInfo]:
    """Every known bot by name (built-in bots first): trusted ones, and the untrusted ones
    once the registry is sealed (:func:`seal`, :func:`kotarena.sandbox.untrusted.know_untrusted`). A bot whose plain
    name two distributions register is listed under its ``DIST:NAME``."""
    table = dict(_installed())
    for infos in _AMBIGUOUS.values():
        for info in infos:
            table[info.qualified] = info
    return table


def _installed() -> dict[str, BotInfo]:
    # The table itself, not a copy: get_bot runs for every seat of every match.
    global _BOTS
    if _BOTS is None:
        errors = plugins.registry().errors
        errors[:] = [error for error in errors if not any(error is old for old in _RECORDED)]
        first = len(errors)
        found = _collect()
        if _CATALOGUE is not None:
            found += _sealed_bots(_CATALOGUE)
            for error in _CATALOGUE.get("errors", []):
                if not plugins.is_trusted(str(error.get("package"))):
                    plugins.add_error(plugins.PluginError(str(error.get("plugin")), str(error.get("package")),
                                                          str(error.get("message"))))
        _QUALIFIED.clear()
        _AMBIGUOUS.clear()
        _BOTS = _build(found)
        _RECORDED[:] = errors[first:]
    return _BOTS


def bot_names() -> list[str]:
    return list(get_bots())


def get_bot(name: str) -> BotInfo:
    """The bot called ``name``: its plain name, or ``DIST:NAME``."""
    bots = _installed()
    found = bots.get(name)
    if found is not None:
        return found
    if ":" in name:
        dist, bare = name.split(":", 1)
        found = _QUALIFIED.get(f"{plugins.normal(dist)}:{bare}")
        if found is not None:
            return found
    if name in _AMBIGUOUS:
        raise AmbiguousBotError(ambiguity(name, _AMBIGUOUS[name]))
    import difflib

    hint = difflib.get_close_matches(name, bots, n=1)
    suggestion = f" Did you mean {hint[0]!r}?" if hint else ""
    failed = load_failure(name)
    why = f" {failed}." if failed else ""
    raise UnknownBotError(
        f"unknown bot {name!r}.{why}{suggestion} Installed bots: {', '.join(bots) or 'none'} "
        "(see 'kotarena bots')"
    )


def load_failure(name: str) -> str | None:
    """Why the bot ``name`` may be missing: the error met loading the package whose
    plugin has that name, or whose name is the bot's (``smash-bot`` in
    ``kotarena-smash-bot``), here or in the sandbox (an import error, word for word)."""
    bare = plugins.normal(name.split(":", 1)[-1])
    dist = plugins.normal(name.split(":", 1)[0]) if ":" in name else None
    for error in plugins.plugin_errors():
        package = plugins.normal(error.package)
        if dist is not None and package != dist:
            continue
        if dist is not None or plugins.normal(error.plugin) == bare or package in (bare, f"kotarena-{bare}"):
            return f"Its package {error.package} failed to load: {error.message}"
    return None


def refusal(name: str) -> str | None:
    """Why the name ``name`` is refused: a plain name two distributions register (one
    line naming both and their ``DIST:NAME`` forms), or an unknown bot with the error
    its package met if one is known (``""`` when none is); ``None`` when a bot answers
    to it."""
    try:
        get_bot(name)
    except AmbiguousBotError as error:
        return str(error)
    except UnknownBotError:
        failure = load_failure(name)
        return f"unknown bot {name!r}: {failure[0].lower()}{failure[1:]}" if failure else ""
    return None


def ambiguous(name: str) -> str | None:
    """Why the plain name ``name`` is refused, if two distributions register it."""
    _installed()
    return ambiguity(name, _AMBIGUOUS[name]) if name in _AMBIGUOUS else None


def qualified(names: Iterable[str]) -> set[str]:
    """The ``DIST:NAME`` of each of ``names`` a bot answers to."""
    found = set()
    for name in names:
        try:
            found.add(get_bot(name).qualified)
        except UnknownBotError:
            pass
    return found


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
