"""League nights across machines, on a Dask cluster (``league run --cluster ADDRESS``).

The coordinator stays what it is on one machine: the only process that writes, storing
and rating in schedule order (:mod:`kotarena.tournament.night`). Only the playing moves:
:class:`ClusterExecutor` is the ``concurrent.futures.Executor`` of the runner
(:func:`kotarena.tournament.runner.run_jobs`), handing its jobs to a Dask scheduler.

On each Dask worker a job is played by :func:`play_in_worker_pool` in a process pool
the worker keeps for the night, whose processes are set up as a local night's are
(:func:`kotarena.tournament.runner.start_worker`): the matches run in a process's main
thread, where the CPU timer of trusted bots can interrupt a runaway decision (Dask runs
its tasks in threads, where no signal arrives), and a trusted bot that crashes its
process breaks that pool only, as it breaks a local one: the runner plays its matches
again with every bot isolated. The sandbox of untrusted bots is the same as on one
machine: each pool process keeps the fork servers of its seats.

A pool needs child processes, which a daemonic process may not start, and Dask's nanny
starts its workers as daemonic processes unless told otherwise: start the workers with
``DASK_DISTRIBUTED__WORKER__DAEMON=False`` (or ``--no-nanny``). :func:`connect` checks
every worker (kotarena's version too) before a night starts. See docs/cluster.md.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import platform
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from kotarena.plugins import TRUST_VARIABLE

try:
    from distributed import Client, get_worker
    from distributed.cfexecutor import ClientExecutor
except ImportError:  # the cluster extra is not installed: connect() says so
    Client = get_worker = None  # type: ignore[assignment, misc]
    ClientExecutor = object  # type: ignore[assignment, misc]

__all__ = ["CLUSTER_ENV", "ClusterError", "ClusterExecutor", "cluster_executor", "connect", "close_worker_pool",
           "play_in_worker_pool", "worker_facts"]

#: The scheduler's address, for ``KOTARENA_EXECUTOR=kotarena.tournament.cluster:cluster_executor``
#: (``league run --cluster`` reads it too).
CLUSTER_ENV = "KOTARENA_CLUSTER"
#: Seconds to wait for the scheduler to answer, and for its first worker.
CONNECT_SECONDS = 20.0
#: What a daemonic worker is told to do instead.
DAEMON_ADVICE = ("start the Dask workers with DASK_DISTRIBUTED__WORKER__DAEMON=False in their environment (or with "
                 "--no-nanny): a night's worker starts processes, which a daemonic process may not")


class ClusterError(RuntimeError):
    """A cluster that cannot play a night: unreachable, without workers, or with
    workers that are not set up as a night needs."""


def worker_facts() -> dict[str, Any]:
    """What :func:`connect` checks of each worker: kotarena's and Python's versions, and
    whether the worker is a daemonic process."""
    import kotarena

    return {"kotarena": kotarena.__version__, "python": platform.python_version(),
            "daemon": bool(multiprocessing.current_process().daemon)}


def connect(address: str, *, timeout: float = CONNECT_SECONDS) -> ClusterExecutor:
    """An executor on the Dask scheduler at ``address`` (``tcp://host:8786``), once its
    workers are known to be able to play: :class:`ClusterError` if they are not."""
    if Client is None:
        raise ClusterError("a night on a cluster needs Dask distributed: pip install 'kotarena[cluster]'")
    try:
        client = Client(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError) as error:
        raise ClusterError(f"no Dask scheduler answers at {address}: {error}") from None
    try:
        try:
            client.wait_for_workers(1, timeout=timeout)
        except TimeoutError:
            raise ClusterError(f"the Dask scheduler at {address} has no workers (start some with "
                               f"`dask worker {address}`; see docs/cluster.md)") from None
        _check_workers(client.run(worker_facts))
        return ClusterExecutor(client)
    except BaseException:
        client.close()
        raise


def _check_workers(facts: dict[str, dict[str, Any]]) -> None:
    here = worker_facts()
    for worker, theirs in sorted(facts.items()):
        if theirs["daemon"]:
            raise ClusterError(f"the Dask worker {worker} is a daemonic process: {DAEMON_ADVICE}")
        for name in ("kotarena", "python"):
            if theirs[name] != here[name]:
                raise ClusterError(f"the Dask worker {worker} runs {name} {theirs[name]}, this machine "
                                   f"{here[name]}: every machine of a night needs the same versions")


def cluster_executor(workers: int | None) -> ClusterExecutor:
    """``KOTARENA_EXECUTOR`` factory: an executor on the scheduler named by
    ``KOTARENA_CLUSTER``. ``workers`` is ignored: the cluster has the workers it has."""
    address = os.environ.get(CLUSTER_ENV)
    if not address:
        raise ClusterError(f"{CLUSTER_ENV} names no Dask scheduler (tcp://host:8786)")
    return connect(address)


def cluster_factory(address: str) -> Callable[[int | None], ClusterExecutor]:
    """An executor factory for :func:`kotarena.tournament.night.run_night` on the
    scheduler at ``address``: each executor the runner asks for is a new connection."""
    return lambda workers: connect(address)


class ClusterExecutor(ClientExecutor):
    """Plays a night's jobs on a Dask cluster: a ``concurrent.futures.Executor``.

    ``submit(fn, *args)`` runs ``fn(*args)`` on a worker, in the worker's process pool
    (:func:`play_in_worker_pool`). The runner sizes its chunks by ``_max_workers``, the
    threads the cluster has. ``shutdown`` takes ``cancel_futures`` as the standard
    executors do: a night stopped by Ctrl-C cancels what is queued and goes.
    """

    def __init__(self, client: Any) -> None:
        super().__init__(client, pure=False)
        self._max_workers = sum(client.nthreads().values()) or 1
        # The distributions the coordinator trusts: the workers import those plugins only.
        self._plugins = os.environ.get(TRUST_VARIABLE)
        self._night = uuid.uuid4().hex  #: names this executor's pools on the workers
        self._closed = False

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        return super().submit(play_in_worker_pool, fn, args, kwargs, self._night, self._plugins)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        if self._closed:
            return
        self._closed = True
        if cancel_futures:
            self._client.cancel(list(self._futures))
        try:
            super().shutdown(wait=wait)
            self._client.run(close_worker_pool, self._night)
        except Exception:  # noqa: BLE001 - the scheduler or a worker is gone: nothing to close there
            pass
        finally:
            self._client.close()


# ---------------------------------------------------------------- on a worker

#: Each night's process pool on this worker, by the night's executor, with when it was
#: last used (``time.monotonic``).
_POOLS: dict[str, tuple[ProcessPoolExecutor, float]] = {}
_POOLS_LOCK = threading.Lock()
#: A pool unused this long (seconds) is closed when another is made: its coordinator
#: died without closing it.
IDLE_SECONDS = 600.0


def play_in_worker_pool(fn: Callable[..., Any], args: tuple, kwargs: dict, night: str, plugins: str | None) -> Any:
    """Run ``fn(*args, **kwargs)`` in this Dask worker's process pool for ``night`` (an
    executor's token; the pool is made on first use, with a process per thread of the
    worker), trusting the distributions ``plugins`` (the coordinator's
    ``KOTARENA_TRUST``) and no other.

    Each night has pools of its own, as a local night has: nothing a bot's package
    loaded lives on into another night (an upgraded bot plays its new version), and two
    nights on one cluster keep apart. A pool broken by a dying process (a trusted bot
    that crashed it) is dropped, and its :class:`BrokenProcessPool` goes to the
    coordinator, which plays those matches again with every bot isolated.
    """
    pool = _worker_pool(night, plugins)
    try:
        return pool.submit(fn, *args, **kwargs).result()
    except BrokenProcessPool:
        close_worker_pool(night)
        raise


def close_worker_pool(night: str) -> None:
    """End ``night``'s pool on this worker, if it has one (its processes end their fork
    servers as they exit); run by :meth:`ClusterExecutor.shutdown` on every worker."""
    with _POOLS_LOCK:
        pool, _ = _POOLS.pop(night, (None, 0.0))
    if pool is not None:
        pool.shutdown(wait=False, cancel_futures=True)


def _worker_pool(night: str, plugins: str | None) -> ProcessPoolExecutor:
    with _POOLS_LOCK:
        now = time.monotonic()
        if night in _POOLS:
            pool = _POOLS[night][0]
            _POOLS[night] = (pool, now)
            return pool
        if multiprocessing.current_process().daemon:
            raise ClusterError(f"this Dask worker is a daemonic process: {DAEMON_ADVICE}")
        for other, (idle, used) in list(_POOLS.items()):
            if now - used > IDLE_SECONDS:
                del _POOLS[other]
                idle.shutdown(wait=False, cancel_futures=True)
        try:
            threads = get_worker().state.nthreads
        except ValueError:  # not in a worker (a test calling it directly)
            threads = 1
        # Forked by a fork server rather than from this process: a Dask worker runs
        # threads (its event loop, its tasks), and a process forked from a threaded one
        # can inherit a lock some other thread held.
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["kotarena.tournament.runner"])
        pool = ProcessPoolExecutor(max_workers=threads, mp_context=context, initializer=_start_pool_process,
                                   initargs=(plugins,))
        _POOLS[night] = (pool, now)
        return pool


def _start_pool_process(plugins: str | None) -> None:
    """Set up a process of a worker's pool as a local night's pool process, with the
    coordinator's trusted distributions."""
    from kotarena import plugins as registry
    from kotarena.tournament.runner import start_worker

    if plugins is None:
        os.environ.pop(TRUST_VARIABLE, None)
    else:
        os.environ[TRUST_VARIABLE] = plugins
    registry.reset()
    start_worker()
    # As a local pool's processes, forked from a coordinator that froze its heap
    # (kotarena.tournament.night.frozen_heap): the modules loaded by now live on, and
    # the garbage collector need not walk them at each full collection.
    gc.freeze()
