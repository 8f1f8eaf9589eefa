"""Playing scheduled matches in parallel, surviving bots that fail.

A match is a :class:`MatchJob` (plain, picklable data) played by :func:`play_match` on
any ``concurrent.futures.Executor``: the standard ``ProcessPoolExecutor`` by default,
inline for debugging, or whatever executor a distributed engine provides
(``KOTARENA_EXECUTOR``). Only the coordinator writes to the database; workers just play
and return :class:`MatchResult` values. How one match is played, and what happens to a
seat whose bot fails, is in :mod:`kotarena.tournament.matches`.
"""

from __future__ import annotations

import contextlib
import importlib
import itertools
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace

from kotarena.games import new_game
from kotarena.results import MatchResult, SeatResult
from kotarena.tournament.lockstep import play_tables
from kotarena.tournament.matches import MatchJob, final_ranks, play_match
from kotarena.tournament.seats import GUARD

__all__ = [
    "InlineExecutor", "MatchJob", "MatchResult", "SeatResult", "final_ranks", "make_executor", "play_match",
    "play_matches", "run_jobs", "start_worker",
]

#: Whether this process is a worker of a process pool made by :func:`make_executor`.
_IN_WORKER = False


def play_matches(jobs: list[MatchJob]) -> list[MatchResult]:
    """Play several matches in a row (one job of an executor; see :func:`run_jobs`).

    In a worker of the default pool, Ctrl-C interrupts the matches being played (they
    are played again when the night is resumed); between jobs the worker does not hear
    it, so it never dies of it while waiting for work.
    """
    if _IN_WORKER:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        if any(_lockstep(job) for job in jobs):
            return play_tables(jobs)  # (sandboxed bots are asked for all their games at once)
        return [play_match(job, keep_guard=True) for job in jobs]
    finally:
        GUARD.disarm()
        if _IN_WORKER:
            signal.signal(signal.SIGINT, signal.SIG_IGN)


# ---------------------------------------------------------------- executors


class InlineExecutor(Executor):
    """Runs each job at once in the calling process (``--workers 0``): easy to debug."""

    def submit(self, fn, /, *args, **kwargs) -> Future:
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as error:  # noqa: BLE001 - delivered through the future
            future.set_exception(error)
        return future


def make_executor(workers: int | None) -> Executor:
    """The executor for a night: ``KOTARENA_EXECUTOR`` if set, else processes or inline.

    ``KOTARENA_EXECUTOR=package.module:factory`` names a callable taking the number of
    workers and returning a ``concurrent.futures.Executor`` (for example one backed by
    a cluster); jobs and results are plain picklable data, so any such executor works.
    Otherwise a ``ProcessPoolExecutor`` with ``workers`` processes (all cores if
    ``None``), or the coordinator's own process for ``0``.
    """
    factory = os.environ.get("KOTARENA_EXECUTOR")
    if factory:
        module_name, _, attribute = factory.partition(":")
        try:
            return getattr(importlib.import_module(module_name), attribute)(workers)
        except Exception as error:  # noqa: BLE001
            raise RuntimeError(f"KOTARENA_EXECUTOR={factory!r} did not give an executor: {error}") from None
    if workers == 0:
        return InlineExecutor()
    return ProcessPoolExecutor(max_workers=workers or os.cpu_count() or 1, initializer=start_worker)


def start_worker() -> None:
    """Set up a worker process of a night's pool (its ``initializer``).

    Ctrl-C at a terminal reaches every process of the night: the coordinator stores
    what was played and shuts the pool down, and a worker only stops the matches it is
    playing (see :func:`play_matches`). A worker also ends when the coordinator dies:
    one killed with ``kill -9`` cannot shut its pool down, and its workers would wait
    for jobs forever.
    """
    global _IN_WORKER
    _IN_WORKER = True
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # SIGTERM ends a worker at once, as the pool expects when it terminates one (a night
    # stopped by SIGTERM turns it into Ctrl-C in the coordinator only, which ends the
    # workers: see _stop_workers).
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    die_with_parent()


def die_with_parent() -> None:
    """Make this process end when the process that started it dies.

    Linux can do it for us (``PR_SET_PDEATHSIG``); elsewhere a watcher thread notices
    the parent is gone.
    """
    parent = os.getppid()
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            prctl = ctypes.CDLL(None, use_errno=True).prctl
        except (OSError, AttributeError):
            pass
        else:
            if prctl(1, signal.SIGKILL, 0, 0, 0) == 0:  # 1 = PR_SET_PDEATHSIG
                if os.getppid() != parent:  # the parent died before prctl took effect
                    os._exit(1)
                return

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="kotarena-parent-watch").start()


