"""The classic King of Tokyo deck (first edition, as the seeds describe it).

Names and costs are the first edition's; ``second_edition_name`` records what the
2016 edition calls the card. Facts come from ``shared/cards/kot_cards.csv``.
Card effects are not part of this table: the table is what the market, the buy step
and ``kotarena cards`` need to know about a card.
"""

from __future__ import annotations

from kotarena.cards.info import DISCARD, KEEP, CardInfo

#: Every distinct card of the classic deck; ``copies`` says how many the deck holds.
KOT_CARDS: tuple[CardInfo, ...] = (
    CardInfo('apartment_building', 'Apartment Building', 5, DISCARD, 1, 'Apartment Building'),
    CardInfo('commuter_train', 'Commuter Train', 4, DISCARD, 1, 'Commuter Train'),
    CardInfo('corner_store', 'Corner Store', 3, DISCARD, 1, 'Corner Store'),
    CardInfo('drop_from_high_altitude', 'Drop from High Altitude', 5, DISCARD, 1, 'Death From Above'),
    CardInfo('energize', 'Energize', 8, DISCARD, 1, 'Energize'),
    CardInfo('evacuation_orders', 'Evacuation Orders', 7, DISCARD, 2, 'Evacuation Orders'),
    CardInfo('fire_blast', 'Fire Blast', 3, DISCARD, 1, 'Flame Thrower'),
    CardInfo('frenzy', 'Frenzy', 7, DISCARD, 1, 'Frenzy'),
    CardInfo('gas_refinery', 'Gas Refinery', 6, DISCARD, 1, 'Gas Refinery'),
    CardInfo('heal', 'Heal', 3, DISCARD, 1, 'Heal'),
    CardInfo('high_altitude_bombing', 'High Altitude Bombing', 4, DISCARD, 1, 'High Altitude Bombing'),
    CardInfo('jet_fighters', 'Jet Fighters', 5, DISCARD, 1, 'Jet Fighters'),
    CardInfo('national_guard', 'National Guard', 3, DISCARD, 1, 'National Guard'),
    CardInfo('nuclear_power_plant', 'Nuclear Power Plant', 6, DISCARD, 1, 'Nuclear Power Plant'),
    CardInfo('skyscraper', 'Skyscraper', 6, DISCARD, 1, 'Skyscraper'),
    CardInfo('tanks', 'Tanks', 4, DISCARD, 1, 'Tank'),
    CardInfo('vast_storm', 'Vast Storm', 6, DISCARD, 1, 'Vast Storm'),
    CardInfo('acid_attack', 'Acid Attack', 6, KEEP, 1, 'Acid Attack'),
    CardInfo('alien_metabolism', 'Alien Metabolism', 3, KEEP, 1, 'Alien Origin'),
    CardInfo('alpha_monster', 'Alpha Monster', 5, KEEP, 1, 'Alpha Monster'),
    CardInfo('armor_plating', 'Armor Plating', 4, KEEP, 1, 'Armor Plating'),
    CardInfo('background_dweller', 'Background Dweller', 4, KEEP, 1, 'Background Dweller'),
    CardInfo('burrowing', 'Burrowing', 5, KEEP, 1, 'Burrowing'),
    CardInfo('camouflage', 'Camouflage', 3, KEEP, 1, 'Camouflage'),
    CardInfo('complete_destruction', 'Complete Destruction', 3, KEEP, 1, 'Complete Destruction'),
    CardInfo('dedicated_news_team', 'Dedicated News Team', 3, KEEP, 1, 'Media-Friendly'),
    CardInfo('eater_of_the_dead', 'Eater of the Dead', 4, KEEP, 1, 'Eater of the Dead'),
    CardInfo('energy_hoarder', 'Energy Hoarder', 3, KEEP, 1, 'Energy Hoarder'),
    CardInfo('even_bigger', 'Even Bigger', 4, KEEP, 1, 'Even Bigger'),
    CardInfo('extra_head', 'Extra Head', 7, KEEP, 2, 'Extra Head'),
    CardInfo('fire_breathing', 'Fire Breathing', 4, KEEP, 1, 'Fire Breathing'),
    CardInfo('freeze_time', 'Freeze Time', 5, KEEP, 1, 'Freeze Time'),
    CardInfo('friend_of_children', 'Friend of Children', 3, KEEP, 1, 'Friend of Children'),
    CardInfo('giant_brain', 'Giant Brain', 5, KEEP, 1, 'Giant Brain'),
    CardInfo('gourmet', 'Gourmet', 4, KEEP, 1, 'Gourmet'),
    CardInfo('healing_ray', 'Healing Ray', 4, KEEP, 1, 'Healing Ray'),
    CardInfo('herbivore', 'Herbivore', 5, KEEP, 1, 'Herbivore'),
    CardInfo('herd_culler', 'Herd Culler', 3, KEEP, 1, 'Herd Culler'),
    CardInfo('it_has_a_child', 'It Has a Child', 7, KEEP, 1, 'It Has a Child!'),
    CardInfo('jets', 'Jets', 5, KEEP, 1, 'Jets'),
    CardInfo('made_in_a_lab', 'Made in a Lab', 2, KEEP, 1, 'Made in a Lab'),
    CardInfo('metamorph', 'Metamorph', 3, KEEP, 1, 'Metamorph'),
    CardInfo('mimic', 'Mimic', 8, KEEP, 1, 'Mimic'),
    CardInfo('monster_batteries', 'Monster Batteries', 2, KEEP, 1, 'Battery Monster'),
    CardInfo('nova_breath', 'Nova Breath', 7, KEEP, 1, 'Nova Breath'),
    CardInfo('omnivore', 'Omnivore', 4, KEEP, 1, 'Detritivore'),
    CardInfo('opportunist', 'Opportunist', 3, KEEP, 1, 'Opportunist'),
    CardInfo('parasitic_tentacles', 'Parasitic Tentacles', 4, KEEP, 1, 'Parasitic Tentacles'),
    CardInfo('plot_twist', 'Plot Twist', 3, KEEP, 1, 'Plot Twist'),
    CardInfo('poison_quills', 'Poison Quills', 3, KEEP, 1, 'Poison Quills'),
    CardInfo('poison_spit', 'Poison Spit', 4, KEEP, 1, 'Poison Spit'),
    CardInfo('psychic_probe', 'Psychic Probe', 3, KEEP, 1, 'Psychic Probe'),
    CardInfo('rapid_healing', 'Rapid Healing', 3, KEEP, 1, 'Rapid Healing'),
    CardInfo('regeneration', 'Regeneration', 4, KEEP, 1, 'Regeneration'),
    CardInfo('rooting_for_the_underdog', 'Rooting for the Underdog', 3, KEEP, 1, 'Rooting for the Underdog'),
    CardInfo('shrink_ray', 'Shrink Ray', 6, KEEP, 1, 'Shrink Ray'),
    CardInfo('smoke_cloud', 'Smoke Cloud', 4, KEEP, 1, 'Smoke Cloud'),
    CardInfo('solar_powered', 'Solar Powered', 2, KEEP, 1, 'Solar Powered'),
    CardInfo('spiked_tail', 'Spiked Tail', 5, KEEP, 1, 'Spiked Tail'),
    CardInfo('stretchy', 'Stretchy', 3, KEEP, 1, 'Stretchy'),
    CardInfo('telepath', 'Telepath', 4, KEEP, 1, 'Energy Drink'),
    CardInfo('urbavore', 'Urbavore', 4, KEEP, 1, 'Urbavore'),
    CardInfo('were_only_making_it_stronger', "We're Only Making It Stronger", 3, KEEP, 1, "We're Only Making It Stronger!"),
    CardInfo('wings', 'Wings', 6, KEEP, 1, 'Wings'),
)
