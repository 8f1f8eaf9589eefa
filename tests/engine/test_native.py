"""The engine's two builds: compiled with mypyc (``pip install .``) or Python source
(editable installs, ``KOTARENA_PURE=1``). Both play the same games, so every other test
holds for both; CI runs the suite once on each (see tox.ini)."""

from __future__ import annotations

import os
import random

from kotarena import free_for_all, match
from kotarena.engine import NATIVE, dice
from kotarena.games.duel import sample as duel_sample
from kotarena.games.duel import state as duel_state
from kotarena.games.duel import view as duel_view
from kotarena.games.kot import state, view


def test_the_hot_modules_are_compiled_all_together_or_not_at_all():
    # Each compiled module needs the shared runtime: a half-compiled engine cannot load.
    modules = (state, view, dice, match, free_for_all, duel_state, duel_view, duel_sample)
    compiled = {module.__name__: not module.__file__.endswith(".py") for module in modules}
    assert set(compiled.values()) == {NATIVE}


def test_the_build_is_the_one_ci_installed():
    expected = os.environ.get("KOTARENA_EXPECT_NATIVE")
    assert expected in (None, "0", "1")
    if expected is not None:
        assert NATIVE is (expected == "1")


def test_duel_deals_the_same_dice_in_both_builds():
    # The compiled build draws Duel's dice with _face (machine integers), the source
    # with _mix: the same hash, so the same faces, for any seed, turn, roll and die.
    from kotarena.games.duel.state import _face, _mix

    rng = random.Random(33)
    seeds = [0, 1, 2**63 - 1, 2**64 - 1, -5, *(rng.randrange(-(2**80), 2**80) for _ in range(2000))]
    for seed in seeds:
        for turn, roll in ((1, 0), (rng.randrange(500), rng.randrange(8))):
            key = ((seed * 1_000_003 + turn) * 64 + roll) * 16
            assert [_face(key, p) for p in range(1, 9)] == [_mix(key + p) % 6 for p in range(1, 9)]


def test_duels_shuffle_deals_as_the_standard_librarys():
    # Compiled, the deck is shuffled by duel.state.shuffle (a copy of random.shuffle):
    # the same order for the same generator, or every seed would deal another game.
    from kotarena.games.duel.state import shuffle

    for seed in range(300):
        ours, theirs = random.Random(seed), random.Random(seed)
        cards = [f"card{i}" for i in range(seed % 60)]
        mine = cards[:]
        shuffle(ours, mine)
        theirs.shuffle(cards)
        assert mine == cards and ours.getstate() == theirs.getstate()
