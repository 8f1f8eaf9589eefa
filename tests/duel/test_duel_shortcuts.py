"""The shortcuts the turn takes for speed play as the long way does: a face counted on
its own, the order asked only where two parts matter, a pull checked for the spotlight
only while the other marker stands in a zone (docs/duel.md, "Speed")."""

from __future__ import annotations

from kotarena.games.duel.endings import SPOTLIGHT
from kotarena.games.duel.faces import FACE_NAMES


def test_a_face_counted_on_its_own_counts_as_the_whole_roll_does(duel):
    state = duel(dice=["fame fame claw heart energy fame"])
    state.aside = [FACE_NAMES.index("fame")]  # Titanic Batteries: a die left out
    state.added = [FACE_NAMES.index("claw"), FACE_NAMES.index("power")]  # Xenoid: faces added
    assert [state.count(face) for face in range(len(FACE_NAMES))] == state.counts()


def test_the_kings_power_is_no_part_to_order_when_no_token_can_move(duel, play):
    # Both tokens on the board, each under a marker: the power has nowhere to put one,
    # so only the fame part matters and nothing is asked.
    tokens = {"king_block_1": "fame -1", "king_block_2": "destruction 5"}
    state = duel(("The King", "Gigazaur"), dice=["fame fame fame power power heart"],
                 markers=("king_block_1", "king_block_2"), hype=tokens)
    play(state, "stop")
    assert state.kind == "buy" and state.board.markers[0] == ("", -2)  # fame: 1 space


def test_a_pull_into_the_zone_the_other_marker_stands_in_wins_at_once(duel, play):
    state = duel(dice=["fame fame fame fame fame heart"], markers=(-2, -4))
    play(state, "stop")  # three spaces: -2 to -3 puts both in seat 0's zone; the pull ends
    assert state.outcome.winner == 0 and state.outcome.termination is SPOTLIGHT
    assert state.board.markers[0] == ("", -3)


def test_a_pull_through_a_zone_the_other_marker_is_not_in_goes_on(duel, play):
    state = duel(dice=["fame fame fame fame fame heart"], markers=(-1, 0))
    play(state, "stop")  # three spaces, through -3: the destruction marker is at 0
    assert state.outcome is None and state.board.markers[0] == ("", -4)
