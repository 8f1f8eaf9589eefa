"""King of Tokyo (the classic game of the seeds): 2-6 monsters, Tokyo City and Tokyo Bay,
the 66-card deck.

:data:`KING_OF_TOKYO` is the :class:`~kotarena.engine.game.Game` that the built-in
plugin registers.
"""

from __future__ import annotations

from kotarena.games.kot.game import KING_OF_TOKYO, KingOfTokyo

__all__ = ["KING_OF_TOKYO", "KingOfTokyo"]
