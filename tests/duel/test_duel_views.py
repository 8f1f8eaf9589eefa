"""What a Duel seat sees, the sampled game a search bot plays, and the invariants."""

from __future__ import annotations

import pickle
import random

from kotarena.games import get_game, new_game
from kotarena.games.duel.monsters import NAMES
from kotarena.testing import check_game, random_games


def test_a_view_shows_the_table_but_not_the_decks_order():
    state = new_game("duel", ["Gigazaur", "The King"], seed=3)
    view = state.view(state.to_move)
    assert view.deck_size == 47 and "deck" not in view._fields
    assert not set(state.deck) & set(view.to_json().get("gone", []))
    other = state.view(1 - state.to_move)
    assert view.legal and not other.legal
    assert pickle.loads(pickle.dumps(view)) == view


def test_a_sampled_game_asks_the_views_decision_and_plays_to_the_end():
    state = new_game("duel", ["Xenoid", "Cyber Kitty"], seed=11)
    rng = random.Random(1)
    for _ in range(40):
        state.apply(state.legal[int(rng.random() * len(state.legal))])
    view = state.view(state.to_move)
    sample = view.sample_game(5)
    assert (sample.to_move, sample.kind, sample.legal) == (state.to_move, state.kind, state.legal)
    assert sorted(sample.deck) == sorted(state.deck)  # the unseen cards, in an order of its own
    assert view.sample_game(5).deck == sample.deck
    while sample.outcome is None:
        sample.apply(sample.legal[int(rng.random() * len(sample.legal))])


def test_the_game_seam_checker_passes_duel():
    assert check_game("duel", games=2) > 0


def test_random_games_keep_every_invariant_with_every_monster():
    seen = set()
    for state in random_games(60, players=(2,), decks=("default",), seed=500, game="duel"):
        seen.update(m.name for m in state.monsters)
    assert seen == set(NAMES)


def test_a_game_played_twice_from_one_seed_with_swapped_play_deals_the_same_dice_to_each_seat():
    game = get_game("duel")
    one = game.new_state(2, seed=9, first_player=0)
    two = game.new_state(2, seed=9, first_player=0)
    assert one.dice == two.dice
    one.apply("reroll 1 2")
    two.apply("reroll 1")
    assert one.dice[0] == two.dice[0]  # a die rerolled on the same roll shows the same face


#: What a sampled game does not take from the view, and why.
NOT_FROM_VIEW = {
    "deck": "the order is hidden: the unseen cards are dealt from the bot's seed",
    "seed": "drawn from the bot's seed, so the dice to come are unknown",
    "rng": "drawn from the bot's seed",
    "history": "a sampled game starts its own",
    "log": "a sampled game keeps none",
    "scripted": "never in a real game",
    "deck_name": "set from the game",
    "pause_between_turns": "the search sets it",
}


def _comparable(value):
    from kotarena.games.duel.track import Board

    if isinstance(value, Board):
        return (value.markers, value.placed)
    return value


def test_every_field_of_the_state_survives_a_clone_and_a_sample():
    state = new_game("duel", ["The King", "Space Penguin"], seed=21)
    rng = random.Random(4)
    for _ in range(60):
        state.apply(state.legal[int(rng.random() * len(state.legal))])
    copy = state.clone(record=True)
    assert copy.rng.getstate() == state.rng.getstate()
    assert copy.rng is not state.rng  # each draws from its own once either draws
    for name in _fields(state):
        if name not in GENERATOR:
            assert _comparable(getattr(copy, name)) == _comparable(getattr(state, name)), name
    sample = state.view(state.to_move).sample_game(2)
    for name in _fields(state):
        if name not in NOT_FROM_VIEW and name not in GENERATOR:
            assert _comparable(getattr(sample, name)) == _comparable(getattr(state, name)), name


#: The game's generator, compared through ``rng`` (a copy shares it until either draws).
GENERATOR = {"_rng", "_rng_shared"}


def _fields(state) -> list[str]:
    """The state's fields, in either build (a compiled class has no ``__dict__``)."""
    return list(getattr(type(state), "__mypyc_attrs__", None) or vars(state))


def test_at_every_decision_a_sampled_game_asks_the_same_question():
    for seed in range(4):
        state = new_game("duel:monsters=choice", 2, seed=seed)
        rng = random.Random(seed)
        while state.outcome is None:
            sample = state.view(state.to_move).sample_game(seed)
            assert (sample.to_move, sample.kind, sample.legal) == (state.to_move, state.kind, state.legal)
            state.apply(state.legal[int(rng.random() * len(state.legal))])


def test_the_golden_duel_replays_still_play_out_as_recorded():
    # If this fails after a change to Duel's rules, bump its rules_version and write the
    # files again (python tests/regenerate_replays.py); if the rules were not
    # meant to change, the engine has a bug.
    from pathlib import Path

    from kotarena.replay import read_replay, reproduce

    paths = sorted((Path(__file__).parent / "replays").glob("*.replay"))
    assert len(paths) == 2
    for path in paths:
        replay = read_replay(path)
        state = reproduce(replay)
        assert state.outcome is not None and state.outcome == replay.outcome
