"""How a Duel game ends, one constant each (its ``Game.endings`` say each in words,
``games/duel/words.py``): a marker on its victory space, both markers in one monster's
spotlight zone, the last monster standing, or both knocked out together (a draw).
"""

from __future__ import annotations

from typing import Final

from kotarena.engine.outcome import Termination

VICTORY_SPACE: Final = Termination("victory_space")
SPOTLIGHT: Final = Termination("spotlight")
LAST_STANDING: Final = Termination("last_standing")
ALL_ELIMINATED: Final = Termination("all_eliminated")

__all__ = ["ALL_ELIMINATED", "LAST_STANDING", "SPOTLIGHT", "VICTORY_SPACE"]
