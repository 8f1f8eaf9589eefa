"""Every choice the seeds leave open in King of Tokyo and King of Tokyo: Origins that
the engine makes at one place, each one named constant, in one place.

Each constant has its row in the rulings table of each page its rule belongs to, with
the seed passage and the tests that pin it: ``docs/rules.md`` (the classic game),
``docs/origins.md`` (Origins), ``docs/cards.md`` (the cards). Change a ruling here and
only here. The constants are ``Final``: the compiled turn machine takes their values as
constants (no lookup at each use), and the card modules read them as plain names.
Rulings that are the shape of the turn (the order of its steps) are not switches; those
pages list them after the table.
"""

from __future__ import annotations

from typing import Final

# ---------------------------------------------------------------- the classic game

#: The roll-off: only the monsters tied for the most claws roll again (seed 001: "в
#: случае ничьей игроки продолжают бросать кубики"; the classic seeds say only "most
#: claws starts"). Off: every monster rolls again.
ROLL_OFF_ONLY_THE_TIED_ROLL_AGAIN: Final = True

#: When a card must be revealed and the deck is empty, the discard pile is shuffled into
#: a new deck (the seeds are silent). Off: the slot stays empty.
RESHUFFLE_DISCARD_WHEN_THE_DECK_RUNS_OUT: Final = True

#: A bought card's market slot is refilled before the card is kept or discarded (seed
#: 003: "ogni carta acquistata viene immediatamente sostituita"), so a discard card bought
#: with the deck empty is not shuffled straight back into the market.
REFILL_BEFORE_THE_BOUGHT_CARD_IS_PLAYED: Final = True

#: Swept cards reach the discard pile before the three new ones are revealed (the seeds:
#: discard the three, then draw three), so a short deck may shuffle them back in.
SWEPT_CARDS_DISCARDED_BEFORE_REVEALING: Final = True

#: Hearts spent on poison or shrink tokens are a use of hearts, which a monster in Tokyo
#: cannot make (seed 003: "i Mostri a Tokyo non possono utilizzare il risultato Cuore");
#: cards that use heart results for others (Healing Ray) still may.
CURE_TOKENS_ONLY_OUTSIDE_TOKYO: Final = True

# ---------------------------------------------------------------- the cards

#: Rooting for the Underdog needs strictly fewer stars than every other living monster
#: (seed 003: "se possiedi il minor numero di PV"): a tie for fewest gives nothing.
UNDERDOG_NEEDS_STRICTLY_FEWEST_STARS: Final = True

#: A card that acts when its owner buys a card (Dedicated News Team, Media-Friendly) does
#: not count its own purchase: "whenever you buy a card" starts once it is in play.
CARDS_SEE_THEIR_OWN_PURCHASE: Final = False

#: Rapid Healing is offered before damage only when the damage would eliminate its
#: owner: healing just before any other damage or just after it comes to the same (seed
#: 003: "at any time, even just before another monster damages you").
RAPID_HEALING_BEFORE_DAMAGE_ONLY_IF_FATAL: Final = True

#: Healing Ray may be used from Tokyo: it spends the roller's heart results on others,
#: which the rule against healing in Tokyo does not forbid.
HEALING_RAY_FROM_TOKYO: Final = True

#: Mimic may copy its owner's own keep cards (seed 003: "imita una carta qualsiasi in
#: gioco", any card in play), never Mimic itself.
MIMIC_MAY_COPY_ITS_OWNERS_CARDS: Final = True

#: Biofuel turns heart results into energy in Tokyo too: the card says nothing of Tokyo
#: (one adaptation allows it only outside).
BIOFUEL_IN_TOKYO: Final = True

#: Draining Ray robs every other monster tied for the most stars, not only a sole leader.
DRAINING_RAY_ROBS_EVERY_TIED_LEADER: Final = True
