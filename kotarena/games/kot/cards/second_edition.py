"""The classic King of Tokyo deck in its second edition (2016): deck ``kot-2e``.

The second edition is the first edition's table with the changes below; every other
card is the very same card (the same facts and effect object as in
:mod:`~kotarena.games.kot.cards.classic`, so its tests there cover it here). Facts come
from ``shared/cards/kot_cards.csv`` (its main columns). Ten cards have a new name (the
six pure renames get the id of their new name; "It Has a Child!" and "We're Only
Making It Stronger!" keep theirs), Monster Batteries became Battery Monster, and nine
cards are reworded: the "extra damage" cards now add claws to the roll, Alpha Monster
and Fire Breathing act on a roll with a claw. Psychic Probe's and Poison Quills'
second-edition wordings play as the engine already plays the first edition's (rulings
3 and 25 in ``docs/cards.md``), so they stay the same cards.

Origins (:mod:`~kotarena.games.kot.cards.origins`) repeats 36 of these cards.
"""

from __future__ import annotations

from kotarena.games.kot.cards.abilities import BatteryMonster, Telepath
from kotarena.games.kot.cards.blocks import (
    Discount,
    ExtraClaws,
    HurtWhoTakesMyPlace,
    Instant,
    NeighboursLose,
    ScoreBonus,
    StarsPerPurchase,
    StartInTokyoStars,
    TakeCity,
    a_claw,
    any_dice,
    one_two_three,
)
from kotarena.games.kot.cards.classic import CLASSIC_DECK
from kotarena.games.kot.cards.deck import Deck
from kotarena.games.kot.cards.effects import Combined, Effect
from kotarena.games.kot.cards.info import DISCARD, KEEP, CardInfo

_same = CLASSIC_DECK.effects

#: What the second edition changed, by first-edition id: the card's new facts and effect.
SECOND_EDITION_CHANGES: dict[str, tuple[CardInfo, Effect]] = {
    # Renamed: a new name (and id), the same cost and effect.
    'alien_metabolism': (
        CardInfo('alien_origin', 'Alien Origin', 3, KEEP, 1, 'Alien Origin',
                 'Cards you buy cost you 1 energy less.'),
        Discount(1)),
    'dedicated_news_team': (
        CardInfo('media_friendly', 'Media-Friendly', 3, KEEP, 1, 'Media-Friendly',
                 'Gain 1 star whenever you buy a card (after this one).'),
        StarsPerPurchase(1)),
    'drop_from_high_altitude': (
        CardInfo('death_from_above', 'Death From Above', 5, DISCARD, 1, 'Death From Above',
                 'Gain 2 stars and take Tokyo City if you are not in Tokyo (its monster leaves; taking it gives the usual star). A monster in Tokyo Bay is in Tokyo and stays.'),
        Combined(Instant(stars=2), TakeCity())),
    'fire_blast': (
        CardInfo('flame_thrower', 'Flame Thrower', 3, DISCARD, 1, 'Flame Thrower',
                 'Every other monster loses 2 health (card damage, not an attack).'),
        Instant(hurt_others=2)),
    'omnivore': (
        CardInfo('detritivore', 'Detritivore', 4, KEEP, 1, 'Detritivore',
                 'When your dice show a 1, a 2 and a 3, gain 2 extra stars (the dice still count for sets).'),
        ScoreBonus(2, one_two_three)),
    'tanks': (
        CardInfo('tank', 'Tank', 4, DISCARD, 1, 'Tank',
                 'Gain 4 stars and lose 3 health.'),
        Instant(stars=4, hurt_self=3)),
    'telepath': (
        CardInfo('energy_drink', 'Energy Drink', 4, KEEP, 1, 'Energy Drink',
                 'Pay 1 energy for one extra reroll (as often as energy lasts).'),
        Telepath()),
    # Renamed by an exclamation mark only: the same id and effect.
    'it_has_a_child': (
        CardInfo('it_has_a_child', 'It Has a Child!', 7, KEEP, 1, 'It Has a Child!',
                 'When you would be eliminated, discard all your cards (this one too), lose all your stars, leave Tokyo and heal to full health instead.'),
        _same['it_has_a_child']),
    'were_only_making_it_stronger': (
        CardInfo('were_only_making_it_stronger', "We're Only Making It Stronger!", 3, KEEP, 1,
                 "We're Only Making It Stronger!", 'Whenever you lose 2 health or more at once, gain 1 energy.'),
        _same['were_only_making_it_stronger']),
    # A new card in the old one's place.
    'monster_batteries': (
        CardInfo('battery_monster', 'Battery Monster', 3, KEEP, 1, 'Battery Monster',
                 'Comes with 6 energy from the bank on it. At the start of each of your turns take 2 of them; discard it when empty.'),
        BatteryMonster()),
    # Reworded: claws added to the roll instead of damage added to an attack.
    'acid_attack': (
        CardInfo('acid_attack', 'Acid Attack', 6, KEEP, 1, 'Acid Attack',
                 'Your roll counts one extra claw every turn, even with no claw rolled.'),
        ExtraClaws(1, any_dice)),
    'alpha_monster': (
        CardInfo('alpha_monster', 'Alpha Monster', 5, KEEP, 1, 'Alpha Monster',
                 'Gain 1 star when your resolved dice show at least one claw (once a roll).'),
        ScoreBonus(1, a_claw)),
    'burrowing': (
        CardInfo('burrowing', 'Burrowing', 5, KEEP, 1, 'Burrowing',
                 'While you are in Tokyo your roll counts one extra claw. When you yield Tokyo, the monster that takes your place loses 1 health (card damage).'),
        Combined(ExtraClaws(1, any_dice, in_tokyo=True), HurtWhoTakesMyPlace(1))),
    'fire_breathing': (
        CardInfo('fire_breathing', 'Fire Breathing', 4, KEEP, 1, 'Fire Breathing',
                 'When your dice show at least one claw, each of your neighbours loses 1 health (card damage), whoever your claws hit.'),
        NeighboursLose(1, a_claw)),
    'spiked_tail': (
        CardInfo('spiked_tail', 'Spiked Tail', 5, KEEP, 1, 'Spiked Tail',
                 'When your dice show at least one claw, your roll counts one more.'),
        ExtraClaws(1, a_claw)),
    'urbavore': (
        CardInfo('urbavore', 'Urbavore', 4, KEEP, 1, 'Urbavore',
                 'Gain 1 extra star when you start your turn in Tokyo. While you are in Tokyo, when your dice show at least one claw, your roll counts one more.'),
        Combined(StartInTokyoStars(1), ExtraClaws(1, a_claw, in_tokyo=True))),
}


def _second_edition(info: CardInfo) -> tuple[CardInfo, Effect]:
    # Every card the second edition renamed is among the changes (its
    # ``second_edition_name`` says so), so the others are the very same cards.
    return SECOND_EDITION_CHANGES.get(info.id) or (info, _same[info.id])


#: The classic deck, second edition: the first edition's table, in its order, with the
#: changes of :data:`SECOND_EDITION_CHANGES`.
SECOND_EDITION_DECK = Deck("kot-2e", tuple(_second_edition(info) for info in CLASSIC_DECK.table))
