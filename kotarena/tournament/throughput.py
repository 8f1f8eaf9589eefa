"""How fast a whole league night goes, against the raw engine on the same cores.

A night's cost is the engine plus everything around it: scheduling, process hops,
seat hosts and time limits, replays, storage and ratings. Both sides play exactly the
night's games (its schedule: the same seeds, seats and first players, bots seeded
alike) with the same number of worker processes, so the ratio is the league's
overhead. Nights and raw runs alternate (raw, night, raw, night, raw...): each night
is compared with the mean of the raw runs on either side of it, and the median round
is reported, because on a virtual machine whose speed drifts a single pair of
measurements puts the drift into the ratio.
"""

from __future__ import annotations

import math
import os
import statistics
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Round:
    """One night between two raw-engine runs, with where the CPU time went (per game)."""

    engine_games_per_s: float  #: the raw engine, the mean of the runs before and after
    league_games_per_s: float
    raw_cpu: float  #: seconds of CPU per game in the raw engine's workers (mean of the two runs)
    worker_cpu: float  #: seconds of CPU per game in the night's workers, start-up included
    coordinator_cpu: float  #: seconds of CPU per game in the night's coordinator, all its threads

    @property
    def overhead(self) -> float:
        return 1 - self.league_games_per_s / self.engine_games_per_s

    def to_json(self) -> dict:
        return {"engine_games_per_s": round(self.engine_games_per_s, 1),
                "league_games_per_s": round(self.league_games_per_s, 1), "overhead": round(self.overhead, 3),
                "raw_cpu_ms_per_game": round(self.raw_cpu * 1e3, 3),
                "worker_cpu_ms_per_game": round(self.worker_cpu * 1e3, 3),
                "coordinator_cpu_ms_per_game": round(self.coordinator_cpu * 1e3, 3)}


@dataclass
class Throughput:
    """One measurement: rounds of a whole night, each between two runs of the raw engine."""

    bot: str
    workers: int
    games: int
    players: int
    deck: bool
    rounds: list[Round]

    @property
    def engine_games_per_s(self) -> float:
        return statistics.median(r.engine_games_per_s for r in self.rounds)

    @property
    def league_games_per_s(self) -> float:
        return statistics.median(r.league_games_per_s for r in self.rounds)

    @property
    def round_overheads(self) -> list[float]:
        return [r.overhead for r in self.rounds]

    @property
    def overhead(self) -> float:
        """The share of the engine's speed the league loses (0.2 = 20%): the median round."""
        return statistics.median(self.round_overheads)

    def overhead_range(self, confidence: float = 0.9) -> tuple[float, float, float]:
        """Where the median round's overhead likely lies: ``(low, high, coverage)``.

        See :func:`median_range`; with few rounds the range is every round's and its
        coverage is lower than asked (three rounds: 75%).
        """
        return median_range(self.round_overheads, confidence)

    @property
    def worker_cpu_ratio(self) -> float:
        """The night's workers' CPU per game over the raw engine's (median round)."""
        return statistics.median(r.worker_cpu / r.raw_cpu if r.raw_cpu else 0.0 for r in self.rounds)

    @property
    def coordinator_cpu(self) -> float:
        """The coordinator's CPU seconds per game (median round)."""
        return statistics.median(r.coordinator_cpu for r in self.rounds)

    def to_json(self) -> dict:
        low, high, coverage = self.overhead_range()
        return {"bot": self.bot, "workers": self.workers, "games": self.games, "players": self.players, "deck": self.deck,
                "engine_games_per_s": round(self.engine_games_per_s, 1),
                "league_games_per_s": round(self.league_games_per_s, 1),
                "overhead": round(self.overhead, 3),
                "overhead_range": {"low": round(low, 3), "high": round(high, 3), "coverage": round(coverage, 3)},
                "worker_cpu_ratio": round(self.worker_cpu_ratio, 3),
                "coordinator_cpu_ms_per_game": round(self.coordinator_cpu * 1e3, 3),
                "rounds": [r.to_json() for r in self.rounds]}


