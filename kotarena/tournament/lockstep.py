"""A worker's matches played in lockstep: every instance asked for all its games at once.

A sandboxed Python bot answers a decision from another process, and waking that process
costs more than a cheap bot's decision. So a worker plays the matches it is handed
together: each table runs until a sandboxed seat must answer, the questions for one
instance of a bot (:mod:`kotarena.sandbox.instance`) go to it as one batch, and its
answers let those tables run on (:mod:`kotarena.sandbox.batch`). An instance is sent its
next batch as soon as it has answered the last, with whatever its tables asked
meanwhile; while it thinks, the referee plays the other tables. Trusted seats, and
command-line bots' programs (one game per run of the program), are asked directly, as in
:func:`kotarena.tournament.matches.play_match`.

No instance serves two tables of one deal: the seats' slots (:attr:`MatchJob.slots`)
give each seat a bot takes at one deal an instance of its own, however many tables are
played at once. Every game is played exactly as alone (the same seeds, the same views,
each seat's bot its own object): only when the bots are asked changes.
"""

from __future__ import annotations

import time
from typing import Any

from kotarena.engine.outcome import IllegalActionError
from kotarena.forfeits import CRASH, INVALID, BotFailure, as_action
from kotarena.games import get_game
from kotarena.results import MatchResult
from kotarena.sandbox.batch import BatchSeat, Link, link_of, wait
from kotarena.seeds import bot_seeds
from kotarena.tournament.hosts import SeatHost
from kotarena.tournament.matches import (
    MatchJob,
    _program,
    _seat_host,
    close_hosts,
    game_record,
    match_result,
    sandbox_server,
    seat_slots,
)
from kotarena.tournament.seats import GUARD, Unseated, known_package


class Table:
    """One match of the lockstep: its game, its seats' hosts, its forfeits."""

    def __init__(self, job: MatchJob) -> None:
        self.job = job
        game = get_game(job.game)
        # No event log: the stored replay holds the actions (as play_match plays).
        self.state = state = game.new_state(len(job.seats), seed=job.seed, deck=job.deck,
                                            first_player=job.first_player, record=False)
        self.failures: list[BotFailure | None] = [None] * state.n
        #: Each seat's host: a :class:`BatchSeat` (asked through its instance's link, in
        #: batches) or a seat host asked directly (:class:`~kotarena.tournament.hosts.SeatHost`).
        self.hosts: list[BatchSeat | SeatHost] = []
        self.record: dict | None = None
        self.finishing = 0  #: seats told the game is over whose goodbye has not come back
        seeds = job.bot_seeds or bot_seeds(job.seed, state.n)
        slots = seat_slots(job.seats, job.slots)
        for seat, spec in enumerate(job.seats):
            host: BatchSeat | SeatHost | None = None
            try:
                host = _batch_host(seat, spec, job, slots[seat], seeds[seat], state.view(seat))
                if host is None:
                    host = _seat_host(seat, spec, job, slots[seat])
                    host.start(seeds[seat], state.view(seat))
                    host.settle()
            except BotFailure as error:
                self.failures[seat] = error
                if host is None:  # (a host that failed to start is kept: it is closed with the table)
                    host = Unseated(spec)
            self.hosts.append(host)

    def advance(self) -> None:
        """Play on until a batched seat must answer, or the game is over (then tell the
        bots how it ended)."""
        state, failures, hosts = self.state, self.failures, self.hosts
        while state.outcome is None:
            seat = state.to_move
            if failures[seat] is None:
                host = hosts[seat]
                if type(host) is BatchSeat:
                    host.ask(state.view(seat))
                    return
                action: Any = None
                try:
                    action = host.choose(state.view(seat))
                    state.apply(action)
                    continue
                except BotFailure as failure:
                    failures[seat] = failure
                except IllegalActionError:
                    failures[seat] = _illegal(action, state)
            state.apply(state.legal[0])  # the autopilot
        self._end()

    def answer(self, host: BatchSeat, kind: str, answer: object) -> None:
        """A batched seat's answer (its text, or its failure) has come back, or its
        goodbye (``finish``), or a forfeited seat's lines (``forget``)."""
        seat = host.seat
        if kind in ("finish", "forget"):
            self.finishing -= 1
            host.leave()
            return
        state = self.state
        if isinstance(answer, BotFailure):
            self.failures[seat] = answer
            host.leave()
        else:
            action: Any = None
            try:
                action = as_action(answer, host.view)
                state.apply(action)
            except BotFailure as failure:
                self.failures[seat] = failure
            except IllegalActionError:
                self.failures[seat] = _illegal(action, state)
            if self.failures[seat] is not None and host.forfeit():
                self.finishing += 1  # (its player is asked for the game's lines before the table is done)
        if self.failures[seat] is not None and state.outcome is None and state.to_move == seat:
            state.apply(state.legal[0])  # the autopilot
        self.advance()

    def _end(self) -> None:
        state, failures = self.state, self.failures
        # (as play_match does: a seat whose host was killed during the game, batched or
        # asked directly, answered unvouched for)
        for seat, host in enumerate(self.hosts):
            if failures[seat] is not None:
                continue
            batched = type(host) is BatchSeat
            if not (host.link.server_alive() if batched else host.host_alive()):  # type: ignore[union-attr]
                failures[seat] = BotFailure(CRASH, "its host process was killed during the game")
                if batched:
                    host.leave()  # type: ignore[union-attr]
        # The record is taken from the engine before the bots see the final views.
        self.record = game_record(self.job, state, failures)
        for seat, host in enumerate(self.hosts):
            if failures[seat] is not None:
                continue
            if type(host) is BatchSeat:
                self.finishing += 1
                host.finish(state.view(seat))
            else:
                host.finish(state.view(seat))
                host.settle()

    @property
    def done(self) -> bool:
        return self.record is not None and self.finishing == 0

    def close(self) -> None:
        """Let go of the table's seats (an instance whose seat did not end cleanly is cleaned up)."""
        for host in self.hosts:
            if type(host) is BatchSeat:
                host.leave()
        close_hosts([host for host in self.hosts if type(host) is not BatchSeat])


