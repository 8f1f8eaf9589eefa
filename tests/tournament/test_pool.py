"""The league's process pool: jobs go out, results and errors come back, and a worker
that dies costs only the jobs handed to it."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from concurrent.futures import CancelledError
from concurrent.futures.process import BrokenProcessPool

import pytest

from kotarena.tournament.pool import RESULT_PIPE_BYTES, LocalPool, RemoteTraceback, widen_pipe


def square(x: int) -> int:
    return x * x


def pid_after(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


def fail(message: str) -> None:
    raise ValueError(message)


def die(code: int) -> None:
    os._exit(code)


def leave(code: int) -> None:
    sys.exit(code)


@pytest.fixture
def pool():
    made = LocalPool(2)
    yield made
    made.shutdown(cancel_futures=True)


def test_results_come_back_to_whoever_waits_for_them(pool):
    futures = [pool.submit(square, x) for x in range(10)]
    assert [future.result(timeout=30) for future in futures] == [x * x for x in range(10)]


def test_jobs_go_to_the_worker_with_the_fewest(pool):
    first, second = pool.submit(pid_after, 0.3), pool.submit(pid_after, 0.0)
    done = pool.wait_any([first, second], timeout=30)
    assert done == {second}  # the second went to the idle worker, and came back first
    assert first.result(timeout=30) != second.result() and {first.result(), second.result()} == set(pool.pids())


def test_an_error_in_a_job_comes_back_with_the_workers_traceback(pool):
    future = pool.submit(fail, "no luck")
    with pytest.raises(ValueError, match="no luck") as raised:
        future.result(timeout=30)
    assert isinstance(raised.value.__cause__, RemoteTraceback)
    assert "in fail" in str(raised.value.__cause__)
    assert pool.submit(square, 3).result(timeout=30) == 9  # the worker goes on


def test_waiting_with_a_timeout_returns_without_the_result(pool):
    slow = pool.submit(pid_after, 2.0)
    assert pool.wait_any([slow], timeout=0.05) == set()
    with pytest.raises(TimeoutError):
        slow.result(timeout=0.05)
    assert slow.result(timeout=30) in pool.pids()


@pytest.mark.parametrize("end", [die, leave], ids=["os._exit", "sys.exit"])
def test_a_worker_that_dies_fails_only_the_jobs_handed_to_it(pool, end):
    # Each job goes to the worker with the fewest (the first of those tied): the first
    # worker gets the slow ones, the second the fatal one and the one behind it.
    busy = [pool.submit(pid_after, 0.5)]
    doomed = pool.submit(end, 3)
    busy.append(pool.submit(pid_after, 0.5))
    behind = pool.submit(square, 2)
    with pytest.raises(BrokenProcessPool, match="died"):
        doomed.result(timeout=30)
    with pytest.raises(BrokenProcessPool):
        behind.result(timeout=30)
    assert busy[0].result(timeout=30) == busy[1].result(timeout=30) in pool.pids()
    assert [pool.submit(square, x).result(timeout=30) for x in range(3)] == [0, 1, 4]  # the living worker plays on


def test_shutdown_waits_for_the_jobs_handed_over_and_the_workers_end(pool):
    futures = [pool.submit(pid_after, 0.1) for _ in range(4)]
    pids = pool.pids()
    pool.shutdown(wait=True)
    assert all(future.result(timeout=0) in pids for future in futures)
    assert not any(_alive(pid) for pid in pids)
    with pytest.raises(RuntimeError, match="shut down"):
        pool.submit(square, 1)


def test_shutdown_cancelling_stops_busy_workers_at_once(pool):
    futures = [pool.submit(pid_after, 30) for _ in range(4)]
    started = time.monotonic()
    pool.shutdown(wait=True, cancel_futures=True)
    assert time.monotonic() - started < 10
    for future in futures:
        with pytest.raises(CancelledError):
            future.result(timeout=0)
    assert not any(_alive(pid) for pid in pool.pids())


def test_results_come_back_through_a_widened_pipe(pool):
    """A chunk's results (about 94 KB) fit in the pipe at once, so a worker writes them
    without waiting for the coordinator to read."""
    import fcntl

    for worker in pool._workers:
        if hasattr(fcntl, "F_GETPIPE_SZ"):  # (Linux)
            assert fcntl.fcntl(worker.results.fileno(), fcntl.F_GETPIPE_SZ) >= RESULT_PIPE_BYTES
        else:  # pipes of no settable size are left as they are, and say so
            assert widen_pipe(worker.results) is False


def test_a_pool_never_shut_down_does_not_hold_up_the_exit():
    code = ("from kotarena.tournament.pool import LocalPool\n"
            "pool = LocalPool(2)\n"
            "print(pool.submit(abs, -5).result(timeout=30))\n")
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout == "5\n", done.stderr
    assert time.monotonic() - started < 30


def test_a_pool_needs_a_worker():
    with pytest.raises(ValueError):
        LocalPool(0)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is no longer running
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return True


def test_spawned_workers_work_as_forked_ones():
    """macOS and Windows spawn their workers rather than fork them: the pipes reach the
    new interpreters, a job there plays the same game, and a dying worker still fails
    only its own jobs."""
    import multiprocessing
    from dataclasses import replace

    from test_runner import job

    from kotarena.tournament.runner import die_with_parent, play_matches

    games = [replace(job("random", "random", "random"), index=i, seed=i) for i in range(3)]
    pool = LocalPool(2, initializer=die_with_parent, context=multiprocessing.get_context("spawn"))
    try:
        played = pool.submit(play_matches, games)
        assert [r.replay for r in played.result(timeout=120)] == [r.replay for r in play_matches(games)]
        busy = [pool.submit(time.sleep, 0.5)]
        doomed = pool.submit(os._exit, 3)
        busy.append(pool.submit(time.sleep, 0.5))
        behind = pool.submit(pow, 2, 5)
        with pytest.raises(BrokenProcessPool, match="exit code 3"):
            doomed.result(timeout=60)
        with pytest.raises(BrokenProcessPool):
            behind.result(timeout=60)
        assert [future.result(timeout=60) for future in busy] == [None, None]
        assert pool.submit(pow, 3, 2).result(timeout=60) == 9
        pids = pool.pids()
    finally:
        pool.shutdown()
    assert not any(_alive(pid) for pid in pids)
