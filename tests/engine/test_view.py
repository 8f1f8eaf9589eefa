"""What a player may see: a view hides the deck order, the seed and the dice to come.

A view is all a bot ever gets. It must not leak hidden facts, must not be a handle on
the game, must cross process boundaries (pickle, JSON), and must be enough to rebuild
a playable game at the same decision (``view.sample_game``). ``clone()`` is the other
way into a game's future: an exact copy, rolling the same dice unless reseeded.
"""

from __future__ import annotations

import json
import pickle
import random
from dataclasses import fields, is_dataclass

import pytest

from kotarena.bots.random_bot import RandomBot
from kotarena.engine import Action
from kotarena.games import new_game
from kotarena.games.kot import View
from kotarena.match import bot_seed, play
from kotarena.testing import invariants, random_game


def _decision_points(seed: int, players: int, deck: str | None = "default", every: int = 7):
    """States at every ``every``-th decision of a random game (independent clones)."""
    game = new_game("kot", players, seed=seed, deck=deck)
    rng = random.Random(seed)
    step = 0
    while game.outcome is None:
        if step % every == 0:
            yield game.clone(record=True)
        game.apply(game.legal[int(rng.random() * len(game.legal))])
        step += 1
    yield game


def _at_decision(kind: str, players: int = 5, seed: int = 3):
    """The first state of a random game waiting on a decision of ``kind``."""
    for s in range(seed, seed + 50):
        game = new_game("kot", players, seed=s)
        rng = random.Random(s)
        while game.outcome is None:
            if game.kind == kind:
                return game
            game.apply(game.legal[int(rng.random() * len(game.legal))])
    raise AssertionError(f"no {kind} decision found")


