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
