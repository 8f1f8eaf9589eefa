"""The league's own process pool: each worker has its own pipes, and the coordinator's
one thread hands jobs over and takes results back.

``concurrent.futures.ProcessPoolExecutor`` passes each job through two threads of the
coordinator (its manager thread and the call queue's feeder) and a queue that all
workers share, and every hop wakes a thread. On the 2-core development machine that
cost the coordinator 227-384 µs of CPU a job, against 74-154 µs for a job written to a
worker's own pipe and read back from another (``benchmarks/pool_cost.py``, results of
10 bytes and of 94 KB). A night hands over about 55 jobs per 2,000 games, and with as
many workers as cores the coordinator's CPU is taken from them.

:class:`LocalPool` is a ``concurrent.futures.Executor`` with one difference: its
futures are completed by whoever waits for them, through :meth:`LocalPool.wait_any`
or a future's ``result()``, not by a thread of their own. So it is for one thread,
and ``concurrent.futures.wait`` does not work on its futures.

A worker that dies (a trusted bot that called ``os._exit`` or ``sys.exit``, a crash in
C code) fails the jobs handed to it with ``BrokenProcessPool``, the error the standard
pool raises; but only those (the standard pool fails every job it holds), and the
other workers play on.
"""

from __future__ import annotations

import collections
import multiprocessing
import multiprocessing.util
import signal
import traceback
from collections.abc import Callable, Iterable
from concurrent.futures import CancelledError, Executor, Future
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection, wait
from typing import Any

try:
    import fcntl
except ImportError:  # (Windows)
    fcntl = None  # type: ignore[assignment]

__all__ = ["RESULT_PIPE_BYTES", "LocalPool", "RemoteTraceback", "widen_pipe"]

#: Bytes a worker's result pipe may hold (Linux's default ``/proc/sys/fs/pipe-max-size``,
#: the most an unprivileged process may ask for). A chunk of 125 random-bot games'
#: results pickles to about 94 KB; through Linux's default 64 KB pipe a worker writing
#: them blocked until the coordinator had read, each time two process switches.
RESULT_PIPE_BYTES = 1 << 20

#: Seconds a worker gets to stop on its own (``shutdown``) before it is terminated.
STOP_SECONDS = 5.0


def widen_pipe(connection: Connection, size: int = RESULT_PIPE_BYTES) -> bool:
    """Let the pipe of ``connection`` hold ``size`` bytes (Linux); whether it does. Only
    speed depends on it: where the system refuses, the pipe is left as it is."""
    set_size = getattr(fcntl, "F_SETPIPE_SZ", None) if fcntl is not None else None
    if set_size is None:
        return False
    try:
        fcntl.fcntl(connection.fileno(), set_size, size)  # (either end of a pipe sets its size)
    except OSError:
        return False
    return True


class RemoteTraceback(Exception):
    """The traceback, as text, of an error raised in a worker (the cause of the error
    a future re-raises in the coordinator)."""

    def __str__(self) -> str:
        return f'\n"""\n{self.args[0]}"""'


class _Worker:
    """One worker process, its two pipes, and the futures of the jobs handed to it, in
    the order it plays them."""

    def __init__(self, context, initializer: Callable[[], object] | None, others: list[_Worker]) -> None:
        jobs_out, self.jobs = context.Pipe(duplex=False)  # (reader, writer)
        self.results, results_in = context.Pipe(duplex=False)
        widen_pipe(self.results)
        # A forked worker starts with the coordinator's ends of its own pipes and of the
        # workers' before it, and closes them: each pipe then ends (EOF) when one of its
        # two processes does.
        ours = [end for worker in [*others, self] for end in (worker.jobs, worker.results)] \
            if context.get_start_method() == "fork" else []
        # (Not a daemon: a worker starts the processes of isolated seats, which a daemon
        # may not.)
        self.process = context.Process(target=_work, args=(jobs_out, results_in, initializer, ours),
                                       name="kotarena-worker")
        self.process.start()
        jobs_out.close()
        results_in.close()
        self.futures: collections.deque[Future] = collections.deque()
        self.alive = True
        self.stopping = False