#: Matches per executor job, at most. A job's fixed cost (pickling, a process hop, a
#: future, waking the coordinator) is shared by its matches, but its results arrive
#: only when all are played: a job is sized to take about ``CHUNK_SECONDS``...
MAX_CHUNK = 128
#: ... of play, once the first matches have shown how long a match takes...
CHUNK_SECONDS = 0.15
#: ... and holds at most this many matches before that.
FIRST_CHUNK = 16
#: Jobs handed to the executor ahead of the results, per job it runs at once.
AHEAD_PER_WORKER = 3
#: Matches per executor job, at least, in a night with sandboxed bots: a worker plays
#: its job's matches in lockstep, one batch per instance of a bot for all of them
#: (:mod:`kotarena.tournament.lockstep`), and the more tables, the fewer wake-ups a
#: decision costs (heuristic bots, compiled, one worker, a loaded machine: 12 games/s
#: one table at a time, 40 at 8 tables, 66 at 64, 82 at 128, where trusted ran at 427;
#: 10.5 batches a game at 64 tables, 6.2 at 128).
LOCKSTEP_TABLES = 128


def chunk_size(jobs: int, workers: int | None, seconds_per_match: float | None = None, *, floor: int = 1) -> int:
    """Matches per executor job: about ``CHUNK_SECONDS`` of play at ``seconds_per_match``
    (``FIRST_CHUNK`` while that is not known) and at least ``floor``, but few enough for
    every worker to get about eight jobs (so all finish together), and never more than
    ``MAX_CHUNK``."""
    workers = workers or os.cpu_count() or 1
    if seconds_per_match is None:
        timed = FIRST_CHUNK
    else:
        timed = round(CHUNK_SECONDS / seconds_per_match) if seconds_per_match > 0 else MAX_CHUNK
    return max(1, min(MAX_CHUNK, max(timed, floor), jobs // (workers * 8)))


def _lockstep(job: MatchJob) -> bool:
    """Whether a worker plays ``job`` in lockstep with the others of its executor job."""
    return job.isolate_all or any(not spec.trusted for spec in job.seats)


def run_jobs(
    jobs: Iterable[MatchJob],
    *,
    workers: int | None = None,
    executor_factory: Callable[[int | None], Executor] = make_executor,
    chunk: int | None = None,
    total: int | None = None,
) -> Iterator[MatchResult]:
    """Play jobs in parallel and yield results as they finish (in any order).

    Consecutive matches go to the executor together, ``chunk`` at a time (default:
    :func:`chunk_size`, from how long the matches played so far took; the last chunks
    shrink, see :func:`_hand_over`), and only a few chunks per worker are handed over
    ahead of the results: each finished chunk makes room for the next. So ``jobs`` may
    be a lazy iterable (give ``total``, how many it holds, for the chunk sizes): the
    workers start on the first matches while the rest are being scheduled.

    If a worker process dies (a trusted bot that crashed the whole process), the
    matches the executor fails with it (with the standard process pool: every one it
    holds) are played again with every bot isolated in its own process, so the crash is
    pinned on the bot that caused it and recorded as its forfeit; the matches not
    handed over yet are played as usual in a new pool.
    """
    if total is None:
        jobs = list(jobs)
        total = len(jobs)
    remaining = total  # jobs not handed over yet; the chunks shrink as it runs out
    timed, seconds = 0, 0.0  # matches played so far, and their (wall-clock) seconds
    source = iter(jobs)
    first = next(source, None)
    if first is None:
        return
    warm_up(first)
    floor = LOCKSTEP_TABLES if _lockstep(first) else 1
    size = chunk or chunk_size(total, workers, floor=floor)
    source = itertools.chain((first,), source)
    while True:
        broken: list[MatchJob] = []
        executor = executor_factory(workers)
        try:
            in_flight: dict[Future, list[MatchJob]] = {}
            capacity = _capacity(executor, workers)
            for _ in range(AHEAD_PER_WORKER * capacity):
                if broken:
                    break
                remaining -= _hand_over(executor, source, size, capacity, remaining, in_flight, broken, floor)
            while in_flight:
                finished, _ = wait(in_flight, return_when=FIRST_COMPLETED)
                for future in finished:
                    part = in_flight.pop(future)
                    try:
                        results = future.result()
                    except BrokenProcessPool:
                        broken.extend(part)
                        continue
                    if chunk is None and results:
                        timed += len(results)
                        seconds += sum(result.duration for result in results)
                        size = chunk_size(total, workers, seconds / timed, floor=floor)
                    if not broken:  # (before yielding: the workers play on while results are stored)
                        remaining -= _hand_over(executor, source, size, capacity, remaining, in_flight, broken, floor)
                    yield from results
        except (KeyboardInterrupt, GeneratorExit):  # (GeneratorExit: whoever took the results stopped)
            _stop_workers(executor)
            raise
        finally:
            executor.shutdown(wait=True, cancel_futures=True)
        if not broken:
            return  # every job handed over came back: the source is used up
        yield from _replay_isolated(broken, workers, executor_factory)
        # ...and on with the matches not handed over yet, in a new pool.


#: Seconds the workers of a stopped night have to stop their matches and exit.
STOP_SECONDS = 5.0


def _stop_workers(executor: Executor) -> None:
    """Stop a process pool's workers: the night stopped (Ctrl-C, SIGTERM, an error while
    storing), and nobody takes the results of the matches they are playing (the resumed
    night plays them again).

    Each is told as Ctrl-C at a terminal tells it (it stops its match; see
    :func:`play_matches`); the pool is shut down without waiting; a worker still there
    after ``STOP_SECONDS`` is killed. (A night stopped just as its pool was starting
    could leave workers waiting for a word to stop that never came, and the process
    waiting for them forever as it exits.)
    """
    processes = list((getattr(executor, "_processes", None) or {}).values())
    for process in processes:
        try:
            os.kill(process.pid, signal.SIGINT)
        except (OSError, AttributeError, TypeError):
            pass  # gone already
    executor.shutdown(wait=False, cancel_futures=True)
    deadline = time.monotonic() + STOP_SECONDS
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
    for process in processes:
        if process.is_alive():
            process.kill()
            process.join(1.0)


def warm_up(job: MatchJob) -> None:
    """Load in this process what playing ``job`` loads on first use: the replay writer,
    the trusted seats' bots (the registry reads every installed package's entry points;
    untrusted bots are never imported here, only in their sandboxes) and the game's deck.

    Worker processes forked afterwards start with all of it, instead of each loading
    it on its first match; other executors lose nothing but a few milliseconds here.
    """
    from kotarena.bots.registry import UnknownBotError, get_bot
    from kotarena.replay import actions_replay_text  # noqa: F401 - imported to be loaded

    for spec in job.seats:
        if not spec.trusted:
            continue
        try:
            get_bot(spec.bot)
        except UnknownBotError:
            pass  # the match reports it, as that seat's forfeit
    new_game(job.game, players=len(job.seats), seed=job.seed, deck=job.deck, record=False)


def _capacity(executor: Executor, workers: int | None) -> int:
    """How many jobs ``executor`` runs at once: its pool size if it says (the standard
    pools do), else ``workers``, else this machine's cores."""
    size = getattr(executor, "_max_workers", None)
    return size if isinstance(size, int) and size > 0 else workers or os.cpu_count() or 1


def _hand_over(executor: Executor, source: Iterator[MatchJob], size: int, capacity: int, remaining: int,
               in_flight: dict[Future, list[MatchJob]], broken: list[MatchJob], floor: int = 1) -> int:
    """Submit the next jobs of ``source`` (if any are left) as one executor job; returns
    how many. If the executor is broken already (a worker died since the last look),
    they join ``broken``, to be played again like the matches it failed.

    A chunk holds ``size`` jobs, but never more than a share of the ``remaining`` ones
    not handed over yet for each of the ``capacity`` workers: the last chunks shrink to
    single matches, so the workers finish together instead of one playing a whole
    chunk while the others wait. (Matches played in lockstep keep ``floor`` of them
    together while each worker's share of the rest allows: their worker plays a chunk
    faster than as many matches alone.)
    """
    if remaining > 0:  # (a ``total`` that fell short of the jobs leaves the size alone)
        tail = max(remaining // (capacity * AHEAD_PER_WORKER), min(floor, remaining // capacity))
        size = max(1, min(size, tail))
    part = list(itertools.islice(source, size))
    if part:
        try:
            # (Only a process pool forks as it is handed jobs; an inline executor plays
            # them right here, where Ctrl-C must stop them.)
            with signals_held() if isinstance(executor, ProcessPoolExecutor) else contextlib.nullcontext():
                in_flight[executor.submit(play_matches, part)] = part
        except BrokenProcessPool:
            broken.extend(part)
    return len(part)


#: The signals that stop a night (Ctrl-C; SIGTERM, which ``league run`` turns into Ctrl-C).
STOPPING_SIGNALS = (signal.SIGINT, signal.SIGTERM)
#: The handlers :func:`signals_held` replaced, while it holds the signals.
_HELD: dict[int, object] = {}


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM back until the block is done, then deliver them.

    A process pool's ``submit`` may start worker processes: interrupted half-way, the
    pool can lose track of a worker it forked, never tell it to stop, and the night's
    process then waits for it forever as it exits. A worker forked meanwhile gets the
    handlers that were there before (see :func:`_restore_in_child`).
    """
    if threading.current_thread() is not threading.main_thread() or _HELD:
        yield
        return
    caught: list[int] = []

    def hold(signum, frame) -> None:
        caught.append(signum)

    _HELD.update({signum: signal.signal(signum, hold) for signum in STOPPING_SIGNALS})
    try:
        yield
    finally:
        for signum, handler in _HELD.items():
            signal.signal(signum, handler)  # type: ignore[arg-type]
        _HELD.clear()
        if caught:
            signal.raise_signal(caught[0])  # (to the handler it was meant for)


def _restore_in_child() -> None:
    for signum, handler in _HELD.items():
        signal.signal(signum, handler)  # type: ignore[arg-type]
    _HELD.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_restore_in_child)


#: Forks the main thread is in the middle of (their at-fork callbacks are running).
_forking = 0
_fork_watch = False
#: Seconds before a signal that came during a fork is delivered again.
REDELIVER_SECONDS = 0.01


def stop_night(signum: int, frame) -> None:
    """The handler of Ctrl-C and SIGTERM in a night's coordinator: a
    ``KeyboardInterrupt``, so what was played is stored and the night resumes.

    Not while the main thread forks: Python runs at-fork callbacks (logging's
    ``_releaseLock`` among them) where an exception is printed as "Exception ignored"
    with a traceback and then lost, and the night played on. A signal that comes then
    is raised again a moment later, from another thread (a signal raised in this one
    would be handled at once, still inside the callbacks), until it finds the fork
    done. In a process forked from the coordinator before it set handlers of its own
    (a pool's worker starting), Ctrl-C is left to the coordinator and SIGTERM ends the
    process as it would have.
    """
    if os.getpid() != _owner:
        if signum == signal.SIGTERM:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGTERM)
        return
    if _forking or _in_fork_callback(frame):
        timer = threading.Timer(REDELIVER_SECONDS, signal.raise_signal, (signum,))
        timer.daemon = True
        timer.start()
        return
    raise KeyboardInterrupt


def _in_fork_callback(frame) -> bool:
    """Whether ``frame`` is in our last at-fork callback (``_forking`` is down to 0 there)."""
    while frame is not None:
        if frame.f_code is _after_fork_in_parent.__code__:
            return True
        frame = frame.f_back
    return False


_owner = os.getpid()


def _before_fork() -> None:
    global _forking
    if threading.current_thread() is threading.main_thread():
        _forking += 1


def _after_fork_in_parent() -> None:
    global _forking
    if threading.current_thread() is threading.main_thread():
        _forking -= 1


def _after_fork_in_child() -> None:
    global _forking
    _forking = 0


@contextlib.contextmanager
def stopping_signals() -> Iterator[None]:
    """Have Ctrl-C and SIGTERM (``kill``, a service manager) stop a night in this
    process with a ``KeyboardInterrupt`` (:func:`stop_night`), whenever they come; the
    previous handlers are put back afterwards. Outside the main thread, where signals
    cannot be handled, nothing changes. A handler the block itself set (``league run``
    ignores further signals once it is stopping) is left in place."""
    global _fork_watch, _owner
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    if not _fork_watch and hasattr(os, "register_at_fork"):
        # Registered now, after the modules with at-fork callbacks of their own: the
        # ``before`` callbacks run last registered first and the others first registered
        # first, so the window opens before theirs and closes after them.
        import logging  # noqa: F401 - its callbacks must be inside the window

        os.register_at_fork(before=_before_fork, after_in_parent=_after_fork_in_parent,
                            after_in_child=_after_fork_in_child)
        _fork_watch = True
    _owner = os.getpid()
    previous = {signum: signal.signal(signum, stop_night) for signum in STOPPING_SIGNALS}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            if signal.getsignal(signum) is stop_night:
                signal.signal(signum, handler)


def _replay_isolated(broken: list[MatchJob], workers: int | None,
                     executor_factory: Callable[[int | None], Executor]) -> Iterator[MatchResult]:
    """Play again, one at a time and with every bot in its own process, the matches a
    dying worker took down with it."""
    already_isolated = [job for job in broken if job.isolate_all]
    if already_isolated:
        raise RuntimeError(f"the worker process playing match {already_isolated[0].key} died even with every bot "
                           "isolated: the worker processes themselves fail (--workers 0 plays in this process "
                           "and shows why)")
    isolated = [replace(job, isolate_all=True) for job in sorted(broken, key=lambda j: j.index)]
    yield from run_jobs(isolated, workers=workers, executor_factory=executor_factory, chunk=1)
