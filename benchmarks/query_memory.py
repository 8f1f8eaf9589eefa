"""Peak memory of the league's listings and of ``league rerate`` on a large database.

Fills a new SQLite results database with ``--games`` synthetic rated matches of one
ladder (four seats each, entrants drawn from ``--entrants``, nights of ``--night-size``
matches), then runs each command in a fresh process and prints its peak resident memory
(``ru_maxrss``) and wall-clock time, next to ``kotarena db path``, which only imports
the CLI. The listings read a page at a time, so their peaks should stay near that
baseline however many games the database holds; run two sizes to see it.

    python benchmarks/query_memory.py                        # 200,000 games
    python benchmarks/query_memory.py --games 20000
    python benchmarks/query_memory.py --games 500000 --keep big.db
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import insert

from kotarena.storage import open_db
from kotarena.storage.models import BotVersion, LadderRow, Match, Night, Rating, Seat, utcnow

LADDER = "memory"
MONSTERS = ("Alienoid", "Cyber Bunny", "Giga Zaur", "Kraken", "Meka Dragon", "The King")
#: A packed replay's length for a four-player game with cards (docs/replays.md).
REPLAY = "kotarena-replay 2\n" + "x" * 530


def fill(path: Path, games: int, entrants: int, night_size: int, seed: int = 0) -> None:
    """Store ``games`` synthetic rated matches in a new database at ``path``."""
    rng = random.Random(seed)
    labels = [f"bot-{number}" for number in range(entrants)]
    engine = open_db(path)
    with engine.begin() as connection:
        ladder_id = connection.execute(insert(LadderRow).values(name=LADDER, game="kot", created_at=utcnow())
                                       .returning(LadderRow.id)).scalar_one()
        version_id = connection.execute(insert(BotVersion).values(name="random", package="kotarena", version="0")
                                        .returning(BotVersion.id)).scalar_one()
        connection.execute(insert(Rating), [{"ladder_id": ladder_id, "entrant": label, "mu": 25.0, "sigma": 8.3,
                                             "games": 0, "wins": 0, "forfeits": 0} for label in labels])
    played_at = utcnow()
    for number, start in enumerate(range(0, games, night_size), 1):
        size = min(night_size, games - start)
        with engine.begin() as connection:
            night_id = connection.execute(insert(Night).values(
                ladder_id=ladder_id, number=number, seed=number, fingerprint="-", config="{}", planned=size,
                status="done", started_at=played_at, finished_at=played_at).returning(Night.id)).scalar_one()
            for chunk in range(0, size, 5000):
                tables = [(rng.sample(labels, 4), rng.sample(range(4), 4)) for _ in range(min(5000, size - chunk))]
                ids = connection.execute(insert(Match).returning(Match.id, sort_by_parameter_order=True), [
                    {"night_id": night_id, "index": chunk + k, "key": f"{chunk + k:05d}", "game": "kot",
                     "seed": rng.getrandbits(63), "first_player": 0, "rules_version": 1, "status": "done",
                     "termination": "stars", "winner_seat": ranks.index(0), "turns": 20, "duration": 0.001,
                     "replay": REPLAY, "rated": True, "played_at": played_at}
                    for k, (_, ranks) in enumerate(tables)]).scalars().all()
                connection.execute(insert(Seat), [
                    {"match_id": match_id, "seat": seat, "entrant": seated[seat], "bot_version_id": version_id,
                     "rank": ranks[seat], "forfeit": None, "forfeit_detail": None, "decisions": 40,
                     "cpu_seconds": 0.001, "mu": rng.uniform(20, 30), "sigma": rng.uniform(1, 8),
                     "facts": {"monster": MONSTERS[seat], "stars": rng.randrange(21), "health": rng.randrange(11),
                               "alive": True}}
                    for match_id, (seated, ranks) in zip(ids, tables) for seat in range(4)])
    engine.dispose()


#: Runs a command and prints its peak resident memory (KiB on Linux) and exit code. (A
#: small process of its own: a child counts the memory of the process it was forked
#: from, before it started the command, in its peak.)
_MEASURE = """
import os, subprocess, sys
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
_, status, usage = os.wait4(child.pid, 0)
print(usage.ru_maxrss, os.waitstatus_to_exitcode(status))
"""


def peak(arguments: list[str], db: Path) -> tuple[float, float]:
    """Run ``kotarena ARGUMENTS --db DB`` in a new process: its peak resident memory in
    MiB and its wall-clock seconds."""
    started = time.perf_counter()
    run = subprocess.run([sys.executable, "-c", _MEASURE, sys.executable, "-m", "kotarena", *arguments,
                          "--db", str(db)], capture_output=True, text=True, check=True)
    seconds = time.perf_counter() - started
    maxrss, code = (int(value) for value in run.stdout.split())
    if code:
        raise SystemExit(f"kotarena {' '.join(arguments)} failed: {run.stderr}")
    return maxrss / (1024 * 1024 if sys.platform == "darwin" else 1024), seconds  # (bytes on macOS)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--entrants", type=int, default=8)
    parser.add_argument("--night-size", type=int, default=10_000)
    parser.add_argument("--keep", type=Path, metavar="PATH", help="Fill this database (kept) instead of a temporary one.")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        db = args.keep or Path(folder) / "memory.db"
        if not db.exists():
            started = time.perf_counter()
            fill(db, args.games, args.entrants, args.night_size)
            print(f"filled {db} with {args.games:,} games in {time.perf_counter() - started:.1f}s "
                  f"({db.stat().st_size / 2**20:.0f} MiB)")
        print(f"{'command':42s} {'peak RSS':>10s} {'seconds':>8s}")
        for arguments in (["db", "path"], ["leaderboard", LADDER], ["league", "status", LADDER],
                          ["matches", "--ladder", LADDER], ["history", "bot-0", "--json"], ["history", "bot-0"],
                          ["league", "rerate", LADDER]):
            memory, seconds = peak(arguments, db)
            print(f"{'kotarena ' + ' '.join(arguments):42s} {memory:7.0f} MiB {seconds:8.1f}")


if __name__ == "__main__":
    main()
