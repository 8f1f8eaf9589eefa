"""A match survives every way a bot can fail, and the failure is recorded by kind."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

from kotarena.tournament.runner import AHEAD_PER_WORKER, InlineExecutor, MatchJob, play_match, run_jobs
from kotarena.tournament.seats import SeatSpec


def job(*bots: str, trusted: bool = True, time_limit: float = 0.05, seed: int = 11, **params) -> MatchJob:
    """A match of ``bots`` in seat order; ``params`` go to the first seat's bot."""
    seats = tuple(
        SeatSpec(entrant=f"{bot}#{seat}", bot=bot, params=tuple(sorted(params.items())) if seat == 0 else (),
                 trusted=trusted)
        for seat, bot in enumerate(bots)
    )
    return MatchJob(index=0, key=f"test-{seed}", game="kot", deck="kot", seed=seed, first_player=0,
                    seats=seats, time_limit=time_limit)


def forfeit_of(result, seat: int = 0):
    return result.seats[seat].forfeit


def test_a_clean_match_has_no_forfeits_and_a_replay(failbots):
    result = play_match(job("random", "random", "random"))
    assert result.status == "done"
    assert all(seat.forfeit is None for seat in result.seats)
    assert result.replay.startswith("kotarena-replay")
    assert sorted(seat.rank for seat in result.seats)[0] == 0


@pytest.mark.parametrize("trusted", [True, False], ids=["in-process", "isolated"])
@pytest.mark.parametrize(
    "bot, kind",
    [
        ("fail-raise", "error"),
        ("fail-hang", "timeout"),
        ("fail-slow", "timeout"),
        ("fail-illegal", "invalid"),
        ("fail-garbage", "invalid"),
    ],
)
def test_a_failing_bot_forfeits_and_the_game_is_played_out(failbots, bot, kind, trusted):
    result = play_match(job(bot, "random", "random", trusted=trusted))
    assert forfeit_of(result) == kind, result.seats[0].forfeit_detail
    assert result.seats[0].forfeit_detail
    # Ranked last, the others' game finished normally.
    assert result.seats[0].rank == max(seat.rank for seat in result.seats)
    assert result.seats[0].rank > min(seat.rank for seat in result.seats)
    assert all(seat.forfeit is None for seat in result.seats[1:])
    assert result.status == "forfeit"


def test_a_bot_that_blocks_without_using_cpu_is_stopped_by_the_wall_clock(failbots, monkeypatch):
    from kotarena.tournament import seats

    monkeypatch.setattr(seats, "WALL_GRACE", 0.5)
    result = play_match(job("fail-sleep", "random", trusted=False))
    assert forfeit_of(result) == "timeout"
    assert "wall-clock" in result.seats[0].forfeit_detail


def test_a_trusted_bot_that_blocks_is_stopped_by_the_wall_clock_timer_of_its_own_process(failbots, monkeypatch):
    from kotarena.tournament import seats

    monkeypatch.setattr(seats, "WALL_GRACE", 0.5)  # a limit of 0.05 s: stopped after about 1 s
    started = time.monotonic()
    result = play_match(job("fail-sleep", "random", trusted=True))
    assert forfeit_of(result) == "timeout"
    assert "wall-clock" in result.seats[0].forfeit_detail
    assert 1.0 <= time.monotonic() - started < 10


def test_an_isolated_bot_that_kills_its_process_forfeits_as_crash(failbots):
    result = play_match(job("fail-crash", "random", "random", trusted=False))
    assert forfeit_of(result) == "crash"
    assert "exit code 3" in result.seats[0].forfeit_detail


def test_an_isolated_bot_cannot_reach_the_game_state(failbots):
    result = play_match(job("peek", "random", trusted=False, time_limit=1.0))
    assert forfeit_of(result) is None


def test_a_trusted_bot_shares_the_match_process_and_could_peek(failbots):
    # The trust boundary, documented: only isolation keeps hidden cards hidden.
    result = play_match(job("peek", "random", trusted=True, time_limit=1.0))
    assert forfeit_of(result) == "error"
    assert "game state" in result.seats[0].forfeit_detail


