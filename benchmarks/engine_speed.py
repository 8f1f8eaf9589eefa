#!/usr/bin/env python
"""Engine speed: seeded random-bot games per second at 2, 4 and 6 players, one core.

    python benchmarks/engine_speed.py                      # the table, with and without cards
    python benchmarks/engine_speed.py --players 4 --no-deck --games 5000
    python benchmarks/engine_speed.py --profile --players 4 --no-deck   # where the time goes
    python benchmarks/engine_speed.py --profile --game duel --players 2 --deck --games 200

The figures come from :mod:`kotarena.bench`, the same functions ``kotarena bench``
uses. ``--profile`` plays the games under cProfile instead of timing them and prints
the functions with the most time of their own (timings under the profiler are slower
and are not reported).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import platform
import pstats
import sys

from kotarena.bench import bench_engine, play_games


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="2,4,6", help="player counts, comma-separated (default 2,4,6)")
    parser.add_argument("--games", type=int, default=1000, help="timed games per setting (default 1000)")
    cards = parser.add_mutually_exclusive_group()
    cards.add_argument("--deck", dest="deck", action="store_const", const=True, help="with cards only")
    cards.add_argument("--no-deck", dest="deck", action="store_const", const=False, help="without cards only")
    parser.add_argument("--record", action="store_true", help="keep the event log (as replays need)")
    parser.add_argument("--seed", type=int, default=0, help="game i uses seed SEED+i (default 0)")
    parser.add_argument("--warmup", type=int, default=20, help="untimed games first (default 20)")
    parser.add_argument("--game", default="kot", help="the game (default kot; duel, origins)")
    parser.add_argument("--profile", action="store_true", help="profile instead of timing")
    parser.add_argument("--top", type=int, default=25, help="functions to show with --profile (default 25)")
    return parser.parse_args(argv)


def profile(counts: list[int], decks: tuple[bool, ...], games: int, record: bool, seed: int, top: int,
            game: str = "kot") -> None:
    for players in counts:
        for deck in decks:
            profiler = cProfile.Profile()
            profiler.enable()
            play_games(players, games, deck=deck, record=record, seed=seed, game=game)
            profiler.disable()
            out = io.StringIO()
            stats = pstats.Stats(profiler, stream=out)
            stats.sort_stats("tottime").print_stats(top)
            print(f"=== {game}, {players} players, {'cards' if deck else 'no cards'}, {games} games ===")
            print(out.getvalue())


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    counts = [int(part) for part in args.players.split(",") if part.strip()]
    decks = (False, True) if args.deck is None else (args.deck,)
    if args.profile:
        profile(counts, decks, args.games, args.record, args.seed, args.top, args.game)
        return 0
    print(f"{args.game}: Python {platform.python_version()} ({platform.python_implementation()}) on {platform.machine()}, "
          f"seed {args.seed}, record {'on' if args.record else 'off'}, one process")
    results = bench_engine(counts, args.games, decks=decks, record=args.record, seed=args.seed, warmup=args.warmup,
                           game=args.game)
    header = f"{'players':>7}  {'cards':>5}  {'games':>6}  {'games/s':>9}  {'turns/s':>9}  {'decisions/s':>11}  {'mean turns':>10}"
    print(header)
    print("-" * len(header))
    for r in results:
        print(f"{r.players:>7}  {'yes' if r.deck else 'no':>5}  {r.games:>6}  {r.games_per_s:>9,.0f}  "
              f"{r.turns_per_s:>9,.0f}  {r.decisions_per_s:>11,.0f}  {r.mean_turns:>10.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
