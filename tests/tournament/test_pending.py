"""Results not stored yet: a match that finishes before an earlier one waits for it (a
while), so that it is stored and rated in one go."""

from __future__ import annotations

from kotarena.tournament.matches import MatchResult
from kotarena.tournament.pending import HOLD_SECONDS, Pending


def result(index: int) -> MatchResult:
    return MatchResult(index, f"m{index}", "kot", index, None, 1, "won", 0, 3, 0.01, "")


def indexes(results: list[MatchResult]) -> list[int]:
    return [r.index for r in results]


def test_results_in_schedule_order_are_ready_as_they_come():
    pending = Pending(0)
    for index in range(3):
        pending.add(result(index), now=0.0)
    assert pending.ready == 3 and pending.due(0.0)
    assert indexes(pending.take(0.0)) == [0, 1, 2]
    assert len(pending) == 0 and pending.ready == 0 and pending.reach == 3


def test_a_result_ahead_of_an_earlier_match_is_held_until_that_match_comes():
    pending = Pending(0)
    pending.add(result(1), now=0.0)
    pending.add(result(2), now=0.0)
    assert pending.ready == 0 and not pending.due(0.1)
    assert pending.take(0.1) == [] and len(pending) == 2
    pending.add(result(0), now=0.2)
    assert pending.ready == 3
    assert indexes(pending.take(0.2)) == [0, 1, 2]  # in schedule order, rateable at once


def test_only_the_results_up_to_the_first_gap_are_ready():
    pending = Pending(0)
    for index in (0, 1, 3, 4):
        pending.add(result(index), now=0.0)
    assert pending.ready == 2
    assert indexes(pending.take(0.0)) == [0, 1]
    assert indexes(list(pending.results.values())) == [3, 4]


def test_a_result_held_for_hold_seconds_is_stored_to_wait_for_its_rating():
    pending = Pending(0)
    pending.add(result(5), now=10.0)
    pending.add(result(6), now=10.5)
    assert not pending.due(10.0 + HOLD_SECONDS - 0.01)
    assert pending.due(10.0 + HOLD_SECONDS)
    assert indexes(pending.take(10.0 + HOLD_SECONDS)) == [5]  # the younger one stays
    assert indexes(pending.take(10.5 + HOLD_SECONDS)) == [6]
    # Both are stored now: once match 0-4 are in, the night is complete up to 7.
    for index in range(5):
        pending.add(result(index), now=20.0)
    assert pending.reach == 7 and pending.ready == 5


def test_the_end_of_a_night_takes_everything_held():
    pending = Pending(0)
    pending.add(result(3), now=0.0)
    pending.add(result(1), now=0.0)
    assert indexes(pending.take(0.0, everything=True)) == [1, 3]
    assert len(pending) == 0


def test_a_resumed_night_counts_its_stored_matches_as_in():
    """Matches 0-1 rated, 2 and 4 stored (waiting for 3): a result for 3 makes 3-4 complete."""
    pending = Pending(2, stored={0, 1, 2, 4})
    assert pending.reach == 3
    pending.add(result(3), now=0.0)
    assert pending.ready == 1 and pending.reach == 5
    pending.add(result(5), now=0.0)
    assert pending.ready == 2 and pending.reach == 6


def test_matches_another_process_stored_and_rated_free_the_held_results():
    pending = Pending(0)
    pending.add(result(2), now=0.0)
    pending.add(result(4), now=0.0)
    assert pending.ready == 0
    pending.rated(2)  # the database: 0 and 1 are in and rated
    assert pending.ready == 1 and pending.reach == 3
    assert indexes(pending.take(0.0)) == [2]
    pending.rated(4)
    assert pending.ready == 1 and pending.reach == 5
