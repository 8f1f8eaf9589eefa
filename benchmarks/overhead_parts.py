"""How a league night's overhead splits: playing through the runner, and storing.

``kotarena bench league`` compares a whole night with the raw engine. This script puts
a third run between them, on the same games and the same number of workers:

* ``raw``: the raw engine, the bots called directly (as ``bench league`` runs it);
* ``runner``: the night's jobs scheduled and played by ``run_jobs`` on a process pool
  (seat hosts, time limits, replays, results sent back to the coordinator), then
  dropped: nothing is stored or rated;
* ``night``: a whole night into a new SQLite file (as ``bench league`` runs it).

A round is raw, runner, raw, night, raw (the last raw run opens the next round); each
runner and night is compared with the mean of the raw runs on either side of it, as
``bench league`` does, and the median round is printed with the range it likely lies
in. The difference between ``runner`` and ``night`` is what storing and rating add;
``runner`` against ``raw`` is what running matches as a league does, before storage.

    python benchmarks/overhead_parts.py                      # 2,000 games, 2 workers, 9 rounds
    python benchmarks/overhead_parts.py --workers 4 --games 8000
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from kotarena.bots.registry import bot_names
from kotarena.tournament.ladder import load_ladder
from kotarena.tournament.night import frozen_heap, night_jobs, night_seed
from kotarena.tournament.runner import run_jobs
from kotarena.tournament.throughput import (
    children_cpu_seconds,
    cpu_seconds,
    engine_rate,
    first_night_games,
    ladder_text,
    league_rate,
    median_range,
)


def runner_rate(ladder, workers: int) -> tuple[float, float, float]:
    """Games/s of the night's matches played by ``run_jobs`` and dropped, with the CPU
    seconds per game of the workers (their start-up included) and of the coordinator."""
    jobs = night_jobs(ladder, night_seed(ladder.seed, 1))  # a first night's matches
    children, coordinator = children_cpu_seconds(), cpu_seconds()
    started = time.perf_counter()
    with frozen_heap():  # as a night runs them
        played = sum(1 for _ in run_jobs(jobs, workers=workers, total=ladder.games))
    elapsed = time.perf_counter() - started
    children, coordinator = children_cpu_seconds() - children, cpu_seconds() - coordinator
    return played / elapsed, children / played, coordinator / played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--bot", default="random")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "parts.toml"
        path.write_text(ladder_text(args.games, args.players, True, args.seed, args.bot))
        ladder = load_ladder(path, known_bots=bot_names())
        games = first_night_games(ladder)

        def raw() -> tuple[float, float]:
            return engine_rate(games, args.players, True, args.workers, args.bot)

        # Each kind of run, given the round's number: (games/s, CPU seconds per game of
        # the workers and of the coordinator).
        runs = {"runner": lambda number: runner_rate(ladder, args.workers),
                "night": lambda number: league_rate(path, Path(folder) / f"parts-{number}.db", args.workers)}
        # For each kind: (overhead against the raw runs around it, worker CPU over the
        # raw engine's, coordinator CPU ms per game), one per round.
        measured: dict[str, list[tuple[float, float, float]]] = {kind: [] for kind in runs}
        before = raw()
        for number in range(args.rounds):
            for kind, run in runs.items():
                rate, worker_cpu, coordinator_cpu = run(number)
                after = raw()
                raw_rate, raw_cpu = (before[0] + after[0]) / 2, (before[1] + after[1]) / 2
                measured[kind].append((1 - rate / raw_rate, worker_cpu / raw_cpu, coordinator_cpu * 1e3))
                before = after

    workers = f"{args.workers} worker{'s' if args.workers != 1 else ''}"
    print(f"{args.games} games of {args.bot} bots at {args.players} seats, {workers}, {args.rounds} rounds; "
          "medians, overhead with the range its median likely lies in:")
    print(f"  {'':7s} {'overhead':>9s} {'range':>15s} {'worker CPU vs raw':>18s} {'coordinator ms/game':>20s}")
    for kind, rows in measured.items():
        overheads = [row[0] for row in rows]
        low, high, coverage = median_range(overheads)
        print(f"  {kind:7s} {statistics.median(overheads):9.1%} {f'{low:.1%}-{high:.1%}':>15s} "
              f"{statistics.median(row[1] for row in rows):18.3f} {statistics.median(row[2] for row in rows):20.3f}")
    stored = [night[0] - runner[0] for runner, night in zip(measured["runner"], measured["night"])]
    print(f"  storing and rating add {statistics.median(stored):.1%} (median of the rounds' differences)")


if __name__ == "__main__":
    main()
