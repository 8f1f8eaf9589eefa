"""Every event of every game kotarena plays reads as a sentence: monsters and cards by
name, never a raw event, a card id or a seat counted from 0."""

from __future__ import annotations

import re

import pytest

from kotarena.engine.actions import parse_action
from kotarena.games import get_game
from kotarena.games.kot.action_words import USE_PHRASES, action_phrase, card_name
from kotarena.games.kot.cards import BASE_DECKS, DECKS, get_deck
from kotarena.games.kot.events import KINDS, describe_event, event_data, event_lines, format_event
from kotarena.games.kot.faces import ENERGY
from kotarena.testing import random_game

NAMES = ["Alienoid", "Cyber Bunny", "Giga Zaur"]
CARD_IDS = {info.id for table in DECKS.values() for info in table}
_WORD = re.compile(r"[A-Za-z_]+")


def card_buyer(state, rng):
    """Plays to get cards into play: half the games hoard energy and buy the dearest card
    (so the costly ones are bought too), the others buy and use cards at random."""
    legal = state.legal
    hoarding = state.seed % 2 == 0
    if hoarding and state.kind == "roll":
        keep_energy = tuple(i for i, face in enumerate(state.dice, 1) if face != ENERGY)
        wanted = [a for a in legal if a.kind == "reroll" and a.args == keep_energy]
        if wanted and rng.random() < 0.9:
            return wanted[0]
    buys = [a for a in legal if a.kind == "buy"]
    if hoarding and buys:
        return max(buys, key=lambda a: (state.cards_info[state.market[a.args[0] - 1]].cost, rng.random()))
    card_actions = [a for a in legal if a.kind in ("use", "cure", "buy")]
    if card_actions and rng.random() < 0.8:
        return rng.choice(card_actions)
    return rng.choice(legal)


def unreadable(line: str, event: tuple) -> list[str]:
    """What in a line is not for people: card ids (each card the event names must be
    there by its name) and seats by number."""
    problems = [word for word in _WORD.findall(line) if word in CARD_IDS and "_" in word]
    fields = [*event[1:], *(event[2].split()[1:] if event[0] == "act" else ())]
    problems += [field for field in fields if field in CARD_IDS and card_name(field) not in line]
    problems += re.findall(r"\bseat \d+", line)
    return problems


GAMES = [("kot", deck, 240) for deck in ("kot", "kot-2e")] + [
    ("origins", "origins", 240), ("kot", "kot-2e+origins", 60), ("origins", "kot+origins-new", 60), ("kot", None, 30)]


@pytest.mark.parametrize(("game", "deck", "count"), GAMES)
def test_every_event_of_random_games_with_every_card_reads_as_a_sentence(game, deck, count):
    bought, kinds = set(), set()
    top = get_game(game).spec.max_players
    for seed in range(count):
        state = random_game(seed, 2 + seed % (top - 1), deck, game=game, policy=card_buyer, record=True,
                            check=None)
        for event in state.log:
            line = describe_event(event, state.names)
            assert line is not None, f"no sentence for {event!r} (seed {seed})"
            assert not unreadable(line, event), (line, event)
            kinds.add(event[0])
            if event[0] in ("buy", "buy top", "buy discarded"):
                bought.add(event[2])
            elif event[0] == "take card":
                bought.add(event[3])
    if deck in BASE_DECKS:
        # Every card of the deck was in play, its own events and card actions with it.
        assert bought == {info.id for info in DECKS[deck]}
    assert {"turn", "roll", "act", "damage", "over"} <= kinds


def test_every_card_with_a_choice_has_its_action_in_words():
    for deck in BASE_DECKS:
        found = get_deck(deck)
        for info, effect in zip(found.cards, found.card_effects):
            if effect.offer_kinds:
                assert info.id in USE_PHRASES, f"{info.name} ({deck}) offers 'use {info.id}' but has no phrase"


@pytest.mark.parametrize(("event", "line"), [
    (("rescued", 1, "it_has_a_child"),
     "It Has a Child saves Cyber Bunny: it starts again with full health, no stars and no cards"),
    (("mimic", 0, None), "Alienoid's Mimic token comes off: the card it copied left play"),
    (("mimic", 0, 2, "wings"), "Alienoid puts the Mimic token on Giga Zaur's Wings: Mimic now works as a copy of it"),
    (("camouflage", 2, (4, 2, 0, 3), 1), "Giga Zaur's Camouflage rolls heart 3 1 energy: 1 damage less"),
    (("sell", 2, "metamorph", 3), "Giga Zaur discards Metamorph and takes its 3 energy back (Metamorph)"),
    (("pay", 1, 0, 2, "healing_ray"), "Cyber Bunny pays Alienoid 2 energy (Healing Ray)"),
    (("stars", 0, 3, "apartment_building"), "Alienoid gains 3 stars (Apartment Building)"),
    (("leave", 1, "city", "it_has_a_child"), "Cyber Bunny leaves Tokyo City (It Has a Child)"),
    (("act", 1, "use mimic 3 wings"),
     "Cyber Bunny chooses to use Mimic: put the Mimic token on Giga Zaur's Wings: Mimic works as a copy of it"),
    (("act", 0, "cure 1 2"), "Alienoid chooses to spend 1 heart on poison tokens and 2 hearts on shrink tokens "
                             "(the other hearts heal)"),
])
def test_card_events_name_monsters_and_cards(event, line):
    assert format_event(event, NAMES) == line


def test_event_data_counts_seats_from_1_and_keeps_the_other_fields():
    assert event_data(("damage", 1, 3, 0)) == ["damage", 2, 3, 1]
    assert event_data(("damage", 1, 3, -1)) == ["damage", 2, 3, None]
    assert event_data(("take card", 0, 2, "wings", 6)) == ["take card", 1, 3, "wings", 6]
    assert event_data(("rolloff", ((0, 2), (1, 1)))) == ["rolloff", [[1, 2], [2, 1]]]
    assert event_data(("reveal", 3, "armor_plating")) == ["reveal", 3, "armor_plating"]
    assert event_data(("over", None, "all_eliminated")) == ["over", None, "all_eliminated"]
    # A kind no row knows is given as logged.
    assert event_data(("poison", 1, (0, None))) == ["poison", 1, [0, None]]


def test_each_row_gives_every_field_of_its_kind_a_type():
    # The types say which fields are seats: what event_data counts from 1 and sentences name.
    for (kind, size), (types, _sentence) in KINDS.items():
        assert len(types) == size, kind


def test_actions_read_as_what_they_do():
    assert action_phrase(parse_action("reroll 1 4"), NAMES) == "reroll dice 1 and 4"
    assert action_phrase(parse_action("use stretchy 3 claw"), NAMES) == (
        "use Stretchy: turn die 3 into a claw for 2 energy")
    assert action_phrase(parse_action("use healing_ray 2"), NAMES).startswith("use Healing Ray: spend a heart to heal "
                                                                               "Cyber Bunny 1")
    assert card_name("nova_breath") == "Nova Breath"


def test_narration_skips_actions_whose_effect_has_its_own_line():
    lines = event_lines([("act", 0, "reroll 1 4"), ("act", 0, "use telepath"), ("act", 1, "yield")], NAMES)
    assert lines == ["Alienoid chooses to use Telepath: pay 1 energy for one more reroll"]
