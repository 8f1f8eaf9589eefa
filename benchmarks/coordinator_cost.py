"""What a league night's coordinator spends per game, apart from the executor.

A night's coordinator schedules the matches, hands them to the workers (pickled),
takes their results back (unpickled), and stores and rates them in batches. With as
many workers as cores it shares the cores with them, so every millisecond it spends
per game is taken from play (see "Throughput" in docs/league.md). This script does
exactly that work for a night's games, without the executor's threads and processes:
the results are played beforehand, then timed through

* ``schedule``: building the night's jobs, one at a time, as the runner does;
* ``pickle``: jobs pickled in executor jobs of 64, results unpickled from such jobs;
* ``store``: stored and rated in batches of 256 (``FLUSH_SIZE``) into a new SQLite
  file, with the statements compiled once beforehand.

It prints the CPU milliseconds per game of each part, the median of ``--repeats``.
Under callgrind the instruction count is exact rather than timed; run two game counts
and take the difference, which leaves out the start-up:

    python benchmarks/coordinator_cost.py                       # 2,000 games, 5 repeats
    python benchmarks/coordinator_cost.py --bot heuristic --games 1000
    valgrind --tool=callgrind python benchmarks/coordinator_cost.py --games 256 --repeats 1
"""

from __future__ import annotations

import argparse
import pickle
import statistics
import tempfile
import time
from pathlib import Path

from kotarena import ratings
from kotarena.bots.registry import bot_names
from kotarena.storage import open_db
from kotarena.tournament.ladder import load_ladder
from kotarena.tournament.night import FLUSH_SIZE, night_jobs, night_seed, open_night, store_results
from kotarena.tournament.runner import MAX_CHUNK, MatchResults, play_matches, warm_up
from kotarena.tournament.seats import GUARD
from kotarena.tournament.throughput import ladder_text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bot", default="random")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "coordinator.toml"
        path.write_text(ladder_text(args.games, args.players, True, 0, args.bot))
        ladder = load_ladder(path, known_bots=bot_names())
        jobs = list(night_jobs(ladder, night_seed(ladder.seed, 1)))  # night 1's schedule
        warm_up(jobs[0])
        results = play_matches(jobs)  # played once; what follows is the coordinator's part
        GUARD.disarm()
        # As a worker sends them (a slice of a MatchResults is a plain list).
        blobs = [pickle.dumps(MatchResults(results[i:i + MAX_CHUNK])) for i in range(0, len(results), MAX_CHUNK)]

        parts: dict[str, list[float]] = {"schedule": [], "pickle": [], "store": []}
        for repeat in range(args.repeats):
            engine = open_db(Path(folder) / f"coordinator-{repeat}.db")
            env = ratings.make_env()
            # Compile the statements on another night first: a night pays that once.
            store_results(engine, open_night(engine, ladder, fresh=True), results[:1], env, {})
            night = open_night(engine, ladder, fresh=True)

            started = time.process_time()
            scheduled = list(night_jobs(ladder, night.seed))
            parts["schedule"].append(time.process_time() - started)

            started = time.process_time()
            for i in range(0, len(scheduled), MAX_CHUNK):
                pickle.dumps((play_matches, (scheduled[i:i + MAX_CHUNK],), {}))
            received = [result for blob in blobs for result in pickle.loads(blob)]
            parts["pickle"].append(time.process_time() - started)

            started = time.process_time()
            cache: dict = {}
            for i in range(0, len(received), FLUSH_SIZE):
                store_results(engine, night, received[i:i + FLUSH_SIZE], env, cache)
            parts["store"].append(time.process_time() - started)
            engine.dispose()

    games = len(results)
    medians = {name: statistics.median(times) / games * 1e3 for name, times in parts.items()}
    print(f"{games} games of {args.bot} bots at {args.players} seats; CPU ms per game, median of {args.repeats}:")
    for name, value in medians.items():
        print(f"  {name:9s} {value:.4f}")
    print(f"  {'total':9s} {sum(medians.values()):.4f}")


if __name__ == "__main__":
    main()
