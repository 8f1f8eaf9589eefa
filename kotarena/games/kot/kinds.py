"""King of Tokyo's words: the kinds of decision it asks, the places of Tokyo, and the
codes of the steps the damage queue goes on with.

Every module of the game imports these, and this module imports nothing of the game.
"""

from __future__ import annotations

from typing import Final

# Decision kinds: what question the pending decision asks.
ROLL: Final = "roll"  #: after a roll with rerolls left: ``stop`` or ``reroll ...``
YIELD_TOKYO: Final = "yield"  #: attacked in Tokyo: ``stay`` or ``yield``
BUY_CARDS: Final = "buy"  #: the buy step: ``buy N``, ``sweep`` or ``done`` (and cards' ``use ...``)
DICE_CARDS: Final = "dice"  #: before the dice resolve: ``pass`` or a card's ``use ...`` (change a die, reroll)
HEARTS: Final = "hearts"  #: hearts against tokens: ``pass`` (heal) or ``cure P S``
END_CARDS: Final = "end"  #: after buying, before the end of the turn: ``pass`` or a card's ``use ...`` (sell)
DAMAGE: Final = "damage"  #: damage is about to reach this monster: ``pass`` (take it) or a card's ``use ...``
PROBE: Final = "probe"  #: another monster's roll is over: ``pass`` or ``use psychic_probe N`` (reroll its die N)
REVEAL: Final = "reveal"  #: a card was revealed on another monster's turn: ``pass`` or ``use opportunist SLOT``
START_CARDS: Final = "start"  #: the turn starts, before the roll: ``pass`` or a card's ``use ...`` (Mimic)

#: Each decision kind with what it asks (for people and docs: ``Game.decision_kinds``).
DECISION_KINDS: dict[str, str] = {
    ROLL: "after a roll with rerolls left: stop, or reroll some dice",
    YIELD_TOKYO: "attacked in Tokyo: stay, or yield your place",
    BUY_CARDS: "the buy step: buy a card, sweep the market, or be done (and cards' use actions)",
    DICE_CARDS: "before the dice resolve: pass, or use a card that changes or rerolls dice",
    HEARTS: "hearts against poison or shrink tokens: heal, or cure tokens",
    END_CARDS: "after buying, before the end of the turn: pass, or use a card (sell)",
    DAMAGE: "damage is about to reach you: take it, or use a card against it",
    PROBE: "another monster's roll is over: pass, or reroll one of its dice (Psychic Probe)",
    REVEAL: "a card was revealed on another monster's turn: pass, or buy it (Opportunist)",
    START_CARDS: "your turn starts: pass, or use a card (Mimic)",
}

# The places of Tokyo.
CITY: Final = "city"
BAY: Final = "bay"

# What the game does once the damage queue is empty (``State._then``; views show it in
# ``pending``). Each code names a step of the rules' step table (``Rules.steps``), so the
# damage queue goes on without importing the steps above it.
THEN_NOTHING: Final = 0  #: nothing: the caller goes on
THEN_ATTACK: Final = 1  #: ``steps.after_attack``: attack effects, yielding, moving in, then buying
THEN_BUY: Final = 2  #: ``steps.after_card_damage``: back to the buy step (card damage while buying, Burrowing)
THEN_END: Final = 3  #: ``steps.finish_turn``: finish the turn (poison at the end of a turn)
THEN_DICE: Final = 4  #: ``steps.after_dice_damage``: card damage while the dice resolve, then the Enter Tokyo step
THEN_REROLL: Final = 5  #: ``steps.after_reroll_damage``: health a reroll cost (Orb of Doom), then the roll goes on
