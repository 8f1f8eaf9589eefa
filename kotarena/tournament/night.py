"""A league night: schedule, play, store and rate, resumable exactly once.

The coordinator is the only process of a night that writes. Finished matches are
stored in batches, each batch with its seats and ratings in one transaction
(:class:`kotarena.storage.store.NightResults`). A match is stored under a unique
``(night, index)`` key, so never twice; ratings are applied strictly in schedule order
(match 0, 1, 2, ... of the night) and flip the match's ``rated`` flag in the same
transaction, so a match is rated exactly once and a night that was killed and resumed
ends with exactly the ratings of an uninterrupted one. A seat keeps its entrant's
rating right after the match: the rating history.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy.engine import Engine

from kotarena import ratings, seeds
from kotarena.results import MatchResult
from kotarena.storage import store
from kotarena.storage.models import Night
from kotarena.tournament.runner import MatchJob, make_executor, run_jobs
from kotarena.tournament.seats import SeatSpec

#: Stored results are committed together at most this many at a time...
FLUSH_SIZE = 256
#: ... and at least this often (seconds).
FLUSH_SECONDS = 0.5


class NightError(RuntimeError):
    """A night that cannot be started or resumed as asked."""


@dataclass
class NightReport:
    """What a run of ``league run`` did."""

    ladder: str
    night: int
    seed: int
    planned: int
    stored_before: int
    played: int
    forfeits: int
    finished: bool
    seconds: float
    sealed: bool = False  #: the night's seed was drawn in secret
    commitment: str | None = None  #: SHA-256 of the seed, public from the start

    @property
    def seed_shown(self) -> str:
        """The seed as it may be shown now: a sealed night's only once it is finished."""
        return str(self.seed) if self.finished or not self.sealed else "secret until the night ends"


def night_seed(ladder_seed: int, number: int) -> int:
    """The seed of night ``number`` of a ladder that fixes its seed: night 1 plays the
    ladder's seed, later nights derive new seeds from it. (A ladder that names no seed
    draws a secret one for each night: :func:`kotarena.seeds.draw_seed`.)"""
    if number == 1:
        return ladder_seed
    return (ladder_seed * 6_364_136_223_846_793_005 + number * 1_442_695_040_888_963_407) % (2**63)


def open_night(engine: Engine, ladder, *, fresh: bool = False) -> Night:
    """The night to play: the ladder's unfinished night, or a new one.

    Two processes starting the same ladder at once play the same night (see
    :func:`kotarena.storage.store.open_night`).
    """
    return _open_night(engine, ladder, fresh)[0]


def _open_night(engine: Engine, ladder, fresh: bool) -> tuple[Night, bool]:
    """:func:`open_night`, and whether the night was made just now (so nothing of it is
    stored yet)."""
    ladder_id, game = store.ladder_row(engine, ladder.name, ladder.game)
    if game != ladder.game:
        raise NightError(f"ladder {ladder.name!r} is stored as a {game} ladder, not {ladder.game}")
    fingerprint = ladder.fingerprint()

    def new_night(number: int) -> Night:
        # Drawn only when the night is made: a resumed night plays the seed it stored.
        seed = seeds.draw_seed() if ladder.seed is None else night_seed(ladder.seed, number)
        return Night(number=number, seed=seed, sealed=ladder.seed is None, commitment=seeds.commitment(seed),
                     fingerprint=fingerprint, config=json.dumps(_ladder_json(ladder), default=str),
                     planned=ladder.games, status="running", started_at=datetime.now(UTC), finished_at=None)

    night, new = store.open_night(engine, ladder_id, fresh=fresh, new_night=new_night)
    if night.fingerprint != fingerprint and night.fingerprint != ladder.legacy_fingerprint():
        raise NightError(
            f"ladder {ladder.name!r} changed since its unfinished night {night.number} started; "
            "restore the file to resume that night, or run with --fresh to start a new night"
        )
    return night, new


def _ladder_json(ladder) -> dict:
    try:
        return asdict(ladder)
    except TypeError:
        return {"name": ladder.name}


@dataclass(frozen=True)
class Seating:
    """Where a night's untrusted bots sit: in the sandbox (``sandbox``; ``False`` only at
    the user's explicit request), writing their output to ``log_dir``, with ``hide``
    (the results database's files) out of their sight."""

    sandbox: bool = True
    log_dir: str | None = None
    hide: tuple[str, ...] = ()


