"""kotarena: an arena for King of Tokyo bots.

The public API for bot authors: the engine's vocabulary and the :class:`Bot` base.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from kotarena.bots.base import Bot
from kotarena.engine import (
    Action,
    Decision,
    IllegalActionError,
    Outcome,
    Termination,
    parse_action,
)
from kotarena.games import new_game
from kotarena.games.kot import State, View

try:
    __version__ = version("kotarena")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0"

__all__ = [
    "Action", "Bot", "Decision", "IllegalActionError", "Outcome", "State", "Termination",
    "View", "new_game", "parse_action", "__version__",
]
