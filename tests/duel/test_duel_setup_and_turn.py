"""Duel's setup and turn (seed 002), played through the engine with fixed dice."""

from __future__ import annotations

import pytest

from kotarena.engine.outcome import IllegalActionError, PositionError
from kotarena.games import new_game
from kotarena.games.duel.endings import LAST_STANDING, SPOTLIGHT, VICTORY_SPACE
from kotarena.games.duel.monsters import MONSTERS
from kotarena.games.duel.position import duel_dice
from kotarena.games.duel.rulings import SECOND_PLAYER_ENERGY, SPOTLIGHT_DISTANCES
from kotarena.games.duel.track import CENTRE

SIX_BLANKS = "heart heart heart energy energy power"


def test_setup_three_face_up_cards_markers_on_the_centre_and_starting_health():
    state = new_game("duel", ["The King", "Cyber Kitty"], seed=4)
    assert len([card for card in state.market if card]) == 3
    assert len(state.deck) == 47
    assert state.board.markers == [CENTRE, CENTRE]
    assert state.health == [15, 13]


def test_monster_health_is_each_boards_starting_value():
    assert {m.name: m.health for m in MONSTERS} == {
        "Gigazaur": 14, "Xenoid": 14, "Space Penguin": 13, "MekaDragon": 12, "Cyber Kitty": 13, "The King": 15}


def test_first_player_rolls_most_claws_ties_roll_again_and_second_takes_one_energy():
    dice = duel_dice("claw claw heart heart heart heart", "claw claw fame fame fame fame",  # tie
                     "claw heart heart heart heart heart", "claw claw claw fame fame fame",  # seat 1 wins
                     "claw claw claw claw claw")  # the first player's very first roll: 5 dice
    state = new_game("duel", ["Gigazaur", "Xenoid"], seed=1, dice=dice)
    assert state.first_player == 1 and state.active == 1
    assert SECOND_PLAYER_ENERGY == 1  # the seed's icon was lost; Game Park: 1 energy
    assert state.energy == [1, 0]
    assert len(state.dice) == 5 and state.kind == "roll"


def test_the_second_players_first_roll_has_six_dice(duel, play):
    state = duel(dice=["fame heart heart energy energy"], turn=1)
    play(state, "stop", "done")
    state.pause_between_turns = False
    state.scripted.extend([(0, 0, 1, 1, 2, 2)])
    state.next_turn()
    assert len(state.dice) == 6 and state.active == 1


def test_three_rolls_at_most_and_dice_kept_earlier_may_be_rerolled(duel, play):
    state = duel(dice=["claw claw claw claw claw claw", "heart", "heart heart"])
    play(state, "reroll 1")
    assert state.dice[0] == 1
    play(state, "reroll 1 2")  # the die kept after the second roll comes back
    assert state.kind == "buy"  # no third reroll: three rolls in all


def test_buy_nothing_gains_one_energy(duel, play):
    state = duel(dice=[SIX_BLANKS])
    play(state, "stop")
    energy = state.energy[0]
    play(state, "done")
    assert state.energy[0] == energy + 1


def test_claws_damage_the_rival_and_hearts_never_heal_above_starting_health(duel, play):
    state = duel(dice=["claw claw claw heart heart energy"], health=(13, 14))
    play(state, "stop")
    assert state.health == [14, 11]
    assert state.energy[0] == 1


def test_three_fame_pull_the_marker_one_space_and_each_extra_one_more(duel, play):
    state = duel(dice=["fame fame fame fame fame destruction"])
    play(state, "stop")
    assert state.board.markers[0] == ("", -3)
    assert state.board.markers[1] == CENTRE


def test_second_seat_pulls_toward_its_own_end(duel, play):
    state = duel(dice=["destruction destruction destruction destruction heart heart"], active=1)
    play(state, "stop")
    assert state.board.markers[1] == ("", 2)


def test_a_marker_on_your_victory_space_wins_at_once(duel, play):
    state = duel(dice=["fame fame fame claw claw claw"], markers=(-6, 0))
    play(state, "stop", "resolve fame")
    assert state.outcome.winner == 0 and state.outcome.termination is VICTORY_SPACE
    assert state.health[1] == 14  # the game ended before the claws