def night_jobs(ladder, seed: int, seating: Seating = Seating(), night: str = "") -> Iterator[MatchJob]:
    """The matches of a night of ``ladder`` seeded ``seed`` (see :func:`night_seed`) as
    jobs, in schedule order, each as soon as it is scheduled.

    Each job carries its bots' seeds, keyed with the night's seed (:func:`kotarena.seeds.bot_key`):
    a bot cannot tell the game's seed from its own, and nobody can tell the bots' seeds
    without the night's seed. It carries each seat's instance slot: the k-th seat a bot
    takes at the tables of one deal (a duplicate set's matches share their seed) gets
    slot k, so a sandboxed bot's instance never meets a deal twice, in any seat. And
    it names who its seats' bots are (package, version, where a stored bot lies) as the
    bot registry here knows them, so that workers never ask an untrusted bot.
    ``night`` names this run of the night (a worker's instances serve one run).
    """
    from kotarena.tournament.schedule import iter_schedule

    entrants = {e.label: e for e in ladder.entrants}
    specs = {label: _seat_spec(label, entrant) for label, entrant in entrants.items()}
    deck = ladder.deck if ladder.deck != "none" else None
    key = seeds.bot_key(seed)
    deal, taken = None, {}  # the deal of the last tables, and the seats each bot took at them
    for spec in iter_schedule(replace(ladder, seed=seed), list(entrants)):
        if spec.seed != deal:  # (the schedule seeds each table or duplicate set its own, the set's tables in a row)
            deal, taken = spec.seed, {}
        seats = tuple(specs[label] for label in spec.seats)
        slots = []
        for seat in seats:
            slots.append(taken.get(seat.bot, 0))
            taken[seat.bot] = slots[-1] + 1
        yield MatchJob(spec.index, spec.key, ladder.game, deck, spec.seed, spec.first_player, seats,
                       ladder.time_limit, bot_seeds=seeds.bot_seeds(spec.seed, len(spec.seats), key),
                       sandbox=seating.sandbox, log_dir=seating.log_dir, hide=seating.hide, slots=tuple(slots),
                       night=night)


def _seat_spec(label: str, entrant) -> SeatSpec:
    """The seat of ``entrant``, its bot named as the registry knows it (an untrusted one
    from the sandboxed catalogue: never imported here)."""
    info = _known(entrant.bot)
    if info is not None:
        package, version, path = info.package, info.version, tuple(info.path or ())
    else:  # (an unknown bot forfeits where it is seated)
        package, version, path = "?", "?", ()
    return SeatSpec(entrant=label, bot=entrant.bot, params=tuple(sorted((entrant.params or {}).items())),
                    trusted=_trusted(entrant), package=package, version=version, path=path)


def seating_for(engine: Engine, ladder, *, unsandboxed: bool = False) -> Seating:
    """How a night of ``ladder`` seats its untrusted bots, or :class:`NightError` when
    it cannot: the sandbox is missing here and the user did not ask to do without it."""
    from kotarena.ladder_names import path_name
    from kotarena.sandbox.jail import sandbox_problem
    from kotarena.sandbox.seat import default_log_dir

    database = engine.url.database if engine.url.get_backend_name() == "sqlite" else None
    if database and database != ":memory:":
        # The bots' output is kept beside the results; the results, their side files and
        # every bot's log are hidden from the bots (the sandbox binds of the user's
        # directories only what Python imports, but the database could lie in a package).
        logs = Path(database).resolve().parent / "bot-logs"
        hide = (*(f"{database}{suffix}" for suffix in ("", "-wal", "-shm", "-journal")), str(logs))
    else:
        logs = default_log_dir()
        hide = (str(logs),)
    log_dir = str(logs / path_name(ladder.name))
    untrusted = sorted({e.bot for e in ladder.entrants if not _trusted(e)})
    if untrusted and not unsandboxed:
        problem = sandbox_problem()
        if problem is not None:
            raise NightError(f"cannot sandbox the untrusted bots ({', '.join(untrusted)}): {problem}; install "
                             "what is missing, mark the bots trusted in the ladder, or pass --unsandboxed to run "
                             "them without a sandbox")
    return Seating(sandbox=not unsandboxed, log_dir=log_dir, hide=hide)


