#!/usr/bin/env python
"""Bot strength: how often a bot wins games against a field of another bot.

    python benchmarks/bot_strength.py                        # the three standard matchups, with and without cards
    python benchmarks/bot_strength.py --deck --games 400     # with cards only
    python benchmarks/bot_strength.py --matchup mcts:playouts=300/heuristic --games 200
    python benchmarks/bot_strength.py --json > strength.json
    python benchmarks/bot_strength.py --game origins --players 2 --deck --matchup heuristic/random

A matchup ``HERO/FIELD`` seats one HERO and a FIELD bot in every other seat of a
``--players`` game of ``--game`` (4 players of King of Tokyo by default). Bots are
installed bots, by name, optionally with parameters: ``mcts:playouts=300,horizon=1``. The standard matchups are
``heuristic/random``, ``mcts/random`` and ``mcts/heuristic``; the example bots must be
installed (``pip install -e bots/kotarena-heuristic -e bots/kotarena-mcts``).

Games come in *deals*, one per seat: the same game seed with the HERO in seat 1, 2, 3
and so on, so every seat (and the luck the seed hands it: dice depend on the seed and
die positions only) goes to the HERO equally often. Deal ``d`` uses game seed
``SEED + d``; bots get :func:`kotarena.match.bot_seed` seeds, so a run is reproducible.
Games are spread over ``--workers`` processes (default: every core).

The report gives the HERO's share of the games, a 95% Wilson score interval for it
(treating games as independent trials), and the fair share (1 / players): the HERO is
clearly stronger than the FIELD when the whole interval lies above it. It also gives the
HERO's CPU time per decision.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import sys
import time
from dataclasses import asdict, dataclass
from multiprocessing import Pool
from multiprocessing.pool import Pool as WorkerPool

from kotarena.bots.registry import get_bot
from kotarena.games import get_spec, new_game
from kotarena.match import bot_seed, play

PLAYERS = 4  #: the default table
STANDARD_MATCHUPS = ("heuristic/random", "mcts/random", "mcts/heuristic")
Z95 = 1.959963984540054


def parse_bot(spec: str) -> tuple[str, dict[str, object]]:
    """``"mcts:playouts=300,horizon=1"`` -> ``("mcts", {"playouts": 300, "horizon": 1})``."""
    name, _, rest = spec.partition(":")
    params: dict[str, object] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"bot parameter {item!r} in {spec!r} is not KEY=VALUE")
        try:
            params[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            params[key.strip()] = value.strip()
    return name.strip(), params


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion of ``wins`` in ``games``."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class Game:
    """One game to play: the matchup, cards or not, the deal's seed and the HERO's seat."""

    hero: str
    field: str
    deck: bool
    seed: int
    hero_seat: int
    game: str = "kot"
    players: int = PLAYERS


@dataclass(frozen=True)
class GameResult:
    hero_won: bool
    nobody_won: bool
    turns: int
    hero_decisions: int
    hero_seconds: float
    hero_max_seconds: float


class _Timed:
    """Wraps a bot and adds up the CPU time of its decisions."""

    def __init__(self, bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.decisions = 0
        self.seconds = 0.0
        self.max_seconds = 0.0

    def start(self, view) -> None:
        self.bot.start(view)

    def finish(self, view) -> None:
        self.bot.finish(view)

    def choose(self, view):
        began = time.process_time()
        action = self.bot.choose(view)
        spent = time.process_time() - began
        self.decisions += 1
        self.seconds += spent
        self.max_seconds = max(self.max_seconds, spent)
        return action


def play_game(game: Game) -> GameResult:
    """Play one game of a matchup (in a worker process)."""
    hero_name, hero_params = parse_bot(game.hero)
    field_name, field_params = parse_bot(game.field)
    bots = []
    for seat in range(game.players):
        name, params = (hero_name, hero_params) if seat == game.hero_seat else (field_name, field_params)
        bots.append(get_bot(name).make(seed=bot_seed(game.seed, seat), **params))
    hero = bots[game.hero_seat] = _Timed(bots[game.hero_seat])
    state = new_game(game.game, players=game.players, seed=game.seed, deck="default" if game.deck else None, record=False)
    play(state, bots)
    outcome = state.outcome
    return GameResult(outcome.winner == game.hero_seat, outcome.winner is None, outcome.turns,
                      hero.decisions, hero.seconds, hero.max_seconds)


@dataclass(frozen=True)
class MatchupResult:
    """The HERO's record in one matchup and deck setting."""

    hero: str
    field: str
    deck: bool
    games: int
    wins: int
    nobody_won: int
    low: float
    high: float
    fair: float
    mean_turns: float
    hero_ms_per_decision: float
    hero_max_ms: float
    seconds: float

    @property
    def share(self) -> float:
        return self.wins / self.games

    @property
    def verdict(self) -> str:
        if self.low > self.fair:
            return "stronger"
        if self.high < self.fair:
            return "weaker"
        return "not separated"

    def to_json(self) -> dict:
        data = asdict(self)
        data.update(share=round(self.share, 4), low=round(self.low, 4), high=round(self.high, 4),
                    verdict=self.verdict)
        return data