def test_cpu_time_not_wall_time_counts(failbots):
    # 'sleepy' sleeps 20 ms per decision under a 10 ms CPU limit and never forfeits.
    result = play_match(job("sleepy", "random", time_limit=0.01, seed=3, ms=20))
    assert forfeit_of(result) is None


def test_a_trusted_bot_that_kills_the_worker_is_replayed_isolated_and_forfeits(failbots):
    crashing = job("fail-crash", "random", "random", trusted=True)
    clean = replace(crashing, index=1, key="clean", seats=job("random", "random", "random").seats)
    results = {r.key: r for r in run_jobs([crashing, clean], workers=1)}  # on the default pool
    assert set(results) == {"test-11", "clean"}
    assert results["test-11"].seats[0].forfeit == "crash"
    assert all(seat.forfeit is None for seat in results["clean"].seats)


def test_matches_behind_a_crash_are_still_played_and_only_those_it_took_down_are_isolated(failbots):
    from concurrent.futures import ProcessPoolExecutor
    from dataclasses import replace

    crashing = job("fail-crash", "random", "random", trusted=True)
    clean = [replace(crashing, index=i, key=f"clean-{i}", seats=job("random", "random", "random").seats)
             for i in range(1, 13)]
    submitted: list[list[MatchJob]] = []

    class Watching(ProcessPoolExecutor):
        def submit(self, fn, /, *args, **kwargs):
            submitted.append(args[0])
            return super().submit(fn, *args, **kwargs)

    results = {r.key: r for r in run_jobs([crashing, *clean], workers=1, chunk=1,
                                          executor_factory=lambda w: Watching(max_workers=1))}
    assert set(results) == {crashing.key} | {c.key for c in clean}
    assert results[crashing.key].seats[0].forfeit == "crash"
    assert all(seat.forfeit is None for c in clean for seat in results[c.key].seats)
    isolated = [part[0].key for part in submitted if part[0].isolate_all]
    normal = [part[0].key for part in submitted if not part[0].isolate_all]
    # Only the crash and the matches handed over with it are replayed isolated; the
    # rest go to a new pool as usual, each once.
    assert crashing.key in isolated and len(isolated) <= AHEAD_PER_WORKER
    assert sorted(normal) == sorted([crashing.key] + [c.key for c in clean])


def test_jobs_are_taken_from_a_lazy_schedule_only_a_few_ahead_of_the_results(failbots):
    from dataclasses import replace

    pulled = []

    def schedule():
        for i in range(40):
            pulled.append(i)
            yield replace(job("random", "random"), index=i, key=f"k{i}", seed=i)

    class Sized(InlineExecutor):
        _max_workers = 2

    results = run_jobs(schedule(), workers=2, executor_factory=lambda w: Sized(), chunk=1, total=40)
    first = next(results)
    # The first result comes back with only the jobs handed over ahead taken from the schedule...
    ahead = AHEAD_PER_WORKER * 2
    assert first.key in {f"k{i}" for i in range(ahead)} and len(pulled) == ahead + 1
    # ...and the rest all come back, each once.
    assert sorted([first.key] + [r.key for r in results]) == sorted(f"k{i}" for i in range(40))


def test_chunks_grow_or_shrink_to_about_chunk_seconds_of_play(failbots):
    from dataclasses import replace
    from types import SimpleNamespace

    from kotarena.tournament.runner import CHUNK_SECONDS, FIRST_CHUNK

    submitted = []

    class SlowGames(InlineExecutor):
        """Plays nothing; every match "took" a tenth of CHUNK_SECONDS."""
        _max_workers = 1

        def submit(self, fn, /, *args, **kwargs):
            submitted.append(len(args[0]))
            return super().submit(lambda part: [SimpleNamespace(key=j.key, duration=CHUNK_SECONDS / 10)
                                                for j in part], *args)

    jobs = [replace(job("random", "random"), index=i, key=f"k{i}", seed=i) for i in range(1000)]
    results = list(run_jobs(jobs, workers=1, executor_factory=lambda w: SlowGames()))
    assert submitted[:AHEAD_PER_WORKER] == [FIRST_CHUNK] * AHEAD_PER_WORKER  # handed over before any result
    assert submitted[AHEAD_PER_WORKER] == 10  # then sized by how long matches take
    assert sorted(r.key for r in results) == sorted(j.key for j in jobs)