def load_sealed_ladder(path, *, jailed: bool | None = None, overrides=None):
    """Load the ladder file at ``path`` without importing an untrusted bot here.

    What the installed bots declare is read in the sandbox
    (:mod:`kotarena.sandbox.catalogue`); this process imports only kotarena's own
    plugins and the trusted distributions: those of ``KOTARENA_TRUST`` and those whose
    bots the ladder trusts (``trusted``), which then load in the workers too. A
    command-line bot's distribution is not imported even then: its program plays in
    the sandbox, trusted or not. Raises
    :class:`~kotarena.tournament.ladder.LadderError` for a bad ladder and
    :class:`~kotarena.sandbox.catalogue.CatalogueError` when the bots cannot be read.
    ``overrides`` are keys given instead of the file's (see ``load_ladder``).
    """
    from kotarena.bots.registry import bot_names, get_bot, seal
    from kotarena.sandbox.catalogue import read_catalogue
    from kotarena.tournament.ladder import load_ladder

    catalogue = read_catalogue(jailed=jailed)
    seal(catalogue)
    ladder = load_ladder(path, known_bots=bot_names(), overrides=overrides)
    trusted = {get_bot(entrant.bot).package for entrant in ladder.entrants
               if entrant.trusted and not _program(entrant.bot)}
    if trusted - {"kotarena"}:
        seal(catalogue, trusted)  # (the trusted bots play in the workers: import them)
    return ladder


def check_entrants(ladder) -> None:
    """Make each entrant's bot that plays in this process's workers (trusted) once with
    its parameters: one that refuses them (``playouts = -5``) is a :class:`NightError`
    naming the entrant, before anything is played, rather than a night of forfeits.
    (An untrusted bot is made only in its sandbox: its refusal is its forfeit, whose
    reason ``kotarena matches`` shows.)"""
    from kotarena.bots.registry import SealedBotError

    for entrant in ladder.entrants:
        info = _known(entrant.bot)
        if info is None or not _trusted(entrant) or _program(entrant.bot):
            continue
        try:
            info.make(seed=0, **(entrant.params or {}))
        except SealedBotError:
            continue
        except (ValueError, TypeError) as error:
            given = ", ".join(f"{key} = {value!r}" for key, value in sorted((entrant.params or {}).items()))
            raise NightError(f"entrant {entrant.label!r}: the {entrant.bot} bot refuses its params "
                             f"({given or 'none'}): {error}") from None


def _known(bot: str):
    """The registry's entry for ``bot``, read without importing an untrusted package
    (the sandboxed catalogue, if need be); ``None`` for a bot it does not know, which
    then fails where it is seated."""
    from kotarena.bots.registry import UnknownBotError
    from kotarena.sandbox.catalogue import CatalogueError
    from kotarena.sandbox.untrusted import find_bot

    try:
        return find_bot(bot)
    except (UnknownBotError, CatalogueError):
        return None


def _program(bot: str) -> bool:
    """Whether ``bot`` is a command-line bot, known without importing it."""
    from kotarena.bots.command import is_program

    info = _known(bot)
    return info is not None and (info.program or is_program(info.cls))


def _trusted(entrant) -> bool:
    """Whether the entrant's bot plays in the workers' processes: as the ladder says
    (``trusted``), else only a bot of kotarena's own; never a command-line bot, whose
    program plays in the sandbox, trusted or not."""
    if _program(entrant.bot):
        return False
    if entrant.trusted is not None:
        return bool(entrant.trusted)
    info = _known(entrant.bot)
    return info is not None and info.package == "kotarena"


