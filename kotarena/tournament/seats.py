"""Seating bots under a time limit: trusted ones in the match's own process.

A *seat host* (:class:`~kotarena.tournament.hosts.SeatHost`, the protocol every host
keeps) asks one bot for decisions and turns every way a bot can fail into a
:class:`~kotarena.forfeits.BotFailure` with a kind from the forfeit taxonomy
(:mod:`kotarena.forfeits`). Time limits count the bot's CPU time, not wall-clock time,
so a busy machine does not cost a bot its game; a wall-clock backstop (``WALL_FACTOR``
times the limit, plus a grace period) catches bots that sleep or block instead.

:class:`InProcessSeat` runs a *trusted* bot in the match's process and interrupts a
runaway decision with a CPU timer signal. A trusted bot is code the organiser vouches
for: it runs with the referee's rights, and could do what the referee can. Every other
bot sits in the sandbox (:mod:`kotarena.sandbox`), in another process that speaks a
text protocol, with its time counted from outside.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kotarena.bots.registry import get_bot
from kotarena.engine.actions import Action
from kotarena.engine.game import GameState
from kotarena.engine.outcome import IllegalActionError
from kotarena.forfeits import (
    CRASH,
    ERROR,
    INVALID,
    MEMORY,
    SANDBOX,
    TIMEOUT,
    WALL_FACTOR,
    WALL_GRACE,
    BotFailure,
    as_action,
)
from kotarena.sandbox.botlog import CALLS, FINISH, START, SeatLines
from kotarena.sandbox.seat import DEFAULT_MEMORY_MB  # (where the seats' limits were named before)

#: What a bot is shown: the view its game gives of one seat (``GameState.view``).
View = Any

#: The guard's ``call_start`` while no call is running (CPU clocks are never negative).
NO_CALL = -1.0


class _CpuTimeout(BaseException):
    """Raised inside a bot's decision when a timer fires (not an Exception, so a
    bot's own ``except Exception`` cannot swallow it). ``wall`` tells the wall-clock
    backstop from the CPU limit."""

    def __init__(self, wall: bool) -> None:
        super().__init__()
        self.wall = wall


@dataclass(frozen=True)
class SeatSpec:
    """Who sits in a seat: an installed bot, its parameters, and whether to trust it.

    ``package`` and ``version`` name the bot's distribution as the referee knows it (the
    coordinator fills them from the bot registry when it makes the jobs): what is stored
    for the seat, never what a sandboxed bot says of itself. ``path`` lists the
    directories the bot's sandbox puts on ``sys.path`` (a stored bot's directory).
    """

    entrant: str
    bot: str
    params: tuple[tuple[str, object], ...] = ()
    trusted: bool = True
    package: str = "?"
    version: str = "?"
    path: tuple[str, ...] = ()


class _Guard:
    """Keeps a bot's calls within their CPU limit, at no cost per call.

    Reading the process's CPU clock is a system call, and setting a timer around every
    decision costs more: for fast bots that would be a large share of a league night.
    Instead, while seats are in play, a periodic timer ticks every ``limit / TICKS``
    seconds of the process's CPU time; its handler reads the CPU clock into
    ``cpu_clock`` and stops a call that is over its limit. A call's CPU time is the
    difference of the ``cpu_clock`` readings around it, so it is known to within one
    tick, and judged in the bot's favour: a call is over its limit only when even the
    smallest CPU time it can have used is (``used - tick > limit``). A runaway call is
    stopped within two ticks of its limit. Over many calls the readings add up to the
    bots' true CPU time (a tick lands in a call as often as the call's share of the CPU).

    A second timer ticks on the wall clock and stops a call that blocks or sleeps for
    ``WALL_FACTOR`` times its limit (plus ``WALL_GRACE``). It counts its own ticks
    rather than reading the clock at each call: calls are numbered, and a call that
    the timer finds still running tick after tick has run at least that many ticks.

    Where signals cannot be used (outside the main thread, or on a platform without
    ``setitimer``) the guard stays off: each call reads the CPU clock before and after
    and is judged exactly, but a hang is not interrupted.
    """

    TICKS = 20

    __slots__ = ("installed", "call_start", "calls", "limit", "tick", "wall_tick", "cpu_clock", "used", "_watched",
                 "_wall_ticks", "_old")

    def __init__(self) -> None:
        self._old: Any = None  #: the signal handlers the guard replaced while it is installed
        self.installed = False
        #: ``cpu_clock`` when the running call began, ``NO_CALL`` between calls
        self.call_start = NO_CALL
        self.calls = 0  #: calls begun so far (numbers them for the wall-clock timer)
        self.limit = 0.0
        self.tick = 0.0
        self.wall_tick = 0.0
        self.cpu_clock = 0.0
        self.used = 0.0  #: the CPU seconds the last call took
        self._watched = -1  #: the call the wall-clock timer found running at its last tick
        self._wall_ticks = 0  #: ticks since then that found that call still running

    def arm(self, limit: float) -> None:
        """Start ticking for calls limited to ``limit`` CPU seconds (main thread only)."""
        if self.installed and self.tick == limit / self.TICKS:
            return  # ticking already, for this limit (each seat of each match arms it)
        if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
            return  # no signals here: calls are judged afterwards, a hang is not stopped
        if not self.installed:
            self._old = (signal.signal(signal.SIGPROF, self._fire), signal.signal(signal.SIGALRM, self._fire))
            self.installed = True
            self.cpu_clock = time.process_time()
        if self.tick != limit / self.TICKS:
            self.tick = limit / self.TICKS
            self.wall_tick = (limit * WALL_FACTOR + WALL_GRACE) / self.TICKS
            signal.setitimer(signal.ITIMER_PROF, self.tick, self.tick)
            signal.setitimer(signal.ITIMER_REAL, self.wall_tick, self.wall_tick)

    def disarm(self) -> None:
        if self.installed:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGPROF, self._old[0])
            signal.signal(signal.SIGALRM, self._old[1])
            self.installed = False
            self.tick = 0.0

    def _fire(self, signum, frame) -> None:
        if signum == signal.SIGPROF:
            now = self.cpu_clock = time.process_time()
            start = self.call_start
            if start >= 0.0 and now - start - self.tick > self.limit:
                raise _CpuTimeout(wall=False)
        elif self.call_start >= 0.0:
            if self._watched != self.calls:
                self._watched = self.calls
                self._wall_ticks = 0
            else:
                self._wall_ticks += 1
                if self.waited() > self.limit * WALL_FACTOR + WALL_GRACE:
                    raise _CpuTimeout(wall=True)

    def call(self, method: Callable[[Any], Any], argument: Any, limit: float) -> Any:
        """``method(argument)`` under the limits, in CPU seconds; what it took is left in
        :attr:`used`. A bot that fails or takes too long raises :class:`BotFailure`."""
        ticking = self.installed
        self.limit = limit
        self.calls += 1
        start = self.call_start = self.cpu_clock if ticking else time.process_time()
        try:
            result = method(argument)
        except BaseException as error:
            self.call_start = NO_CALL
            raise _failure(error, start, limit) from None
        self.call_start = NO_CALL
        if ticking:
            used = self.used = self.cpu_clock - start
            over = used != 0.0 and used - self.tick > limit
        else:
            used = self.used = time.process_time() - start
            over = used > limit
        if over:
            raise BotFailure(TIMEOUT, f"took {used:.2f}s of CPU time (limit {limit:g}s)")
        return result

    def waited(self) -> float:
        """Wall-clock seconds the running call has at least been running, as far as the
        wall-clock timer has seen it."""
        return self._wall_ticks * self.wall_tick


#: The guard of this process's trusted bots.
GUARD = _Guard()


#: Frames of a bot's traceback kept in its forfeit's detail (the innermost ones).
TRACEBACK_FRAMES = 8


def _failure(error: BaseException, start: float, cpu_limit: float) -> BaseException:
    """What a bot's call that raised ``error`` amounts to: a :class:`BotFailure`, or
    the error itself for what is not the bot's doing (Ctrl-C).

    A bot's exception is its ``error`` forfeit (``memory`` for a ``MemoryError``), the
    detail the exception's line and then its traceback's innermost frames. So is a
    bot's ``sys.exit()``: the ``SystemExit`` is the bot's, and must not end the match's
    process (with ``--workers 0``, the whole night, as if it had succeeded).
    """
    if isinstance(error, _CpuTimeout):
        used = time.process_time() - start
        if error.wall:
            return BotFailure(TIMEOUT, f"no answer after {GUARD.waited():.1f}s of wall-clock time (hung, "
                                       f"{used:.2f}s of CPU used)")
        return BotFailure(TIMEOUT, f"no answer after {used:.2f}s of CPU time (limit {cpu_limit:g}s)")
    if isinstance(error, (BotFailure, KeyboardInterrupt)):
        return error
    import traceback

    summary = "".join(traceback.format_exception_only(error)).strip()
    if isinstance(error, SystemExit):
        summary = f"SystemExit: the bot called sys.exit({error.code!r})"
    frames = traceback.extract_tb(error.__traceback__)[1:]  # (the first is the call in this module)
    detail = summary
    if frames:
        shown = frames[-TRACEBACK_FRAMES:]
        skipped = f"  [{len(frames) - len(shown)} outer frames left out]\n" if len(frames) > len(shown) else ""
        detail += "\nTraceback (most recent call last):\n" + skipped + "".join(traceback.format_list(shown)).rstrip()
    return BotFailure("memory" if isinstance(error, MemoryError) else ERROR, detail)


def known_package(spec: SeatSpec, info: Any = None) -> tuple[str, str]:
    """The distribution and version of the seat's bot as the referee knows them: the
    job's, else (for a trusted bot only: an untrusted one is never imported here) its
    registry entry ``info``, looked up if not given; ``("?", "?")`` for an unknown bot."""
    if spec.package != "?" or not spec.trusted:
        return spec.package, spec.version
    if info is None:
        try:
            info = get_bot(spec.bot)
        except Exception:  # noqa: BLE001 - an unknown bot's seat still gets its record
            return "?", "?"
    return info.package, info.version


class InProcessSeat:
    """A trusted bot called directly in the match's process (a
    :class:`~kotarena.tournament.hosts.SeatHost`).

    What the bot writes to ``sys.stdout`` and ``sys.stderr`` during its calls (start,
    each decision, finish) still goes there, and the seat keeps the game's lines, each
    under the step it was written in (:class:`kotarena.sandbox.botlog.SeatLines`): the
    seat names itself as the one called for each call only (:data:`~kotarena.sandbox.botlog.CALLS`),
    so nothing written between calls, by the referee or another seat's bot, is this seat's.
    """

    __slots__ = ("spec", "time_limit", "info", "bot", "_choose", "cpu", "decisions", "times", "timing", "log",
                 "_lines")

    def __init__(self, spec: SeatSpec, time_limit: float) -> None:
        self.spec = spec
        self.time_limit = time_limit
        #: The installed bot, once :meth:`start` has looked it up (the match's result
        #: names its package and version, and need not look it up again).
        self.info: Any = None
        self.bot: Any = None
        self._choose: Any = None  #: the bot's bound ``choose``, looked up once per game
        self.cpu = 0.0
        self.decisions = 0
        self.times: list[float] = []  #: each decision's CPU time, as measured for the limit
        self.timing = "cpu"  #: how (:mod:`kotarena.decision_times`): ``tick`` while the guard ticks
        self.log: str | None = None  #: what the bot wrote during the game, once it is over (bounded)
        self._lines: SeatLines | None = None

    def request_seat(self) -> None:
        pass  # (the bot is made in :meth:`start`, in this process)

    def start(self, seed: int, view: View) -> None:
        try:
            info = get_bot(self.spec.bot)
            self.bot = info.make(seed=seed, **dict(self.spec.params))
            self.info = info
        except Exception as error:  # noqa: BLE001
            raise BotFailure(ERROR, f"could not be created: {type(error).__name__}: {error}") from None
        self._choose = self.bot.choose
        GUARD.arm(self.time_limit)
        self.timing = "tick" if GUARD.installed else "cpu"
        self._lines = SeatLines(self)
        CALLS.open()
        self._captured(self.bot.start, view, START)
        self.cpu += GUARD.used

    def _captured(self, method: Callable[[Any], Any], view: View, step: str) -> None:
        """``GUARD.call(method, view)`` at ten times the limit (start, finish), with what
        the bot writes meanwhile kept as ``step``'s."""
        lines = self._lines
        lines.phase = step  # type: ignore[union-attr]
        CALLS.lines = lines
        try:
            GUARD.call(method, view, self.time_limit * 10)
        finally:
            CALLS.lines = None
            lines.phase = None  # type: ignore[union-attr]  # (what follows: decisions)

    def choose(self, view: View) -> Action:
        guard = GUARD
        # Whose lines are written, for this call only: all that keeping them costs (the
        # lines say their decision when written, SeatLines).
        calls = CALLS
        calls.lines = self._lines
        if not guard.installed:
            try:
                answer = guard.call(self._choose, view, self.time_limit)
            finally:
                calls.lines = None
            used = guard.used
        else:
            # guard.call for a ticking guard, written out: this runs for every decision.
            limit = guard.limit = self.time_limit
            guard.calls += 1
            start = guard.call_start = guard.cpu_clock
            try:
                answer = self._choose(view)
            except BaseException as error:
                guard.call_start = NO_CALL
                calls.lines = None
                raise _failure(error, start, limit) from None
            guard.call_start = NO_CALL
            calls.lines = None
            used = guard.cpu_clock - start
            if used != 0.0 and used - guard.tick > limit:
                raise BotFailure(TIMEOUT, f"took {used:.2f}s of CPU time (limit {limit:g}s)")
        self.cpu += used
        self.decisions += 1
        self.times.append(used)
        return answer if type(answer) is Action else as_action(answer, view)

    def settle(self) -> None:
        pass  # (start and finish have been answered when they return)

    def finish(self, view: View) -> None:
        if self.bot is not None:
            try:
                self._captured(self.bot.finish, view, FINISH)
            except BotFailure:
                pass  # the game is over; a bot failing to say goodbye changes nothing

    def host_alive(self) -> bool:
        return True  # (the match's own process)

    def close(self) -> None:
        self.bot = self._choose = None
        lines, self._lines = self._lines, None
        if lines is not None:  # (a forfeited game too: the lines up to there)
            CALLS.close()
            self.log = lines.take()

    def instances(self) -> tuple[()]:
        return ()

    def package(self) -> tuple[str, str]:
        return known_package(self.spec, self.info)