def test_the_same_job_plays_the_same_game(failbots):
    first = play_match(job("random", "random", "random", seed=5))
    second = play_match(job("random", "random", "random", seed=5))
    assert first.replay == second.replay
    assert [s.rank for s in first.seats] == [s.rank for s in second.seats]


def test_a_jobs_results_reach_the_coordinator_as_they_were_played(failbots):
    import pickle

    from kotarena.tournament.runner import play_matches

    jobs = [replace(job("peek", "random", "random", seed=seed, time_limit=1.0), index=seed) for seed in (4, 5)]
    jobs.append(replace(job("random", "random"), index=6, seed=6))
    played = play_matches(jobs)
    copy = pickle.loads(pickle.dumps(played))
    assert copy == played
    assert [len(result.seats) for result in copy] == [3, 3, 2]
    assert copy[0].seats[0].forfeit == "error" and "game state" in copy[0].seats[0].forfeit_detail


def test_a_match_job_and_its_result_cross_processes_as_they_are():
    import pickle

    spec = SeatSpec(entrant="mcts-fast", bot="mcts", params=(("playouts", 40),), trusted=False)
    assert pickle.loads(pickle.dumps(spec)) == spec
    played = job("random", "random", seed=41)
    isolated = replace(played, isolate_all=True, memory_mb=1024)
    assert pickle.loads(pickle.dumps(played)) == played and pickle.loads(pickle.dumps(isolated)) == isolated
    result = play_match(played)
    copy = pickle.loads(pickle.dumps(result))
    assert copy == result and copy.seats[1].decisions > 0 and copy.status == "done"


def test_inline_executor_delivers_results_and_exceptions():
    executor = InlineExecutor()
    assert executor.submit(lambda: 3).result() == 3
    with pytest.raises(ZeroDivisionError):
        executor.submit(lambda: 1 / 0).result()


def test_matches_go_to_the_executor_a_few_at_a_time_and_all_come_back(failbots):
    from dataclasses import replace

    from kotarena.tournament.runner import CHUNK_SECONDS, FIRST_CHUNK, MAX_CHUNK, chunk_size

    assert chunk_size(10, 2) == 1  # few matches: one per job, so every worker gets some
    assert chunk_size(400, 2) == 16 == FIRST_CHUNK  # before a match has been timed
    assert chunk_size(100_000, 2, 0.001) == MAX_CHUNK == 128  # fast games: capped
    assert chunk_size(100_000, 2, CHUNK_SECONDS / 10) == 10  # about CHUNK_SECONDS of play
    assert chunk_size(100_000, 2, 2.5) == 1  # slow bots: a match at a time
    assert chunk_size(400, 2, 0.001) == 25  # still about eight jobs per worker
    submitted = []

    class Counting(InlineExecutor):
        def submit(self, fn, /, *args, **kwargs):
            submitted.append(len(args[0]))
            return super().submit(fn, *args, **kwargs)

    jobs = [replace(job("random", "random"), index=i, key=f"k{i}", seed=i) for i in range(40)]
    results = list(run_jobs(jobs, workers=1, executor_factory=lambda w: Counting(), chunk=4))
    # Chunks of 4 while plenty is left; then each at most a third of what is left (the
    # chunks handed over ahead, per worker), down to single matches at the very end.
    assert submitted == [4] * 8 + [2, 2, 1, 1, 1, 1]
    assert sorted(r.key for r in results) == sorted(f"k{i}" for i in range(40))
    by_key = {r.key: r.replay for r in results}
    assert [by_key[j.key] for j in jobs] == [play_match(j).replay for j in jobs]
