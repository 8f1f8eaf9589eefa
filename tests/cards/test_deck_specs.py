"""Named decks and deck specifications: the mixes of seed 001 (the 14 new Origins cards
added to a classic deck, all 50, or chosen cards), and how a mix reaches a game, a
replay, a ladder file and ``kotarena cards``."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kotarena.cli import cli
from kotarena.engine import UnknownDeckError
from kotarena.games import get_game, new_game
from kotarena.games.kot.cards import DECKS, get_deck
from kotarena.replay import replay_from_text, replay_text, reproduce
from kotarena.testing import random_game


def copies(deck: str) -> dict[str, int]:
    return {info.id: info.copies for info in DECKS[deck]}


def test_the_named_decks():
    assert list(DECKS) == ["kot", "kot-2e", "origins", "origins-new", "kot+origins-new", "kot-2e+origins-new",
                           "kot-2e+origins"]
    assert [len(get_deck(name).cards) for name in DECKS] == [66, 66, 50, 14, 80, 80, 116]


def test_the_14_new_origins_cards_join_the_classic_deck():
    mix = copies("kot+origins-new")
    assert {k: v for k, v in mix.items() if k in copies("kot")} == copies("kot")
    assert set(mix) - set(copies("kot")) == set(copies("origins-new"))


def test_all_50_origins_cards_added_to_the_second_edition_repeat_36_of_its_cards():
    mix = copies("kot-2e+origins")
    assert mix["acid_attack"] == 2 and mix["heal"] == 2 and mix["evacuation_orders"] == 3
    assert mix["apartment_building"] == 1 and mix["orb_of_doom"] == 1
    assert sum(mix.values()) == 66 + 50


def test_a_specification_chooses_cards_by_id_or_name_in_any_case():
    deck = get_deck("kot+origins:biofuel, Orb of DOOM")
    assert deck.name == "kot+origins:biofuel,orb_of_doom"
    assert len(deck.cards) == 66 + 2


def test_chosen_cards_come_with_their_copies():
    assert [info.id for info in get_deck("kot:extra_head").cards] == ["extra_head", "extra_head"]


@pytest.mark.parametrize(("spec", "message"), [
    ("dark", "unknown deck 'dark'; known decks: kot, kot-2e, origins, origins-new, kot+origins-new, "
             "kot-2e+origins-new, kot-2e+origins (or a mix: DECK[:CARD,CARD...][+DECK[:CARD,...]...])"),
    ("kot+dark", "unknown deck 'dark' in 'kot+dark'; known decks: kot, kot-2e, origins, origins-new, "
                 "kot+origins-new, kot-2e+origins-new, kot-2e+origins"),
    ("kot+origins:biofuel,pizza", "no card 'pizza' in deck 'origins'"),
    ("kot+origins:", "bad deck specification 'kot+origins:': write DECK[:CARD,CARD...][+DECK[:CARD,...]...]"),
    ("kot+", "bad deck specification 'kot+': write DECK[:CARD,CARD...][+DECK[:CARD,...]...]"),
    ("kot+origins", "cannot mix 'kot' and 'origins': acid_attack, alpha_monster, spiked_tail differ between them "
                    "(editions with other wordings)"),
])
def test_a_bad_specification_is_one_clear_line(spec, message):
    with pytest.raises(UnknownDeckError) as raised:
        get_deck(spec)
    assert str(raised.value) == message
    with pytest.raises(UnknownDeckError):
        get_game("kot").check_deck(spec)


def test_the_classic_game_plays_a_mix_and_its_replay_plays_again():
    state = random_game(5, 3, "kot+origins:Orb of Doom,scavenger,gamma_blast", record=True)
    assert state.is_over and state.deck_name == "kot+origins:orb_of_doom,scavenger,gamma_blast"
    assert len(state.cards_info) == 69
    again = reproduce(replay_from_text(replay_text(state), source="mix.replay"))
    assert again.outcome == state.outcome


def test_a_replay_naming_an_unknown_card_in_its_deck_is_reported_at_its_line():
    lines = replay_text(new_game("kot", 2, seed=3, deck="kot-2e")).split("\n")
    index = next(i for i, line in enumerate(lines) if line.startswith("deck "))
    lines[index] = 'deck "kot+origins:pizza"'
    with pytest.raises(Exception, match=rf"^mix.replay:{index + 1}: no card 'pizza' in deck 'origins'"):
        reproduce(replay_from_text("\n".join(lines), source="mix.replay"))


def test_kotarena_cards_lists_a_named_deck_and_a_mix():
    result = CliRunner().invoke(cli, ["cards", "--deck", "origins", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["deck"] == "origins" and len(data["cards"]) == 50 and all(c["implemented"] for c in data["cards"])
    result = CliRunner().invoke(cli, ["cards", "--deck", "kot+origins:supertower"])
    assert result.exit_code == 0 and "Supertower" in result.output and "Apartment Building" in result.output


def test_kotarena_cards_refuses_a_bad_mix_in_one_line():
    result = CliRunner().invoke(cli, ["cards", "--deck", "kot+origins"])
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        "Error: cannot mix 'kot' and 'origins': acid_attack, alpha_monster, spiked_tail differ between them "
        "(editions with other wordings)"]
