"""How a night stops: SIGTERM as Ctrl-C does, a bot's sys.exit as that bot's forfeit, a
pool that breaks as results are handed over, and never a process left waiting forever."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool

import pytest
from sqlmodel import Session, select
from test_night import _children, assert_gone, count, ladder_file, run_cli, wait_for_matches
from test_runner import job

from kotarena.storage import open_db
from kotarena.storage.models import Match, Night, Seat
from kotarena.tournament import runner
from kotarena.tournament.runner import InlineExecutor, run_jobs


def test_sigterm_mid_night_stops_it_as_ctrl_c_does_and_the_same_command_finishes_it(tmp_path, failbots):
    """``kill PID`` (a service manager stopping the night) reaches the coordinator only."""
    games = 24
    path = ladder_file(tmp_path, name="termed", games=games, second="sleepy", params="params = { ms = 4 }")
    env = {**os.environ, "KOTARENA_DB": str(tmp_path / "termed.db")}
    process = run_cli("league", "run", str(path), "--workers", "2", "-q", env=env)
    engine = open_db(tmp_path / "termed.db")
    wait_for_matches(engine, process, 2)
    children = _children(process.pid)
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "interrupted:" in err and "run the same command to resume" in err
    assert "Traceback" not in err
    assert_gone(children)
    stored = count(engine, Match)
    assert 2 <= stored < games
    resumed = run_cli("league", "run", str(path), "--workers", "2", "-q", env=env)
    out, err = resumed.communicate(timeout=120)
    assert resumed.returncode == 0, err
    with Session(engine) as session:
        assert sorted(session.exec(select(Match.index)).all()) == list(range(games))
        assert all(match.rated for match in session.exec(select(Match)).all())


def test_a_night_stopped_while_it_stores_results_does_not_wait_for_its_workers_forever(tmp_path, failbots):
    """Ctrl-C while the coordinator stores results lands outside the runner: its pool
    must still be shut down then, not when the runner is collected (for ``league run``,
    which keeps the error to report it: never), or the process waits for its idle
    workers as it exits."""
    path = ladder_file(tmp_path, name="kept", games=40, second="sleepy", params="params = { ms = 4 }")
    script = textwrap.dedent(f"""
        import sys
        from kotarena.storage import open_db
        from kotarena.tournament.ladder import load_ladder
        from kotarena.tournament.night import run_night

        def progress(done, total, forfeits):
            if done:
                raise KeyboardInterrupt
        try:
            run_night(open_db({str(tmp_path / "kept.db")!r}), load_ladder({str(path)!r}), workers=2,
                      progress=progress)
        except KeyboardInterrupt as error:
            kept = error  # (as league run keeps it while it says how to resume)
            sys.exit(130)
    """)
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    try:
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            for pid in _children(process.pid):
                os.kill(pid, signal.SIGKILL)
            process.kill()
            process.communicate()
    assert process.returncode == 130, err
    assert "Traceback" not in err


def test_a_trusted_bots_sys_exit_with_workers_0_is_its_forfeit_and_the_night_finishes(tmp_path, failbots):
    path = ladder_file(tmp_path, name="exits", games=4, second="fail-exit",
                       params="trusted = true\nparams = { fail_on = 2 }")
    env = {**os.environ, "KOTARENA_DB": str(tmp_path / "exits.db")}
    process = run_cli("league", "run", str(path), "--workers", "0", "-q", env=env)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    assert "Leaderboard: exits" in out
    engine = open_db(tmp_path / "exits.db")
    with Session(engine) as session:
        assert session.exec(select(Night.status)).one() == "done"
        seats = session.exec(select(Seat).where(Seat.entrant == "fail-exit")).all()
    assert len(seats) >= 4 and all(seat.forfeit == "error" for seat in seats)
    assert all(seat.forfeit_detail.startswith("SystemExit: the bot called sys.exit(0)") for seat in seats)


class BrokenOnce(Executor):
    """An executor that is found broken at its first hand-over (its worker died since the
    last look), as a process pool is when a worker dies between two submits."""

    made = 0

    def __init__(self) -> None:
        BrokenOnce.made += 1
        self.inline = InlineExecutor()
        self.broken = BrokenOnce.made == 1

    def submit(self, fn, /, *args, **kwargs):
        if self.broken:
            raise BrokenProcessPool("a child process terminated abruptly")
        return self.inline.submit(fn, *args, **kwargs)


def test_a_pool_found_broken_as_matches_are_handed_over_plays_them_again(failbots, monkeypatch):
    """It used to end the night ("A child process terminated abruptly"); the matches it
    refused are played again like those it failed."""
    monkeypatch.setattr(BrokenOnce, "made", 0)
    jobs = [job("random", "random", seed=seed) for seed in range(5)]
    jobs = [type(j)(**{**j.__dict__, "index": i, "key": f"t-{i}"}) for i, j in enumerate(jobs)]
    results = list(run_jobs(jobs, workers=1, executor_factory=lambda workers: BrokenOnce(), chunk=2))
    assert sorted(result.index for result in results) == list(range(5))
    assert BrokenOnce.made >= 2


def test_stopping_a_pool_ends_a_worker_that_would_wait_forever(monkeypatch):
    """A worker that does not stop when told is killed after ``STOP_SECONDS``."""
    from concurrent.futures import ProcessPoolExecutor

    monkeypatch.setattr(runner, "STOP_SECONDS", 0.5)
    pool = ProcessPoolExecutor(max_workers=1, initializer=signal.signal, initargs=(signal.SIGINT, signal.SIG_IGN))
    pool.submit(time.sleep, 60)
    time.sleep(0.5)
    processes = list(pool._processes.values())
    started = time.monotonic()
    runner._stop_workers(pool)
    assert time.monotonic() - started < 5
    assert not any(process.is_alive() for process in processes)


def test_a_night_whose_workers_cannot_start_fails_in_one_line(tmp_path, failbots):
    path = ladder_file(tmp_path, name="dead", games=6)
    env = {**os.environ, "KOTARENA_DB": str(tmp_path / "dead.db"), "KOTARENA_EXECUTOR": "dying_pool:dying"}
    process = run_cli("league", "run", str(path), "--workers", "2", "-q", env=env)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 1
    lines = [line for line in err.splitlines() if "is not sealed" not in line]
    assert len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith("Error: the night stopped: RuntimeError: the worker process playing match ")
    assert "the worker processes themselves fail (--workers 0 plays in this process and shows why)" in lines[0]
    assert "run the same command to resume" in lines[0]


def _cli_with(tmp_path, patch: str, *args: str, env: dict) -> subprocess.Popen:
    """``kotarena ARGS`` in a subprocess, after ``patch`` (Python run first, as a test's
    setup: it may replace a function of kotarena's)."""
    script = textwrap.dedent(patch) + "\nfrom kotarena.cli import main\nsys.argv = ['kotarena', *ARGS]\nmain()\n"
    return subprocess.Popen([sys.executable, "-c", f"import sys\nARGS = {list(args)!r}\n{script}"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.mark.parametrize("where, signum", [
    ("kotarena.sandbox.catalogue:read_catalogue", signal.SIGINT),  # reading which bots are installed
    ("kotarena.storage:open_db", signal.SIGTERM),  # opening the database
    ("kotarena.tournament.night:seating_for", signal.SIGINT),  # seating the untrusted bots
], ids=["catalogue-sigint", "database-sigterm", "seating-sigint"])
def test_a_signal_during_a_nights_start_up_says_how_to_resume(tmp_path, failbots, where, signum):
    """It printed click's "Aborted!" with exit 1 (SIGTERM: killed the process)."""
    path = ladder_file(tmp_path, name="early", games=6)
    module, function = where.split(":")
    patch = f"""
        import importlib, os, signal, time
        target = importlib.import_module({module!r})
        original = target.{function}

        def signalled(*args, **kwargs):
            os.kill(os.getpid(), {int(signum)})
            time.sleep(0.5)  # (the handler runs at the next instruction, long before this ends)
            return original(*args, **kwargs)

        target.{function} = signalled
    """
    env = {**os.environ, "KOTARENA_DB": str(tmp_path / "early.db")}
    process = _cli_with(tmp_path, patch, "league", "run", str(path), "--workers", "2", "-q", env=env)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    assert "Traceback" not in err and "Aborted" not in err
    assert err.strip().splitlines()[-1] == ("interrupted before the night began: nothing was played; run the same "
                                            "command to resume")
    resumed = run_cli("league", "run", str(path), "--workers", "0", "-q", env=env)
    out, err = resumed.communicate(timeout=120)
    assert resumed.returncode == 0, err
    assert "Leaderboard: early" in out


def test_a_signal_while_the_coordinator_forks_stops_the_night_after_the_fork(tmp_path):
    """Python runs at-fork callbacks (logging's ``_releaseLock`` among them) where an
    exception is printed as "Exception ignored", with a traceback, and lost: a Ctrl-C
    that came then printed a traceback and the night played on. Here a callback of
    our own is interrupted as logging's was, on a loaded machine."""
    script = textwrap.dedent("""
        import os, signal, sys, time
        from kotarena.tournament.runner import stopping_signals

        def busy_callback():  # (as logging's _releaseLock: Python code run by the fork)
            os.kill(os.getpid(), signal.SIGINT)
            total = 0
            for number in range(10000):
                total += number

        os.register_at_fork(after_in_parent=busy_callback)
        with stopping_signals():
            try:
                pid = os.fork()
                if pid == 0:
                    os._exit(0)
                os.waitpid(pid, 0)
                time.sleep(5)
                print("not stopped")
            except KeyboardInterrupt:
                print("stopped after the fork")
    """)
    process = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert process.stdout.strip() == "stopped after the fork", process.stderr
    assert "Exception ignored" not in process.stderr and "Traceback" not in process.stderr
