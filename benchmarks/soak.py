"""Soak the engine: many random games at every player count, every invariant checked.

    python benchmarks/soak.py --games 20000            # both cores, full deck and no deck
    python benchmarks/soak.py --games 5000 --deck      # full deck only

Each game is checked with ``kotarena.testing.invariants`` after every action; a broken
invariant or a crash stops the soak with the seed and actions that reproduce it. The
unit tests run a few thousand such games; this script is for tens of thousands.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor


def soak(args: tuple[int, int, tuple]) -> tuple[int, int, int]:
    """Play ``count`` games from ``seed``; returns (games, actions, longest game in actions)."""
    from kotarena.testing import random_games

    count, seed, decks = args
    actions = longest = 0
    for state in random_games(count, decks=decks, seed=seed):
        actions += len(state.history)
        longest = max(longest, len(state.history))
    return count, actions, longest


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--deck", action="store_true", help="only games with the full deck")
    options = parser.parse_args()
    decks = ("default",) if options.deck else ("default", None)
    chunk = 500
    jobs = [(min(chunk, options.games - start), options.seed + start, decks)
            for start in range(0, options.games, chunk)]
    started = time.perf_counter()
    games = actions = longest = 0
    with ProcessPoolExecutor(max_workers=options.workers) as pool:
        for played, acted, long_game in pool.map(soak, jobs):
            games += played
            actions += acted
            longest = max(longest, long_game)
            print(f"\r{games}/{options.games} games", end="", file=sys.stderr)
    seconds = time.perf_counter() - started
    print(f"\n{games} games (2-6 players, {'full deck' if options.deck else 'full deck and no deck'}), "
          f"{actions} actions, every invariant checked after each: no failure. "
          f"Longest game {longest} actions; {seconds:.0f}s on {options.workers} workers.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
