"""Every card of every deck has a test named for it, and plays in random games."""

from __future__ import annotations

import ast
import functools
import random
from collections import Counter
from pathlib import Path

import pytest

from kotarena.games import get_game
from kotarena.games.duel.cards import CARDS as DUEL_CARDS
from kotarena.games.kot.cards import BASE_DECKS, DECKS, get_deck
from kotarena.testing import random_games

HERE = Path(__file__).parent


@functools.cache
def card_tests_by_deck() -> dict[str, set[str]]:
    """The card tests' names by the deck their module plays (its ``DECK``; ``kot`` if none)."""
    found: dict[str, set[str]] = {}
    for path in HERE.glob("test_*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        deck = "kot"
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "DECK" for t in node.targets):
                deck = ast.literal_eval(node.value)
        names = found.setdefault(deck, set())
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                names.add(node.name)
    return found


@functools.cache
def home_decks() -> dict[int, str]:
    """Each card's home: the first deck table its effect object comes from. A card a
    later deck repeats unchanged (the same effect) is tested where it is at home."""
    home: dict[int, str] = {}
    for name in BASE_DECKS:
        for effect in get_deck(name).effects.values():
            home.setdefault(id(effect), name)
    return home


@pytest.mark.parametrize(("deck", "card_id"), [(deck, info.id) for deck in DECKS for info in DECKS[deck]])
def test_every_card_of_every_deck_has_a_test_named_for_it(deck, card_id):
    home = home_decks()[id(get_deck(deck).effects[card_id])]
    names = card_tests_by_deck().get(home, set())
    assert any(name.startswith(f"test_{card_id}_") for name in names), \
        f"no test_{card_id}_... under tests/cards/ in a module with DECK = {home!r}"


def test_every_deck_is_made_of_the_base_decks_cards():
    home = home_decks()
    assert all(id(effect) in home for deck in DECKS for effect in get_deck(deck).effects.values())


def test_random_games_with_the_full_deck_buy_every_title():
    """The soak is no soak if some cards never come into play: random buyers meet them all."""
    bought = Counter()
    for state in random_games(300, players=(4, 5, 6), decks=("default",), seed=900, record=True, policy=saving_buyer):
        bought.update(event[2] for event in state.log if event[0] == "buy")
    missing = {info.id for info in DECKS["kot"]} - set(bought)
    assert not missing, f"never bought in 300 games: {sorted(missing)}"


def saving_buyer(state, rng):
    """Buys the dearest affordable card half the time (so energy piles up for the
    dearest cards), sweeps now and then to cycle the market, else plays at random."""
    legal = state.legal
    buys = [a for a in legal if a.kind == "buy" and len(a.args) == 1]
    if state.kind == "buy":
        if buys and rng.random() < 0.5:
            return max(buys, key=lambda a: state.cards_info[state.market[a.args[0] - 1]].cost)
        sweep = [a for a in legal if a.text == "sweep"]
        return sweep[0] if sweep and rng.random() < 0.2 else legal[0]
    return legal[int(rng.random() * len(legal))]


@pytest.mark.parametrize("deck", ["kot-2e", "origins"])
def test_random_games_with_each_new_deck_buy_every_title_and_keep_every_rule(deck):
    bought = Counter()
    for state in random_games(200, players=(2, 3, 4), decks=(deck,), seed=700, record=True, policy=saving_buyer):
        bought.update(event[2] for event in state.log if event[0] == "buy")
    missing = {info.id for info in DECKS[deck]} - set(bought)
    assert not missing, f"never bought in 200 games: {sorted(missing)}"


@pytest.mark.parametrize("deck", ["kot+origins-new", "kot-2e+origins", "kot+origins:orb_of_doom,scavenger"])
def test_random_games_with_mixed_decks_keep_every_rule(deck):
    for state in random_games(12, players=(2, 4, 6), decks=(deck,), seed=40, policy=saving_buyer):
        assert state.is_over and state.deck_name == deck


@pytest.mark.parametrize("card_id", [card.id for card in DUEL_CARDS])
def test_every_duel_card_has_a_test_named_for_it(card_id):
    names = card_tests_by_deck().get("duel", set())
    assert any(name.startswith(f"test_{card_id}_") for name in names), \
        f"no test_{card_id}_... under tests/cards/ in a module with DECK = 'duel'"


def test_random_duel_games_buy_every_card():
    bought = Counter()
    game = get_game("duel")
    for seed in range(150):
        state = game.new_state(2, seed=seed)
        rng = random.Random(seed)
        while state.outcome is None:
            buys = [a for a in state.legal if a.kind == "buy"]
            state.apply(buys[-1] if buys and rng.random() < 0.7 else state.legal[int(rng.random() * len(state.legal))])
        bought.update(event[2] for event in state.log if event[0] == "buy")
    missing = {card.id for card in DUEL_CARDS} - set(bought)
    assert not missing, f"never bought in 150 Duel games: {sorted(missing)}"