def _work(jobs: Connection, results: Connection, initializer: Callable[[], object] | None,
          coordinator_ends: list[Connection]) -> None:
    """A worker's loop: a call ``(fn, args, kwargs)`` in, ``(True, result)`` or ``(False,
    (error, traceback))`` out, until ``None`` or the coordinator's end is closed."""
    for end in coordinator_ends:
        end.close()
    # Ctrl-C at a terminal reaches every process of the night: the coordinator stores
    # what was played and stops its workers, who need not hear it themselves.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Stopped early (shutdown with work left), a worker exits the Python way, so that
    # multiprocessing ends the bot processes it started (isolated seats) on its way out.
    signal.signal(signal.SIGTERM, _exit_on_term)
    if initializer is not None:
        initializer()
    while True:
        try:
            call = jobs.recv()
        except (EOFError, OSError):
            return
        if call is None:
            return
        fn, args, kwargs = call
        try:
            reply = (True, fn(*args, **kwargs))
        except Exception as error:  # noqa: BLE001 - delivered to the coordinator
            reply = (False, (error, traceback.format_exc()))
        # (SystemExit, from SIGTERM or from a trusted bot, ends the worker: its jobs fail
        # with BrokenProcessPool, as a worker that died.)
        try:
            results.send(reply)
        except (OSError, EOFError):
            return  # the coordinator is gone
        except Exception as error:  # noqa: BLE001 - a result or an error that does not pickle
            results.send((False, (RuntimeError(f"the job's outcome could not be sent back: {error!r}"),
                                  traceback.format_exc())))


def _exit_on_term(signum, frame) -> None:
    raise SystemExit(128 + signum)


