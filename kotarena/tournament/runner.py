"""Playing scheduled matches in parallel, surviving bots that fail.

A match is a :class:`MatchJob` (plain, picklable data) played by :func:`play_match` on
any ``concurrent.futures.Executor``: a process pool by default, inline for debugging,
or whatever executor a distributed engine provides (``KOTARENA_EXECUTOR``). Only the
coordinator writes to the database; workers just play and return
:class:`MatchResult` values. How one match is played, and what happens to a seat
whose bot fails, is in :mod:`kotarena.tournament.matches`.
"""

from __future__ import annotations

import functools
import importlib
import itertools
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace

from kotarena.games import new_game
from kotarena.tournament.matches import (
    MatchJob,
    MatchResult,
    SeatResult,
    final_ranks,
    flatten_results,
    play_match,
    unflatten_results,
)
from kotarena.tournament.pool import LocalPool
from kotarena.tournament.seats import GUARD

__all__ = [
    "InlineExecutor", "MatchJob", "MatchResult", "MatchResults", "SeatResult", "final_ranks", "make_executor",
    "play_match", "play_matches", "run_jobs",
]


class MatchResults(list):
    """The results of one executor job: a list of :class:`MatchResult`, pickled as one
    flat list of plain values (see :func:`~kotarena.tournament.matches.flatten_results`)."""

    def __reduce__(self) -> tuple:
        return (_unpickle_results, (flatten_results(self),))


def _unpickle_results(flat: list) -> MatchResults:
    return MatchResults(unflatten_results(flat))


def play_matches(jobs: list[MatchJob]) -> MatchResults:
    """Play several matches in a row (one job of an executor; see :func:`run_jobs`)."""
    try:
        return MatchResults([play_match(job, keep_guard=True) for job in jobs])
    finally:
        GUARD.disarm()


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
    The processes are a :class:`~kotarena.tournament.pool.LocalPool`, which costs the
    coordinator less than half the CPU per job of the standard pool.
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
    _libc_prctl()  # loaded here once, rather than in every worker (they are forked from here)
    return LocalPool(workers or os.cpu_count() or 1, initializer=die_with_parent)


@functools.cache
def _libc_prctl() -> Callable[..., int] | None:
    """Linux's ``prctl``, through ``ctypes``; ``None`` elsewhere or where it cannot be loaded.

    Loaded once per process and kept: importing ``ctypes`` takes a few milliseconds, which
    a pool's workers, forked from a process that loaded it, do not spend again on the way
    to their first match.
    """
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            return ctypes.CDLL(None, use_errno=True).prctl
        except (OSError, AttributeError):
            pass
    return None


def die_with_parent() -> None:
    """Make a worker process end when the process that started it dies.

    A coordinator killed with ``kill -9`` cannot shut its pool down; without this its
    workers would wait for jobs forever. Linux can do it for us (``PR_SET_PDEATHSIG``);
    elsewhere a watcher thread notices the parent is gone.
    """
    import signal

    parent = os.getppid()
    prctl = _libc_prctl()
    if prctl is not None and prctl(1, signal.SIGKILL, 0, 0, 0) == 0:  # 1 = PR_SET_PDEATHSIG
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
#: ... of play, once the first matches have shown how long a match takes (128 random
#: bots' games; a handful of slow bots' games, or one)...
CHUNK_SECONDS = 0.15
#: ... and holds at most this many matches before that.
FIRST_CHUNK = 16


#: Chunks handed to the executor ahead of the results, per job it runs at once.
AHEAD_PER_WORKER = 3


