"""The games kotarena plays, gathered from every plugin's ``register_games`` hook.

King of Tokyo is registered by the built-in plugin (:mod:`kotarena.games.builtin`)
through the same hook a third-party game package would use. Each plugin's hook is
called on its own: one that raises, or that registers a name already taken, loses only
its own games and shows up in ``kotarena plugins``.

>>> from kotarena.games import new_game
>>> game = new_game("kot", players=4, seed=7)
>>> while not game.is_over:
...     game.apply(game.legal[0])          # a bot would choose from game.view(player)
>>> game.outcome.termination.value in ("stars", "last_standing", "all_eliminated")
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from kotarena import plugins
from kotarena.engine.dice import ScriptedDice
from kotarena.engine.game import (
    ANY_GAME,
    OPTIONS_MARK,
    Game,
    GameSpec,
    GameState,
    UnknownDeckError,
    UnknownGameError,
    configured_name,
    split_game_name,
)

_GAMES: dict[str, Game] | None = None
#: Games with options, built once each, by their configured name.
_CONFIGURED: dict[str, Game] = {}


def reset() -> None:
    """Forget the registered games (the next lookup asks the plugins again)."""
    global _GAMES
    _GAMES = None
    _CONFIGURED.clear()


plugins.on_reset(reset)


def _collect() -> dict[str, Game]:
    found: dict[str, Game] = {}
    packages: dict[str, str] = {}

    def register_for(plugin: str, info: plugins.PluginInfo | None) -> dict[str, object]:
        package = info.package if info else "?"

        def register(game: Game) -> None:
            if not isinstance(game, Game):
                raise TypeError(f"register() needs a Game, got {game!r}")
            taken = [other for other in found.values()
                     if other.spec.answers_to(game.spec.name) or any(map(other.spec.answers_to, game.spec.aliases))]
            if taken:
                plugins.add_error(plugins.PluginError(
                    plugin, package, f"game name {game.spec.name!r} is already taken; this one is ignored"))
                return
            found[game.spec.name] = game
            packages[game.spec.name] = package

        return {"register": register}

    plugins.call_each("register_games", register_for)
    # Built-in plugins are called last by pluggy (registered first); list them first.
    return dict(sorted(found.items(), key=lambda item: packages[item[0]] != "kotarena"))


def games() -> dict[str, Game]:
    """Every registered game by name (built-in games first)."""
    global _GAMES
    if _GAMES is None:
        _GAMES = _collect()
    return dict(_GAMES)


def get_game(name: str) -> Game:
    """The game called ``name`` (or one of its aliases), with the options the name
    carries after a colon if any (``origins:two-player-variant=off``; see
    :meth:`Game.configured <kotarena.engine.game.Game.configured>`)."""
    if OPTIONS_MARK in name:
        base, options = split_game_name(name)
        game = get_game(base)
        key = configured_name(game.spec.name, options)
        found = _CONFIGURED.get(key)
        if found is None:
            found = _CONFIGURED[key] = game.configured(options)
        return found
    known = games()
    for game in known.values():
        if game.spec.answers_to(name):
            return game
    listed = ", ".join(f"{g.name} ({', '.join(g.spec.aliases)})" if g.spec.aliases else g.name
                       for g in known.values())
    raise UnknownGameError(f"unknown game {name!r}; known games: {listed}")


def get_spec(name: str) -> GameSpec:
    """The :class:`GameSpec` of the game called ``name`` (or one of its aliases)."""
    return get_game(name).spec


def plays(claimed: Iterable[str], game: str) -> bool:
    """Whether a bot whose ``games`` are ``claimed`` plays ``game`` (a name or alias).

    A bot names the games it plays by name or alias; ``"*"`` (:data:`ANY_GAME`) plays
    them all.
    """
    claimed = set(claimed)
    if ANY_GAME in claimed:
        return True
    spec = get_spec(game)
    return any(spec.answers_to(name) for name in claimed)


def supported_games(claimed: Iterable[str]) -> list[str]:
    """The registered games (by name) that a bot whose ``games`` are ``claimed`` plays."""
    claimed = set(claimed)
    return [name for name in games() if plays(claimed, name)]


def new_game(
    game: str = "kot",
    players: int | Sequence[str] = 4,
    *,
    seed: int | None = None,
    deck: str | None = "default",
    first_player: int | None = None,
    dice: ScriptedDice | None = None,
    record: bool = True,
) -> GameState:
    """Set up a game of ``game`` (a name or alias) and run it to its first decision.

    See :meth:`kotarena.engine.game.Game.new_state` for the parameters.
    """
    return get_game(game).new_state(players, seed=seed, deck=deck, first_player=first_player, dice=dice,
                                    record=record)


__all__ = [
    "ANY_GAME", "Game", "GameSpec", "GameState", "UnknownDeckError", "UnknownGameError", "games", "get_game", "get_spec", "new_game",
    "plays", "reset", "supported_games",
]
