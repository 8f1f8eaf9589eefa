"""How long ``kotarena site build`` takes on a large database, the first time and the
next night's, and how big its pages are.

Plays ``--played`` real games (nights of ``--night-size``, four seats, the heuristic bot
and four random ones, duplicate sets, cards) into a new SQLite database with ``kotarena
league run``; with ``--games`` above that, copies those nights (their matches and seats,
as stored) as further nights until the ladder holds ``--games`` games (a copied seat keeps its
original's rating: the charts repeat themselves, their cost is the same). (Copying is how a 300,000-game
database is made in minutes: playing it would take hours.) ``--keep`` names a database
that is kept, or reused when it exists.

Then, each in a fresh process with its wall-clock and CPU seconds (the builder and its
workers together), the games it played again for the viewer and its peak memory (the
largest process's): the first build into an empty folder; with ``--rebuilds``, the
next night's build (one more night of ``--night-size`` games copied in, then the same
command into the same folder); and a build with nothing new. Last, the sizes: the
leaderboard page, the largest page, the whole site.

    python benchmarks/site_build.py                                  # 10,000 games, all played
    python benchmarks/site_build.py --games 300000 --keep big.db     # 2,000 played, copied to 300,000
    python benchmarks/site_build.py --keep big.db --rebuilds 2       # the same again, two nights more
    python benchmarks/site_build.py --keep big.db --site big-site --charts 2   # and charts carried vs read
"""

from __future__ import annotations

import argparse
import json
import re
import sqlite3
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
#: the build's worker processes), its peak memory (KiB, the largest process's) and exit code.
_MEASURE = """
import os, subprocess, sys
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
_, status, usage = os.wait4(child.pid, 0)
sys.stderr.write(child.stderr.read())
print(usage.ru_utime + usage.ru_stime, usage.ru_maxrss, os.waitstatus_to_exitcode(status))
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


def copy_nights(db: Path, games: int) -> int:
    """Copy the ladder's played nights, in turn, as new nights until it holds ``games``
    games (at least one night more); returns the games it holds."""
    with sqlite3.connect(db) as connection:
        ladder_id, = connection.execute("SELECT id FROM ladder WHERE name = 'site-bench'").fetchone()
        played = connection.execute("SELECT n.id, count(*) FROM night n JOIN match m ON m.night_id = n.id "
                                    "WHERE n.ladder_id = ? AND n.status = 'done' GROUP BY n.id ORDER BY n.number",
                                    (ladder_id,)).fetchall()
        held, = connection.execute("SELECT count(*) FROM match m JOIN night n ON m.night_id = n.id "
                                   "WHERE n.ladder_id = ?", (ladder_id,)).fetchone()
        turn = 0
        while True:
            template, size = played[turn % len(played)]
            turn += 1
            number, = connection.execute("SELECT max(number) + 1 FROM night WHERE ladder_id = ?",
                                         (ladder_id,)).fetchone()
            night = connection.execute(
                "INSERT INTO night (ladder_id, number, seed, sealed, commitment, fingerprint, config, planned, "
                "status, started_at, finished_at) SELECT ladder_id, ?, seed + ?, sealed, commitment, fingerprint, "
                "config, planned, status, datetime('now'), datetime('now') FROM night WHERE id = ?",
                (number, number, template)).lastrowid
            connection.execute(
                'INSERT INTO match (night_id, "index", key, game, seed, first_player, rules_version, status, '
                "termination, winner_seat, turns, duration, replay, rated, played_at) "
                'SELECT ?, "index", key, game, seed, first_player, rules_version, status, termination, winner_seat, '
                "turns, duration, replay, rated, played_at FROM match WHERE night_id = ?", (night, template))
            connection.execute(
                "INSERT INTO seat (match_id, seat, entrant, rank, forfeit, forfeit_detail, decisions, cpu_seconds, "
                "facts, bot_version_id, mu, sigma) SELECT new.id, s.seat, s.entrant, s.rank, s.forfeit, "
                "s.forfeit_detail, s.decisions, s.cpu_seconds, s.facts, s.bot_version_id, s.mu, s.sigma "
                "FROM seat s JOIN match old ON s.match_id = old.id "
                'JOIN match new ON new.night_id = ? AND new."index" = old."index" WHERE old.night_id = ?',
                (night, template))
            held += size
            if held >= games:
                _rating_after_last_match(connection, ladder_id)
                connection.commit()
                return held
            connection.commit()


def _rating_after_last_match(connection: sqlite3.Connection, ladder_id: int) -> None:
    """Make each entrant's current rating its rating after its last copied match, as in
    a ladder that played them (the site checks its stored charts against it)."""
    for entrant, in connection.execute("SELECT entrant FROM rating WHERE ladder_id = ?", (ladder_id,)).fetchall():
        last = connection.execute(
            'SELECT s.mu, s.sigma FROM seat s JOIN match m ON s.match_id = m.id JOIN night n ON m.night_id = n.id '
            'WHERE n.ladder_id = ? AND s.entrant = ? AND s.mu IS NOT NULL ORDER BY n.number DESC, m."index" DESC, '
            's.mu LIMIT 1', (ladder_id, entrant)).fetchone()
        if last is not None:
            connection.execute("UPDATE rating SET mu = ?, sigma = ? WHERE ladder_id = ? AND entrant = ?",
                               (*last, ladder_id, entrant))


def build(db: Path, out: Path, workers: int | None) -> tuple[float, float, int, int]:
    """Build the site of ``db`` into ``out`` in a new process: wall-clock and CPU seconds,
    peak memory (KiB) and the games played again for the viewer."""
    command = [sys.executable, "-m", "kotarena", "site", "build", str(out), "--db", str(db)]
    if workers is not None:
        command += ["--workers", str(workers)]
    started = time.perf_counter()
    run = subprocess.run([sys.executable, "-c", _MEASURE, *command], capture_output=True, text=True, check=True)
    wall = time.perf_counter() - started
    cpu, memory, code = run.stdout.split()
    if int(code):
        raise SystemExit(f"the site build failed: {run.stderr}")
    replayed = re.search(r"(\d+) games? played again", run.stderr)
    return wall, float(cpu), int(memory), int(replayed.group(1)) if replayed else -1


def drop_charts(out: Path) -> None:
    """Make the next build into ``out`` read every chart from the database, as builds did
    before they carried the charts on."""
    path = out / ".kotarena-build.json"
    manifest = json.loads(path.read_text())
    for record in manifest["ladders"].values():
        record.pop("charts", None)
    path.write_text(json.dumps(manifest))


def sizes(out: Path) -> tuple[int, tuple[int, str], int, int]:
    """The leaderboard page's bytes, the largest page's (and its name), the site's bytes and files."""
    files = [path for path in out.rglob("*") if path.is_file()]
    pages = [path for path in files if path.suffix == ".html"]
    largest = max(pages, key=lambda path: path.stat().st_size)
    return ((out / "site-bench" / "index.html").stat().st_size, (largest.stat().st_size, str(largest.relative_to(out))),
            sum(path.stat().st_size for path in files), len(files))


