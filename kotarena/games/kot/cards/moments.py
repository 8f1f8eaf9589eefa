"""The named moments of a turn where card effects act (see :mod:`kotarena.games.kot.cards.effects`).

Each moment is a small int (its index in :data:`MOMENTS`), used by the engine to keep
one list of acting cards per moment.
"""

from __future__ import annotations

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
START_TURN = 0
DICE_COUNT = 1
BONUS_REROLL = 2
OFFERS = 3
SCORE = 4
CLAWS = 5
ATTACK_BONUS = 6
CARD_DAMAGE = 7
TARGETS = 8
ATTACKED = 9
ENERGY_BONUS = 10
HEAL_BONUS = 11
GUARD = 12
HURT = 13
ZERO = 14
RESCUE = 15
YIELDED = 16
BOUGHT = 17
COST = 18
END_TURN = 19
TAKEN = 20
REVEALED = 21
ENTERED = 22
STAYED = 23
REROLLED = 24

#: Moments called only for the active monster's own cards.
YOUR_MOMENTS = frozenset((
    START_TURN, DICE_COUNT, BONUS_REROLL, SCORE, CLAWS, ATTACK_BONUS, CARD_DAMAGE,
    TARGETS, ATTACKED, BOUGHT, COST, END_TURN,
))
