"""How long ``kotarena site build`` takes on a large database, and how big its pages are.

Plays ``--games`` real games (nights of ``--night-size``, four seats, the heuristic bot
and four random ones, duplicate sets, cards) into a new SQLite database with ``kotarena
league run``, unless ``--keep`` names a database that already holds them, then builds
the whole site ``--rounds`` times in a fresh process each and prints each build's
wall-clock and CPU seconds (the builder and its workers together), then the sizes:
the leaderboard page, the largest page, the whole site.

    python benchmarks/site_build.py                            # 10,000 games
    python benchmarks/site_build.py --keep big.db --rounds 3   # keep the games for the next run
    python benchmarks/site_build.py --games 2000 --workers 1
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LADDER = """
name = "site-bench"
game = "kot"
deck = "kot"
players = 4
games = {games}
seed = 1
time_limit = 1.0
duplicate = true

[[bots]]
name = "heuristic"
trusted = true

[[bots]]
name = "random"

[[bots]]
name = "random"
label = "random-2"

[[bots]]
name = "random"
label = "random-3"

[[bots]]
name = "random"
label = "random-4"
"""

#: Runs a command and prints its CPU seconds (its own and its waited-for children's:
#: the build's worker processes) and exit code.
_MEASURE = """
import os, subprocess, sys
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
_, status, usage = os.wait4(child.pid, 0)
print(usage.ru_utime + usage.ru_stime, os.waitstatus_to_exitcode(status))
"""


def kotarena(*arguments: str) -> None:
    subprocess.run([sys.executable, "-m", "kotarena", *arguments], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)


def fill(db: Path, games: int, night_size: int, folder: Path) -> None:
    """Play ``games`` games into ``db``, ``night_size`` a night."""
    for start in range(0, games, night_size):
        ladder = folder / f"site-bench-{start}.toml"
        ladder.write_text(LADDER.format(games=min(night_size, games - start)))
        kotarena("league", "run", str(ladder), "-q", "--db", str(db))


def build(db: Path, out: Path, workers: int | None) -> tuple[float, float]:
    """Build the site of ``db`` into ``out`` in a new process: wall-clock and CPU seconds."""
    command = [sys.executable, "-m", "kotarena", "site", "build", str(out), "-q", "--db", str(db)]
    if workers is not None:
        command += ["--workers", str(workers)]
    started = time.perf_counter()
    run = subprocess.run([sys.executable, "-c", _MEASURE, *command], capture_output=True, text=True, check=True)
    wall = time.perf_counter() - started
    cpu, code = run.stdout.split()
    if int(code):
        raise SystemExit(f"the site build failed: {run.stderr}")
    return wall, float(cpu)


def sizes(out: Path) -> tuple[int, tuple[int, str], int, int]:
    """The leaderboard page's bytes, the largest page's (and its name), the site's bytes and files."""
    files = [path for path in out.rglob("*") if path.is_file()]
    pages = [path for path in files if path.suffix == ".html"]
    largest = max(pages, key=lambda path: path.stat().st_size)
    return ((out / "site-bench" / "index.html").stat().st_size, (largest.stat().st_size, str(largest.relative_to(out))),
            sum(path.stat().st_size for path in files), len(files))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--night-size", type=int, default=2_000)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--workers", type=int, help="The build's --workers (default: its own, all cores).")
    parser.add_argument("--keep", type=Path, metavar="PATH", help="Play into this database (kept), or reuse it.")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        db = args.keep or folder / "site.db"
        if not db.exists():
            started = time.perf_counter()
            fill(db, args.games, args.night_size, folder)
            print(f"played {args.games:,} games into {db} in {time.perf_counter() - started:.0f} s")
        for round_ in range(1, args.rounds + 1):
            wall, cpu = build(db, folder / f"site-{round_}", args.workers)
            print(f"build {round_}: {wall:.1f} s wall clock, {cpu:.1f} s CPU")
        board, (largest, largest_name), total, files = sizes(folder / f"site-{args.rounds}")
        print(f"leaderboard page {board / 1024:.1f} KiB; largest page {largest_name} {largest / 1024:.0f} KiB; "
              f"site {total / 2**20:.1f} MiB in {files} files")


if __name__ == "__main__":
    main()
