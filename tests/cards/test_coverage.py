"""Every card of the classic deck has a test named for it, and plays in random games."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest

from kotarena.games.kot.cards import DECKS
from kotarena.testing import random_games

HERE = Path(__file__).parent


def card_test_names() -> set[str]:
    names = set()
    for path in HERE.glob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                names.add(node.name)
    return names


@pytest.mark.parametrize("card_id", [info.id for info in DECKS["kot"]])
def test_every_card_has_a_test_named_for_it(card_id):
    names = card_test_names()
    assert any(name.startswith(f"test_{card_id}_") for name in names), f"no test_{card_id}_... under tests/cards/"


def test_random_games_with_the_full_deck_buy_every_title():
    """The soak is no soak if some cards never come into play: random buyers meet them all."""

    def saver(state, rng):
        # Buys the dearest affordable card half the time (so energy piles up for the
        # 7- and 8-energy cards), sweeps now and then to cycle the market.
        legal = state.legal
        buys = [a for a in legal if a.kind == "buy" and len(a.args) == 1]
        if state.kind == "buy":
            if buys and rng.random() < 0.5:
                return max(buys, key=lambda a: state.cards_info[state.market[a.args[0] - 1]].cost)
            sweep = [a for a in legal if a.text == "sweep"]
            return sweep[0] if sweep and rng.random() < 0.2 else legal[0]
        return legal[int(rng.random() * len(legal))]

    bought = Counter()
    for state in random_games(300, players=(4, 5, 6), decks=("default",), seed=900, record=True, policy=saver):
        bought.update(event[2] for event in state.log if event[0] == "buy")
    missing = {info.id for info in DECKS["kot"]} - set(bought)
    assert not missing, f"never bought in 300 games: {sorted(missing)}"
