"""What handing a job to a worker and taking its result back costs the coordinator.

A league night's coordinator shares the cores with its workers, so the CPU it spends
per job is taken from play. This script runs the same jobs (each a few milliseconds of
a worker's CPU, returning ``--bytes`` of result, about what a chunk of random-bot
games returns) through ``concurrent.futures.ProcessPoolExecutor`` and through
kotarena's :class:`~kotarena.tournament.pool.LocalPool`, three jobs ahead per worker as
the runner hands them over, and prints the coordinator's CPU per job (all its threads)
for each, median of ``--rounds``, the two alternating.

    python benchmarks/pool_cost.py
    python benchmarks/pool_cost.py --jobs 110 --bytes 10 --workers 2
"""

from __future__ import annotations

import argparse
import statistics
import time
from concurrent.futures import FIRST_COMPLETED, Executor, ProcessPoolExecutor, wait

from kotarena.tournament.pool import LocalPool


def spin(milliseconds: float, size: int) -> bytes:
    """A job: ``milliseconds`` of CPU, then ``size`` bytes of result."""
    end = time.process_time() + milliseconds / 1000
    while time.process_time() < end:
        pass
    return b"x" * size


def coordinator_cpu(pool: Executor, jobs: int, workers: int, milliseconds: float, size: int) -> float:
    """Seconds of this process's CPU to run ``jobs`` jobs on ``pool``, keeping three per
    worker in flight."""
    list(pool.map(spin, [0] * workers, [0] * workers))  # started and warm
    started = time.process_time()
    in_flight, left = set(), jobs
    while left and len(in_flight) < 3 * workers:
        in_flight.add(pool.submit(spin, milliseconds, size))
        left -= 1
    while in_flight:
        if isinstance(pool, LocalPool):
            done = pool.wait_any(in_flight)
        else:
            done = wait(in_flight, return_when=FIRST_COMPLETED)[0]
        for future in done:
            in_flight.discard(future)
            future.result()
            if left:
                in_flight.add(pool.submit(spin, milliseconds, size))
                left -= 1
    return time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=55, help="jobs per run (a 2,000-game night hands over about 55)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--ms", type=float, default=20.0, help="CPU milliseconds of each job")
    parser.add_argument("--bytes", type=int, default=94_000, help="size of each job's result")
    parser.add_argument("--rounds", type=int, default=7)
    options = parser.parse_args()
    pools = {"ProcessPoolExecutor": lambda: ProcessPoolExecutor(options.workers),
             "LocalPool": lambda: LocalPool(options.workers)}
    seconds: dict[str, list[float]] = {name: [] for name in pools}
    for number in range(options.rounds):
        for name in (list(pools) if number % 2 == 0 else list(pools)[::-1]):
            pool = pools[name]()
            try:
                seconds[name].append(coordinator_cpu(pool, options.jobs, options.workers, options.ms, options.bytes))
            finally:
                pool.shutdown()
    for name, values in seconds.items():
        per_job = [value / options.jobs * 1e6 for value in values]
        print(f"{name:20} coordinator CPU per job: {statistics.median(per_job):6.1f} µs "
              f"(runs: {', '.join(f'{value:.0f}' for value in sorted(per_job))})")


if __name__ == "__main__":
    main()
