"""Helpers for card tests: a monster at its buy step, or owning cards, with scripted dice.

Card tests play through the real engine: a table is set up with ``MonsterSetup``
(cards, tokens, counters), the dice are scripted, and the test applies the actions a
player would type.
"""

from __future__ import annotations

import pytest

from kotarena.games.kot.position import MonsterSetup

#: A roll that scores nothing, heals nothing and attacks nobody: 1 energy.
NOTHING = "1 2 3 1 2 energy"


@pytest.fixture
def at_buy(table):
    """``at_buy(card, *others, energy=..., deck=..., **setup)``: Alienoid at its buy step, ``card`` in slot 1.

    Alienoid rolled ``NOTHING`` (so it has 1 energy more than ``energy``); ``others``
    are the other monsters (names or ``MonsterSetup``), Kraken by default.
    """

    def build(card: str, *others, energy: int = 10, dice=(NOTHING,), first=None, deck="default", **setup):
        me = MonsterSetup("Alienoid", energy=energy, **setup)
        state = table(me, *(others or ("Kraken",)), deck=deck, market=[card], dice=list(dice), first=first)
        state.apply("stop")
        assert state.kind == "buy", state.kind
        return state

    return build
