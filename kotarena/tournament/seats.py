"""Seating bots under a time limit: in the match's own process, or isolated in a host process.

A *seat host* asks one bot for decisions and turns every way a bot can fail into a
:class:`BotFailure` with a kind from the forfeit taxonomy:

``timeout``  the bot used more CPU time than the limit for one decision (or hung)
``error``    the bot raised an exception
``invalid``  the bot answered with something that is not a legal action
``crash``    the bot's process died

Time limits count the bot's CPU time, not wall-clock time, so a busy machine does not
cost a bot its game. A wall-clock backstop (``WALL_FACTOR`` times the limit, plus a
grace period) catches bots that sleep or block instead of computing.

:class:`InProcessSeat` runs a trusted bot in the match's process and interrupts a
runaway decision with a CPU timer signal. :class:`IsolatedSeat` runs an untrusted bot
in a child process that receives only views (so it cannot look at the game's state or
the deck), with memory and CPU limits; a crash, hang or trick there costs only that
bot its game.
"""

from __future__ import annotations

import multiprocessing
import pickle
import signal
import threading
import time
from dataclasses import dataclass

from kotarena.engine.actions import Action, ActionError, parse_action
from kotarena.engine.view import View

TIMEOUT = "timeout"
ERROR = "error"
INVALID = "invalid"
CRASH = "crash"

#: A decision may take this many times its CPU limit in wall-clock time before the
#: bot is judged hung (plus ``WALL_GRACE`` seconds for a loaded machine).
WALL_FACTOR = 10.0
WALL_GRACE = 5.0
#: Address-space limit of an isolated bot's process.
DEFAULT_MEMORY_MB = 2048


class BotFailure(Exception):
    """A bot forfeits: ``kind`` is one of timeout, error, invalid, crash."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


class _CpuTimeout(BaseException):
    """Raised inside a bot's decision when a timer fires (not an Exception, so a
    bot's own ``except Exception`` cannot swallow it). ``wall`` tells the wall-clock
    backstop from the CPU limit."""

    def __init__(self, wall: bool) -> None:
        super().__init__()
        self.wall = wall


@dataclass(frozen=True)
class SeatSpec:
    """Who sits in a seat: an installed bot, its parameters, and whether to trust it."""

    entrant: str
    bot: str
    params: tuple[tuple[str, object], ...] = ()
    trusted: bool = True


def _check_answer(answer: object, view: View) -> Action:
    """The legal action a bot's answer names, or an ``invalid`` failure."""
    if isinstance(answer, str):
        try:
            answer = parse_action(answer)
        except ActionError as error:
            raise BotFailure(INVALID, f"answered {answer!r}, which is not an action: {error}") from None
    if not isinstance(answer, Action) or answer not in view.legal:
        shown = answer.text if isinstance(answer, Action) else repr(answer)
        raise BotFailure(INVALID, f"answered {shown!r}, not legal for the {view.kind} decision")
    return answer


class _Timers:
    """CPU and wall-clock alarms around one call, when this thread may use signals."""

    def __init__(self, cpu_limit: float) -> None:
        self.cpu_limit = cpu_limit
        self.enabled = threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")

    def __enter__(self) -> _Timers:
        if self.enabled:
            self._old_prof = signal.signal(signal.SIGPROF, self._fire)
            self._old_alarm = signal.signal(signal.SIGALRM, self._fire)
            signal.setitimer(signal.ITIMER_PROF, self.cpu_limit)
            signal.setitimer(signal.ITIMER_REAL, self.cpu_limit * WALL_FACTOR + WALL_GRACE)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.enabled:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGPROF, self._old_prof)
            signal.signal(signal.SIGALRM, self._old_alarm)

    @staticmethod
    def _fire(signum, frame) -> None:
        raise _CpuTimeout(wall=signum == signal.SIGALRM)


def _timed_call(method, argument, cpu_limit: float):
    """Call ``method(argument)`` under the limits; returns (result, cpu seconds)."""
    start = time.process_time()
    wall_start = time.monotonic()
    try:
        with _Timers(cpu_limit):
            result = method(argument)
    except _CpuTimeout as timeout:
        used = time.process_time() - start
        if timeout.wall:
            waited = time.monotonic() - wall_start
            raise BotFailure(TIMEOUT, f"no answer within {waited:.1f}s of wall-clock time (hung, "
                                      f"{used:.2f}s of CPU used)") from None
        raise BotFailure(TIMEOUT, f"no answer after {used:.2f}s of CPU time (limit {cpu_limit:g}s)") from None
    except BotFailure:
        raise
    except Exception as error:  # noqa: BLE001 - any bot bug is a forfeit, not our crash
        raise BotFailure(ERROR, f"{type(error).__name__}: {error}") from None
    used = time.process_time() - start
    if used > cpu_limit:
        raise BotFailure(TIMEOUT, f"took {used:.2f}s of CPU time (limit {cpu_limit:g}s)")
    return result, used


