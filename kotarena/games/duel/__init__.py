"""King of Tokyo: Duel (seed 002), the two-player game of the family: the fame and
destruction tracks, hype tokens, six monsters with superpowers, dice tokens and special
dice, and its own 50-card market. ``docs/duel.md`` has the rules as played and the rulings.
"""

from kotarena.games.duel.game import DUEL_GAME, Duel

__all__ = ["DUEL_GAME", "Duel"]