def _values(value):
    """Every value nested inside a view (tuples, dataclasses such as the outcome)."""
    yield value
    if isinstance(value, (tuple, list, set, frozenset)):
        for item in value:
            yield from _values(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _values(key)
            yield from _values(item)
    elif is_dataclass(value) and not isinstance(value, type):
        for f in fields(value):
            yield from _values(getattr(value, f.name))


# ------------------------------------------------------------ nothing hidden leaks


def test_a_view_has_no_seed_no_random_generator_and_no_deck_list():
    game = _at_decision("buy", seed=987_654_321)
    assert not {"seed", "rng", "_rng", "random", "deck_order", "history", "log"} & set(View._fields)
    for seat in range(game.n):
        view = game.view(seat)
        for value in _values(view):
            assert not isinstance(value, (random.Random, list, dict, set)), value
            assert type(value).__module__ != "kotarena.games.kot.state", value
        assert game.seed not in set(_values(view))
        deck_ids = tuple(game.cards_info[c].id for c in game.deck)
        deck_indices = tuple(game.deck)
        for value in _values(view):
            if isinstance(value, tuple) and len(value) > 3:
                assert value not in (deck_ids, deck_ids[::-1], deck_indices, deck_indices[::-1])


def test_two_games_that_differ_only_in_deck_order_seed_and_future_dice_look_the_same():
    for game in _decision_points(seed=11, players=5, every=13):
        other = game.clone(record=True)
        random.Random(1).shuffle(other.deck)
        other.seed = game.seed + 1
        other.reseed(99)
        assert other.deck != game.deck or len(game.deck) < 2
        for seat in range(game.n):
            assert other.view(seat) == game.view(seat)
            assert other.view(seat).to_json() == game.view(seat).to_json()
            assert pickle.dumps(other.view(seat)) == pickle.dumps(game.view(seat))


def test_only_the_deciding_player_sees_legal_actions():
    for kind in ("roll", "yield", "buy"):
        game = _at_decision(kind)
        for seat in range(game.n):
            view = game.view(seat)
            assert view.to_move == game.to_move and view.kind == kind
            if seat == game.to_move:
                assert view.legal == game.legal and view.legal
            else:
                assert view.legal == ()


def test_in_a_yield_decision_the_decider_is_not_the_active_monster():
    game = _at_decision("yield")
    assert game.to_move != game.active
    assert game.view(game.active).legal == ()
    assert {a.text for a in game.view(game.to_move).legal} == {"stay", "yield"}


def test_after_the_game_every_view_has_the_outcome_and_no_legal_action():
    game = random_game(4, 4, record=True)
    for seat in range(4):
        view = game.view(seat)
        assert view.outcome == game.outcome and view.legal == () and view.to_move == -1


# ------------------------------------------------------- a view is not a handle


def test_a_view_cannot_be_changed_and_rebinding_its_fields_changes_nothing_in_the_game():
    game = _at_decision("buy")
    seat = game.to_move
    before = [game.view(p) for p in range(game.n)]
    view = game.view(seat)
    with pytest.raises(AttributeError):
        view.health = (0,) * game.n
    with pytest.raises(TypeError):
        view.health[0] = 0
    with pytest.raises(TypeError):
        view.cards[seat] += ("extra_head",)
    with pytest.raises(AttributeError):
        view.legal[0].text = "buy 1"
    forged = view._replace(health=(1,) * game.n, energy=(99,) * game.n, legal=(Action.of("buy", 1),))
    assert forged.energy[seat] == 99
    assert game.energy[seat] != 99 and game.health != [1] * game.n
    assert [game.view(p) for p in range(game.n)] == before


def test_views_pickle_and_come_back_equal_with_the_engines_own_actions():
    for game in _decision_points(seed=5, players=6, every=11):
        for seat in range(game.n):
            view = game.view(seat)
            copy = pickle.loads(pickle.dumps(view))
            assert copy == view and type(copy) is View
            assert all(a is b for a, b in zip(copy.legal, view.legal))


def test_a_view_turns_into_plain_json():
    for game in _decision_points(seed=6, players=5, every=17):
        for seat in range(game.n):
            view = game.view(seat)
            data = view.to_json()
            assert json.loads(json.dumps(data)) == data
            assert data["legal"] == [a.text for a in view.legal]
            assert set(data) == set(View._fields)
    assert data["outcome"]["winner"] == game.outcome.winner


# ---------------------------------------------------- a game sampled from a view


def _card_ids(game, cards):
    return sorted(game.cards_info[c].id for c in cards)


@pytest.mark.parametrize(("players", "deck"), [(2, "default"), (4, "default"), (5, None), (6, "default")])
def test_a_sampled_game_is_at_the_same_decision_with_the_same_public_facts(players, deck):
    for game in _decision_points(seed=21 + players, players=players, deck=deck, every=9):
        if game.outcome is not None:
            continue
        for seat in range(game.n):
            sampled = game.view(seat).sample_game(seed=seat)
            assert invariants(sampled) == []
            assert (sampled.to_move, sampled.kind, sampled.legal) == (game.to_move, game.kind, game.legal)
            for other in range(game.n):
                assert sampled.view(other) == game.view(other)
            # The deck is the cards nobody can see, in some order.
            assert _card_ids(sampled, sampled.deck) == _card_ids(game, game.deck)


def test_a_sampled_game_deals_its_deck_in_an_order_chosen_by_the_seed():
    game = _at_decision("buy", players=4)
    view = game.view(0)
    orders = {tuple(view.sample_game(seed).deck) for seed in range(8)}
    assert len(orders) == 8
    assert tuple(view.sample_game(3).deck) == tuple(view.sample_game(3).deck)


@pytest.mark.parametrize("kind", ["roll", "yield", "buy"])
def test_a_sampled_game_plays_to_the_end_with_random_bots(kind):
    game = _at_decision(kind, players=5)
    for seat in range(game.n):
        sampled = game.view(seat).sample_game(seed=100 + seat)
        finished = play(sampled, [RandomBot(seed=bot_seed(seat, p)) for p in range(game.n)])
        assert finished.outcome is not None
        assert invariants(finished) == []


def test_a_sampled_game_resolves_the_pending_yield_as_the_real_game_does():
    game = _at_decision("yield", players=5)
    for answer in ("yield", "stay"):
        real = game.clone()
        sampled = game.view(game.active).sample_game(seed=1)
        real.apply(answer)
        sampled.apply(answer)
        # No dice and no cards are drawn between the yield and the next decision, so
        # the sampled game agrees with the real one on everything in sight.
        assert (sampled.city, sampled.bay, sampled.stars, sampled.to_move, sampled.kind) == (
            real.city, real.bay, real.stars, real.to_move, real.kind)


def test_a_sampled_game_checked_after_every_action_keeps_every_invariant():
    for game in _decision_points(seed=41, players=6, every=25):
        if game.outcome is not None:
            continue
        sampled = game.view(game.to_move).sample_game(seed=game.turn)
        rng = random.Random(game.turn)
        while sampled.outcome is None:
            sampled.apply(sampled.legal[int(rng.random() * len(sampled.legal))])
            assert invariants(sampled) == []


# ------------------------------------------------------------------ clones


def _snapshot(game):
    return ([game.view(p) for p in range(game.n)], list(game.history), len(game.log), list(game.deck),
            game._rng.getstate())


def test_playing_a_clone_leaves_the_original_unchanged():
    game = _at_decision("roll", players=4)
    before = _snapshot(game)
    copy = game.clone()
    rng = random.Random(2)
    while copy.outcome is None:
        copy.apply(copy.legal[int(rng.random() * len(copy.legal))])
    assert _snapshot(game) == before
    child = game.child(game.legal[-1])
    assert child.view(0) != game.view(0)
    assert _snapshot(game) == before


def test_a_clone_rolls_exactly_the_dice_the_original_would_roll():
    for game in _decision_points(seed=8, players=5, every=10):
        if game.outcome is not None:
            continue
        copy = game.clone(record=True)
        rng = random.Random(game.turn)
        while game.outcome is None:
            action = game.legal[int(rng.random() * len(game.legal))]
            game.apply(action)
            copy.apply(action)
            assert copy.view(0) == game.view(0)
        assert copy.log == game.log and copy.outcome == game.outcome


def test_a_reseeded_clone_rolls_other_dice():
    game = _at_decision("roll", players=4)
    same, other = game.clone(), game.clone()
    other.reseed(12345)
    reroll_all = game.legal[-1]
    assert reroll_all.text == "reroll 1 2 3 4 5 6"
    dice = {"original": [], "clone": [], "reseeded": []}
    for name, state in (("original", game), ("clone", same), ("reseeded", other)):
        for _ in range(2):  # both rerolls of this turn
            state.apply(reroll_all)
            dice[name].append(tuple(state.dice))
    assert dice["clone"] == dice["original"]
    assert dice["reseeded"] != dice["original"]


def test_a_game_sampled_between_turns_goes_on_with_next_turn():
    game = new_game("kot", 5, seed=3)
    game.pause_between_turns = True
    rng = random.Random(1)
    while not game.between_turns:
        game.apply(game.legal[int(rng.random() * len(game.legal))])
    sampled = game.view(2).sample_game(seed=4)
    assert sampled.between_turns and sampled.to_move == -1 and sampled.legal == ()
    assert sampled.view(2) == game.view(2)
    sampled.next_turn()
    game.next_turn()
    assert (sampled.active, sampled.turn, sampled.kind) == (game.active, game.turn, "roll")
    assert invariants(sampled) == []


def test_a_view_where_no_card_acts_has_the_default_card_fields():
    from kotarena.games.kot.view import View

    view = new_game("kot", 3, seed=4, deck=None).view(0)
    card_fields = View._fields[View._fields.index("private"):]
    assert {name: getattr(view, name) for name in card_fields} == {
        name: View._field_defaults[name] for name in card_fields}
