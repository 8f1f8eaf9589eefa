"""The named moments of a turn where card effects act (see :mod:`kotarena.games.kot.cards.effects`).

Each moment is a small int (its index in :data:`MOMENTS`), used by the engine to keep
one list of acting cards per moment.
"""

from __future__ import annotations

from typing import Final

#: The moments, in turn order. The index of a name is the moment's number.
MOMENTS = (
    "start_turn",    #: your turn starts (after the stars for starting in Tokyo)
    "dice_count",    #: your first roll: ``dice_count(s, owner, card, n) -> n``
    "bonus_reroll",  #: your rerolls ran out: ``-> bool`` grants one more (once per card and turn)
    "offers",        #: a decision of ``kind`` is built: ``offers(s, owner, card, kind) -> actions``
    "score",         #: your dice are scored: ``score(s, owner, card, dice) -> extra stars``
    "claws",         #: your claws are counted: ``claws(s, owner, card, dice, n) -> n``
    "attack_bonus",  #: your attack on ``target``: ``-> extra damage``
    "card_damage",   #: your resolve step without claws: ``-> damage`` to your claws' targets (not an attack)
    "targets",       #: your claws hit every other monster (presence is enough)
    "attacked",      #: your attack dealt damage: ``attacked(s, owner, card, hit)``
    "energy_bonus",  #: the owner gains energy: ``-> extra energy``
    "heal_bonus",    #: the owner gains health: ``-> extra health``
    "guard",         #: damage is about to reach the owner: ``guard(s, owner, card, amount, source, attack) -> amount``
    "hurt",          #: the owner lost health: ``hurt(s, owner, card, amount)``
    "zero",          #: monster ``q`` dropped to 0 health: ``zero(s, owner, card, q)``
    "rescue",        #: the owner is about to be eliminated: ``-> True`` keeps it in the game
    "yielded",       #: the owner yielded Tokyo to ``attacker``: ``yielded(s, owner, card, attacker)``
    "bought",        #: you bought another card: ``bought(s, owner, card, info)``
    "cost",          #: the price of a card you buy: ``cost(s, owner, card, cost) -> cost``
    "end_turn",      #: your turn ends (before poison)
    "taken",         #: the place the owner yielded was taken by ``p``: ``taken(s, owner, card, p)``
    "revealed",      #: a market card was revealed (presence is enough: the engine offers it)
    "entered",       #: the owner took a place in Tokyo: ``entered(s, owner, card)``
    "stayed",        #: the owner was hurt by claws in Tokyo and chose to stay: ``stayed(s, owner, card)``
    "rerolled",      #: monster ``p`` made a reroll: ``rerolled(s, owner, card, p)`` (every owner's cards)
)
# Final: the compiled engine then reads each number as a constant, where a plain
# module global would cost a dictionary lookup at every moment it checks.
START_TURN: Final = 0
DICE_COUNT: Final = 1
BONUS_REROLL: Final = 2
OFFERS: Final = 3
SCORE: Final = 4
CLAWS: Final = 5
ATTACK_BONUS: Final = 6
CARD_DAMAGE: Final = 7
TARGETS: Final = 8
ATTACKED: Final = 9
ENERGY_BONUS: Final = 10
HEAL_BONUS: Final = 11
GUARD: Final = 12
HURT: Final = 13
ZERO: Final = 14
RESCUE: Final = 15
YIELDED: Final = 16
BOUGHT: Final = 17
COST: Final = 18
END_TURN: Final = 19
TAKEN: Final = 20
REVEALED: Final = 21
ENTERED: Final = 22
STAYED: Final = 23
REROLLED: Final = 24

#: Moments called only for the active monster's own cards.
YOUR_MOMENTS = frozenset((
    START_TURN, DICE_COUNT, BONUS_REROLL, SCORE, CLAWS, ATTACK_BONUS, CARD_DAMAGE,
    TARGETS, ATTACKED, BOUGHT, COST, END_TURN,
))
