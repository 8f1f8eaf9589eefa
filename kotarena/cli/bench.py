"""``kotarena bench``: how fast the engine plays (``kotarena bench`` alone runs ``engine``)."""

from __future__ import annotations

import statistics
from typing import TYPE_CHECKING

import click

from kotarena.cli.play import game_option, seed_option

if TYPE_CHECKING:
    from kotarena.tournament.throughput import Throughput

DEFAULT_SUBCOMMAND = "engine"


class DefaultGroup(click.Group):
    """A group that runs a default subcommand when the first argument names no other.

    So ``kotarena bench`` and ``kotarena bench --games 100`` mean
    ``kotarena bench engine ...``, while ``kotarena bench --help`` still shows the group.
    """

    def __init__(self, *args, default: str, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.default = default

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args or (args[0] not in self.commands and args[0] not in ctx.help_option_names):
            args = [self.default, *args]
        return super().parse_args(ctx, args)


def parse_counts(ctx: click.Context, param: click.Parameter, value: str) -> tuple[int, ...]:
    try:
        counts = tuple(int(part) for part in value.split(",") if part.strip())
    except ValueError:
        raise click.ClickException(f"bad --players {value!r}: give player counts such as 2,4,6") from None
    if not counts or any(n < 1 for n in counts):
        raise click.ClickException(f"bad --players {value!r}: give player counts such as 2,4,6")
    return counts


@click.group(cls=DefaultGroup, default=DEFAULT_SUBCOMMAND)
def bench() -> None:
    """Benchmarks (``engine`` by default). Not part of the test suite."""


@bench.command()
@click.option("--players", default="2,4,6", show_default=True, callback=parse_counts, metavar="N,N,...",
              help="Player counts to time, comma-separated.")
@click.option("--games", type=click.IntRange(min=1), default=1000, show_default=True, metavar="N",
              help="Timed games per player count and deck setting.")
@click.option("--deck/--no-deck", default=None,
              help="Time games with cards only, or without only. Default: both.")
@click.option("--record/--no-record", default=False, show_default=True,
              help="Keep the event log, as replays need (slower).")
@click.option("--warmup", type=click.IntRange(min=0), default=20, show_default=True, metavar="N",
              help="Untimed games played first, per setting.")
@click.option("--buyers", is_flag=True,
              help="Random bots that buy a card whenever they can afford one (the card benchmark).")
@click.option("--reference", is_flag=True,
              help="Also time a plain-Python reference loop before and after, and scale the figures to the "
                   "machine the peer engines were measured on (this machine's speed varies).")
@game_option
@seed_option
@click.option("--json", "json_", is_flag=True, help="Print JSON (the seed goes to stderr).")
def engine(players: tuple[int, ...], games: int, deck: bool | None, record: bool, warmup: int,
           buyers: bool, reference: bool, game, seed: int | None, json_: bool) -> None:
    """Games/s, turns/s and decisions/s of random bots, single process, one core.

    Game i uses seed S+i (default S=0), so every run plays the same games.

    \b
    Examples:
      kotarena bench
      kotarena bench engine --players 4 --no-deck --games 5000
      kotarena bench engine --players 4 --deck --buyers --games 2000 --reference
      kotarena bench engine --json
      kotarena bench engine --game kot --players 4 --deck --buyers
    """
    from kotarena.bench import REFERENCE_AT_PEER_MEASUREMENT, reference_rate, time_games
    from kotarena.cli.output import echo_json, table_text

    spec = game.spec
    wrong = [n for n in players if not spec.min_players <= n <= spec.max_players]
    if wrong:
        raise click.ClickException(f"bad --players: {spec.title} is for {spec.players_text}, "
                                   f"not {', '.join(map(str, wrong))}")
    if spec.deck is None:
        deck = False
    seed = 0 if seed is None else seed
    click.echo(f"seed: {seed}; {spec.title}; {_build_line()}", err=True)
    before = reference_rate() if reference else None
    decks = (False, True) if deck is None else (deck,)
    results = []
    for count in players:
        for with_deck in decks:
            result = time_games(count, games, deck=with_deck, record=record, seed=seed, warmup=warmup,
                                buyers=buyers and with_deck, game=spec.name)
            results.append(result)
            if not json_:
                click.echo(f"  {count} players, {'cards' if with_deck else 'no cards'}: "
                           f"{result.games_per_s:,.0f} games/s", err=True)
    scale = None
    if reference:
        machine = (before + reference_rate()) / 2
        scale = REFERENCE_AT_PEER_MEASUREMENT / machine
    if json_:
        data = {"seed": seed, "game": spec.name, "engine": _build(), "bot": "random (buys whenever it can)" if buyers else "random",
                "processes": 1,
                "results": [r.to_json() for r in results]}
        if scale is not None:
            data["reference"] = {"games_per_s": round(machine, 1), "at_peer_measurement": REFERENCE_AT_PEER_MEASUREMENT,
                                 "scale": round(scale, 3)}
            for row, r in zip(data["results"], results):
                row["scaled_games_per_s"] = round(r.games_per_s * scale, 1)
        echo_json(data)
        return
    header = ("players", "cards", "games", "games/s", "turns/s", "decisions/s", "mean turns")
    rows = [
        (r.players, "yes" if r.deck else "no", r.games, f"{r.games_per_s:,.0f}", f"{r.turns_per_s:,.0f}",
         f"{r.decisions_per_s:,.0f}", f"{r.mean_turns:.1f}")
        for r in results
    ]
    if scale is not None:
        header += ("scaled games/s",)
        rows = [row + (f"{r.games_per_s * scale:,.0f}",) for row, r in zip(rows, results)]
    click.echo(table_text(header, rows))
    if scale is not None:
        click.echo(f"reference loop: {machine:,.0f} games/s here now, {REFERENCE_AT_PEER_MEASUREMENT:,} on the machine "
                   f"the peer engines were measured on; scaled = games/s x {scale:.2f}")


@bench.command("duel")
@click.option("--rounds", type=click.IntRange(min=1), default=5, show_default=True, metavar="N",
              help="Rounds, each timing both games in turn; the median round is reported.")
@click.option("--games", type=click.IntRange(min=1), default=200, show_default=True, metavar="N",
              help="Duel games of random bots per round (classic plays twice as many: its games are half as long).")
@click.option("--search-games", type=click.IntRange(min=0), default=2, show_default=True, metavar="N",
              help="Games per round of the search bot (mcts) against a random bot, in each game; 0: none.")
@click.option("--playouts", type=click.IntRange(min=1), default=200, show_default=True, metavar="N",
              help="The search bot's playouts per decision.")
@seed_option
@click.option("--json", "json_", is_flag=True, help="Print JSON (the seed goes to stderr).")
def duel(rounds: int, games: int, search_games: int, playouts: int, seed: int | None, json_: bool) -> None:
    """Duel's engine against classic two-player King of Tokyo, side by side.

    Both games with their decks, in one process: turns per CPU-second of random bots,
    and playouts per CPU-second of the search bot (the mcts example bot, which must be
    installed; --search-games 0 leaves it out) deciding against a random bot. Each
    round times classic, then Duel, so the machine's changing speed stays out of the
    ratios; the median round's ratio counts. The targets: Duel's turns at least half
    of classic's, its playouts at least classic's.

    \b
    Examples:
      kotarena bench duel
      kotarena bench duel --rounds 9 --games 400 --json
      kotarena bench duel --search-games 0
    """
    from kotarena.bench import duel_against_classic
    from kotarena.cli.output import echo_json, table_text

    search_bot = None
    if search_games:
        try:
            from kotarena_mcts import SearchBot
        except ImportError:
            raise click.ClickException("the search bot is not installed: pip install ./bots/kotarena-mcts "
                                       "(or measure without it: --search-games 0)") from None
        search_bot = SearchBot
    seed = 0 if seed is None else seed
    click.echo(f"seed: {seed}; {_build_line()}", err=True)
    found = duel_against_classic(rounds, games, search_bot=search_bot, search_games=search_games,
                                 playouts=playouts, seed=seed)
    turns = statistics.median(r.turns_ratio for r in found)
    searched = statistics.median(r.playouts_ratio for r in found) if search_bot is not None else None
    if json_:
        echo_json({"seed": seed, "engine": _build(), "rounds": [
            {"turns_per_cpu_s": {rate.game: round(rate.per_cpu_s, 1) for rate in r.turns},
             "playouts_per_cpu_s": None if r.playouts is None else {rate.game: round(rate.per_cpu_s, 1)
                                                                   for rate in r.playouts},
             "turns_ratio": round(r.turns_ratio, 3),
             "playouts_ratio": None if r.playouts_ratio is None else round(r.playouts_ratio, 3)} for r in found],
            "median_turns_ratio": round(turns, 3),
            "median_playouts_ratio": None if searched is None else round(searched, 3)})
        return
    rows = [(index, f"{r.turns[0].per_cpu_s:,.0f}", f"{r.turns[1].per_cpu_s:,.0f}", f"{r.turns_ratio:.2f}",
             *((f"{r.playouts[0].per_cpu_s:,.0f}", f"{r.playouts[1].per_cpu_s:,.0f}", f"{r.playouts_ratio:.2f}")
               if r.playouts is not None and r.playouts_ratio is not None else ("-", "-", "-")))
            for index, r in enumerate(found, 1)]
    click.echo(table_text(("round", "classic turns/CPU-s", "Duel turns/CPU-s", "ratio", "classic playouts/CPU-s",
                           "Duel playouts/CPU-s", "ratio"), rows))
    line = f"median ratios: turns {turns:.2f} (target 0.5 or more)"
    if searched is not None:
        line += f", playouts {searched:.2f} (target 1 or more)"
    click.echo(line)


def _build() -> str:
    """``"native"`` when the engine is the compiled build, ``"pure"`` when it runs as source."""
    from kotarena.engine import NATIVE

    return "native" if NATIVE else "pure"


def _build_line() -> str:
    return ("engine: native (compiled with mypyc)" if _build() == "native"
            else "engine: pure Python (an editable install, KOTARENA_PURE=1, or no compiler at install)")


@bench.command()
@click.option("--games", type=click.IntRange(min=1), default=2000, show_default=True, metavar="N",
              help="Games per measurement (a night's start-up is part of the cost, so few games overstate it).")
@click.option("--players", type=click.IntRange(2, 6), default=4, show_default=True, help="Players per table.")
@click.option("--workers", default="1,2", show_default=True, metavar="N,N,...",
              help="Worker process counts to measure, comma-separated.")
@click.option("--deck/--no-deck", default=True, show_default=True, help="Games with or without cards.")
@click.option("--bot", default="random", show_default=True, help="The installed bot in every seat.")
@click.option("--rounds", type=click.IntRange(min=1), default=5, show_default=True, metavar="N",
              help="Nights per worker count, each between two runs of the raw engine; the median round is reported, "
                   "with the range it likely lies in (5 rounds: 94%, 9: 96%).")
@click.option("--untrusted", is_flag=True,
              help="Measure the night with its bots sandboxed against the same night with them trusted, "
                   "alternating (instead of against the raw engine).")
@seed_option
@click.option("--json", "json_", is_flag=True, help="Print JSON (the seed goes to stderr).")
def league(games: int, players: int, workers: str, deck: bool, bot: str, rounds: int, untrusted: bool,
           seed: int | None, json_: bool) -> None:
    """Games/s of a whole league night against the raw engine on the same cores.

    The night (runner, seat hosts, time limits, replays, SQLite storage, ratings) and
    the raw engine play the same seeded random-bot games with the same number of
    worker processes; the overhead is the share of speed the league loses. Nights and
    raw runs alternate, each night compared with the raw runs on either side of it,
    so the machine's drifting speed stays out of the ratio; the median round counts.
    Where the time went: the night's workers' CPU per game over the raw engine's
    (their start-up included), and the coordinator's CPU per game.

    \b
    With --untrusted, the night is played twice per round instead, once with its bots
    trusted (in the workers' processes) and once sandboxed (each seat in an instance of
    its bot in bubblewrap, speaking the JSON-lines protocol; the instances start with
    each night): the cost of the sandbox.

    \b
    Examples:
      kotarena bench league
      kotarena bench league --games 4000 --workers 1,2 --json
      kotarena bench league --untrusted --bot heuristic --games 400 --rounds 3
    """
    from kotarena.cli.output import echo_json, table_text
    from kotarena.tournament.throughput import measure

    seed = 0 if seed is None else seed
    click.echo(f"seed: {seed}; {_build_line()}", err=True)
    try:
        counts = [int(part) for part in workers.split(",") if part.strip()]
    except ValueError:
        raise click.ClickException(f"bad --workers {workers!r}: give counts such as 1,2") from None
    if not counts or min(counts) < 1:
        raise click.ClickException(f"bad --workers {workers!r}: give counts such as 1,2")
    from kotarena.bots.registry import UnknownBotError, get_bot
    from kotarena.sandbox.catalogue import CatalogueError
    from kotarena.sandbox.untrusted import trust_names

    try:
        trust_names([bot])  # (a benchmark plays the bot trusted: its own package is imported)
        get_bot(bot)
    except (UnknownBotError, CatalogueError) as error:
        raise click.ClickException(str(error)) from None
    if untrusted:
        _sandbox_cost(games, players, deck, counts, seed, bot, rounds, json_)
        return
    results = [measure(games, players, deck, count, seed, bot, rounds) for count in counts]
    if json_:
        echo_json({"seed": seed, "engine": _build(), "results": [r.to_json() for r in results]})
        return
    rows = [(r.bot, r.workers, r.games, r.players, "yes" if r.deck else "no", f"{r.engine_games_per_s:,.1f}",
             f"{r.league_games_per_s:,.1f}", f"{r.overhead:.0%}", _range_text(r),
             ", ".join(f"{o:.0%}" for o in r.round_overheads), f"{r.worker_cpu_ratio:.2f}",
             f"{r.coordinator_cpu * 1e3:.2f}")
            for r in results]
    click.echo(table_text(("bot", "workers", "games", "players", "cards", "engine games/s", "league games/s",
                           "overhead", "median's range", "rounds", "worker CPU vs raw", "coordinator ms/game"), rows))


def _sandbox_cost(games: int, players: int, deck: bool, counts: list[int], seed: int, bot: str, rounds: int,
                  json_: bool) -> None:
    from kotarena.cli.output import echo_json, table_text
    from kotarena.sandbox.jail import sandbox_problem
    from kotarena.tournament.throughput import measure_sandbox

    problem = sandbox_problem()
    if problem is not None:
        raise click.ClickException(f"no sandbox here: {problem}")
    results = [measure_sandbox(games, players, deck, count, seed, bot, rounds) for count in counts]
    if json_:
        echo_json({"seed": seed, "engine": _build(), "results": [r.to_json() for r in results]})
        return
    rows = [(r.bot, r.workers, r.games, r.players, f"{statistics.median(r.trusted):,.1f}",
             f"{statistics.median(r.sandboxed):,.1f}", f"{r.ratio:.1%}", ", ".join(f"{x:.1%}" for x in r.ratios))
            for r in results]
    click.echo(table_text(("bot", "workers", "games", "players", "trusted games/s", "sandboxed games/s",
                           "sandboxed/trusted", "rounds"), rows))


def _range_text(result: Throughput) -> str:
    """The median overhead's likely range, with its coverage: ``15-21% (90%)``."""
    low, high, coverage = result.overhead_range()
    return f"{low:.0%}-{high:.0%} ({coverage:.0%})"
