"""King of Tokyo (the classic game of the seeds): 2-6 monsters, Tokyo City and Tokyo Bay,
the 66-card deck; and King of Tokyo: Origins, a second game of the same family (2-4
monsters, Tokyo City only, the Enter Tokyo step; ``docs/origins.md``).

:data:`KING_OF_TOKYO` and :data:`ORIGINS_GAME` are the
:class:`~kotarena.engine.game.Game` objects that the built-in plugin registers. :class:`State` is one game in progress and :class:`View` what one seat
may see of it (both also at the top level, ``kotarena.State`` and ``kotarena.View``).
"""

from __future__ import annotations

from kotarena.games.kot.game import KING_OF_TOKYO, ORIGINS_GAME, KingOfTokyo
from kotarena.games.kot.kinds import BUY_CARDS, ROLL, YIELD_TOKYO
from kotarena.games.kot.rules import CLASSIC, MONSTERS, ORIGINS, ORIGINS_TWO_PLAYERS, Rules
from kotarena.games.kot.state import State
from kotarena.games.kot.view import View

__all__ = [
    "BUY_CARDS", "CLASSIC", "KING_OF_TOKYO", "KingOfTokyo", "MONSTERS", "ORIGINS", "ORIGINS_GAME", "ORIGINS_TWO_PLAYERS",
    "ROLL", "Rules", "State", "View", "YIELD_TOKYO",
]