def _batch_host(seat: int, spec: Any, job: MatchJob, slot: int, seed: int, view: Any) -> BatchSeat | None:
    """The seat played through its instance's link, for an untrusted Python bot (``None``
    for a seat asked directly: a trusted bot, a command-line bot's program)."""
    if spec.trusted and not job.isolate_all:
        return None
    if _program(spec.bot):
        return None
    server = sandbox_server(spec, job, slot)
    if not server.player:
        return None
    return BatchSeat(link_of(server), job.time_limit, game=job.game, seat=seat, params=dict(spec.params), seed=seed,
                     view=view, package=known_package(spec))


def _start_instances(jobs: list[MatchJob]) -> None:
    """Start the instances the tables need and do not have yet, all at once: each
    imports its bot in its own sandbox, in parallel (the tables then wait for them)."""
    for job in jobs:
        for spec, slot in zip(job.seats, seat_slots(job.seats, job.slots)):
            if not spec.trusted or job.isolate_all:
                try:
                    sandbox_server(spec, job, slot, wait=False)
                except BotFailure:
                    pass  # (its seats forfeit when the tables take them)


def _illegal(action: Any, state: Any) -> BotFailure:
    text = getattr(action, "text", action)
    return BotFailure(INVALID, f"answered {text!r}, not legal for the {state.kind} decision")


def play_tables(jobs: list[MatchJob], *, keep_guard: bool = False) -> list[MatchResult]:
    """Play ``jobs`` together, in lockstep; their results in the same order. A result's
    ``duration`` is its share of the time the worker took for them all.

    As in :func:`~kotarena.tournament.matches.play_match`, the CPU-time guard of
    in-process bots is switched off at the end unless ``keep_guard`` (left ticking, its
    timers would end the process once its handlers are gone, at the interpreter's exit).
    """
    started = time.perf_counter()
    tables: list[Table] = []
    links: dict[int, Link] = {}
    try:
        _start_instances(jobs)
        for job in jobs:
            table = Table(job)
            tables.append(table)
            for host in table.hosts:
                if type(host) is BatchSeat:
                    links[id(host.link)] = host.link
        owner = {}  # each batched seat's table
        for table in tables:
            for host in table.hosts:
                if type(host) is BatchSeat:
                    owner[id(host)] = table
        for table in tables:
            table.advance()
        while True:
            # An idle instance is sent what its tables ask once it is a fair share of the
            # tables in play (fewer, bigger batches: a wake-up costs more than a cheap
            # bot's decision), or at once when no instance is thinking.
            asked = sum(len(link.waiting) + len(link.flight) for link in links.values())
            thinking = any(link.busy for link in links.values())
            share = max(1, asked // len(links)) if thinking else 1
            idle = [link for link in links.values() if len(link.waiting) >= share and not link.busy]
            for link in idle:
                for host, kind, answer in link.send():
                    owner[id(host)].answer(host, kind, answer)
            busy = [link for link in links.values() if link.busy]
            if not busy:
                if any(link.waiting for link in links.values()):
                    continue
                break
            for _, answers in wait(busy):
                for host, kind, answer in answers:
                    owner[id(host)].answer(host, kind, answer)
    except BaseException:
        for link in links.values():
            link.abandon()  # (its player may be half-way through a batch nobody will read)
        raise
    finally:
        for table in tables:
            table.close()
        if not keep_guard:
            GUARD.disarm()
    duration = (time.perf_counter() - started) / max(1, len(jobs))
    results = []
    for table in tables:
        assert table.done, "a table of the lockstep was left unfinished"
        results.append(match_result(table.job, table.record, table.hosts, table.failures,  # type: ignore[arg-type]
                                    duration))
    return results


__all__ = ["Table", "play_tables"]
