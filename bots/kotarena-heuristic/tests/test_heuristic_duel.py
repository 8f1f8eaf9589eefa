"""The heuristic plays Duel: it knows the tracks, and beats random."""

from __future__ import annotations

from kotarena_heuristic import HeuristicBot

from kotarena.bots.random_bot import RandomBot
from kotarena.games import new_game
from kotarena.games.duel.position import build_position, duel_dice
from kotarena.match import bot_seed, play


def answer(state) -> str:
    return HeuristicBot(seed=0).choose(state.view(state.to_move)).text


def test_keeps_the_face_of_the_track_nearer_its_win():
    state = build_position(["Gigazaur", "Xenoid"], markers=(-4, 0),
                           dice=duel_dice("fame fame destruction destruction heart energy"))
    assert answer(state) == "reroll 3 4 5 6"  # keep the fame faces: that marker is 4 spaces along


def test_gigazaur_pulls_the_marker_it_is_working_on():
    state = build_position(["Gigazaur", "Xenoid"], markers=(-4, 0),
                           dice=duel_dice("power power fame fame claw claw"))
    state.apply("stop")
    assert answer(state) == "resolve power"  # the roll's parts in the engine's default order
    state.apply("resolve power")
    assert answer(state) == "power fame"


def test_the_king_blocks_just_ahead_of_a_marker_on_the_rivals_side():
    state = build_position(["The King", "Xenoid"], markers=(2, 0),
                           dice=duel_dice("power power claw claw heart heart"))
    state.apply("stop")
    state.apply(answer(state))
    assert answer(state) == "block 1 fame 3"


def test_penguin_kitty_and_mekadragon_take_all_their_superpowers_give():
    for monster, faces, wanted in (("Space Penguin", "power power heart heart heart heart", "power token token"),
                                   ("Cyber Kitty", "power power power heart heart heart", "power energy energy"),
                                   ("MekaDragon", "power power claw heart heart heart", "power multiply")):
        state = build_position([monster, "Xenoid"], dice=duel_dice(faces))
        state.apply("stop")
        assert answer(state) == wanted, monster


def test_heuristic_beats_random_at_duel():
    wins = 0
    for seed in range(20):
        for hero in (0, 1):
            state = new_game("duel", 2, seed=seed, record=False)
            bots = [HeuristicBot(seed=bot_seed(seed, s)) if s == hero else RandomBot(seed=bot_seed(seed, s))
                    for s in (0, 1)]
            play(state, bots)
            wins += state.outcome.winner == hero
    assert wins >= 30, f"the heuristic won {wins} of 40 Duel games against random"
