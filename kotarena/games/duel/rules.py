"""Duel's numbers: dice, rolls, dice tokens, the market's slots and the sweep's price.

A module of their own so that the turn's steps (``turn.py``) can read them without
importing the state, which calls the steps directly.
"""

from __future__ import annotations

from typing import Final

#: Most dice tokens a monster holds; most dice in one roll.
MAX_TOKENS: Final = 2
MAX_DICE: Final = 8
#: Dice a monster rolls (one fewer on the first player's very first turn), and rolls a turn.
STANDARD_DICE: Final = 6
ROLLS: Final = 3
#: Energy to sweep the market; its face-up slots.
SWEEP_COST: Final = 2
MARKET_SIZE: Final = 3