class Unseated:
    """The host of a seat whose bot could not be seated (a
    :class:`~kotarena.tournament.hosts.SeatHost`): the seat forfeits before its first
    decision, so nothing but its record is ever asked of it."""

    def __init__(self, spec: SeatSpec) -> None:
        self.spec = spec
        self.cpu = 0.0
        self.decisions = 0
        self.times: list[float] = []
        self.timing = "cpu"
        self.log: str | None = None

    def request_seat(self) -> None:
        pass

    def start(self, seed: int, view: View) -> None:
        raise AssertionError("a forfeited seat is never started")

    def settle(self) -> None:
        pass

    def choose(self, view: View) -> Action:
        raise AssertionError("a forfeited seat is never asked")

    def finish(self, view: View) -> None:
        pass

    def host_alive(self) -> bool:
        return True

    def close(self) -> None:
        pass

    def instances(self) -> tuple[()]:
        return ()

    def package(self) -> tuple[str, str]:
        return known_package(self.spec)


def play_seated(state: GameState, hosts: list[Any], failures: list[BotFailure | None]) -> None:
    """Play ``state`` to its end, asking each seat's host
    (:class:`~kotarena.tournament.hosts.SeatHost`) for its decisions.

    A seat whose bot fails (``failures[seat]`` set here, or already set when the game
    starts) is played out by the autopilot, which takes the first legal action, so
    the other bots' game stays valid.
    """
    choose = [host.choose for host in hosts]
    apply, view = state.apply, state.view
    while state.outcome is None:
        seat = state.to_move
        action: Any = None
        if failures[seat] is None:
            try:
                action = choose[seat](view(seat))
                apply(action)
                continue
            except BotFailure as failure:
                failures[seat] = failure
            except IllegalActionError:
                failures[seat] = BotFailure(INVALID, f"answered {action.text!r}, not legal for the "
                                                     f"{state.kind} decision")
        apply(state.legal[0])  # the autopilot


__all__ = [
    "CRASH", "DEFAULT_MEMORY_MB", "ERROR", "GUARD", "INVALID", "MEMORY", "SANDBOX", "TIMEOUT", "BotFailure",
    "InProcessSeat", "SeatSpec", "Unseated", "known_package", "play_seated",
]
