"""Duel's decision kinds: the question each pending decision asks, in words.

Every module of the game may import this one, and it imports nothing of the game.
"""

from __future__ import annotations

#: Each decision kind with what it asks and how it is answered (``Game.decision_kinds``;
#: the play prompt's question, ``help.question``).
DECISION_KINDS: dict[str, str] = {
    "tokens": "spend dice tokens for special dice before the first roll (spend N)",
    "roll": "keep the dice (stop) or reroll some (reroll 1 4)",
    "power": "activate the superpower (power fame, power claw claw, block 1 fame 3, power token, power energy, "
             "power multiply) or stop (pass)",
    "order": "which part of the roll to resolve next (resolve power, resolve fame, resolve claw)",
    "hype": "put the bought card's hype token on a track (hype fame 3 4), or leave it (pass)",
    "buy": "buy a card (buy 3), sweep the market (sweep), or end the buy step (done: +1 energy if nothing bought)",
    "card": "use a card's choice (use <card id> ...) or decline it (pass)",
    "monster": "choose your monster (pick the_king), when the table lets the seats choose",
}

__all__ = ["DECISION_KINDS"]