def median_range(values: list[float], confidence: float = 0.9) -> tuple[float, float, float]:
    """A distribution-free interval for the median of what ``values`` sample:
    ``(low, high, coverage)``.

    The k-th smallest and k-th largest of n values enclose the median with probability
    1 - 2 P(B <= k - 1), B binomial (n, 1/2), whatever the distribution, for
    independent draws. The largest k whose coverage reaches ``confidence`` is used; if
    none does, the whole range, with the coverage it has. (Rounds of ``bench league``
    are not quite independent, since the machine's speed drifts, so read it as a
    measure of how far rounds scatter rather than a guarantee.)
    """
    if not values:
        raise ValueError("no values")
    ordered = sorted(values)
    n = len(ordered)
    k, below = 1, 0.5 ** n  # below: P(B <= k - 1)
    while k < (n + 1) // 2 and 1 - 2 * (below + math.comb(n, k) * 0.5 ** n) >= confidence:
        below += math.comb(n, k) * 0.5 ** n
        k += 1
    return ordered[k - 1], ordered[n - k], 1 - 2 * below


def cpu_seconds() -> float:
    """CPU seconds (user and system) this process has used, all threads."""
    return time.process_time()


def children_cpu_seconds() -> float:
    """CPU seconds (user and system) of this process's children that have ended.

    ``getrusage`` counts them in microseconds; ``os.times``, the fallback where there is
    no ``resource`` module, in clock ticks (10 ms on Linux), too coarse for a short night.
    """
    try:
        import resource
    except ImportError:
        times = os.times()
        return times.children_user + times.children_system
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _play_chunk(args: tuple[str, int, list[tuple[int, int | None, tuple[int, ...]]], bool]) -> tuple[int, float]:
    """The raw engine: the bots called directly, no log, no checks beyond the engine's own.

    Returns the games played and the CPU seconds they took.
    """
    from kotarena.bots.registry import get_bot
    from kotarena.games import new_game
    from kotarena.match import play

    bot, players, games, deck = args
    info = get_bot(bot)
    started = cpu_seconds()
    for seed, first, bot_seeds in games:
        state = new_game("kot", players=players, seed=seed, deck="default" if deck else None, first_player=first,
                         record=False)
        play(state, [info.make(seed=bot_seeds[seat]) for seat in range(players)])
    return len(games), cpu_seconds() - started


