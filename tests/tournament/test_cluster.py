"""League nights on a Dask cluster: a real local one (a scheduler and two workers, each
its own process group, started as docs/cluster.md says) and a throwaway PostgreSQL
server. A night played there stores and rates every match exactly once when a worker is
killed in the middle, seats untrusted bots in the same sandbox as on one machine, holds
trusted bots to their CPU limit, stops cleanly on Ctrl-C, and ends with the leaderboard
of a local night with the same seed."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from distributed import Client  # in the test extra (kotarena's cluster extra)
from sqlmodel import Session, func, select
from test_night import _children, assert_gone, count, ladder_file, ratings_of, run_cli, wait_for_matches

from kotarena.storage import open_db
from kotarena.storage.models import Match, Seat
from kotarena.tournament import cluster
from kotarena.tournament.cluster import ClusterError, cluster_factory, connect, play_in_worker_pool
from kotarena.tournament.ladder import load_ladder
from kotarena.tournament.night import run_night

FAILBOTS = Path(__file__).parent.parent / "fixtures" / "failbots"


class LocalCluster:
    """A Dask scheduler and its workers, each started as its own process group with the
    ``dask`` command-line programs, workers not daemonic (as docs/cluster.md says)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.env = {**os.environ, "DASK_DISTRIBUTED__WORKER__DAEMON": "False",
                    "PYTHONPATH": os.pathsep.join(filter(None, [str(FAILBOTS), os.environ.get("PYTHONPATH")]))}
        self.env.pop("KOTARENA_TRUST", None)
        self.processes: list[subprocess.Popen] = []
        self.workers: list[subprocess.Popen] = []
        self.scheduler = self._start("distributed.cli.dask_scheduler", "--port", "0")
        self.client = Client(scheduler_file=str(root / "scheduler.json"), timeout=60, set_as_default=False)
        self.address = self.client.scheduler.address

    def _start(self, program: str, *args: str) -> subprocess.Popen:
        process = subprocess.Popen(
            [sys.executable, "-m", program, "--scheduler-file", str(self.root / "scheduler.json"),
             "--host", "127.0.0.1", "--no-dashboard", *args], env=self.env, cwd=self.root,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        self.processes.append(process)
        return process

    def ensure_workers(self, wanted: int = 2) -> None:
        """Start workers (one thread each) until ``wanted`` are connected."""
        live = [worker for worker in self.workers if worker.poll() is None]
        for _ in range(wanted - len(live)):
            live.append(self._start("distributed.cli.dask_worker", "--nthreads", "1", "--local-directory",
                                    str(self.root)))
        self.workers = live
        self.client.wait_for_workers(wanted, timeout=90)

    def kill_worker(self) -> None:
        """Kill a worker as a machine that loses power: its whole process group at once."""
        worker = self.workers.pop()
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait()

    def close(self) -> None:
        self.client.close()
        for process in reversed(self.processes):
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            process.wait()


@pytest.fixture(scope="module")
def local_cluster(tmp_path_factory):
    made = LocalCluster(tmp_path_factory.mktemp("cluster"))
    try:
        yield made
    finally:
        made.close()


@pytest.fixture
def dask(local_cluster):
    """The local cluster, with its two workers."""
    local_cluster.ensure_workers(2)
    return local_cluster


def three_bot_ladder(tmp_path: Path, games: int) -> Path:
    """``random``, ``heuristic`` (not trusted: in the sandbox) and a trusted bot that
    sleeps 3 ms a decision (so the night lasts long enough to lose a worker in it)."""
    path = tmp_path / "cluster.toml"
    path.write_text(f"""
name = "cluster"
players = 3
games = {games}
seed = 11
time_limit = 1.0

[[bots]]
name = "random"

[[bots]]
name = "heuristic"

[[bots]]
name = "sleepy"
trusted = true
params = {{ ms = 3 }}
""")
    return path


def test_a_daemonic_dask_worker_is_refused_saying_how_to_start_it(monkeypatch):
    """Dask's nanny starts its workers as daemonic processes unless told otherwise, and a
    daemonic process may not start the processes a night plays in."""
    with pytest.raises(ClusterError, match="DASK_DISTRIBUTED__WORKER__DAEMON=False"):
        cluster._check_workers({"tcp://10.0.0.7:4001": {**cluster.worker_facts(), "daemon": True}})
    monkeypatch.setitem(multiprocessing.current_process()._config, "daemon", True)
    with pytest.raises(ClusterError, match="daemonic process"):
        play_in_worker_pool(len, ((),), {}, "night", None)


def test_a_worker_with_another_kotarena_is_refused():
    theirs = {**cluster.worker_facts(), "kotarena": "0.0.1-other"}
    with pytest.raises(ClusterError, match="runs kotarena 0.0.1-other"):
        cluster._check_workers({"tcp://10.0.0.7:4001": theirs})


def test_no_scheduler_at_the_address_is_a_clear_error(tmp_path):
    with pytest.raises(ClusterError, match="no Dask scheduler answers at tcp://127.0.0.1:9"):
        connect("tcp://127.0.0.1:9", timeout=1)


def test_league_run_says_when_the_cluster_cannot_play(tmp_path, dask, monkeypatch):
    """``--cluster`` checks the cluster before the night starts: here the scheduler has
    workers of another kotarena."""
    from click.testing import CliRunner

    import kotarena
    from kotarena.cli import cli

    monkeypatch.setattr(kotarena, "__version__", "9.9")  # (here, not on the workers)

    path = ladder_file(tmp_path, name="refused", games=2)
    result = CliRunner().invoke(cli, ["league", "run", str(path), "--cluster", dask.address, "-q"])
    assert result.exit_code == 1
    assert "Error: the Dask worker tcp://127.0.0.1:" in result.output and "runs kotarena" in result.output


def test_kotarena_executor_can_name_the_cluster_executor(dask, monkeypatch):
    """``KOTARENA_EXECUTOR`` with ``KOTARENA_CLUSTER``: what ``--cluster`` does, for any
    program that plays nights through the runner."""
    from kotarena.tournament.runner import make_executor

    monkeypatch.setenv("KOTARENA_EXECUTOR", "kotarena.tournament.cluster:cluster_executor")
    monkeypatch.setenv("KOTARENA_CLUSTER", dask.address)
    executor = make_executor(None)
    try:
        assert isinstance(executor, cluster.ClusterExecutor) and executor._max_workers == 2
        assert executor.submit(sum, (1, 2)).result(timeout=60) == 3
    finally:
        executor.shutdown()


def test_a_trusted_bot_spinning_on_a_cluster_worker_is_stopped_at_its_cpu_limit(tmp_path, dask, failbots):
    """Dask plays its tasks in threads, where no timer signal arrives: the matches are
    played in the worker's own process pool, in a main thread, so the limit holds."""
    path = ladder_file(tmp_path, name="spin", games=2, second="fail-hang", limit=0.2,
                       params="trusted = true\nparams = { fail_on = 1 }")
    engine = open_db(tmp_path / "spin.db")
    report = run_night(engine, load_ladder(path), executor_factory=cluster_factory(dask.address))
    with Session(engine) as session:
        seats = session.exec(select(Seat).where(Seat.entrant == "fail-hang")).all()
    assert report.finished and len(seats) >= 2 and report.forfeits == len(seats)
    assert {seat.forfeit for seat in seats} == {"timeout"}

    def pools_open() -> int:
        from kotarena.tournament import cluster

        return len(cluster._POOLS)

    assert set(dask.client.run(pools_open).values()) == {0}  # the night's pools ended with it
    assert all("CPU time (limit 0.2s)" in seat.forfeit_detail for seat in seats)


def test_a_trusted_bot_that_kills_its_process_on_a_worker_is_replayed_isolated_and_forfeits(tmp_path, dask,
                                                                                             failbots, sandbox):
    """It takes down a process of the worker's pool, not the worker: the broken pool's
    error reaches the coordinator, which plays those matches again with every bot
    isolated, as a local night does, and the crash is that bot's forfeit."""
    path = ladder_file(tmp_path, name="crash", games=3, second="fail-crash",
                       params="trusted = true\nparams = { fail_on = 1 }")
    engine = open_db(tmp_path / "crash.db")
    report = run_night(engine, load_ladder(path), executor_factory=cluster_factory(dask.address))
    with Session(engine) as session:
        seats = session.exec(select(Seat).where(Seat.entrant == "fail-crash")).all()
        assert sorted(session.exec(select(Match.index)).all()) == [0, 1, 2]
    assert report.finished and seats and {seat.forfeit for seat in seats} == {"crash"}
    assert all("exit code 3" in seat.forfeit_detail for seat in seats)


def test_ctrl_c_stops_a_cluster_night_cleanly_and_the_same_command_finishes_it(tmp_path, dask, failbots):
    games = 12
    path = ladder_file(tmp_path, name="stopped", games=games, second="sleepy",
                       params="trusted = true\nparams = { ms = 3 }")
    env = {**os.environ, "KOTARENA_DB": str(tmp_path / "stopped.db")}
    command = ("league", "run", str(path), "--cluster", dask.address, "-q")
    process = run_cli(*command, env=env)
    engine = open_db(tmp_path / "stopped.db")
    wait_for_matches(engine, process, 1)
    children = _children(process.pid)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "interrupted:" in err and "run the same command to resume" in err
    assert "Traceback" not in err and "cancel_futures" not in err
    assert_gone(children)
    assert count(engine, Match) < games
    resumed = run_cli(*command, env=env)
    out, err = resumed.communicate(timeout=120)
    assert resumed.returncode == 0, err
    assert "Leaderboard: stopped" in out
    with Session(engine) as session:
        assert sorted(session.exec(select(Match.index)).all()) == list(range(games))
        assert all(session.exec(select(Match.rated)).all())


def test_a_night_on_a_cluster_that_loses_a_worker_stores_and_rates_every_match_once(tmp_path, dask, server,
                                                                                    failbots, sandbox):
    """The second worker is killed as soon as the first results are stored: the matches
    it held are played by the other, and the night ends as a local night of the same
    ladder does, on the same leaderboard. ``heuristic`` is not trusted: it plays in the
    sandbox on the workers."""
    games = 30
    path = three_bot_ladder(tmp_path, games)
    ladder = load_ladder(path)
    assert [e.label for e in ladder.entrants] == ["random", "heuristic", "sleepy"]
    killed_at: list[int] = []

    def kill_once(done: int, total: int, forfeits: int) -> None:
        if done and not killed_at:
            killed_at.append(done)
            dask.kill_worker()

    engine = open_db(server("cluster"))
    report = run_night(engine, ladder, executor_factory=cluster_factory(dask.address), progress=kill_once)
    assert killed_at and killed_at[0] < games  # the worker died in the middle of the night
    assert report.finished and report.stored_before + report.played == games and report.forfeits == 0
    with Session(engine) as session:
        assert sorted(session.exec(select(Match.index)).all()) == list(range(games))
        assert all(session.exec(select(Match.rated)).all())
        assert session.exec(select(func.count()).select_from(Seat)).one() == 3 * games
    assert sum(games_played for _mu, _sigma, games_played, _wins in ratings_of(engine, "cluster").values()) == 3 * games
    local = open_db(tmp_path / "local.db")
    run_night(local, ladder, workers=2)  # the local process pool
    assert ratings_of(engine, "cluster") == ratings_of(local, "cluster")
