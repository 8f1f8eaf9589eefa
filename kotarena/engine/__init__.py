"""The rules engine's core: pure, deterministic, no I/O.

The game seam (:mod:`kotarena.engine.game`), actions, decisions, dice and outcomes are
shared by every game; games themselves live in :mod:`kotarena.games`, which also
starts them (``kotarena.games.new_game``).
"""

from __future__ import annotations

from kotarena.engine import state as _state_module
from kotarena.engine.actions import Action, ActionError, parse_action
from kotarena.engine.decisions import Decision
from kotarena.engine.dice import FACE_NAMES, DiceError, ScriptedDice, format_faces, parse_faces
from kotarena.engine.game import Game, GameSpec, GameState, UnknownGameError
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


__all__ = [
    "Action", "ActionError", "BUY_CARDS", "Decision", "DiceError", "EngineError",
    "FACE_NAMES", "Game", "GameOverError", "GameSpec", "GameState", "IllegalActionError", "MONSTERS", "NATIVE",
    "Outcome", "PositionError", "ROLL", "ScriptedDice", "State", "Termination",
    "UnknownGameError", "View", "YIELD_TOKYO", "format_faces",
    "parse_action", "parse_faces",
]