def test_a_victory_space_covered_by_a_hype_token_still_wins(duel, play):
    state = duel(dice=["fame fame fame heart heart heart"], markers=(-5, 0), hype={"lizard_smash_dice": "fame -7 -6"})
    play(state, "stop")
    assert state.board.markers[0] == ("lizard_smash_dice", 1)
    assert state.outcome is None
    state = duel(dice=["fame fame fame fame heart heart"], markers=(-5, 0), hype={"lizard_smash_dice": "fame -7 -6"})
    play(state, "stop")
    assert state.outcome.termination is VICTORY_SPACE and state.outcome.winner == 0


def test_both_markers_in_your_spotlight_zone_win(duel, play):
    state = duel(dice=["destruction destruction destruction heart heart heart"], markers=(-4, -2))
    play(state, "stop")
    assert state.outcome.winner == 0 and state.outcome.termination is SPOTLIGHT


def test_only_spaces_entirely_inside_the_spotlight_zone_count(duel, play):
    # The extension's middle space straddles printed spaces -3 and -2: not inside.
    assert SPOTLIGHT_DISTANCES == (3, 4, 5)
    state = duel(dice=["destruction destruction destruction destruction claw claw"], markers=(-4, -1),
                 hype={"phantom_extend_heal": "destruction -3 -2"})
    play(state, "stop", "resolve destruction")
    assert state.board.markers[1] == ("phantom_extend_heal", 1)
    assert state.outcome is None and state.health[1] == 12
    state = duel(dice=["destruction destruction destruction destruction destruction claw"], markers=(-4, -1),
                 hype={"phantom_extend_heal": "destruction -3 -2"})
    play(state, "stop", "resolve destruction")
    assert state.board.markers[1] == ("phantom_extend_heal", 0)  # lies on printed space -3 alone
    assert state.outcome.termination is SPOTLIGHT


def test_health_zero_loses_at_once(duel, play):
    state = duel(dice=["claw claw claw heart heart heart"], health=(14, 3))
    play(state, "stop")
    assert state.outcome.winner == 0 and state.outcome.termination is LAST_STANDING
    assert state.health[1] == 0


def test_dice_tokens_are_spent_before_the_first_roll_for_special_dice(duel, play):
    state = duel(dice=["claw claw claw claw claw claw claw claw"], tokens=(2, 0))
    assert state.kind == "tokens" and [a.text for a in state.legal] == ["spend 0", "spend 1", "spend 2"]
    play(state, "spend 2")
    assert len(state.dice) == 8 and state.tokens[0] == 0


def test_never_more_than_eight_dice(duel, play):
    state = duel(dice=["heart heart heart heart heart heart heart heart"], tokens=(2, 0),
                 cards=(["extra_head", "natural_selection"], []))
    assert state.kind == "roll" and len(state.dice) == 8  # no token may be spent: 8 dice already
    state = duel(dice=["heart heart heart heart heart heart heart heart"], tokens=(2, 0), cards=(["extra_head"], []))
    assert [a.text for a in state.legal] == ["spend 0", "spend 1"]


def test_at_most_two_dice_tokens_held(duel, play):
    state = duel(("Space Penguin", "Gigazaur"), dice=["power power power power heart heart"], tokens=(1, 0))
    play(state, "spend 0", "stop")
    assert [a.text for a in state.legal] == ["pass", "power token"]  # room for one more
    play(state, "power token")
    assert state.tokens[0] == 2


def test_an_action_that_is_not_legal_is_refused(duel):
    state = duel(dice=[SIX_BLANKS])
    with pytest.raises(IllegalActionError):
        state.apply("buy 1")


def test_three_players_or_the_same_monster_twice_are_refused():
    with pytest.raises(PositionError, match="is for 2 players, not"):
        new_game("duel", 3)
    with pytest.raises(PositionError, match="both seats"):
        new_game("duel", ["Gigazaur", "gigazaur"])
    with pytest.raises(PositionError, match="no Duel monster"):
        new_game("duel", ["Gigazaur", "Meka Kong"])