def report(what: str, measured: tuple[float, float, int, int]) -> None:
    wall, cpu, memory, replayed = measured
    print(f"{what}: {wall:.1f} s wall clock, {cpu:.1f} s CPU, {replayed:,} games played again, "
          f"peak memory {memory / 1024:.0f} MiB", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="Games in the ladder (default 10,000).")
    parser.add_argument("--played", type=int, help="Of them, played for real (default: all; the rest are copies).")
    parser.add_argument("--night-size", type=int, default=2_000)
    parser.add_argument("--rebuilds", type=int, default=1, help="Nights added, each followed by a build.")
    parser.add_argument("--workers", type=int, help="The build's --workers (default: its own, all cores).")
    parser.add_argument("--keep", type=Path, metavar="PATH", help="Play into this database (kept), or reuse it.")
    parser.add_argument("--charts", type=int, default=0, metavar="N",
                        help="Then N interleaved pairs of builds with nothing new: the charts carried on from the "
                             "last build, and read from the database (the manifest's lines dropped).")
    parser.add_argument("--site", type=Path, metavar="PATH", help="Build into this folder (kept; default: a temporary one).")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        db = args.keep or folder / "site.db"
        if not db.exists():
            played = min(args.played or args.games, args.games)
            started = time.perf_counter()
            fill(db, played, args.night_size, folder)
            print(f"played {played:,} games into {db} in {time.perf_counter() - started:.0f} s", flush=True)
            if args.games > played:
                started = time.perf_counter()
                held = copy_nights(db, args.games)
                print(f"copied them to {held:,} games in {time.perf_counter() - started:.0f} s", flush=True)
        out = args.site or folder / "site"
        report("first build", build(db, out, args.workers))
        for night in range(1, args.rebuilds + 1):
            with sqlite3.connect(db) as connection:
                held, = connection.execute("SELECT count(*) FROM match").fetchone()
            copy_nights(db, held + 1)
            report(f"after night {night} more", build(db, out, args.workers))
        report("nothing new", build(db, out, args.workers))
        for _ in range(args.charts):
            report("nothing new, charts carried on", build(db, out, args.workers))
            drop_charts(out)
            report("nothing new, charts read from the database", build(db, out, args.workers))
        board, (largest, largest_name), total, files = sizes(out)
        print(f"leaderboard page {board / 1024:.1f} KiB; largest page {largest_name} {largest / 1024:.0f} KiB; "
              f"site {total / 2**20:.1f} MiB in {files} files")


if __name__ == "__main__":
    main()
