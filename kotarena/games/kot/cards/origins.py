"""The King of Tokyo: Origins deck (seed 001): deck ``origins``, 50 cards.

36 cards repeat classic cards in their second-edition wording: they are the very same
cards as in :mod:`~kotarena.games.kot.cards.second_edition` (the same facts and effect
object; Evacuation Orders comes once instead of twice), so their tests there and in the
classic deck cover them. The 14 cards new in Origins, marked with a star on the cards
(:data:`ORIGINS_NEW`), follow, built from the shared blocks and from
:mod:`~kotarena.games.kot.cards.origins_abilities`. Facts come from
``shared/cards/origins_cards.csv``; the rulings taken where the text left a choice are
in ``docs/cards.md``.
"""

from __future__ import annotations

from dataclasses import replace

from kotarena.games.kot.cards.blocks import (
    EnergyWhenYielding,
    EnteringTokyo,
    HurtWhoTakesMyPlace,
    Instant,
    OthersLose,
    StarsWhenStaying,
)
from kotarena.games.kot.cards.deck import Deck
from kotarena.games.kot.cards.effects import Combined, Effect
from kotarena.games.kot.cards.info import DISCARD, KEEP, CardInfo
from kotarena.games.kot.cards.origins_abilities import (
    Biofuel,
    DrainingRay,
    ElectricArmor,
    FlamingAura,
    OrbOfDoom,
    Scavenger,
    Shrinky,
)
from kotarena.games.kot.cards.second_edition import SECOND_EDITION_DECK

#: The second-edition cards Origins repeats, by id, in the order of the card list.
ORIGINS_REPEATS: tuple[str, ...] = (
    # keep
    'detritivore', 'media_friendly', 'acid_attack', 'even_bigger', 'wings', 'herd_culler', 'alien_origin',
    'freeze_time', 'friend_of_children', 'rapid_healing', 'regeneration', 'poison_quills', 'alpha_monster',
    'camouflage', 'herbivore', 'gourmet', 'spiked_tail', 'complete_destruction', 'giant_brain', 'energy_drink',
    'parasitic_tentacles', 'jets', 'nova_breath', 'rooting_for_the_underdog', 'background_dweller',
    # discard
    'corner_store', 'tank', 'skyscraper', 'death_from_above', 'gas_refinery', 'national_guard', 'flame_thrower',
    'heal', 'evacuation_orders', 'high_altitude_bombing', 'frenzy',
)


def _repeat(card_id: str) -> tuple[CardInfo, Effect]:
    info = next(i for i in SECOND_EDITION_DECK.table if i.id == card_id)
    return replace(info, copies=1), SECOND_EDITION_DECK.effects[card_id]


#: The 14 cards new in Origins (starred), with their effects.
ORIGINS_NEW_CARDS: tuple[tuple[CardInfo, Effect], ...] = (
    (CardInfo('biofuel', 'Biofuel', 4, KEEP, 1, 'Biofuel',
              'You may spend heart results on energy: 1 energy each instead of healing.'),
     Biofuel()),
    (CardInfo('draining_ray', 'Draining Ray', 5, KEEP, 1, 'Draining Ray',
              'When your dice show four of a kind, each other monster with the most stars gives you 1 star.'),
     DrainingRay()),
    (CardInfo('electric_armor', 'Electric Armor', 5, KEEP, 1, 'Electric Armor',
              'When you are about to lose health, you may pay 1 energy to lose 1 less (once per damage).'),
     ElectricArmor()),
    (CardInfo('flaming_aura', 'Flaming Aura', 5, KEEP, 1, 'Flaming Aura',
              'When your dice show four of a kind, every other monster loses 1 health (card damage, not an attack).'),
     FlamingAura()),
    (CardInfo('gamma_blast', 'Gamma Blast', 4, KEEP, 1, 'Gamma Blast',
              'When you take control of Tokyo, every other monster loses 1 health (card damage).'),
     EnteringTokyo(hurt_others=1)),
    (CardInfo('hungry_urbavore', 'Hungry Urbavore', 4, KEEP, 1, 'Hungry Urbavore',
              'Gain 1 extra star when you take control of Tokyo.'),
     EnteringTokyo(stars=1)),
    (CardInfo('jagged_tactician', 'Jagged Tactician', 3, KEEP, 1, 'Jagged Tactician',
              'When you yield Tokyo, gain 1 energy, and the monster that takes your place loses 1 health (card damage).'),
     Combined(EnergyWhenYielding(1), HurtWhoTakesMyPlace(1))),
    (CardInfo('orb_of_doom', 'Orb of Doom', 9, KEEP, 1, 'Orb of Doom',
              'Each time another monster rerolls, it loses 1 health (card damage, at the reroll itself).'),
     OrbOfDoom()),
    (CardInfo('scavenger', 'Scavenger', 3, KEEP, 1, 'Scavenger',
              'In your buy step you may buy cards from the discard pile; a discard card bought so goes to the bottom of the deck once played.'),
     Scavenger()),
    (CardInfo('shrinky', 'Shrinky', 4, KEEP, 1, 'Shrinky',
              'Before your dice resolve, you may turn any die showing 2 into a 1.'),
     Shrinky()),
    (CardInfo('bull_headed', 'Bull Headed', 3, KEEP, 1, 'Bull Headed',
              'Gain 1 star when you could yield Tokyo but stay.'),
     StarsWhenStaying(1)),
    (CardInfo('barricades', 'Barricades', 5, DISCARD, 1, 'Barricades',
              'Every other monster loses 3 stars (never below 0).'),
     OthersLose(stars=3)),
    (CardInfo('ice_cream_truck', 'Ice Cream Truck', 4, DISCARD, 1, 'Ice Cream Truck',
              'Gain 1 star and heal 2 health.'),
     Instant(stars=1, heal=2)),
    (CardInfo('supertower', 'Supertower', 7, DISCARD, 1, 'Supertower',
              'Gain 5 stars.'),
     Instant(stars=5)),
)

#: The ids of the 14 starred cards, for the decks that add them to the classic deck.
ORIGINS_NEW: tuple[str, ...] = tuple(info.id for info, _ in ORIGINS_NEW_CARDS)

#: The Origins deck: the 36 repeated cards, then the 14 new ones.
ORIGINS_DECK = Deck("origins", (*map(_repeat, ORIGINS_REPEATS), *ORIGINS_NEW_CARDS))
