"""Rolling: six dice, three rolls at most, stop when you like, reroll any dice."""

from __future__ import annotations

import pytest

from kotarena.engine import DiceError, IllegalActionError, ScriptedDice
from kotarena.games import new_game
from kotarena.games.kot.faces import CLAW, ENERGY, FACE_NAMES, HEART, format_faces, parse_faces, scripted_dice


def test_a_die_has_six_faces_1_2_3_energy_heart_claw():
    assert FACE_NAMES == ("1", "2", "3", "energy", "heart", "claw")


def test_faces_are_written_and_read_back_the_same():
    faces = parse_faces("1 2 3 energy heart claw")
    assert format_faces(faces) == "1 2 3 energy heart claw"
    assert parse_faces("e h c smash lightning") == (ENERGY, HEART, CLAW, CLAW, ENERGY)


def test_an_unknown_face_is_refused():
    with pytest.raises(DiceError, match="unknown die face 'skull'"):
        parse_faces("1 skull")


def test_the_first_roll_throws_six_dice(table, events):
    state = table("Alienoid", "Kraken", dice=["1 2 3 energy heart claw"])
    assert state.kind == "roll" and state.to_move == 0
    assert len(state.dice) == 6
    assert events(state, "roll") == [("roll", 0, (0, 1, 2, 3, 4, 5), ())]


def test_random_dice_show_every_face():
    game = new_game("kot", 2, seed=3, deck=None, first_player=0)
    seen = set(game.dice)
    while len(seen) < 6 and not game.is_over:
        game.apply(game.legal[-1] if game.kind == "roll" else game.legal[0])  # reroll all
        seen.update(game.dice)
    assert seen == {0, 1, 2, 3, 4, 5}


def test_any_set_of_dice_may_be_rerolled(table):
    state = table("Alienoid", "Kraken", dice=["1 1 1 1 1 1"])
    rerolls = [a for a in state.legal if a.kind == "reroll"]
    assert len(rerolls) == 2**6 - 1  # every non-empty subset of six dice
    assert "stop" in {a.text for a in state.legal}


def test_a_reroll_changes_only_the_dice_named(table, act):
    state = table("Alienoid", "Kraken", dice=["1 2 3 energy heart claw", "claw claw"])
    act(state, "reroll 1 4")
    assert format_faces(state.dice) == "claw 2 3 claw heart claw"


def test_at_most_three_rolls_then_the_dice_resolve(table, act, events):
    state = table("Alienoid", "Kraken", dice=["1 2 3 1 2 3", "energy energy energy", "heart heart heart heart heart heart"])
    act(state, "reroll 1 2 3")
    assert state.kind == "roll" and state.rolls_left == 1
    act(state, "reroll 1 2 3 4 5 6")
    # The third roll was the last: nobody is asked to reroll again.
    assert state.between_turns
    assert state.energy[0] == 0  # the energy dice were rerolled into hearts
    assert len(events(state, "roll")) == 3


def test_a_monster_may_stop_after_the_first_roll(table, act):
    state = table("Alienoid", "Kraken", dice=["energy energy 1 2 3 heart"])
    act(state, "stop")
    assert state.between_turns
    assert state.energy[0] == 2


def test_a_monster_may_stop_after_the_second_roll(table, act):
    state = table("Alienoid", "Kraken", dice=["1 2 3 1 2 3", "energy energy energy"])
    act(state, "reroll 4 5 6", "stop")
    assert state.between_turns
    assert state.energy[0] == 3


def test_dice_kept_earlier_may_be_rerolled_later(table, act):
    # Keep the 3s (reroll 1, 2, 5, 6), then reroll the two 3s kept from the first roll.
    state = table("Alienoid", "Kraken", dice=["1 2 3 3 heart energy", "3 3 1 1", "energy energy"])
    act(state, "reroll 1 2 5 6")
    assert format_faces(state.dice) == "3 3 3 3 1 1"
    act(state, "reroll 3 4")
    assert format_faces(state.dice) == "3 3 energy energy 1 1"
    assert state.energy[0] == 2
    assert state.stars[0] == 0  # only two 3s were left: no triple


def test_rerolling_a_die_that_is_not_there_is_illegal(table, snapshot):
    state = table("Alienoid", "Kraken", dice=["1 2 3 energy heart claw"])
    before = snapshot(state)
    with pytest.raises(IllegalActionError):
        state.apply("reroll 7")
    assert snapshot(state) == before


def test_a_die_keeps_its_face_whatever_the_other_dice_do():
    # Dice are drawn per turn and per die position, so choices elsewhere never change
    # what a given die shows (the same seed gives every seat the same luck).
    kept = new_game("kot", 3, seed=11, deck=None, first_player=0)
    other = new_game("kot", 3, seed=11, deck=None, first_player=0)
    kept.apply("reroll 3")
    other.apply("reroll 1 2 3 4 5 6")
    assert kept.dice[2] == other.dice[2]


def test_scripted_dice_must_give_as_many_faces_as_dice_rolled():
    dice = scripted_dice(["1 2 3"])
    with pytest.raises(DiceError, match=r"gives 3 faces \(1 2 3\) but 6 dice are rolled"):
        dice.roll(6)


def test_the_cores_scripted_dice_are_numbers_any_game_names():
    dice = ScriptedDice([(5, 0), (9, 9, 9)])
    assert dice.roll(2) == [5, 0] and dice.copy().remaining == 1
    with pytest.raises(DiceError, match=r"gives 3 faces \(9 9 9\) but 2 dice"):  # no names: the numbers
        dice.roll(2)
    named = ScriptedDice([(5, 0)], names=("one", "two", "three", "energy", "heart", "claw"))
    with pytest.raises(DiceError, match=r"\(claw one\)"):
        named.copy().roll(6)
    with pytest.raises(DiceError, match="face numbers, not text"):
        ScriptedDice(["1 2 3"])


def test_scripted_dice_that_run_out_say_so():
    dice = scripted_dice(["1 2 3 1 2 3"])
    dice.roll(6)
    with pytest.raises(DiceError, match="ran out"):
        dice.roll(6)
