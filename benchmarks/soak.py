"""Soak the engine: many random games at every player count, every invariant checked.

    python benchmarks/soak.py --games 20000            # both cores, full deck and no deck
    python benchmarks/soak.py --games 5000 --deck      # full deck only
    python benchmarks/soak.py --game origins --record  # Origins, 2-4 players, with the event log
    python benchmarks/soak.py --game origins --decks origins,none,kot-2e+origins  # decks in turn

Each game is checked with ``kotarena.testing.invariants`` after every action; a broken
invariant or a crash stops the soak with the seed and actions that reproduce it. The
unit tests run a few thousand such games; this script is for tens of thousands. Games
are played at every player count the game allows; ``--record`` keeps each game's event
log, which the checks that read it need (Origins: Tokyo is empty at a buy step only if
somebody left it that turn).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor


def soak(args: tuple[int, int, tuple, str, tuple[int, ...], bool]) -> tuple[int, int, int]:
    """Play ``count`` games from ``seed``; returns (games, actions, longest game in actions)."""
    from kotarena.testing import random_games

    count, seed, decks, game, players, record = args
    actions = longest = 0
    for state in random_games(count, decks=decks, seed=seed, game=game, players=players, record=record):
        actions += len(state.history)
        longest = max(longest, len(state.history))
    return count, actions, longest


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--deck", action="store_true", help="only games with the full deck")
    parser.add_argument("--decks", default=None, metavar="DECK,DECK,...",
                        help="the decks to play in turn, by name or mix ('none': no cards); "
                             "default: the game's deck and no deck")
    parser.add_argument("--game", default="kot", help="the game (a name, alias or name with options; default kot)")
    parser.add_argument("--record", action="store_true", help="keep every game's event log (checks that read it)")
    options = parser.parse_args()
    from kotarena.games import get_spec

    spec = get_spec(options.game)
    players = tuple(range(spec.min_players, spec.max_players + 1))
    if options.decks:
        decks = tuple(None if name == "none" else name for name in options.decks.split(","))
    else:
        decks = ("default",) if options.deck else ("default", None)
    chunk = 500
    jobs = [(min(chunk, options.games - start), options.seed + start, decks, options.game, players, options.record)
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
    deck_text = options.decks or f"{spec.deck}{'' if options.deck else ' and no deck'}"
    print(f"\n{games} games of {spec.title} ({players[0]}-{players[-1]} players, decks {deck_text}"
          f"{', event log kept' if options.record else ''}), "
          f"{actions} actions, every invariant checked after each: no failure. "
          f"Longest game {longest} actions; {seconds:.0f}s on {options.workers} workers.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
