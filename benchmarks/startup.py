"""CPU time of the league's database commands, from start to answer, on a database of
``--games`` games: what a user waits for on every command.

Each command runs in a fresh process ``--rounds`` times, the commands interleaved (so
a machine's load falls on all of them alike), and its CPU time (user + system, from
``wait4``) is printed as a median and a minimum, beside three floors: Python doing
nothing, Python importing SQLAlchemy, which every database command needs, and Python
importing SQLModel, which the read-only commands no longer do (the writes and the
creation of a database's tables still do). The last line names the database commands
whose median is over the budget (``--budget``, 0.3 s). ``--against DIR`` runs the same
commands from another source tree too (``PYTHONPATH``, e.g. a checkout of main),
interleaved with these, and prints the ratio. The commands run in a temporary folder,
so that the current directory's ``kotarena`` (first on ``sys.path``) is not the one
measured.

    python benchmarks/startup.py                              # 150,000 games
    python benchmarks/startup.py --games 2000 --rounds 5 --against /work/main
    python -X importtime -m kotarena matches --db DB 2>&1 | sort -t'|' -k2 -n | tail

The figures, session by session, are in benchmarks/startup-log.md; docs/league.md
("Start-up") has the latest.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from query_memory import LADDER, fill  # noqa: E402 - the same synthetic ladder


def commands(db: Path) -> list[tuple[str, list[str]]]:
    """(label, arguments of ``python``) for each measured command."""
    kotarena = [sys.executable, "-m", "kotarena"]
    return [
        ("python -c pass", [sys.executable, "-c", "pass"]),
        ("python -c 'import sqlalchemy'", [sys.executable, "-c", "import sqlalchemy"]),
        ("python -c 'import sqlmodel'", [sys.executable, "-c", "import sqlmodel"]),
        ("kotarena --help", [*kotarena, "--help"]),
        ("kotarena db path", [*kotarena, "db", "path", "--db", str(db)]),
        ("kotarena leaderboard", [*kotarena, "leaderboard", LADDER, "--db", str(db)]),
        ("kotarena matches", [*kotarena, "matches", "--db", str(db)]),
        ("kotarena league status", [*kotarena, "league", "status", LADDER, "--db", str(db)]),
        ("kotarena history bot-0", [*kotarena, "history", "bot-0", "--db", str(db)]),
    ]


def cpu_seconds(arguments: list[str], source: str | None, folder: str) -> float:
    """The CPU time (user + system) of one run of ``arguments`` in ``folder``;
    ``source``: a source tree put first on ``PYTHONPATH``."""
    env = dict(os.environ)
    if source:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(Path(source).resolve()), env.get("PYTHONPATH")]))
    child = subprocess.Popen(arguments, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=folder)
    _, status, usage = os.wait4(child.pid, 0)
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"{' '.join(arguments)} failed: {child.stderr.read().decode()}")
    child.stderr.close()
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=150_000)
    parser.add_argument("--entrants", type=int, default=4, help="Entrants (at 4 seats: 4 means each plays every game).")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--against", metavar="DIR", help="Another source tree to compare with (e.g. main's).")
    parser.add_argument("--keep", type=Path, metavar="PATH", help="Fill this database (kept) instead of a temporary one.")
    parser.add_argument("--budget", type=float, default=0.3, metavar="SECONDS",
                        help="The CPU time a database command should start and answer in (median).")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        db = (args.keep or Path(folder) / "startup.db").resolve()
        if not db.exists():
            fill(db, args.games, args.entrants, 10_000)
        sources = [None] + ([args.against] if args.against else [])
        measured: dict[tuple[str, str | None], list[float]] = {}
        load = os.getloadavg()[0]
        started = time.perf_counter()
        for _ in range(args.rounds):
            for label, arguments in commands(db):
                for source in sources:
                    measured.setdefault((label, source), []).append(cpu_seconds(arguments, source, folder))
        print(f"CPU seconds from start to answer, {args.games:,} games in the database, {args.rounds} rounds "
              f"interleaved (median, min); load average {load:.1f} at the start, {time.perf_counter() - started:.0f}s")
        header = f"{'command':32s} {'this tree':>15s}"
        if args.against:
            header += f" {args.against:>15s} {'ratio':>6s}"
        print(header)
        for label, _ in commands(db):
            here = measured[(label, None)]
            line = f"{label:32s} {statistics.median(here):7.3f} ({min(here):.3f})"
            if args.against:
                there = measured[(label, args.against)]
                line += (f" {statistics.median(there):7.3f} ({min(there):.3f})"
                         f" {statistics.median(here) / statistics.median(there):6.2f}")
            print(line)
        over = [label for label, _ in commands(db)
                if label.startswith("kotarena ") and label != "kotarena --help"
                and statistics.median(measured[(label, None)]) > args.budget]
        print(f"database commands over {args.budget} CPU-s (median): {', '.join(over) or 'none'}")


if __name__ == "__main__":
    main()
