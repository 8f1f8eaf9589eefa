"""One match of a league night: what a worker is given, what it gives back, playing it.

A :class:`MatchJob` is plain, picklable data; :func:`play_match` plays it to the end
whatever its bots do and returns a :class:`~kotarena.storage.models.MatchResult`, the
record the results database stores. A seat whose bot fails (see
:mod:`kotarena.tournament.seats`) forfeits: the failure is recorded, the bot is ranked
last, and a deterministic autopilot (always the first legal action: stop rolling,
stay, stop buying) plays the seat out so the other bots' game stays valid.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Any

from kotarena.bots.registry import get_bot
from kotarena.engine.outcome import TERMINATION_TEXT
from kotarena.games import get_game
from kotarena.ratings import ranks_for
from kotarena.replay import actions_replay_text
from kotarena.seeds import bot_seeds
from kotarena.storage.models import MatchResult, SeatResult
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
    #: Each seat's bot seed, worked out by the coordinator with the night's secret key
    #: (:func:`kotarena.seeds.bot_seeds`). Empty: the game seed's own keyed seeds.
    bot_seeds: tuple[int, ...] = ()


# Isolated seat hosts live as long as the worker process, keyed by seat and bot.
# A forked worker inherits its parent's table but not its children: start afresh.
_ISOLATED: dict[tuple, IsolatedSeat] = {}
_ISOLATED_OWNER = os.getpid()


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
    game = get_game(job.game)
    state = game.new_state(len(job.seats), seed=job.seed, deck=job.deck, first_player=job.first_player, record=False)
    hosts = [_seat_host(seat, spec, job) for seat, spec in enumerate(job.seats)]
    failures: list[BotFailure | None] = [None] * state.n
    seeds = job.bot_seeds or bot_seeds(job.seed, state.n)
    for seat, host in enumerate(hosts):
        try:
            host.start(seeds[seat], state.view(seat))
        except BotFailure as error:
            failures[seat] = error
    try:
        play_seated(state, hosts, failures)
    finally:
        if not keep_guard:
            GUARD.disarm()
    # The record is taken from the engine before the bots see the final views: whatever
    # a bot's finish() does to what it is handed, what is stored is the engine's.
    outcome = state.outcome
    assert outcome is not None  # play_seated returns only when the game is over
    termination, winner, turns = TERMINATION_TEXT[outcome.termination], outcome.winner, outcome.turns
    facts = [game.seat_facts(state, seat) for seat in range(state.n)]
    replay = actions_replay_text(state, first_player=job.first_player, bots=[spec.bot for spec in job.seats])
    forfeits = [failed.kind if failed else None for failed in failures]
    ranks = final_ranks(outcome.ranks, forfeits)
    for seat, host in enumerate(hosts):
        if failures[seat] is None:
            host.finish(state.view(seat))
        if isinstance(host, InProcessSeat):
            host.close()
    seats = []
    for seat, (spec, host, failed) in enumerate(zip(job.seats, hosts, failures)):
        info = host.info if isinstance(host, InProcessSeat) and host.info is not None else get_bot(spec.bot)
        seats.append(SeatResult(
            seat=seat, entrant=spec.entrant, bot=spec.bot, package=info.package, version=info.version,
            rank=ranks[seat], forfeit=forfeits[seat],
            forfeit_detail=clip_detail(failed.detail) if failed else None, decisions=host.decisions,
            cpu_seconds=round(host.cpu, 6), facts=facts[seat],
        ))
    return MatchResult(
        index=job.index, key=job.key, game=job.game, seed=job.seed, first_player=job.first_player,
        rules_version=game.spec.rules_version,
        status="forfeit" if any(failures) else "done", termination=termination,
        # A seat that forfeited won nothing, even if its autopilot won the game (the
        # replay keeps the engine's result).
        winner_seat=winner if winner is None or failures[winner] is None else None,
        turns=turns, duration=time.perf_counter() - started, replay=replay, seats=seats,
    )


#: The longest forfeit detail stored (a traceback's last frames are the useful part).
DETAIL_LIMIT = 4000
#: Of a longer one: its first characters (the error's own line)...
DETAIL_HEAD = 500


def clip_detail(detail: str) -> str:
    """A forfeit's detail as stored: whole if short, else its head (the error, first)
    and its tail (the traceback's innermost frames), with a mark where text was cut."""
    if len(detail) <= DETAIL_LIMIT:
        return detail
    cut = "\n[...]\n"
    return detail[:DETAIL_HEAD] + cut + detail[-(DETAIL_LIMIT - DETAIL_HEAD - len(cut)):]
