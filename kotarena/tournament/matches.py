"""One match of a league night: what a worker is given, what it gives back, playing it.

A :class:`MatchJob` is plain, picklable data; :func:`play_match` plays it to the end
whatever its bots do and returns a :class:`MatchResult`. A seat whose bot fails (see
:mod:`kotarena.tournament.seats`) forfeits: the failure is recorded, the bot is ranked
last, and a deterministic autopilot (always the first legal action: stop rolling,
stay, stop buying) plays the seat out so the other bots' game stays valid.

This module is compiled with the engine (``NATIVE_MODULES`` in ``setup.py``), because
it runs around every match of a night: a night's worker now runs 12% more instructions
than the bare engine on the same random-bot games (callgrind), against 16.5% before
this module and the changes to the replay writer and seat hosts that came with it.
Its classes write their ``__init__`` out (compiled, the one a dataclass generates runs
as Python) and pickle as calls with their fields (``__reduce__``), so a job or a
result made by one build loads in the other, for executors whose machines differ.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Final, cast

# Imported here rather than in the functions that use them: a function's import
# statement runs at every call, and these run for every match (1% of a worker's time).
from kotarena.bots.registry import get_bot
from kotarena.engine.outcome import TERMINATION_TEXT, Termination
from kotarena.free_for_all import ranks_for
from kotarena.games import get_spec, new_game
from kotarena.games.kot.state import State
from kotarena.match import bot_seed
from kotarena.replay import actions_replay_text
from kotarena.tournament.schedule import MatchSpec
from kotarena.tournament.seats import (
    DEFAULT_MEMORY_MB,
    GUARD,
    BotFailure,
    InProcessSeat,
    IsolatedSeat,
    SeatSpec,
    play_seated,
)


@dataclass(frozen=True)
class MatchJob:
    """Everything a worker needs to play one match."""

    index: int
    key: str
    game: str
    deck: str | None
    seed: int
    first_player: int | None
    seats: tuple[SeatSpec, ...]
    time_limit: float
    memory_mb: int = DEFAULT_MEMORY_MB
    isolate_all: bool = False  #: run even trusted bots in their own processes

    def __init__(self, index: int, key: str, game: str, deck: str | None, seed: int, first_player: int | None,
                 seats: tuple[SeatSpec, ...], time_limit: float, memory_mb: int = DEFAULT_MEMORY_MB,
                 isolate_all: bool = False) -> None:
        # The dataclass's generated __init__ would run as Python even compiled, and this
        # one runs for every match (the schedule makes it; a worker unpickles it).
        set_field = object.__setattr__  # the fields are frozen
        set_field(self, "index", index)
        set_field(self, "key", key)
        set_field(self, "game", game)
        set_field(self, "deck", deck)
        set_field(self, "seed", seed)
        set_field(self, "first_player", first_player)
        set_field(self, "seats", seats)
        set_field(self, "time_limit", time_limit)
        set_field(self, "memory_mb", memory_mb)
        set_field(self, "isolate_all", isolate_all)

    def __reduce__(self) -> tuple:
        return (MatchJob, (self.index, self.key, self.game, self.deck, self.seed, self.first_player, self.seats,
                           self.time_limit, self.memory_mb, self.isolate_all))


@dataclass
class SeatResult:
    """How one seat of a played match ended."""

    seat: int
    entrant: str
    bot: str
    package: str
    version: str
    monster: str
    rank: int
    stars: int
    health: int
    alive: bool
    forfeit: str | None = None
    forfeit_detail: str | None = None
    decisions: int = 0
    cpu_seconds: float = 0.0

    def __init__(self, seat: int, entrant: str, bot: str, package: str, version: str, monster: str, rank: int,
                 stars: int, health: int, alive: bool, forfeit: str | None = None, forfeit_detail: str | None = None,
                 decisions: int = 0, cpu_seconds: float = 0.0) -> None:
        # Written out, as MatchJob's: compiled, the generated one would run as Python.
        self.seat = seat
        self.entrant = entrant
        self.bot = bot
        self.package = package
        self.version = version
        self.monster = monster
        self.rank = rank
        self.stars = stars
        self.health = health
        self.alive = alive
        self.forfeit = forfeit
        self.forfeit_detail = forfeit_detail
        self.decisions = decisions
        self.cpu_seconds = cpu_seconds

    def __reduce__(self) -> tuple:
        return (SeatResult, (self.seat, self.entrant, self.bot, self.package, self.version, self.monster, self.rank,
                             self.stars, self.health, self.alive, self.forfeit, self.forfeit_detail, self.decisions,
                             self.cpu_seconds))


@dataclass
class MatchResult:
    """A played match: its outcome, its actions-only replay and its seats."""

    index: int
    key: str
    game: str
    seed: int
    first_player: int | None
    rules_version: int
    termination: str
    winner_seat: int | None
    turns: int
    duration: float
    replay: str
    seats: list[SeatResult] = field(default_factory=list)

    def __init__(self, index: int, key: str, game: str, seed: int, first_player: int | None, rules_version: int,
                 termination: str, winner_seat: int | None, turns: int, duration: float, replay: str,
                 seats: list[SeatResult] | None = None) -> None:
        # Written out, as MatchJob's: compiled, the generated one would run as Python.
        self.index = index
        self.key = key
        self.game = game
        self.seed = seed
        self.first_player = first_player
        self.rules_version = rules_version
        self.termination = termination
        self.winner_seat = winner_seat
        self.turns = turns
        self.duration = duration
        self.replay = replay
        self.seats = [] if seats is None else seats

    @property
    def status(self) -> str:
        """``forfeit`` if any seat forfeited, else ``done``."""
        for seat in self.seats:  # (a loop: a generator expression runs as Python even compiled)
            if seat.forfeit:
                return "forfeit"
        return "done"

    def __reduce__(self) -> tuple:
        return (MatchResult, (self.index, self.key, self.game, self.seed, self.first_player, self.rules_version,
                              self.termination, self.winner_seat, self.turns, self.duration, self.replay,
                              self.seats))


#: The engine's table of termination texts, as a Final name (compiled, any other module
#: name is a dictionary lookup at every use).
_TERMINATIONS: Final[dict[Termination, str]] = TERMINATION_TEXT


def flatten_results(results: list[MatchResult]) -> list[Any]:
    """``results`` as one flat list of plain values: each match's fields in
    :class:`MatchResult` order, its number of seats, then each seat's fields in
    :class:`SeatResult` order. (A worker sends its job's results back this way: pickling
    two objects per seat and match, each through its ``__reduce__``, cost a worker more
    than twice as long, and the coordinator half as long again to load them.)"""
    flat: list[Any] = []
    for result in results:
        seats = result.seats
        flat.append(result.index)
        flat.append(result.key)
        flat.append(result.game)
        flat.append(result.seed)
        flat.append(result.first_player)
        flat.append(result.rules_version)
        flat.append(result.termination)
        flat.append(result.winner_seat)
        flat.append(result.turns)
        flat.append(result.duration)
        flat.append(result.replay)
        flat.append(len(seats))
        for seat in seats:
            flat.append(seat.seat)
            flat.append(seat.entrant)
            flat.append(seat.bot)
            flat.append(seat.package)
            flat.append(seat.version)
            flat.append(seat.monster)
            flat.append(seat.rank)
            flat.append(seat.stars)
            flat.append(seat.health)
            flat.append(seat.alive)
            flat.append(seat.forfeit)
            flat.append(seat.forfeit_detail)
            flat.append(seat.decisions)
            flat.append(seat.cpu_seconds)
    return flat


def unflatten_results(flat: list[Any]) -> list[MatchResult]:
    """The results :func:`flatten_results` laid out flat."""
    results: list[MatchResult] = []
    i = 0
    end = len(flat)
    while i < end:
        count: int = flat[i + 11]
        seats: list[SeatResult] = []
        j = i + 12
        for _ in range(count):
            seats.append(SeatResult(flat[j], flat[j + 1], flat[j + 2], flat[j + 3], flat[j + 4], flat[j + 5],
                                    flat[j + 6], flat[j + 7], flat[j + 8], flat[j + 9], flat[j + 10], flat[j + 11],
                                    flat[j + 12], flat[j + 13]))
            j += 14
        results.append(MatchResult(flat[i], flat[i + 1], flat[i + 2], flat[i + 3], flat[i + 4], flat[i + 5],
                                   flat[i + 6], flat[i + 7], flat[i + 8], flat[i + 9], flat[i + 10], seats))
        i = j
    return results


# Isolated seat hosts live as long as the worker process, keyed by seat and bot.
# A forked worker inherits its parent's table but not its children: start afresh.
_ISOLATED: dict[tuple, IsolatedSeat] = {}
_ISOLATED_OWNER = os.getpid()


def match_jobs(schedule: Iterable[MatchSpec], seats: dict[str, SeatSpec], game: str, deck: str | None,
               time_limit: float) -> Iterator[MatchJob]:
    """A job for each match of ``schedule``, in order, each made as it is asked for; a
    seat's spec is looked up by the entrant's label. (Here to be compiled: the
    coordinator makes one for every match of a night, and as Python that took about as
    long as scheduling the match.)"""
    for spec in schedule:
        yield MatchJob(spec.index, spec.key, game, deck, spec.seed, spec.first_player,
                       tuple([seats[label] for label in spec.seats]), time_limit)


def _seat_host(seat: int, spec: SeatSpec, job: MatchJob) -> Any:
    global _ISOLATED_OWNER
    if spec.trusted and not job.isolate_all:
        return InProcessSeat(spec, job.time_limit)
    if _ISOLATED_OWNER != os.getpid():
        _ISOLATED.clear()
        _ISOLATED_OWNER = os.getpid()
    key = (seat, spec.bot, spec.params, job.time_limit, job.memory_mb)
    host = _ISOLATED.get(key)
    if host is None:
        host = _ISOLATED[key] = IsolatedSeat(spec, job.time_limit, job.memory_mb)
    host.cpu = 0.0
    host.decisions = 0
    return host


def final_ranks(outcome_ranks: tuple[int, ...], forfeits: list[str | None]) -> list[int]:
    """Finishing places with forfeited seats last (tied among themselves)."""
    return list(ranks_for(outcome_ranks, forfeits))


def play_match(job: MatchJob, *, keep_guard: bool = False) -> MatchResult:
    """Play one match to the end, whatever its bots do.

    The CPU-time guard of in-process bots is switched off at the end unless
    ``keep_guard`` (a worker playing several matches in a row keeps it for the next).
    """
    started = time.perf_counter()
    # No event log: the stored replay holds the actions, and replaying it regenerates
    # the events, so the match runs at the engine's full speed.
    state = cast(State, new_game(job.game, players=len(job.seats), seed=job.seed, deck=job.deck,
                                 first_player=job.first_player, record=False))
    names = state.names
    hosts = [_seat_host(seat, spec, job) for seat, spec in enumerate(job.seats)]
    failures: list[BotFailure | None] = [None] * state.n
    for seat, host in enumerate(hosts):
        try:
            host.start(bot_seed(job.seed, seat), state.view(seat))
        except BotFailure as error:
            failures[seat] = error
    try:
        play_seated(state, hosts, failures)
    finally:
        if not keep_guard:
            GUARD.disarm()
    for seat, host in enumerate(hosts):
        if failures[seat] is None:
            host.finish(state.view(seat))
        if isinstance(host, InProcessSeat):
            host.close()
    forfeits: list[str | None] = []
    for failed in failures:
        forfeits.append(failed.kind if failed is not None else None)
    outcome = state.outcome
    assert outcome is not None  # play_seated returns only when the game is over
    ranks = final_ranks(outcome.ranks, forfeits)
    seats: list[SeatResult] = []
    for seat, spec in enumerate(job.seats):
        host = hosts[seat]
        info = host.info if isinstance(host, InProcessSeat) and host.info is not None else get_bot(spec.bot)
        failed = failures[seat]
        seats.append(SeatResult(
            seat, spec.entrant, spec.bot, info.package, info.version, names[seat], ranks[seat], state.stars[seat],
            state.health[seat], state.alive[seat], failed.kind if failed is not None else None,
            failed.detail[:500] if failed is not None else None, host.decisions, round(host.cpu, 6),
        ))
    return MatchResult(
        job.index, job.key, job.game, job.seed, job.first_player, get_spec(job.game).rules_version,
        _TERMINATIONS[outcome.termination], outcome.winner, outcome.turns, time.perf_counter() - started,
        actions_replay_text(state, first_player=job.first_player, bots=[spec.bot for spec in job.seats]),
        seats,
    )