class InProcessSeat:
    """A trusted bot called directly in the match's process."""

    def __init__(self, spec: SeatSpec, time_limit: float) -> None:
        self.spec = spec
        self.time_limit = time_limit
        self.bot = None
        self.cpu = 0.0
        self.decisions = 0

    def start(self, seed: int, view: View) -> None:
        from kotarena.bots.registry import get_bot

        try:
            self.bot = get_bot(self.spec.bot).make(seed=seed, **dict(self.spec.params))
        except Exception as error:  # noqa: BLE001
            raise BotFailure(ERROR, f"could not be created: {type(error).__name__}: {error}") from None
        _, used = _timed_call(self.bot.start, view, self.time_limit * 10)
        self.cpu += used

    def choose(self, view: View) -> Action:
        answer, used = _timed_call(self.bot.choose, view, self.time_limit)
        self.cpu += used
        self.decisions += 1
        return _check_answer(answer, view)

    def finish(self, view: View) -> None:
        if self.bot is not None:
            try:
                _timed_call(self.bot.finish, view, self.time_limit * 10)
            except BotFailure:
                pass  # the game is over; a bot failing to say goodbye changes nothing

    def close(self) -> None:
        self.bot = None


# ---------------------------------------------------------------- isolated bots


def _host_main(connection, memory_mb: int) -> None:
    """The loop of an isolated bot's process: build bots, answer with action texts."""
    try:
        import resource

        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ImportError, ValueError, OSError):
        pass  # not every platform lets us; the wall-clock backstop still applies
    bot = None
    while True:
        try:
            message = connection.recv()
        except (EOFError, OSError):
            return
        command = message[0]
        try:
            if command == "start":
                _, name, params, seed, view, limit = message
                from kotarena.bots.registry import get_bot

                bot = get_bot(name).make(seed=seed, **dict(params))
                _, used = _timed_call(bot.start, view, limit * 10)
                connection.send(("ok", None, used))
            elif command == "choose":
                _, view, limit = message
                answer, used = _timed_call(bot.choose, view, limit)
                text = answer.text if isinstance(answer, Action) else answer
                if not isinstance(text, str):
                    raise BotFailure(INVALID, f"answered {answer!r}, which is not an action")
                connection.send(("ok", text, used))
            elif command == "finish":
                _, view, limit = message
                if bot is not None:
                    try:
                        _timed_call(bot.finish, view, limit * 10)
                    except BotFailure:
                        pass
                bot = None
                connection.send(("ok", None, 0.0))
            else:
                return
        except BotFailure as failure:
            connection.send(("fail", failure.kind, failure.detail))
        except Exception as error:  # noqa: BLE001
            connection.send(("fail", ERROR, f"{type(error).__name__}: {error}"))
        except MemoryError:
            connection.send(("fail", CRASH, "ran out of memory"))


def _context():
    # Never fork the match's process: the child would inherit the game's state, deck
    # order and dice stream included. A spawned host is a fresh interpreter that has
    # only ever seen views; it costs a start-up once per worker and seat, since hosts
    # outlive games.
    return multiprocessing.get_context("spawn")


class IsolatedSeat:
    """An untrusted bot in its own process, seeing nothing but the views it is sent.

    The host process outlives a game so later games skip the start-up; it is replaced
    whenever it dies or is killed for hanging.
    """

    def __init__(self, spec: SeatSpec, time_limit: float, memory_mb: int = DEFAULT_MEMORY_MB) -> None:
        self.spec = spec
        self.time_limit = time_limit
        self.memory_mb = memory_mb
        self.process = None
        self.connection = None
        self.cpu = 0.0
        self.decisions = 0

    def _ensure_process(self) -> None:
        if self.process is not None and self.process.is_alive():
            return
        self.close()
        ours, theirs = _context().Pipe()
        self.process = _context().Process(target=_host_main, args=(theirs, self.memory_mb), daemon=True)
        self.process.start()
        theirs.close()
        self.connection = ours

    def _ask(self, message: tuple, wall_limit: float):
        try:
            self.connection.send(message)
        except (OSError, pickle.PicklingError, BrokenPipeError) as error:
            self.close()
            raise BotFailure(CRASH, f"its process is gone ({error})") from None
        if not self.connection.poll(wall_limit):
            self.close()
            raise BotFailure(TIMEOUT, f"no answer within {wall_limit:.1f}s of wall-clock time (hung)")
        try:
            reply = self.connection.recv()
        except (EOFError, OSError):
            code = None
            if self.process is not None:
                self.process.join(timeout=2)
                code = self.process.exitcode
            self.close()
            raise BotFailure(CRASH, f"its process died (exit code {code})") from None
        if reply[0] == "fail":
            raise BotFailure(reply[1], reply[2])
        return reply[1], reply[2]

    def _wall(self, cpu_limit: float) -> float:
        return cpu_limit * WALL_FACTOR + WALL_GRACE

    def start(self, seed: int, view: View) -> None:
        self._ensure_process()
        limit = self.time_limit
        _, used = self._ask(("start", self.spec.bot, self.spec.params, seed, view, limit), self._wall(limit * 10) + 30)
        self.cpu += used

    def choose(self, view: View) -> Action:
        text, used = self._ask(("choose", view, self.time_limit), self._wall(self.time_limit))
        self.cpu += used
        self.decisions += 1
        return _check_answer(text, view)

    def finish(self, view: View) -> None:
        if self.process is None or not self.process.is_alive():
            return
        try:
            self._ask(("finish", view, self.time_limit), self._wall(self.time_limit * 10))
        except BotFailure:
            self.close()

    def close(self) -> None:
        if self.connection is not None:
            try:
                self.connection.close()
            except OSError:
                pass
        if self.process is not None:
            if self.process.is_alive():
                self.process.kill()
            self.process.join(timeout=5)
        self.process = None
        self.connection = None

