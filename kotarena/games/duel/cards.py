"""The 50 Duel cards: their facts (name, cost, type, hype token) and printed effect.

What each card does in play is in ``effects.py`` (the moment it acts, by id); the rulings
where a card left a choice are in ``docs/duel.md``.
"""

from __future__ import annotations

from typing import NamedTuple

KEEP, DISCARD = "keep", "discard"


class CardInfo(NamedTuple):
    """One card: id, printed name, cost in energy, keep or discard, its hype token (or
    ``None``) and its effect in words."""

    id: str
    name: str
    cost: int
    type: str
    hype: str | None
    text: str


CARDS: tuple[CardInfo, ...] = (
    CardInfo('acid_attack', 'Acid Attack', 6, KEEP, 'tiger_energy',
             'On your turns your roll always counts one extra claw.'),
    CardInfo('adrenaline_augment', 'Adrenaline Augment', 5, KEEP, None,
             'On your turns add one claw to your roll for each of the two markers that is currently '
             'inside a spotlight zone.'),
    CardInfo('alien_metabolism', 'Alien Metabolism', 2, KEEP, 'anubis_energy_heal',
             'Once per turn (on your turn) you may discard one of the face-up Power cards on the '
             'board; the row then slides and refills as usual.'),
    CardInfo('antimatter_pellets', 'Antimatter Pellets', 5, KEEP, None,
             'If your roll contains 5 or more of the same face, your rival takes 4 damage and you pull '
             'the destruction marker 2.'),
    CardInfo('armor_plating', 'Armor Plating', 6, KEEP, 'cat_smash',
             "During each of your rival's turns, ignore the first point of damage you would take."),
    CardInfo('breaking_news', 'Breaking News', 6, KEEP, 'dragon_energy_smash_heal',
             'Each time you buy a Power card, pull the fame marker 1.'),
    CardInfo('camouflage', 'Camouflage', 4, KEEP, None,
             'Whenever you would take damage you may roll one die per damage point; each heart face '
             'cancels 1 damage.'),
    CardInfo('cannonball', 'Cannonball!', 7, DISCARD, 'anubis_energy_heal',
             'Pull the fame marker 1; your rival takes 1 damage; gain 4 energy.'),
    CardInfo('dominate', 'Dominate', 3, DISCARD, 'pumpkin_heal_smash2_heal',
             'On its next turn your rival rolls 1 fewer die for each keep card it owns; before this is '
             'applied the rival may discard keep cards to reduce the penalty.'),
    CardInfo('electrical_aura', 'Electrical Aura', 4, KEEP, 'lizard_smash_dice',
             'At the end of your turn pull the destruction marker 1 for every full 7 energy you hold '
             '(energy is kept).'),
    CardInfo('energize', 'Energize', 10, DISCARD, 'lizard_smash_dice',
             'Gain 8 energy and 2 dice tokens (you can never hold more than 2 dice tokens).'),
    CardInfo('extra_head', 'Extra Head', 7, KEEP, None,
             'You roll 1 additional die each turn (never more than 8 dice).'),
    CardInfo('eye_of_the_storm', 'Eye of the Storm', 2, KEEP, 'dragon_energy_smash_heal',
             'Each turn, gain 1 energy for each roll you were entitled to but did not use (e.g. '
             'stopping after the first roll of 3 gives 2 energy).'),
    CardInfo('frenzy', 'Frenzy', 6, DISCARD, None,
             'Take another turn right after this one.'),
    CardInfo('gentle_giant', 'Gentle Giant', 5, KEEP, 'fish_heal',
             'After you resolve your dice, if your roll had no claw, pull the fame marker 1.'),
    CardInfo('giant_brain', 'Giant Brain', 4, KEEP, None,
             'You may roll one extra time each turn (4 rolls).'),
    CardInfo('hibernation', 'Hibernation', 5, KEEP, None,
             'You take no damage at all. At the start of each of your turns you may discard this card '
             '(then play normally); if you keep it, gain 6 health (up to your maximum) and your turn '
             'ends at once.'),
    CardInfo('hors_doeuvre', "Hors d'Oeuvre", 3, DISCARD, 'cat_smash',
             'You take 3 damage; pull the destruction marker 2.'),
    CardInfo('in_shape', 'In Shape', 4, KEEP, None,
             'Each turn, for every damage point beyond the 3rd that your rival takes, you may pay 1 '
             'energy to pull the fame marker 1.'),
    CardInfo('in_the_shadows', 'In the Shadows', 5, KEEP, 'alien_shortcut',
             'You may always reroll dice showing fame, even after your normal rolls are used up.'),
    CardInfo('jets_scrambled', 'Jets Scrambled', 5, DISCARD, 'penguin_extend_smash',
             'Both monsters (you and your rival) take 5 damage.'),
    CardInfo('kaijutsu', 'Kaijutsu', 5, DISCARD, 'pumpkin_heal_smash2_heal',
             'Pull the destruction marker 1; your rival takes 2 damage.'),
    CardInfo('lightning_speed', 'Lightning Speed', 4, KEEP, 'alien_shortcut',
             'When you pull a marker onto an empty (bonus-less) space of a hype token, you may treat '
             'it as a smash bonus: your rival takes 1 damage.'),
    CardInfo('made_in_a_lab', 'Made in a Lab', 3, KEEP, 'tiger_energy',
             'At the start of your turn you may buy one face-up Power card for 1 energy less (minimum '
             '1).'),
    CardInfo('moment_of_respite', 'Moment of Respite', 4, DISCARD, 'alien_shortcut',
             'Gain 2 health and 1 dice token.'),
    CardInfo('monster_coaster', 'Monster Coaster', 7, DISCARD, None,
             'Pull the destruction marker 3.'),
    CardInfo('monumental', 'Monumental', 5, DISCARD, 'panda_dice',
             'Pull the destruction marker 1 and the fame marker 1.'),
    CardInfo('natural_selection', 'Natural Selection', 4, KEEP, None,
             'When bought, gain 4 energy and 4 health. You roll 1 additional die each turn. If your '
             'roll contains 4 or more of one face, take 10 damage before resolving your dice.'),
    CardInfo('operation_media', 'Operation Media', 6, DISCARD, 'anubis_energy_heal',
             'Pull the fame marker 1 for each claw you resolved in your roll this turn.'),
    CardInfo('photoshoot', 'Photoshoot', 2, DISCARD, 'fish_heal',
             'Pull the fame marker 1.'),
    CardInfo('rebooting', 'Rebooting', 3, KEEP, 'cat_smash',
             'You may skip your Resolve Dice phase; if you do, gain 2 dice tokens (max 2 held) and 2 '
             'energy, then discard this card.'),
    CardInfo('regeneration', 'Regeneration', 4, KEEP, None,
             'Once per turn, when you gain health, gain 1 extra.'),
    CardInfo('sack_the_stadium', 'Sack the Stadium', 8, DISCARD, 'phantom_extend_heal',
             'Pull the destruction marker 2 and the fame marker 2.'),
    CardInfo('scrappy', 'Scrappy', 2, KEEP, 'lizard_smash_dice',
             'Gain 1 dice token each time you pull a marker off a hype token (max 2 held).'),
    CardInfo('seismic_test', 'Seismic Test', 5, DISCARD, None,
             'Pull the destruction marker 2.'),
    CardInfo('signature_move', 'Signature Move', 6, KEEP, 'phantom_extend_heal',
             'Each time your roll contains 3 power (!) faces, pull the fame marker 1.'),
    CardInfo('snack_time', 'Snack Time', 3, DISCARD, None,
             'Gain 3 health.'),
    CardInfo('spiked_tail', 'Spiked Tail', 4, KEEP, None,
             'Whenever you pull the destruction marker, your rival takes 1 damage per space the marker '
             'moves.'),
    CardInfo('superconductor', 'Superconductor', 2, KEEP, None,
             'When your rival gains energy while resolving its dice, you may discard this card to gain '
             'the same amount of energy at once.'),
    CardInfo('tesla_impulse', 'Tesla Impulse', 6, DISCARD, 'penguin_extend_smash',
             'Your rival discards one of its keep cards, chosen by you; you gain 2 energy.'),
    CardInfo('the_party_is_over', 'The Party Is Over!', 4, DISCARD, 'phantom_extend_heal',
             "For each monster: if either marker is in a spotlight zone on that monster's side, that "
             'monster takes 4 damage (this can hit you, your rival, or both).'),
    CardInfo('thermonuclear_cooking', 'Thermonuclear Cooking', 7, DISCARD, 'panda_dice',
             'Pull the destruction marker 1; gain 2 health and 2 energy.'),
    CardInfo('thunder_stomp', 'Thunder Stomp', 4, KEEP, None,
             'If you pull the destruction marker while resolving your dice, your rival rolls 1 fewer '
             'die on its next turn.'),
    CardInfo('titanic_batteries', 'Titanic Batteries', 4, KEEP, 'pumpkin_heal_smash2_heal',
             'At the start of your Resolve Dice phase you may set aside 2 of your dice without '
             'resolving them to gain 1 dice token.'),
    CardInfo('too_cute', 'Too Cute', 3, DISCARD, 'fish_heal',
             'Your rival takes 2 damage.'),
    CardInfo('trend_setter', 'Trend Setter', 3, KEEP, 'dragon_energy_smash_heal',
             'While the fame marker sits on a hype token, ignore the first point of damage you would '
             "take during each of your rival's turns."),
    CardInfo('unchained', 'Unchained', 3, KEEP, 'penguin_extend_smash',
             'Whenever you would receive a hype bonus you may take a smash bonus (rival takes 1 '
             'damage) instead.'),
    CardInfo('unstable_dna', 'Unstable DNA', 3, KEEP, 'tiger_energy',
             "If you take 3 or more damage at once, you may swap this card for one of your rival's "
             'keep cards.'),
    CardInfo('unstoppable', 'Unstoppable!', 3, KEEP, None,
             'When you would reach 0 health, stay at 1 instead and take no more damage this turn; then '
             'discard this card.'),
    CardInfo('utter_destruction', 'Utter Destruction', 4, KEEP, 'panda_dice',
             'If your roll contains all six faces (fame, destruction, energy, claw, heart, power), '
             'pull the destruction marker 2 and the fame marker 2, and your rival takes 2 damage.'),
)
BY_ID: dict[str, CardInfo] = {card.id: card for card in CARDS}


def card_named(text: str) -> CardInfo:
    """The card whose id or name is ``text`` (any case); ``KeyError`` if none."""
    key = text.strip().lower()
    for card in CARDS:
        if key in (card.id, card.name.lower()):
            return card
    raise KeyError(text)
