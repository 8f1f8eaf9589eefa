"""How seats get their Duel monsters (drawn, chosen through a decision, fixed), and
Duel ladders: head-to-head duplicate pairs."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from kotarena.engine.game import UnknownGameError
from kotarena.games import get_game, new_game
from kotarena.testing import check_game
from kotarena.tournament.ladder import load_ladder
from kotarena.tournament.schedule import build_schedule

LADDER = Path(__file__).resolve().parents[2] / "ladders" / "duel.toml"


def test_monsters_are_drawn_from_the_seed_by_default():
    assert new_game("duel", 2, seed=8).names == new_game("duel", 2, seed=8).names
    assert len({new_game("duel", 2, seed=s).names for s in range(30)}) > 10


def test_seats_choose_their_monsters_in_turn_when_the_table_says_choice():
    state = new_game("duel:monsters=choice", 2, seed=1)
    assert (state.to_move, state.kind, len(state.legal)) == (0, "monster", 6)
    state.apply("pick the_king")
    assert state.to_move == 1 and "pick the_king" not in {a.text for a in state.legal}
    state.apply("pick cyber_kitty")
    assert state.names == ("The King", "Cyber Kitty") and state.health == [15, 13]
    assert state.kind in ("roll", "tokens")


def test_a_pick_is_asked_again_in_a_sampled_game():
    state = new_game("duel:monsters=choice", 2, seed=1)
    state.apply("pick xenoid")
    sample = state.view(1).sample_game(3)
    assert (sample.kind, sample.legal) == (state.kind, state.legal)


def test_fixed_monsters_seat_by_seat():
    assert new_game("duel:monsters=mekadragon/gigazaur", 2, seed=1).names == ("MekaDragon", "Gigazaur")
    with pytest.raises(UnknownGameError):
        get_game("duel:monsters=gigazaur/gigazaur")


def test_the_seam_checker_passes_duel_with_chosen_monsters():
    assert check_game(get_game("duel:monsters=choice"), games=1) > 0


def test_the_duel_ladder_plays_duplicate_pairs_both_seats_one_seed():
    ladder = replace(load_ladder(LADDER), seed=5)
    matches = build_schedule(ladder, ["heuristic", "mcts", "random"])
    assert len(matches) == 300
    for first, second in zip(matches[::2], matches[1::2]):
        assert first.seed == second.seed and first.seats == second.seats[::-1]
        assert first.set_id == second.set_id
    pairings = {frozenset(m.seats) for m in matches}
    assert len(pairings) == 3  # every pairing meets
