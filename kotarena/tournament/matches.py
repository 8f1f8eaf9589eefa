"""One match of a league night: what a worker is given, what it gives back, playing it.

A :class:`MatchJob` is plain, picklable data; :func:`play_match` plays it to the end
whatever its bots do and returns a :class:`~kotarena.results.MatchResult`, the record
the results database stores (plain data: a worker imports no storage). Each seat is
played through its host (:class:`~kotarena.tournament.hosts.SeatHost`), whichever host
it is. A seat whose bot fails (see :mod:`kotarena.tournament.seats`) forfeits: the failure is recorded, the bot is ranked
last, and a deterministic autopilot (always the first legal action: stop rolling,
stay, stop buying) plays the seat out so the other bots' game stays valid.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kotarena.bots.command import is_program
from kotarena.bots.registry import get_bot
from kotarena.decision_times import pack_times
from kotarena.forfeits import BODY_LIMIT, REASON_LIMIT, clean_detail
from kotarena.games import get_game
from kotarena.ratings import ranks_for
from kotarena.replay import actions_replay_text
from kotarena.results import MatchResult, SeatResult
from kotarena.sandbox.instance import ForkServer, default_log_dir, seat_server
from kotarena.sandbox.seat import SandboxedSeat
from kotarena.sandbox.untrusted import find_bot
from kotarena.seeds import bot_seeds
from kotarena.tournament.hosts import SeatHost, SeatReport
from kotarena.tournament.seats import (
    CRASH,
    DEFAULT_MEMORY_MB,
    GUARD,
    BotFailure,
    InProcessSeat,
    SeatSpec,
    Unseated,
    known_package,
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
    isolate_all: bool = False  #: sandbox even trusted bots (after one took its worker down)
    #: Seat untrusted bots in the sandbox (:mod:`kotarena.sandbox`); ``False`` only when
    #: the user asked for them to run unsandboxed (still in their own processes).
    sandbox: bool = True
    log_dir: str | None = None  #: where bots' output goes (default: the user's log directory)
    hide: tuple[str, ...] = ()  #: files the sandbox hides (the results database)
    #: Each seat's bot seed, worked out by the coordinator with the night's secret key
    #: (:func:`kotarena.seeds.bot_seeds`). Empty: the game seed's own keyed seeds.
    bot_seeds: tuple[int, ...] = ()
    #: Each seat's instance slot (:func:`kotarena.sandbox.instance.seat_server`): the k-th
    #: seat a bot takes at tables of this deal (this ``seed``) in the night gets slot k,
    #: so no instance meets a deal twice (:func:`kotarena.tournament.night.night_jobs`).
    #: Empty: each seat's place among the seats of its bot at this table.
    slots: tuple[int, ...] = ()
    #: The run of a night the job belongs to: a worker's instances serve one run only.
    night: str = ""


def _seat_host(seat: int, spec: SeatSpec, job: MatchJob, slot: int) -> SeatHost:
    """The host of ``seat``: the trusted bot itself, or its sandboxed instance ``slot``
    (always for a command-line bot: its program never runs in the referee's process)."""
    if spec.trusted and not job.isolate_all and not _program(spec.bot):
        return InProcessSeat(spec, job.time_limit)
    return SandboxedSeat(sandbox_server(spec, job, slot), job.time_limit, game=job.game, seat=seat,
                         params=dict(spec.params), package=known_package(spec))


def sandbox_server(spec: SeatSpec, job: MatchJob, slot: int, *, wait: bool = True) -> ForkServer:
    """The instance ``slot`` of the seat's bot (:func:`kotarena.sandbox.instance.seat_server`;
    with ``wait`` false, started and not waited for)."""
    log_dir = Path(job.log_dir) if job.log_dir else default_log_dir()
    # (the host loads kotarena's own plugins and this distribution alone: never every
    # installed one, whose import-time code would run in this bot's sandbox)
    dist, path = spec.package, spec.path
    if dist == "?":  # (a job made by hand: the bot's distribution, known without importing it)
        try:
            info = find_bot(spec.bot)
            dist, path = info.package, tuple(info.path or ())
        except Exception:  # noqa: BLE001 - an unknown bot fails in its sandbox, which loads no plugin but ours
            dist = "kotarena"
    return seat_server(spec.bot, slot, jailed=job.sandbox, memory_mb=job.memory_mb, log_dir=log_dir,
                       hide=job.hide, dist=dist, path=path, night=job.night, wait=wait)


def seat_slots(seats: tuple[SeatSpec, ...], slots: tuple[int, ...] = ()) -> tuple[int, ...]:
    """Each seat's instance slot: ``slots`` where they give each seat of a bot its own,
    else each seat's place among the seats of its bot at this table (0 for a bot's first
    seat, 1 for its second...). Two seats of one table never share an instance."""
    if len(slots) == len(seats):
        taken = {(spec.bot, slot) for spec, slot in zip(seats, slots)}
        if len(taken) == len(seats) and all(type(slot) is int and slot >= 0 for slot in slots):
            return tuple(slots)
    counts: dict[str, int] = {}
    places = []
    for spec in seats:
        places.append(counts.get(spec.bot, 0))
        counts[spec.bot] = places[-1] + 1
    return tuple(places)


def _program(bot: str) -> bool:
    """Whether ``bot`` is a command-line bot (an unknown one fails where it is seated)."""
    try:
        return is_program(get_bot(bot).cls)
    except Exception:  # noqa: BLE001
        return False


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
    game = get_game(job.game)
    state = game.new_state(len(job.seats), seed=job.seed, deck=job.deck, first_player=job.first_player, record=False)
    failures: list[BotFailure | None] = [None] * state.n
    hosts: list[SeatHost] = []
    slots = seat_slots(job.seats, job.slots)
    for seat, spec in enumerate(job.seats):
        host: SeatHost
        try:
            host = _seat_host(seat, spec, job, slots[seat])
        except BotFailure as error:
            failures[seat], host = error, Unseated(spec)
        hosts.append(host)
    seeds = job.bot_seeds or bot_seeds(job.seed, state.n)
    try:
        # Every seat's process is asked for before any is started: the sandboxes set up
        # their seats at the same time.
        _each(hosts, failures, lambda host: host.request_seat())
        for seat, host in enumerate(hosts):
            if failures[seat] is None:
                try:
                    host.start(seeds[seat], state.view(seat))
                except BotFailure as error:
                    failures[seat] = error
        _each(hosts, failures, lambda host: host.settle())
        play_seated(state, hosts, failures)
        for seat, host in enumerate(hosts):
            if failures[seat] is None and not host.host_alive():
                failures[seat] = BotFailure(CRASH, "its host process was killed during the game")
        # The record is taken from the engine before the bots see the final views: whatever
        # a bot's finish() does to what it is handed, what is stored is the engine's.
        record = game_record(job, state, failures)
        for seat, host in enumerate(hosts):
            if failures[seat] is None:
                host.finish(state.view(seat))
        _each(hosts, failures, lambda host: host.settle())
    finally:
        if not keep_guard:
            GUARD.disarm()
        close_hosts(hosts)
    return match_result(job, record, hosts, failures, time.perf_counter() - started)


def close_hosts(hosts: list[SeatHost]) -> None:
    """Let go of a match's seats, then reset the instances they played on (all asked
    first, then all waited for): no process of the match's bots lives on."""
    for host in hosts:
        host.close()
    instances = {id(instance): instance for host in hosts for instance in host.instances()}.values()
    for instance in instances:
        instance.request_reset()
    for instance in instances:
        instance.reset()


def game_record(job: MatchJob, state: Any, failures: list[BotFailure | None]) -> dict:
    """What is stored of a game that is over, taken from the engine (before the bots
    are told how it ended)."""
    game = get_game(job.game)
    outcome = state.outcome
    assert outcome is not None  # (only a game that is over is recorded)
    forfeits = [failed.kind if failed else None for failed in failures]
    return {"termination": outcome.termination.value, "winner": outcome.winner, "turns": outcome.turns,
            "facts": [game.seat_facts(state, seat) for seat in range(state.n)],
            "replay": actions_replay_text(state, first_player=job.first_player, bots=[spec.bot for spec in job.seats]),
            "forfeits": forfeits, "ranks": final_ranks(outcome.ranks, forfeits)}


def match_result(job: MatchJob, record: dict, hosts: Sequence[SeatReport], failures: list[BotFailure | None],
                 duration: float) -> MatchResult:
    """The match's result from its game's record and its seats' hosts (their CPU time
    and decisions, and how they failed)."""
    ranks, forfeits, facts, winner = record["ranks"], record["forfeits"], record["facts"], record["winner"]
    seats = []
    for seat, (spec, host, failed) in enumerate(zip(job.seats, hosts, failures)):
        package, version = host.package()
        seats.append(SeatResult(
            seat=seat, entrant=spec.entrant, bot=spec.bot, package=package, version=version,
            rank=ranks[seat], forfeit=forfeits[seat],
            forfeit_detail=clip_detail(failed.detail) if failed else None, decisions=host.decisions,
            cpu_seconds=round(host.cpu, 6), facts=facts[seat],
            times=pack_times(host.timing, host.times), log=host.log,
        ))
    return MatchResult(
        index=job.index, key=job.key, game=job.game, seed=job.seed, first_player=job.first_player,
        rules_version=get_game(job.game).spec.rules_version,
        status="forfeit" if any(failures) else "done", termination=record["termination"],
        # A seat that forfeited won nothing, even if its autopilot won the game (the
        # replay keeps the engine's result).
        winner_seat=winner if winner is None or failures[winner] is None else None,
        turns=record["turns"], duration=duration, replay=record["replay"], seats=seats,
    )


def _each(hosts: list[SeatHost], failures: list[BotFailure | None], step: Callable[[SeatHost], None]) -> None:
    """``step`` for each seat that has not forfeited; a seat whose bot fails in it forfeits."""
    for seat, host in enumerate(hosts):
        if failures[seat] is None:
            try:
                step(host)
            except BotFailure as error:
                failures[seat] = error


#: The longest forfeit detail stored: its reason's line, then the rest's tail.
DETAIL_LIMIT = REASON_LIMIT + 1 + BODY_LIMIT


def clip_detail(detail: str) -> str:
    """A forfeit's detail as stored: its reason's line first, bounded, cleaned of what a
    terminal or a page would act on (:func:`kotarena.forfeits.clean_detail`), then the
    tail of the rest (a traceback's innermost frames), with a mark where text was cut."""
    return clean_detail(detail)