def run_night(
    engine: Engine,
    ladder,
    *,
    workers: int | None = None,
    fresh: bool = False,
    progress: Callable[[int, int, int], None] | None = None,
    executor_factory=make_executor,
    unsandboxed: bool = False,
    on_start: Callable[[Night], None] | None = None,
) -> NightReport:
    """Play (or resume) a night of ``ladder``; returns what happened.

    ``on_start(night)`` is called with the night to be played before any match is
    (its ``seed`` is the secret of a sealed night: say only its ``commitment``);
    ``progress(done, total, forfeits)`` after each store of results. Untrusted bots
    play in the sandbox; a night refuses to start without it, unless ``unsandboxed``
    says to run them in plain processes.
    """
    started = time.perf_counter()
    check_entrants(ladder)
    seating = seating_for(engine, ladder, unsandboxed=unsandboxed)
    night, already, results = _resume(engine, ladder, fresh)
    if on_start:
        on_start(night)
    planned = ladder.games
    done = len(already)
    played = forfeits = 0
    if progress:
        progress(done, planned, forfeits)
    # Scheduled as they are handed out: the first matches start while the rest are worked out.
    # The run's own name: the workers' sandboxed instances serve this run only (a
    # resumed night's instances start afresh, whatever an earlier run's met).
    run = f"{night.id}-{os.getpid()}-{time.time_ns()}"
    todo = (job for job in night_jobs(ladder, night.seed, seating, run) if job.index not in already)
    # Results are stored in small batches, one transaction each (a batch at most
    # FLUSH_SECONDS old): a kill loses only the unstored batch, which a resume plays again.
    unstored: list[MatchResult] = []
    stored_at = time.monotonic()

    def store_unstored() -> None:
        nonlocal played, done, forfeits, stored_at
        stored_at = time.monotonic()
        if not unstored:
            return
        stored = results.store(unstored)  # (on failure they stay unstored)
        played += stored
        done += stored
        forfeits += sum(1 for result in unstored for seat in result.seats if seat.forfeit)
        unstored.clear()
        if progress:
            progress(done, planned, forfeits)

    with frozen_heap():
        try:
            # Closed on the way out whatever stops the night here (Ctrl-C while results
            # are stored, an error): the runner's pool is shut down at once, not when
            # the generator is collected, which may be never (the process would then
            # wait for its workers forever as it exits).
            with contextlib.closing(run_jobs(todo, workers=workers, executor_factory=executor_factory,
                                             total=planned - len(already))) as played_now:
                for result in played_now:
                    unstored.append(result)
                    if len(unstored) >= FLUSH_SIZE or time.monotonic() - stored_at >= FLUSH_SECONDS:
                        store_unstored()
            store_unstored()
        except BaseException as error:
            _close_instances()
            # Keep what was played, but let the night end with the error that stopped
            # it: a database that failed one store may well fail this one too.
            try:
                store_unstored()
            except Exception as also:  # noqa: BLE001 - reported on the first error
                from kotarena.storage.db import error_line

                if (type(also), error_line(also)) != (type(error), error_line(error)):  # (else it says it again)
                    error.add_note(f"storing the results not stored yet failed too: {type(also).__name__}: "
                                   f"{error_line(also)}")
            raise
    _close_instances()
    finished = done == planned or store.stored_count(engine, night.id) == planned
    if finished:
        if results.rated_upto < planned:  # not known to be all rated
            results.rate_stored()
        store.finish_night(engine, night.id)
    return NightReport(ladder.name, night.number, night.seed, planned, len(already), played, forfeits, finished,
                       time.perf_counter() - started, night.sealed, night.commitment)


def _close_instances() -> None:
    """End the sandboxed instances this process played the night's matches with
    (``--workers 0``; a pool's workers end theirs as they exit): no process is left."""
    import sys

    seat = sys.modules.get("kotarena.sandbox.seat")
    if seat is not None:
        seat.close_servers()


@contextlib.contextmanager
def frozen_heap() -> Iterator[None]:
    """Keep the objects that exist now out of the garbage collector's way while a
    night is played (``gc.freeze``).

    They are the modules and the database engine, most of a process, and they live on
    anyway. Each full collection walked all of them: in the coordinator, and in every
    worker, which inherits them when it is forked and then copies every memory page
    whose objects a collection touches. A caller that froze objects itself is left as
    it was.
    """
    if gc.get_freeze_count():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _resume(engine: Engine, ladder, fresh: bool) -> tuple[Night, set[int], store.NightResults]:
    """The night to play (see :func:`open_night`), the indexes of its matches stored
    already, and what stores its results, with the stored matches that can be rated
    rated."""
    night, new = _open_night(engine, ladder, fresh)
    results = store.NightResults(engine, night, ratings.make_env())
    if new:  # nothing of it is stored or rated yet: no need to look
        return night, set(), results
    if night.planned != ladder.games:  # (a night made by an older kotarena, which set it later)
        store.set_planned(engine, night.id, ladder.games)
    already = store.stored_indexes(engine, night.id)
    results.rate_stored()
    return night, already, results
