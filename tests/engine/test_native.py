"""The engine's two builds: compiled with mypyc (``pip install .``) or Python source
(editable installs, ``KOTARENA_PURE=1``). Both play the same games, so every other test
holds for both; CI runs the suite once on each (see tox.ini)."""

from __future__ import annotations

import os
import pickle
from dataclasses import replace

from kotarena import free_for_all, match
from kotarena.engine import NATIVE, dice
from kotarena.games.kot import state, view
from kotarena.tournament import matches, schedule, seats


def test_the_hot_modules_are_compiled_all_together_or_not_at_all():
    # Each compiled module needs the shared runtime: a half-compiled engine cannot load.
    modules = (state, view, dice, match, seats, matches, free_for_all, schedule)
    compiled = {module.__name__: not module.__file__.endswith(".py") for module in modules}
    assert set(compiled.values()) == {NATIVE}


def test_a_seat_spec_crosses_to_a_worker_process_as_it_is():
    # Jobs reach the workers pickled; a frozen dataclass compiled by mypyc needs its own
    # way back (the default sets fields one by one, which frozen refuses).
    spec = seats.SeatSpec(entrant="mcts-fast", bot="mcts", params=(("playouts", 40),), trusted=False)
    assert pickle.loads(pickle.dumps(spec)) == spec


def test_a_match_job_and_its_result_cross_processes_as_they_are():
    spec = seats.SeatSpec(entrant="random-1", bot="random")
    job = matches.MatchJob(index=3, key="night-1-3", game="kot", deck="kot", seed=41, first_player=1,
                           seats=(spec, spec), time_limit=0.5, memory_mb=1024)
    isolated = replace(job, isolate_all=True)
    assert pickle.loads(pickle.dumps(job)) == job and pickle.loads(pickle.dumps(isolated)) == isolated
    result = matches.play_match(job)
    copy = pickle.loads(pickle.dumps(result))
    assert copy == result and copy.seats[1].decisions > 0 and copy.status == "done"


def test_a_match_job_and_its_results_keep_their_written_out_constructors_honest():
    # Their __init__ is written out (compiled, the generated one runs as Python).
    import dataclasses

    import pytest

    spec = seats.SeatSpec(entrant="random-1", bot="random")
    job = matches.MatchJob(0, "k", "kot", None, 5, None, (spec, spec), 1.0)
    assert (job.memory_mb, job.isolate_all) == (seats.DEFAULT_MEMORY_MB, False)
    with pytest.raises(dataclasses.FrozenInstanceError):
        job.seed = 6  # type: ignore[misc]
    seat = matches.SeatResult(0, "random-1", "random", "kotarena", "1", "Alienoid", 0, 5, 10, True)
    assert (seat.forfeit, seat.forfeit_detail, seat.decisions, seat.cpu_seconds) == (None, None, 0, 0.0)
    result = matches.MatchResult(0, "k", "kot", 5, None, 1, "stars", 0, 12, 0.1, "")
    assert result.seats == [] and result.seats is not matches.MatchResult(0, "k", "kot", 5, None, 1, "stars", 0, 12,
                                                                          0.1, "").seats
    assert [f.name for f in dataclasses.fields(matches.MatchResult)][-1] == "seats"


def test_a_scheduled_match_pickles_copies_and_stays_frozen():
    # MatchSpec writes out its dataclass __init__ (compiled, the generated one is Python).
    import copy
    import dataclasses

    import pytest

    spec = schedule.MatchSpec(index=3, seats=("a", "b"), seed=7, players=2, set_id=None, key="00003-7")
    assert spec.first_player == 0
    assert pickle.loads(pickle.dumps(spec)) == spec
    assert copy.copy(spec) == spec and copy.deepcopy(spec) == spec
    assert dataclasses.replace(spec, seed=8) == schedule.MatchSpec(3, ("a", "b"), 8, 2, None, "00003-7", 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.seed = 8  # type: ignore[misc]


def test_the_build_is_the_one_ci_installed():
    expected = os.environ.get("KOTARENA_EXPECT_NATIVE")
    assert expected in (None, "0", "1")
    if expected is not None:
        assert NATIVE is (expected == "1")