class LocalPool(Executor):
    """A pool of ``max_workers`` processes (see the module's description).

    ``initializer`` runs in each worker before its first job. Processes start the way
    ``context`` (a ``multiprocessing`` context) starts them, by default the platform's
    way: forked on Linux, so they begin with what the coordinator has loaded; spawned
    on macOS and Windows, so they import what their jobs need.
    """

    def __init__(self, max_workers: int, initializer: Callable[[], object] | None = None, *,
                 context: Any = None) -> None:
        if max_workers < 1:
            raise ValueError("a pool needs at least one worker")
        self._max_workers = max_workers  # (read by the runner, as on the standard pools)
        context = context or multiprocessing.get_context()
        self._workers: list[_Worker] = []
        for _ in range(max_workers):
            self._workers.append(_Worker(context, initializer, self._workers))
        self._shut = False
        # A pool never shut down still lets its workers go when this process exits:
        # multiprocessing waits for its children at exit, and they for a job.
        multiprocessing.util.Finalize(self, _let_go, args=(self._workers,), exitpriority=10)

    def submit(self, fn, /, *args, **kwargs) -> Future:
        """Hand ``fn(*args, **kwargs)`` to the living worker with the fewest jobs.

        The job is written to the worker's pipe at once, which waits while the pipe is
        full: keep a few jobs per worker in flight, as the runner does, not thousands.
        """
        if self._shut:
            raise RuntimeError("cannot submit to a pool that is shut down")
        living = [worker for worker in self._workers if worker.alive]
        if not living:
            raise BrokenProcessPool("every worker of the pool has died")
        worker = min(living, key=lambda w: len(w.futures))
        future = _PoolFuture(self)
        future.set_running_or_notify_cancel()
        try:
            worker.jobs.send((fn, args, kwargs))
        except (OSError, EOFError):
            self._lost(worker)
            future.set_exception(BrokenProcessPool("a worker of the pool died"))
            return future
        worker.futures.append(future)
        return future

    def wait_any(self, futures: Iterable[Future], timeout: float | None = None) -> set[Future]:
        """Take results back until one of ``futures`` is done (or ``timeout`` seconds
        have passed); returns those done."""
        futures = list(futures)
        while True:
            done = {future for future in futures if future.done()}
            if done:
                return done
            busy = {worker.results: worker for worker in self._workers if worker.futures}
            if not busy:
                return done  # (futures of no worker of this pool: never done here)
            ready = wait(list(busy), timeout)
            if not ready:
                return done
            for connection in ready:
                self._take(busy[connection])  # type: ignore[index]

    def _take(self, worker: _Worker) -> None:
        """The next reply of ``worker``, into its oldest future."""
        try:
            ok, value = worker.results.recv()
        except (EOFError, OSError):
            self._lost(worker)
            return
        future = worker.futures.popleft()
        if ok:
            future.set_result(value)
        else:
            error, text = value
            error.__cause__ = RemoteTraceback(text)
            future.set_exception(error)

    def _lost(self, worker: _Worker) -> None:
        """``worker`` died: the jobs handed to it fail."""
        worker.alive = False
        worker.process.join(timeout=STOP_SECONDS)
        code = worker.process.exitcode
        while worker.futures:
            worker.futures.popleft().set_exception(BrokenProcessPool(
                f"a worker of the pool died (exit code {code}) with this job handed to it"))

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Let the workers stop once their jobs are done; with ``cancel_futures``, stop
        them at once, their jobs cancelled. With ``wait``, return when they have
        stopped. (Shutting down again, to wait, is fine.)"""
        for worker in self._workers:
            if not worker.alive:
                continue
            if cancel_futures and worker.futures:
                worker.process.terminate()
                _abandon(worker.futures)
            if not worker.stopping:
                worker.stopping = True
                try:
                    worker.jobs.send(None)
                except (OSError, EOFError):
                    pass  # gone already
        self._shut = True
        if wait:
            self.join()

    def join(self) -> None:
        """Wait for the workers to stop (after :meth:`shutdown`), taking back the
        results of the jobs they still had; one that does not stop within
        ``STOP_SECONDS`` of its last result is terminated, then killed."""
        for worker in self._workers:
            if not worker.stopping and worker.alive:
                continue
            while worker.futures and worker.alive:
                self._take(worker)
            worker.process.join(timeout=STOP_SECONDS)
            if worker.process.is_alive():
                worker.process.terminate()
                worker.process.join(timeout=STOP_SECONDS)
                if worker.process.is_alive():
                    worker.process.kill()
                    worker.process.join()
            worker.alive = False
            for connection in (worker.jobs, worker.results):
                connection.close()
        for worker in self._workers:
            _abandon(worker.futures)  # results never taken back: no one will take them now

    def pids(self) -> list[int]:
        """The process ids of the workers (for tests and diagnostics)."""
        return [worker.process.pid for worker in self._workers if worker.process.pid is not None]


def _let_go(workers: list[_Worker]) -> None:
    """Tell every worker to stop after the jobs it has, and close the coordinator's ends
    of their pipes."""
    for worker in workers:
        try:
            if not worker.jobs.closed:
                worker.jobs.send(None)
        except OSError:
            pass  # gone already
        for connection in (worker.jobs, worker.results):
            connection.close()


class _PoolFuture(Future):
    """A future that a :class:`LocalPool` completes when it is waited for."""

    def __init__(self, pool: LocalPool) -> None:
        super().__init__()
        self._pool = pool

    def result(self, timeout: float | None = None):
        self._drive(timeout)
        return super().result(timeout=0 if timeout is not None else None)

    def exception(self, timeout: float | None = None):
        self._drive(timeout)
        return super().exception(timeout=0 if timeout is not None else None)

    def _drive(self, timeout: float | None) -> None:
        if not self.done():
            self._pool.wait_any([self], timeout)


def _abandon(futures: collections.deque[Future]) -> None:
    """Fail the futures of jobs whose results the pool will not take back (it was shut
    down without them)."""
    while futures:
        futures.popleft().set_exception(CancelledError("the pool was shut down before this job's result came back"))
