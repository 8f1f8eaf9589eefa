"""The state's fields are declared once (``State.__init__``): every one of them survives
``clone`` and, where the view knows it, the sampled copy a search bot plays
(``view.sample_game``). A field added to the declaration is checked here without a line
of this file changing: these tests fail until the copies handle it.
"""

from __future__ import annotations

import pytest

from kotarena.games import new_game
from kotarena.games.kot.sample import NOT_FROM_VIEW
from kotarena.games.kot.state import FIELDS, State
from kotarena.testing import random_game, uniform


def _positions(seed: int, players: int, deck: str | None = "default") -> list:
    """Copies of the state at every third decision of a random game, and its end."""
    found = []

    def policy(state, rng):
        if len(state.history) % 3 == 0:
            found.append(state.clone(record=True))
        return uniform(state, rng)

    found.append(random_game(seed, players, deck, record=True, check=None, policy=policy))
    return found


def _ids(state, value, at=None):
    """``value`` with the physical card indices at ``at`` replaced by card ids (a copy of
    a card that a deck holds twice may be the other physical card in the sampled copy)."""
    card = state.cards_info
    if at == "card":
        return card[value].id if value >= 0 else None
    if at == "cards":
        return [card[c].id if c >= 0 else None for c in value]
    raise AssertionError(at)


#: How to compare a field that holds physical card indices.
CARD_FIELDS = {
    "market": lambda s, v: _ids(s, v, "cards"),
    "discard": lambda s, v: sorted(_ids(s, v, "cards")),
    "owned": lambda s, v: [_ids(s, cards, "cards") for cards in v],
    "mimic": lambda s, v: _ids(s, v, "card"),
    "counters": lambda s, v: sorted((s.cards_info[c].id, n) for c, n in v.items()),
    # A turn flag of a card that left play (a Psychic Probe discarded on a heart) acts on
    # nothing: views show the flags of the cards in play, and the yields.
    "_flags": lambda s, v: sorted((f[0], s.cards_info[f[1]].id) if f[0] != "yielded" else f for f in v
                                  if f[0] == "yielded" or any(f[1] in cards for cards in s.owned)),
    "_hooks": lambda s, v: [[(o, s.cards_info[c].id, fn) for o, c, fn in hooks] for hooks in v],
    "_mine": lambda s, v: [[[(s.cards_info[c].id, fn) for c, fn in hooks] for hooks in mine] for mine in v],
    "_offer_hooks": lambda s, v: {k: [(o, s.cards_info[c].id, fn) for o, c, fn in h] for k, h in v.items()},
    "_my_offers": lambda s, v: [{k: [(s.cards_info[c].id, fn) for c, fn in h] for k, h in m.items()} for m in v],
}


TABLES = [(seed, players, deck) for seed, players, deck in
          [(1, 2, "default"), (2, 4, "default"), (3, 5, "default"), (4, 6, "default"), (5, 3, None), (6, 5, None),
           (7, 3, "origins"), (8, 4, "kot-2e+origins")]]


def test_the_declaration_is_every_attribute_a_state_has():
    state = new_game("kot", 4, seed=9)
    assert len(FIELDS) == len(set(FIELDS)) > 60
    blank = State()
    for name in FIELDS:
        getattr(blank, name)  # every field has its starting value in a blank state
    assert {"health", "stars", "owned", "_queue", "_rng", "rules"} <= set(FIELDS)
    if hasattr(state, "__dict__"):  # the source build: nothing outside the declaration
        assert set(vars(state)) == set(FIELDS)


@pytest.mark.parametrize(("seed", "players", "deck"), TABLES)
def test_every_field_survives_clone_equal_and_independent(seed, players, deck):
    for state in _positions(seed, players, deck):
        for record in (False, True):
            copy = state.clone(record=record)
            for name in FIELDS:
                mine, theirs = getattr(state, name), getattr(copy, name)
                if name == "_rng":
                    assert theirs is not mine and theirs.getstate() == mine.getstate()
                elif name == "_random":
                    assert theirs == copy._rng.random
                elif name in ("log", "history") and not record:
                    assert theirs == ([] if name == "history" else None)
                else:
                    assert theirs == mine, name
                    if isinstance(mine, (list, dict)):
                        assert theirs is not mine, f"{name} is shared with the copy"
                        if isinstance(mine, list):
                            assert all(a is not b for a, b in zip(mine, theirs) if isinstance(a, list)), name


@pytest.mark.parametrize(("seed", "players", "deck"), TABLES)
def test_every_field_the_view_knows_survives_the_sampled_copy(seed, players, deck):
    checked = set()
    for state in _positions(seed, players, deck):
        if state.outcome is not None or state.between_turns:
            continue
        sample = state.view(state.to_move).sample_game(seed=77)
        for name in FIELDS:
            if name in NOT_FROM_VIEW:
                continue
            same = CARD_FIELDS.get(name, lambda _, value: value)
            assert same(sample, getattr(sample, name)) == same(state, getattr(state, name)), name
            checked.add(name)
        assert sorted(_ids(sample, sample.deck, "cards")) == sorted(_ids(state, state.deck, "cards"))
        assert not sample._slow or state._slow  # recomputed: true only where cards or tokens act
    assert checked == set(FIELDS) - NOT_FROM_VIEW


def test_what_the_sampled_copy_does_not_take_from_the_view_is_named_with_a_reason():
    assert NOT_FROM_VIEW <= set(FIELDS)