def chunk_size(jobs: int, workers: int | None, seconds_per_match: float | None = None) -> int:
    """Matches per executor job: about ``CHUNK_SECONDS`` of play at ``seconds_per_match``
    (``FIRST_CHUNK`` while that is not known), but few enough for every worker to get
    about eight jobs (so all finish together), and never more than ``MAX_CHUNK``."""
    workers = workers or os.cpu_count() or 1
    if seconds_per_match is None:
        timed = FIRST_CHUNK
    else:
        timed = round(CHUNK_SECONDS / seconds_per_match) if seconds_per_match > 0 else MAX_CHUNK
    return max(1, min(MAX_CHUNK, timed, jobs // (workers * 8)))


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
    workers start on the first matches while the rest are being scheduled, and the
    scheduling never holds up the handing over of work.

    If a worker process dies (a trusted bot that crashed the whole process), the
    matches the executor fails with it (those handed to that worker, in the default
    pool; every one in the pool, in the standard one) are played again with every bot
    isolated in its own process, so the crash is pinned on the bot that caused it and
    recorded as its forfeit; the matches not handed over yet are played as usual in a
    new pool.
    """
    if total is None:
        jobs = list(jobs)
        total = len(jobs)
    size = chunk or chunk_size(total, workers)
    remaining = total  # jobs not handed over yet; the chunks shrink as it runs out
    timed, seconds = 0, 0.0  # matches played so far, and their (wall-clock) seconds
    source = iter(jobs)
    first = next(source, None)
    if first is None:
        return
    warm_up(first)
    source = itertools.chain((first,), source)
    while True:
        broken: list[MatchJob] = []
        executor = executor_factory(workers)
        closing: Callable[[], None] | None = None
        try:
            in_flight: dict[Future, list[MatchJob]] = {}
            capacity = _capacity(executor, workers)
            for _ in range(AHEAD_PER_WORKER * capacity):
                remaining -= _hand_over(executor, source, size, capacity, remaining, in_flight)
            while in_flight:
                finished = _wait_first(executor, in_flight)
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
                        size = chunk_size(total, workers, seconds / timed)
                    if not broken:
                        remaining -= _hand_over(executor, source, size, capacity, remaining, in_flight)  # before yielding: the workers play on while results are stored
                        if not in_flight:  # the last results: the workers exit while they are stored
                            closing = _begin_shutdown(executor)
                    yield from results
        finally:
            if closing is None:
                executor.shutdown(wait=True, cancel_futures=True)
            else:
                closing()
        if not broken:
            return  # every job handed over came back: the source is used up
        yield from _replay_isolated(broken, workers, executor_factory)
        # ...and on with the matches not handed over yet, in a new pool.


def _wait_first(executor: Executor, futures: dict[Future, list[MatchJob]]) -> set[Future]:
    """Wait until some of ``futures`` are done; returns those. (A :class:`LocalPool`
    takes its results back in this thread; other executors complete their futures in
    threads of their own.)"""
    if isinstance(executor, LocalPool):
        return executor.wait_any(futures)
    return wait(futures, return_when=FIRST_COMPLETED)[0]


def _begin_shutdown(executor: Executor) -> Callable[[], None]:
    """Shut ``executor`` down without waiting for it; returns what waits for it.

    A process pool's workers take a few milliseconds to exit and be joined, which the
    night's last store can overlap. (The standard process pool forgets its manager
    thread once shut down, so it is kept here to be joined: the night ends with its
    workers.)
    """
    manager = getattr(executor, "_executor_manager_thread", None)
    executor.shutdown(wait=False)
    if isinstance(manager, threading.Thread):
        return manager.join
    return lambda: executor.shutdown(wait=True)


def warm_up(job: MatchJob) -> None:
    """Load in this process what playing ``job`` loads on first use: the replay writer,
    the seats' bots (the registry reads every installed package's entry points) and the
    game's deck.

    Worker processes forked afterwards start with all of it, instead of each loading
    it on its first match; other executors lose nothing but a few milliseconds here.
    """
    from kotarena.bots.registry import UnknownBotError, get_bot
    from kotarena.replay import actions_replay_text  # noqa: F401 - imported to be loaded

    for spec in job.seats:
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
               in_flight: dict[Future, list[MatchJob]]) -> int:
    """Submit the next jobs of ``source`` (if any are left) as one executor job; returns
    how many.

    A chunk holds ``size`` jobs, but never more than a share of the ``remaining`` ones
    not handed over yet for each of the ``capacity`` workers: the last chunks shrink to
    single matches, so the workers finish together instead of one playing a whole
    chunk while the others wait.
    """
    if remaining > 0:  # (a ``total`` that fell short of the jobs leaves the size alone)
        size = max(1, min(size, remaining // (capacity * AHEAD_PER_WORKER)))
    part = list(itertools.islice(source, size))
    if part:
        in_flight[executor.submit(play_matches, part)] = part
    return len(part)


def _replay_isolated(broken: list[MatchJob], workers: int | None,
                     executor_factory: Callable[[int | None], Executor]) -> Iterator[MatchResult]:
    """Play again, one at a time and with every bot in its own process, the matches a
    dying worker took down with it."""
    already_isolated = [job for job in broken if job.isolate_all]
    if already_isolated:
        raise RuntimeError(f"match {already_isolated[0].key} keeps killing its worker even with every bot isolated")
    isolated = [replace(job, isolate_all=True) for job in sorted(broken, key=lambda j: j.index)]
    yield from run_jobs(isolated, workers=workers, executor_factory=executor_factory, chunk=1)
