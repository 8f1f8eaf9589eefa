"""What a decision costs a bot on the protocol: the Go heuristic against the same bot in Python.

The Go bot (``bots/kotarena-go-heuristic``) makes the very decisions of the Python
heuristic bot, so the same seeds play the same games with either at the first seat
(the script checks the replays are equal). Each round plays the same games three ways,
through the league's own match runner (``play_match``) in this process, the other seats
``random`` bots in this process:

* ``python in-process``: the heuristic trusted, called directly (no protocol);
* ``python sandboxed``: the heuristic untrusted: its instance in the sandbox, whose
  player plays game after game, the JSON-lines protocol;
* ``go sandboxed``: the Go program in the sandbox, the same protocol.

The overhead per decision is the difference of wall-clock times over the first seat's
decisions (for the Go bot, the program started for each game is in it). The median of the rounds is
printed, with each bot's own CPU time per decision (its cgroup's count when
sandboxed). ``--night N`` then plays a league night of N games with the Go bot, on the
league's workers and into a fresh database, and counts its forfeits.

    python benchmarks/protocol_overhead.py                        # 200 games, 5 rounds
    python benchmarks/protocol_overhead.py --games 400 --night 1000
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from kotarena.sandbox.jail import sandbox_problem
from kotarena.sandbox.seat import close_servers
from kotarena.tournament.matches import MatchJob, play_match
from kotarena.tournament.seats import GUARD, SeatSpec

# The heuristic plays in this process too (trusted), so its package is imported here:
# trusted from the start, as `kotarena --trust kotarena-heuristic` would.
os.environ["KOTARENA_TRUST"] = ",".join(filter(None, [os.environ.get("KOTARENA_TRUST"), "kotarena-heuristic"]))

WAYS = {
    "python in-process": SeatSpec("bot", "heuristic", trusted=True),
    "python sandboxed": SeatSpec("bot", "heuristic", trusted=False),
    "go sandboxed": SeatSpec("bot", "go-heuristic", trusted=False),
}


def play(way: str, games: int, log_dir: str) -> tuple[float, int, float, list[str]]:
    """Wall seconds, the first seat's decisions and CPU seconds, and the replays."""
    seats = (WAYS[way], *(SeatSpec(f"random-{n}", "random") for n in range(1, 4)))
    jobs = [MatchJob(index=i, key=str(i), game="kot", deck="kot", seed=i, first_player=None, seats=seats,
                     time_limit=1.0, log_dir=log_dir) for i in range(games)]
    # The instances start (once per night in a league), on a deal of their own: an
    # instance never meets a deal twice.
    play_match(MatchJob(index=-1, key="warm-up", game="kot", deck="kot", seed=games, first_player=None, seats=seats,
                        time_limit=1.0, log_dir=log_dir), keep_guard=True)
    started = time.perf_counter()
    results = [play_match(job, keep_guard=True) for job in jobs]
    wall = time.perf_counter() - started
    GUARD.disarm()
    forfeits = [seat.forfeit for result in results for seat in result.seats if seat.forfeit]
    if forfeits:
        raise SystemExit(f"{way}: forfeits {forfeits}")
    first = [result.seats[0] for result in results]
    # (a replay names its bots: set the name aside, the actions must be the same)
    replays = [r.replay.replace("\nbots go-heuristic ", "\nbots heuristic ", 1) for r in results]
    return wall, sum(s.decisions for s in first), sum(s.cpu_seconds for s in first), replays


def night(games: int, workers: int) -> None:
    """A league night of ``games`` with the Go bot: its forfeits and its speed."""
    ladder = f"""name = "go-night"\ngame = "kot"\ndeck = "kot"\nplayers = 4\ngames = {games}\ntime_limit = 1.0
seed = 1\n\n[[bots]]\nname = "go-heuristic"\n\n[[bots]]\nname = "heuristic"\n\n[[bots]]\nname = "random"
\n[[bots]]\nname = "random"\nlabel = "random-2"\n"""
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "go-night.toml"
        path.write_text(ladder)
        db = str(Path(directory) / "night.db")
        started = time.perf_counter()
        run = subprocess.run([sys.executable, "-m", "kotarena", "league", "run", str(path), "--db", db, "--workers",
                              str(workers), "--quiet"], capture_output=True, text=True)
        wall = time.perf_counter() - started
        if run.returncode != 0:
            raise SystemExit(f"the night failed: {run.stderr[-2000:]}")
        board = json.loads(subprocess.run([sys.executable, "-m", "kotarena", "leaderboard", "go-night", "--db", db,
                                           "--json"], capture_output=True, text=True, check=True).stdout)
    rows = board["go-night"]
    print(f"night of {games} games, {workers} workers, {wall:.1f}s ({games / wall:.1f} games/s):")
    for row in rows:
        print(f"  {row['entrant']:<14} games {row['games']:>5}  wins {row['wins']:>5}  forfeits {row['forfeits']}")
    print(f"matches stored: {sum(row['games'] for row in rows) // 4}; forfeits: {sum(row['forfeits'] for row in rows)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per way and round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--night", type=int, default=0, help="then a league night of this many games")
    parser.add_argument("--workers", type=int, default=2, help="the night's workers")
    args = parser.parse_args()
    problem = sandbox_problem()
    if problem is not None:
        raise SystemExit(f"no sandbox here: {problem}")
    walls: dict[str, list[float]] = {way: [] for way in WAYS}
    decisions = 0
    cpus: dict[str, float] = dict.fromkeys(WAYS, 0.0)
    with tempfile.TemporaryDirectory() as log_dir:
        for _ in range(args.rounds):
            replays = {}
            for way in WAYS:
                wall, decisions, cpu, replays[way] = play(way, args.games, log_dir)
                walls[way].append(wall)
                cpus[way] += cpu
            if len({tuple(r) for r in replays.values()}) != 1:
                raise SystemExit("the Go bot and the Python heuristic played different games")
        close_servers()
    print(f"{args.games} games of kot (4 seats: the bot, 3 random), {args.rounds} rounds, same games every way "
          f"(checked); the bot's decisions: {decisions:.0f} a round, {decisions / args.games:.1f} a game")
    base = statistics.median(walls["python in-process"])
    print(f"{'way':<18} {'ms/game':>8} {'overhead/decision':>18} {'bot CPU/decision':>17}")
    for way, times in walls.items():
        wall = statistics.median(times)
        overhead = (wall - base) / decisions * 1e6
        # (a trusted bot's CPU time is not told apart from the referee's: no figure)
        own = "-" if way == "python in-process" else f"{cpus[way] / args.rounds / decisions * 1e6:.0f} us"
        print(f"{way:<18} {wall / args.games * 1e3:>8.2f} {overhead:>15.0f} us {own:>17}")
    if args.night:
        night(args.night, args.workers)


if __name__ == "__main__":
    main()