def check_matchup(matchup: str) -> tuple[str, str]:
    """``(hero, field)`` of a ``HERO/FIELD`` matchup whose bots are installed (else ValueError)."""
    hero, _, field = matchup.partition("/")
    if not hero or not field:
        raise ValueError(f"matchup {matchup!r} is not HERO/FIELD, e.g. mcts/heuristic")
    for spec in (hero, field):
        get_bot(parse_bot(spec)[0])  # an unknown bot fails here, with the installed ones named
    return hero, field


def run_matchup(pool: WorkerPool, matchup: str, deck: bool, deals: int, seed: int, game: str = "kot",
                players: int = PLAYERS) -> MatchupResult:
    hero, field = check_matchup(matchup)
    games = [Game(hero, field, deck, seed + deal, seat, game, players)
             for deal in range(deals) for seat in range(players)]
    began = time.perf_counter()
    results = pool.map(play_game, games, chunksize=1)
    seconds = time.perf_counter() - began
    wins = sum(r.hero_won for r in results)
    low, high = wilson(wins, len(results))
    decisions = sum(r.hero_decisions for r in results)
    return MatchupResult(
        hero, field, deck, len(results), wins, sum(r.nobody_won for r in results), low, high,
        1 / players, sum(r.turns for r in results) / len(results),
        1000 * sum(r.hero_seconds for r in results) / max(1, decisions),
        1000 * max(r.hero_max_seconds for r in results), seconds,
    )


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matchup", action="append", metavar="HERO/FIELD",
                        help="a matchup to play (repeatable; default: " + ", ".join(STANDARD_MATCHUPS) + ")")
    parser.add_argument("--games", type=int, default=400,
                        help="games per matchup and deck setting, rounded up to a multiple of the players (default 400)")
    parser.add_argument("--game", default="kot", help="the game (a name, alias or name with options; default kot)")
    parser.add_argument("--players", type=int, default=PLAYERS, help=f"players per game (default {PLAYERS})")
    cards = parser.add_mutually_exclusive_group()
    cards.add_argument("--deck", dest="deck", action="store_const", const=True, help="with cards only")
    cards.add_argument("--no-deck", dest="deck", action="store_const", const=False, help="without cards only")
    parser.add_argument("--seed", type=int, default=0, help="deal d uses game seed SEED+d (default 0)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes (default: every core)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    matchups = args.matchup or list(STANDARD_MATCHUPS)
    decks = (True, False) if args.deck is None else (args.deck,)
    players = args.players
    deals = max(1, math.ceil(args.games / players))
    try:
        get_spec(args.game).check_players(players)
        for matchup in matchups:
            check_matchup(matchup)
            for name in matchup.split("/"):
                get_bot(parse_bot(name)[0]).check_plays(args.game)
    except ValueError as error:
        print(f"Error: {error}", file=sys.stderr)
        return 1
    results = []
    if not args.json:
        print(f"Python {platform.python_version()} on {platform.machine()}, {args.workers} workers, "
              f"seed {args.seed}, {deals * players} games per line, {get_spec(args.game).title}, {players} players, "
              "HERO in every seat equally")
        header = (f"{f'HERO vs {players - 1} FIELD':<28}  {'cards':>5}  {'games':>5}  {'wins':>5}  {'share':>6}  "
                  f"{'95% CI':>15}  {'fair':>5}  {'verdict':<13}  {'ms/decision':>11}  {'max ms':>7}  {'time':>6}")
        print(header)
        print("-" * len(header))
    with Pool(args.workers) as pool:
        for matchup in matchups:
            for deck in decks:
                r = run_matchup(pool, matchup, deck, deals, args.seed, args.game, players)
                results.append(r)
                if not args.json:
                    label = f"{r.hero} vs {players - 1} {r.field}"
                    print(f"{label:<28}  {'yes' if r.deck else 'no':>5}  {r.games:>5}  {r.wins:>5}  "
                          f"{r.share:>6.3f}  [{r.low:.3f}, {r.high:.3f}]  {r.fair:>5.3f}  {r.verdict:<13}  "
                          f"{r.hero_ms_per_decision:>11.2f}  {r.hero_max_ms:>7.1f}  {r.seconds:>5.0f}s", flush=True)
    if args.json:
        print(json.dumps([r.to_json() for r in results], indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
