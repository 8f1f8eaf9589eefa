"""The game-neutral core: pure, deterministic, no I/O.

The game seam (:mod:`kotarena.engine.game`), actions (any ``verb arg ...``), decisions,
scripted dice, outcomes and the text form of logged events are shared by every game; no
game's words are here (King of Tokyo's faces, verbs and endings are in its package and
the family's :mod:`kotarena.games.vocabulary`). Games themselves live in
:mod:`kotarena.games`, which also starts them (``kotarena.games.new_game``); King of
Tokyo's state and view are :class:`kotarena.games.kot.State` and
:class:`kotarena.games.kot.View` (also ``kotarena.State`` and ``kotarena.View``).
This package imports nothing from :mod:`kotarena.games`.
"""

from __future__ import annotations

from kotarena.engine import dice as _dice_module
from kotarena.engine.actions import Action, ActionError, parse_action
from kotarena.engine.decisions import Decision
from kotarena.engine.dice import DiceError, ScriptedDice
from kotarena.engine.game import Game, GameSpec, GameState, UnknownDeckError, UnknownGameError
from kotarena.engine.outcome import (
    EngineError,
    GameOverError,
    IllegalActionError,
    Outcome,
    PositionError,
    Termination,
)

#: True when the hot modules are the compiled (mypyc) build, False when they run as
#: Python source; the two play identical games (see setup.py). Every compiled module is
#: compiled together, so the core's dice module tells for all of them.
NATIVE: bool = not _dice_module.__file__.endswith(".py")


__all__ = [
    "Action", "ActionError", "Decision", "DiceError", "EngineError",
    "Game", "GameOverError", "GameSpec", "GameState", "IllegalActionError", "NATIVE",
    "Outcome", "PositionError", "ScriptedDice", "Termination",
    "UnknownDeckError", "UnknownGameError", "parse_action",
]
