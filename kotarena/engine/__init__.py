"""The King of Tokyo rules engine: pure, deterministic, no I/O.

>>> from kotarena.engine import new_game
>>> game = new_game("kot", players=4, seed=7)
>>> while not game.is_over:
...     game.apply(game.legal[0])          # a bot would choose from game.view(player)
>>> game.outcome.termination.value in ("stars", "last_standing", "all_eliminated")
True
"""

from __future__ import annotations

from collections.abc import Sequence

from kotarena.engine import state as _state_module
from kotarena.engine.actions import Action, ActionError, parse_action
from kotarena.engine.decisions import Decision
from kotarena.engine.dice import FACE_NAMES, DiceError, ScriptedDice, format_faces, parse_faces
from kotarena.engine.games import GAMES, GameSpec, UnknownGameError, get_game
from kotarena.engine.outcome import (
    EngineError,
    GameOverError,
    IllegalActionError,
    Outcome,
    PositionError,
    Termination,
)
from kotarena.engine.state import BUY_CARDS, MONSTERS, ROLL, YIELD_TOKYO, State
from kotarena.engine.view import View

#: True when the engine's hot modules are the compiled (mypyc) build, False when they
#: run as Python source; the two play identical games (see setup.py).
NATIVE: bool = not _state_module.__file__.endswith(".py")


def new_game(
    game: str = "kot",
    players: int | Sequence[str] = 4,
    *,
    seed: int | None = None,
    deck: str | None = "default",
    first_player: int | None = None,
    dice: ScriptedDice | None = None,
    record: bool = True,
) -> State:
    """Set up a game and run it to its first decision.

    :param game: a game name or alias (see :data:`GAMES`).
    :param players: a number of players, or the monsters' names in seat order.
    :param seed: fixes every shuffle and die roll; ``None`` picks one (see ``state.seed``).
    :param deck: ``"default"`` for the game's deck, a deck name, or ``None`` for a game
        without cards (no market, no buy step).
    :param first_player: skip the roll-off and let this seat start.
    :param dice: scripted dice instead of random ones.
    :param record: keep the event log (replays need it; search copies do not).
    """
    spec = get_game(game)
    count = players if isinstance(players, int) else len(players)
    spec.check_players(count)
    state = State.blank(
        players,
        seed=seed,
        deck=spec.deck if deck == "default" else deck,
        dice=dice,
        record=record,
    )
    state.game = spec.name
    first = state.roll_off() if first_player is None else first_player
    state.begin(first)
    return state


__all__ = [
    "Action", "ActionError", "BUY_CARDS", "Decision", "DiceError", "EngineError",
    "FACE_NAMES", "GAMES", "GameOverError", "GameSpec", "IllegalActionError", "MONSTERS", "NATIVE",
    "Outcome", "PositionError", "ROLL", "ScriptedDice", "State", "Termination",
    "UnknownGameError", "View", "YIELD_TOKYO", "format_faces", "get_game", "new_game",
    "parse_action", "parse_faces",
]
