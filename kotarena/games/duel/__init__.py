"""King of Tokyo: Duel (seed 002), the two-player game of the family: the fame and
destruction tracks, hype tokens, six monsters with superpowers, dice tokens and special
dice, and its own 50-card market. ``docs/duel.md`` has the rules as played and the rulings.

:data:`DUEL_GAME` is the :class:`~kotarena.engine.game.Game` object that the built-in
plugin registers; :class:`State` is one game in progress and :class:`View` what one seat
sees of it.
"""

from kotarena.games.duel.game import DUEL_GAME, Duel
from kotarena.games.duel.state import State
from kotarena.games.duel.view import View

__all__ = ["DUEL_GAME", "Duel", "State", "View"]