def engine_rate(games: list[tuple[int, int | None, tuple[int, ...]]], players: int, deck: bool, workers: int,
                bot: str = "random") -> tuple[float, float]:
    """Games/s of the raw engine playing ``games`` (``(seed, first player, bot seeds)``) on ``workers``
    processes, and its workers' CPU seconds per game."""
    chunks = [(bot, players, games[i::workers], deck) for i in range(workers)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        list(pool.map(_play_chunk, [(bot, players, games[:1], deck) for _ in range(workers)]))  # warm up
        started = time.perf_counter()
        done = list(pool.map(_play_chunk, chunks))
        elapsed = time.perf_counter() - started
    played = sum(count for count, _ in done)
    return played / elapsed, sum(cpu for _, cpu in done) / played


def ladder_text(games: int, players: int, deck: bool, seed: int, bot: str, trusted: bool = True) -> str:
    """The ladder file of a measured night: ``games`` games of ``bot`` in every one of
    ``players`` seats, with cards or not, seeded ``seed``; the bots trusted (like the
    raw engine's) or sandboxed (:func:`measure_sandbox`)."""
    trust = "true" if trusted else "false"
    entrants = "\n".join(f'[[bots]]\nname = "{bot}"\nlabel = "{bot}-{i}"\ntrusted = {trust}\n'
                          for i in range(players))
    return (f'name = "throughput"\nplayers = {players}\ngames = {games}\nseed = {seed}\n'
            f'deck = "{"kot" if deck else "none"}"\ntime_limit = 1.0\n{entrants}')


def league_rate(ladder_path: Path, db_path: Path, workers: int) -> tuple[float, float, float]:
    """Games/s of a whole night of the ladder at ``ladder_path``, into a new database; and
    the CPU seconds per game of its workers (their start-up included) and its coordinator."""
    from kotarena.bots.registry import bot_names
    from kotarena.storage import open_db
    from kotarena.tournament.ladder import load_ladder
    from kotarena.tournament.night import run_night

    # Loaded and checked against the installed bots as ``league run`` does before its
    # night (which loads the bot registry, as the raw engine's warm-up round does).
    ladder = load_ladder(ladder_path, known_bots=bot_names())
    engine = open_db(db_path)
    children, coordinator = children_cpu_seconds(), cpu_seconds()
    started = time.perf_counter()
    report = run_night(engine, ladder, workers=workers)  # its pool is shut down, so its workers are counted
    elapsed = time.perf_counter() - started
    children, coordinator = children_cpu_seconds() - children, cpu_seconds() - coordinator
    engine.dispose()
    played = report.played or 1
    return report.played / elapsed, children / played, coordinator / played


def first_night_games(ladder) -> list[tuple[int, int | None, tuple[int, ...]]]:
    """The ``(seed, first player, bot seeds)`` of each match of the first night of
    ``ladder`` (which fixes its seed), in schedule order: what a night into a new
    database plays, for the raw engine to play."""
    from kotarena.tournament.night import night_jobs, night_seed

    return [(job.seed, job.first_player, job.bot_seeds) for job in night_jobs(ladder, night_seed(ladder.seed, 1))]


def measure(games: int = 2000, players: int = 4, deck: bool = True, workers: int = 1, seed: int = 0,
            bot: str = "random", rounds: int = 3) -> Throughput:
    """The league's games/s and the raw engine's on the same games and worker count.

    The raw engine runs before the first night and after each one; a round's overhead
    compares its night with the mean of the two raw runs around it, and the figures
    reported are the median round's. Adjacent runs see the machine at about the same
    speed, which a single before-and-after pair does not on a machine that drifts.
    """
    from kotarena.tournament.ladder import load_ladder

    if rounds < 1:
        raise ValueError("measure at least one round")
    with tempfile.TemporaryDirectory() as folder:
        ladder_path = Path(folder) / "throughput.toml"
        ladder_path.write_text(ladder_text(games, players, deck, seed, bot))
        played = first_night_games(load_ladder(ladder_path))
        measured = []
        before, before_cpu = engine_rate(played, players, deck, workers, bot)
        for number in range(rounds):
            league, worker_cpu, coordinator_cpu = league_rate(ladder_path, Path(folder) / f"throughput-{number}.db",
                                                              workers)
            after, after_cpu = engine_rate(played, players, deck, workers, bot)
            measured.append(Round((before + after) / 2, league, (before_cpu + after_cpu) / 2, worker_cpu,
                                  coordinator_cpu))
            before, before_cpu = after, after_cpu
    return Throughput(bot, workers, games, players, deck, measured)


@dataclass
class SandboxCost:
    """The same night played with trusted bots and with sandboxed ones, round by round."""

    bot: str
    workers: int
    games: int
    players: int
    trusted: list[float]  #: games/s of each round's trusted night
    sandboxed: list[float]  #: games/s of each round's sandboxed night

    @property
    def ratios(self) -> list[float]:
        return [sandboxed / trusted for trusted, sandboxed in zip(self.trusted, self.sandboxed)]

    @property
    def ratio(self) -> float:
        """The median round's sandboxed games/s over its trusted games/s."""
        return statistics.median(self.ratios)

    def to_json(self) -> dict:
        return {"bot": self.bot, "workers": self.workers, "games": self.games, "players": self.players,
                "trusted_games_per_s": self.trusted, "sandboxed_games_per_s": self.sandboxed,
                "ratios": self.ratios, "ratio": self.ratio}


def measure_sandbox(games: int = 400, players: int = 4, deck: bool = True, workers: int = 1, seed: int = 0,
                    bot: str = "heuristic", rounds: int = 3) -> SandboxCost:
    """Games/s of a night whose bots are sandboxed against the same night with the bots
    trusted, alternating, ``rounds`` times (the median round counts). Each night starts
    its workers and, sandboxed, its bots' instances: what a league night pays."""
    trusted_path = sandboxed_path = None
    trusted_rates, sandboxed_rates = [], []
    with tempfile.TemporaryDirectory() as folder:
        trusted_path, sandboxed_path = Path(folder) / "trusted.toml", Path(folder) / "sandboxed.toml"
        trusted_path.write_text(ladder_text(games, players, deck, seed, bot, trusted=True))
        sandboxed_path.write_text(ladder_text(games, players, deck, seed, bot, trusted=False))
        for number in range(rounds):
            trusted_rates.append(league_rate(trusted_path, Path(folder) / f"trusted-{number}.db", workers)[0])
            sandboxed_rates.append(league_rate(sandboxed_path, Path(folder) / f"sandboxed-{number}.db", workers)[0])
    return SandboxCost(bot, workers, games, players, trusted_rates, sandboxed_rates)
