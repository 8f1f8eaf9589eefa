"""The classic deck: 66 first-edition cards, each with its cost, type and an effect.

``FIRST_EDITION`` is copied from the project's card table (``shared/cards/kot_cards.csv``,
columns ``first_ed_name``, ``first_ed_cost``, ``type``, ``copies``).
"""

from __future__ import annotations

from click.testing import CliRunner

from kotarena.cli import cli
from kotarena.games.kot.cards import DECKS, deck_cards, deck_effects
from kotarena.games.kot.cards.classic import KOT_EFFECTS
from kotarena.games.kot.cards.effects import Effect

FIRST_EDITION = [
    ('Acid Attack', 6, 'keep', 1),
    ('Alien Metabolism', 3, 'keep', 1),
    ('Alpha Monster', 5, 'keep', 1),
    ('Apartment Building', 5, 'discard', 1),
    ('Armor Plating', 4, 'keep', 1),
    ('Background Dweller', 4, 'keep', 1),
    ('Burrowing', 5, 'keep', 1),
    ('Camouflage', 3, 'keep', 1),
    ('Commuter Train', 4, 'discard', 1),
    ('Complete Destruction', 3, 'keep', 1),
    ('Corner Store', 3, 'discard', 1),
    ('Dedicated News Team', 3, 'keep', 1),
    ('Drop from High Altitude', 5, 'discard', 1),
    ('Eater of the Dead', 4, 'keep', 1),
    ('Energize', 8, 'discard', 1),
    ('Energy Hoarder', 3, 'keep', 1),
    ('Evacuation Orders', 7, 'discard', 2),
    ('Even Bigger', 4, 'keep', 1),
    ('Extra Head', 7, 'keep', 2),
    ('Fire Blast', 3, 'discard', 1),
    ('Fire Breathing', 4, 'keep', 1),
    ('Freeze Time', 5, 'keep', 1),
    ('Frenzy', 7, 'discard', 1),
    ('Friend of Children', 3, 'keep', 1),
    ('Gas Refinery', 6, 'discard', 1),
    ('Giant Brain', 5, 'keep', 1),
    ('Gourmet', 4, 'keep', 1),
    ('Heal', 3, 'discard', 1),
    ('Healing Ray', 4, 'keep', 1),
    ('Herbivore', 5, 'keep', 1),
    ('Herd Culler', 3, 'keep', 1),
    ('High Altitude Bombing', 4, 'discard', 1),
    ('It Has a Child', 7, 'keep', 1),
    ('Jet Fighters', 5, 'discard', 1),
    ('Jets', 5, 'keep', 1),
    ('Made in a Lab', 2, 'keep', 1),
    ('Metamorph', 3, 'keep', 1),
    ('Mimic', 8, 'keep', 1),
    ('Monster Batteries', 2, 'keep', 1),
    ('National Guard', 3, 'discard', 1),
    ('Nova Breath', 7, 'keep', 1),
    ('Nuclear Power Plant', 6, 'discard', 1),
    ('Omnivore', 4, 'keep', 1),
    ('Opportunist', 3, 'keep', 1),
    ('Parasitic Tentacles', 4, 'keep', 1),
    ('Plot Twist', 3, 'keep', 1),
    ('Poison Quills', 3, 'keep', 1),
    ('Poison Spit', 4, 'keep', 1),
    ('Psychic Probe', 3, 'keep', 1),
    ('Rapid Healing', 3, 'keep', 1),
    ('Regeneration', 4, 'keep', 1),
    ('Rooting for the Underdog', 3, 'keep', 1),
    ('Shrink Ray', 6, 'keep', 1),
    ('Skyscraper', 6, 'discard', 1),
    ('Smoke Cloud', 4, 'keep', 1),
    ('Solar Powered', 2, 'keep', 1),
    ('Spiked Tail', 5, 'keep', 1),
    ('Stretchy', 3, 'keep', 1),
    ('Tanks', 4, 'discard', 1),
    ('Telepath', 4, 'keep', 1),
    ('Urbavore', 4, 'keep', 1),
    ('Vast Storm', 6, 'discard', 1),
    ("We're Only Making It Stronger", 3, 'keep', 1),
    ('Wings', 6, 'keep', 1),
]


def test_the_deck_has_66_cards_of_64_titles():
    assert len(deck_cards("kot")) == 66
    assert len(DECKS["kot"]) == 64


def test_the_deck_has_the_names_costs_types_and_copies_of_the_card_table():
    table = sorted(((c.name, c.cost, c.type, c.copies) for c in DECKS["kot"]), key=lambda row: row[0].lower())
    assert table == FIRST_EDITION


def test_two_copies_of_extra_head_and_of_evacuation_orders():
    copies = {c.id: c.copies for c in DECKS["kot"] if c.copies > 1}
    assert copies == {"extra_head": 2, "evacuation_orders": 2}


def test_every_effect_belongs_to_a_card_of_the_deck_and_every_card_says_what_it_does():
    ids = {c.id for c in DECKS["kot"]}
    assert set(KOT_EFFECTS) <= ids
    for card_id, effect in KOT_EFFECTS.items():
        assert effect.id == card_id
    assert all(len(c.text) > 10 for c in DECKS["kot"])


def test_each_physical_card_gets_its_effect():
    effects = deck_effects("kot")
    for info, effect in zip(deck_cards("kot"), effects):
        assert effect is KOT_EFFECTS.get(info.id, effect)
        assert isinstance(effect, Effect)


def test_kotarena_cards_lists_the_deck():
    result = CliRunner().invoke(cli, ["cards"])
    assert result.exit_code == 0, result.output
    assert "Apartment Building" in result.output and "Gain 3 stars." in result.output
    assert len([line for line in result.output.splitlines() if line.strip()]) == 2 + 64


def test_kotarena_cards_json():
    import json

    result = CliRunner().invoke(cli, ["cards", "--json"])
    data = json.loads(result.output)
    assert len(data["cards"]) == 64 and sum(card["copies"] for card in data["cards"]) == 66
    heal = next(card for card in data["cards"] if card["id"] == "heal")
    assert heal == {"id": "heal", "name": "Heal", "cost": 3, "type": "discard", "copies": 1,
                    "second_edition_name": "Heal", "effect": "Heal 2 health.", "implemented": True}


def test_kotarena_cards_refuses_an_unknown_deck():
    result = CliRunner().invoke(cli, ["cards", "--deck", "nope"])
    assert result.exit_code != 0 and "unknown deck" in result.output
