"""League nights on a cluster against the local process pool, two workers each, in one run.

Each round plays the same night (the same ladder, seed and games, into a new SQLite
file) on each engine in turn:

* ``local``: the standard process pool of ``league run --workers 2``;
* ``dask``: a local Dask cluster, a scheduler and two workers of one thread each, all
  started here as separate processes the way docs/cluster.md starts them on machines,
  played through ``league run --cluster`` (:mod:`kotarena.tournament.cluster`);
* ``ray`` (when Ray is installed; ``--no-ray`` skips it): a local Ray instance with two
  CPUs, through a minimal executor written here (Ray has none), for comparison only.

It prints, for each engine, the median round's games/s, the wall-clock milliseconds a
game costs, the CPU milliseconds a game costs across every process of the engine (the
coordinator, the pool or the cluster's scheduler, workers and their children), how long
the engine took to start with its two workers, the memory its processes hold, and
whether the night ended on the same leaderboard as the local pool's.

    python benchmarks/cluster.py                    # 2,000 games of heuristic at 4 seats, 3 rounds
    python benchmarks/cluster.py --untrusted --games 200     # the bots in the sandbox
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import Executor, Future
from pathlib import Path

import psutil  # (Dask distributed depends on it)

from kotarena.bots.registry import bot_names
from kotarena.storage import open_db
from kotarena.tournament.cluster import cluster_factory
from kotarena.tournament.ladder import load_ladder
from kotarena.tournament.night import run_night
from kotarena.tournament.runner import make_executor, play_matches
from kotarena.tournament.throughput import children_cpu_seconds, cpu_seconds, ladder_text


def tree_cpu_seconds(pids: list[int]) -> float:
    """CPU seconds used so far by the processes ``pids`` and every live descendant."""
    total = 0.0
    for pid in pids:
        try:
            root = psutil.Process(pid)
            processes = [root, *root.children(recursive=True)]
        except psutil.NoSuchProcess:
            continue
        for process in processes:
            try:
                times = process.cpu_times()
            except psutil.NoSuchProcess:
                continue
            total += times.user + times.system
    return total


def tree_memory_mib(pids: list[int]) -> float:
    """Resident memory of ``pids`` and their descendants, MiB (shared pages counted in each)."""
    total = 0
    for pid in pids:
        root = psutil.Process(pid)
        for process in [root, *root.children(recursive=True)]:
            try:
                total += process.memory_info().rss
            except psutil.NoSuchProcess:
                pass
    return total / 2**20


class DaskCluster:
    """A scheduler and two one-thread workers, each a process group of its own."""

    def __init__(self, folder: Path) -> None:
        from distributed import Client

        started = time.perf_counter()
        env = {**os.environ, "DASK_DISTRIBUTED__WORKER__DAEMON": "False"}
        common = ["--scheduler-file", str(folder / "scheduler.json"), "--host", "127.0.0.1", "--no-dashboard"]
        self.processes = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", *common,
                                            "--port", "0"], env=env, cwd=folder, stderr=subprocess.DEVNULL,
                                           start_new_session=True)]
        self.processes += [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", *common,
                                             "--nthreads", "1", "--local-directory", str(folder)], env=env,
                                            cwd=folder, stderr=subprocess.DEVNULL, start_new_session=True)
                           for _ in range(2)]
        self.client = Client(scheduler_file=str(folder / "scheduler.json"), timeout=60, set_as_default=False)
        self.client.wait_for_workers(2, timeout=120)
        self.address = self.client.scheduler.address
        self.start_seconds = time.perf_counter() - started

    def pids(self) -> list[int]:
        return [process.pid for process in self.processes]

    def close(self) -> None:
        self.client.close()
        for process in self.processes:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


class RayExecutor(Executor):
    """A night's executor on Ray: each job a Ray task (``ObjectRef.future()`` is the
    ``concurrent.futures.Future``)."""

    def __init__(self) -> None:
        import ray

        self._play = ray.remote(max_retries=3)(play_matches)
        self._max_workers = int(ray.cluster_resources().get("CPU", 1))

    def submit(self, fn, /, *args, **kwargs) -> Future:
        assert fn is play_matches
        return self._play.remote(*args, **kwargs).future()

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        pass  # (the Ray instance outlives the night)


def _pid() -> int:
    return os.getpid()


def ray_start() -> float:
    import ray

    started = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    ray.get([ray.remote(_pid).remote() for _ in range(4)])  # the workers up
    return time.perf_counter() - started


def ray_pids() -> list[int]:
    return [child.pid for child in psutil.Process().children()]


def night(ladder_path: Path, db_path: Path, factory, cluster_pids) -> tuple[float, float, dict]:
    """Games/s of a whole night on ``factory``'s executors, the CPU seconds a game cost
    in every process of the engine, and the night's ratings."""
    ladder = load_ladder(ladder_path, known_bots=bot_names())
    engine = open_db(db_path)
    before = cpu_seconds() + children_cpu_seconds() + tree_cpu_seconds(cluster_pids())
    started = time.perf_counter()
    report = run_night(engine, ladder, workers=2, executor_factory=factory)
    elapsed = time.perf_counter() - started
    used = cpu_seconds() + children_cpu_seconds() + tree_cpu_seconds(cluster_pids()) - before
    from kotarena.storage.queries import leaderboard

    board = [(row["entrant"], round(row["mu"], 9), round(row["sigma"], 9)) for row in leaderboard(engine, ladder.name)]
    engine.dispose()
    return report.played / elapsed, used / report.played, {"board": board}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bot", default="heuristic")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--untrusted", action="store_true", help="Seat the bots in the sandbox (on every worker).")
    parser.add_argument("--no-ray", action="store_true", help="Leave Ray out.")
    parser.add_argument("--json", action="store_true", help="Print the figures as JSON.")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        ladder_path = folder / "cluster.toml"
        trusted = not args.untrusted
        ladder_path.write_text(ladder_text(args.games, args.players, True, args.seed, args.bot, trusted))
        warm_path = folder / "warm.toml"
        warm_path.write_text(ladder_text(40, args.players, True, args.seed + 1, args.bot, trusted))
        engines: dict[str, dict] = {}
        dask = DaskCluster(folder)
        engines["local"] = {"factory": make_executor, "pids": lambda: [], "start": 0.0, "memory": None}
        engines["dask"] = {"factory": cluster_factory(dask.address), "pids": dask.pids,
                           "start": dask.start_seconds, "memory": tree_memory_mib(dask.pids())}
        try:
            if not args.no_ray:
                try:
                    start = ray_start()
                except ImportError:
                    print("(Ray is not installed: left out)", file=sys.stderr)
                else:
                    engines["ray"] = {"factory": lambda workers: RayExecutor(), "pids": ray_pids, "start": start,
                                      "memory": tree_memory_mib(ray_pids())}
            for engine in engines.values():  # a first small night: pools and bots loaded on every worker
                night(warm_path, folder / f"warm-{len(engine)}.db", engine["factory"], engine["pids"])
                engine.update(rates=[], cpu=[])
            boards = {}
            for number in range(args.rounds):
                for label, engine in engines.items():
                    rate, cpu, facts = night(ladder_path, folder / f"{label}-{number}.db", engine["factory"],
                                             engine["pids"])
                    engine["rates"].append(rate)
                    engine["cpu"].append(cpu)
                    boards[label] = facts["board"]
                    print(f"round {number + 1} {label}: {rate:.1f} games/s", file=sys.stderr)
        finally:
            dask.close()
    local_rate = statistics.median(engines["local"]["rates"])
    figures = {}
    for label, engine in engines.items():
        rate = statistics.median(engine["rates"])
        figures[label] = {
            "games_per_second": round(rate, 1), "wall_ms_per_game": round(1000 / rate, 3),
            "extra_wall_ms_per_game": round(1000 / rate - 1000 / local_rate, 3),
            "cpu_ms_per_game": round(1000 * statistics.median(engine["cpu"]), 3),
            "start_seconds": round(engine["start"], 2),
            "memory_mib": None if engine["memory"] is None else round(engine["memory"]),
            "same_leaderboard": boards[label] == boards["local"],
        }
    if args.json:
        print(json.dumps({"games": args.games, "players": args.players, "bot": args.bot, "rounds": args.rounds,
                          "trusted": not args.untrusted, "engines": figures}, indent=2))
        return
    trust = "sandboxed" if args.untrusted else "trusted"
    print(f"{args.games} games of {args.bot} at {args.players} seats ({trust}), 2 workers, median of "
          f"{args.rounds} rounds")
    print(f"{'engine':8} {'games/s':>9} {'ms/game':>8} {'+ms/game':>9} {'CPU ms/game':>12} {'start s':>8} "
          f"{'MiB':>6}  same leaderboard")
    for label, row in figures.items():
        memory = "-" if row["memory_mib"] is None else str(row["memory_mib"])
        print(f"{label:8} {row['games_per_second']:>9} {row['wall_ms_per_game']:>8} "
              f"{row['extra_wall_ms_per_game']:>9} {row['cpu_ms_per_game']:>12} {row['start_seconds']:>8} "
              f"{memory:>6}  {'yes' if row['same_leaderboard'] else 'NO'}")


if __name__ == "__main__":
    main()
