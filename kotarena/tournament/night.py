"""A league night: schedule, play, store and rate, resumable exactly once.

The coordinator is the only writer of its night. Finished matches are stored in
batches, each batch with its seats and ratings in one transaction that begins by
taking the ladder's write lock, so what it reads (which matches are stored, which
rated, the current ratings) cannot change under it. A match is stored under a unique
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
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime

import trueskill
from sqlalchemy import bindparam, delete, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, func, select

from kotarena.storage.db import DriverSQL, insert_rows
from kotarena.storage.models import LadderRow, Match, Night, Rating, Seat
from kotarena.tournament.batch import MATCH_COLUMNS, SEAT_COLUMNS, match_rows, rate_in_order, seat_rows
from kotarena.tournament.runner import MatchJob, MatchResult, make_executor, run_jobs
from kotarena.tournament.seats import SeatSpec

#: Stored results are committed together at most this many at a time (a batch's
#: statements cost the same for 256 matches as for 64: 0.35 instead of 0.41 ms a match)...
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


def night_seed(ladder_seed: int, number: int) -> int:
    """Night 1 plays the ladder's seed; later nights derive new seeds from it."""
    if number == 1:
        return ladder_seed
    return (ladder_seed * 6_364_136_223_846_793_005 + number * 1_442_695_040_888_963_407) % (2**63)


def _ladder_id(engine: Engine, ladder) -> int:
    """The stored ladder's id, adding the ladder if it is new."""
    with engine.connect() as connection:
        found = DriverSQL(connection).rows(_LADDER_NAMED, (ladder.name,))
    if not found:
        return _add_ladder(engine, ladder)
    ladder_id, game = found[0]
    _check_game(ladder, game)
    return ladder_id


def _add_ladder(engine: Engine, ladder) -> int:
    """Add the ladder (unless another process has meanwhile) and return its id.

    (Plain SQL, as the night's other statements: through the ORM this took 2 ms of a
    new ladder's first night, in the coordinator, whose CPU the workers share.)
    """
    try:
        with engine.begin() as connection:
            insert_rows(connection, LADDERS, _LADDER_COLUMNS, [(ladder.name, ladder.game, datetime.now(UTC))])
    except (IntegrityError, engine.dialect.dbapi.IntegrityError):  # (the driver's own, from insert_rows)
        pass  # another process added the ladder meanwhile: use theirs
    with engine.connect() as connection:
        ladder_id, game = DriverSQL(connection).rows(_LADDER_NAMED, (ladder.name,))[0]
    _check_game(ladder, game)
    return ladder_id


def _check_game(ladder, stored_game: str) -> None:
    if stored_game != ladder.game:
        raise NightError(f"ladder {ladder.name!r} is stored as a {stored_game} ladder, not {ladder.game}")


def open_night(engine: Engine, ladder, *, fresh: bool = False) -> Night:
    """The night to play: the ladder's unfinished night, or a new one.

    Two processes starting the same ladder at once play the same night: the ladder is
    locked while its unfinished night is looked for and, if there is none, made.
    """
    return _open_night(engine, ladder, fresh)[0]


def _open_night(engine: Engine, ladder, fresh: bool) -> tuple[Night, bool]:
    """:func:`open_night`, and whether the night was made just now (so nothing of it is
    stored yet)."""
    ladder_id = _ladder_id(engine, ladder)
    fingerprint = ladder.fingerprint()
    # (Plain SQL on the driver: the workers start after this, and through the ORM these
    # statements took 15-20 ms, compiled afresh in each new process.)
    with engine.begin() as connection:
        _lock_ladder(connection, ladder_id)
        driver = DriverSQL(connection)
        running = driver.rows(_RUNNING_NIGHT, (ladder_id, "running"))
        if running and not fresh:
            with Session(connection) as session:  # (in this transaction)
                night = session.get(Night, running[0][0])
                assert night is not None
                session.expunge(night)
            if night.fingerprint != fingerprint:
                raise NightError(
                    f"ladder {ladder.name!r} changed since its unfinished night {night.number} started; "
                    "restore the file to resume that night, or run with --fresh to start a new night"
                )
            return night, False
        number = (driver.rows(_LAST_NIGHT, (ladder_id,))[0][0] or 0) + 1
        night = Night(
            ladder_id=ladder_id, number=number, seed=night_seed(ladder.seed, number), fingerprint=fingerprint,
            config=json.dumps(_ladder_json(ladder), default=str), planned=ladder.games, status="running",
            started_at=datetime.now(UTC), finished_at=None,
        )
        insert_rows(connection, NIGHTS, _NIGHT_COLUMNS, [tuple(getattr(night, key) for key in _NIGHT_COLUMNS)])
        night.id = driver.rows(_NIGHT_NUMBERED, (ladder_id, number))[0][0]
    return night, True


def _ladder_json(ladder) -> dict:
    try:
        return asdict(ladder)
    except TypeError:
        return {"name": ladder.name}


def night_jobs(ladder, seed: int) -> Iterator[MatchJob]:
    """The matches of a night of ``ladder`` seeded ``seed`` (see :func:`night_seed`) as
    jobs, in schedule order, each as soon as it is scheduled."""
    from kotarena.tournament.schedule import iter_schedule

    entrants = {e.label: e for e in ladder.entrants}
    specs = {
        label: SeatSpec(
            entrant=label,
            bot=entrant.bot,
            params=tuple(sorted((entrant.params or {}).items())),
            trusted=_trusted(entrant),
        )
        for label, entrant in entrants.items()
    }
    deck = ladder.deck if ladder.deck != "none" else None
    for spec in iter_schedule(replace(ladder, seed=seed), list(entrants)):
        yield MatchJob(spec.index, spec.key, ladder.game, deck, spec.seed, spec.first_player,
                       tuple(specs[label] for label in spec.seats), ladder.time_limit)


def _trusted(entrant) -> bool:
    """Bots from kotarena itself are trusted unless the ladder says otherwise; others not."""
    if entrant.trusted is not None:
        return bool(entrant.trusted)
    from kotarena.bots.registry import get_bot

    return get_bot(entrant.bot).package == "kotarena"


# Storage goes through SQLAlchemy Core on the tables: a night writes thousands of rows,
# and building ORM objects for them cost more than playing the games. The statements
# that every store (and every night's start) runs are plain SQL on the driver, see
# DriverSQL: through SQLAlchemy they cost more than SQLite's work for a whole batch.
MATCHES = Match.__table__
NIGHTS = Night.__table__
SEATS = Seat.__table__
RATINGS = Rating.__table__
LADDERS = LadderRow.__table__
#: A stored seat's rating after its match, by seat id (executemany).
_UPDATE_SEAT_RATING = update(SEATS).where(SEATS.c.id == bindparam("b_id")).values(
    mu=bindparam("b_mu"), sigma=bindparam("b_sigma"))

_LOCK_LADDER = "UPDATE {ladder} SET {game} = {game} WHERE {id} = ?"
_LADDER_NAMED = "SELECT {id}, {game} FROM {ladder} WHERE {name} = ?"
#: A ladder's latest night with a status.
_RUNNING_NIGHT = "SELECT {id} FROM {night} WHERE {ladder_id} = ? AND {status} = ? ORDER BY {number} DESC LIMIT 1"
_LAST_NIGHT = "SELECT MAX({number}) FROM {night} WHERE {ladder_id} = ?"
_NIGHT_NUMBERED = "SELECT {id} FROM {night} WHERE {ladder_id} = ? AND {number} = ?"
#: The night's matches with an index in a range (stored ones, and their ids).
_STORED_IN = "SELECT {index}, {id} FROM {match} WHERE {night_id} = ? AND {index} BETWEEN ? AND ?"
#: The night's matches from an index on.
_STORED_FROM = "SELECT {id}, {index}, {winner_seat}, {rated} FROM {match} WHERE {night_id} = ? AND {index} >= ?"
_RATINGS = "SELECT {entrant}, {mu}, {sigma}, {games}, {wins}, {forfeits} FROM {rating} WHERE {ladder_id} = ?"
_UPDATE_RATING = ("UPDATE {rating} SET {mu} = ?, {sigma} = ?, {games} = ?, {wins} = ?, {forfeits} = ?"
                  " WHERE {ladder_id} = ? AND {entrant} = ?")

_BOT_VERSION_ID = "SELECT {id} FROM {bot_version} WHERE {name} = ? AND {package} = ? AND {version} = ?"
_ADD_BOT_VERSION = "INSERT INTO {bot_version} ({name}, {package}, {version}) VALUES (?, ?, ?)"

_NIGHT_DONE = "UPDATE {night} SET {status} = ?, {finished_at} = ? WHERE {id} = ?"

_LADDER_COLUMNS = ("name", "game", "created_at")
_NIGHT_COLUMNS = ("ladder_id", "number", "seed", "fingerprint", "config", "planned", "status", "started_at")
_RATING_COLUMNS = ("ladder_id", "entrant", "mu", "sigma", "games", "wins", "forfeits")


def _lock_ladder(connection: Connection, ladder_id: int) -> None:
    """Begin this transaction with a write to the ladder's row, so that from here on it
    is the only one storing or rating the ladder's matches: SQLite then holds the
    database's write lock, PostgreSQL the row's lock, until the commit. What it reads
    next is therefore current and stays so; no other writer can slip in between."""
    DriverSQL(connection).run(_LOCK_LADDER, (ladder_id,))


def store_results(engine: Engine, night: Night, results: list[MatchResult], env: trueskill.TrueSkill,
                  cache: dict | None = None) -> int:
    """Store finished matches and rate what can be rated, in one transaction.

    Matches already stored (by another process running the same night) are skipped.
    Returns how many were stored. ``cache`` carries what one run of a night learns
    between calls (bot version ids, how far ratings have got).
    """
    cache = {} if cache is None else cache
    versions = cache.setdefault("versions", {})
    with engine.begin() as connection:
        _lock_ladder(connection, night.ladder_id)
        fresh = results
        if results:
            indexes = [result.index for result in results]
            stored = {index for index, _ in DriverSQL(connection).rows(
                _STORED_IN, (night.id, min(indexes), max(indexes)))}
            fresh = [result for result in results if result.index not in stored]
        rated_upto = _store_and_rate(connection, night, fresh, env, cache.get("rated_upto", 0), versions)
    cache["rated_upto"] = rated_upto
    return len(fresh)


def _store_and_rate(connection: Connection, night: Night, fresh: list[MatchResult], env: trueskill.TrueSkill,
                    rated_upto: int, versions: dict) -> int:
    """Store ``fresh`` (matches not stored yet) and rate, in schedule order, every match
    of the night that now follows the rated ones without a gap: stored ones waiting for
    an earlier match, and fresh ones, whose seats are then written with their ratings.

    Ratings go in schedule order (match 0, 1, 2, ... of the night) whatever order the
    matches finish in, so a night ends with the same ratings however it was played.
    ``rated_upto`` is an index below which every match is known to be rated (0 if
    nothing is known). The caller holds the ladder's lock (:func:`_lock_ladder`).
    Returns the index of the first match left unrated.
    """
    night_id = night.id
    # The matches stored after the rated ones: rated ones extend the frontier; the
    # others wait for a match before them.
    waiting = {}  # index: (id, winner seat)
    rated = set()
    for match_id, index, winner_seat, is_rated in DriverSQL(connection).rows(_STORED_FROM, (night_id, rated_upto)):
        if is_rated:
            rated.add(index)
        else:
            waiting[index] = (match_id, winner_seat)
    frontier = rated_upto
    while frontier in rated:
        frontier += 1
    fresh_at = {result.index: result for result in fresh}
    end = frontier
    while end in waiting or end in fresh_at:
        end += 1
    # What is rated now: matches frontier .. end - 1, each stored or fresh.
    stored_seats = _waiting_seats(connection, night_id, frontier, end) if any(
        index in waiting for index in range(frontier, end)) else {}
    order = [(waiting[index][1], stored_seats[waiting[index][0]]) if index in waiting
             else (fresh_at[index].winner_seat, fresh_at[index].seats) for index in range(frontier, end)]
    after = _rate(connection, night.ladder_id, order, env)
    if stored_seats:
        connection.execute(update(MATCHES).where(MATCHES.c.night_id == night_id, MATCHES.c.index >= frontier,
                                                 MATCHES.c.index < end).values(rated=True))
        connection.execute(_UPDATE_SEAT_RATING, [
            {"b_id": seat.id, "b_mu": mu, "b_sigma": sigma}
            for index in range(frontier, end) if index in waiting
            for seat, (mu, sigma) in zip(stored_seats[waiting[index][0]], after[index - frontier])
        ])
    if fresh:
        _insert(connection, night_id, fresh, {index: after[index - frontier] for index in range(frontier, end)
                                              if index in fresh_at}, versions)
    return end


def _waiting_seats(connection: Connection, night_id: int, start: int, end: int) -> dict[int, list]:
    """The seats (id, seat, entrant, rank, forfeit) of the night's unrated stored matches
    with an index in ``start .. end - 1``, by match id, in seat order."""
    seats: dict[int, list] = {}
    for seat in connection.execute(
        select(SEATS.c.id, SEATS.c.match_id, SEATS.c.seat, SEATS.c.entrant, SEATS.c.rank, SEATS.c.forfeit)
        .join(MATCHES, SEATS.c.match_id == MATCHES.c.id)
        .where(MATCHES.c.night_id == night_id, MATCHES.c.index >= start, MATCHES.c.index < end,
               MATCHES.c.rated == False)  # noqa: E712 - SQL, not Python
        .order_by(SEATS.c.match_id, SEATS.c.seat)
    ):
        seats.setdefault(seat.match_id, []).append(seat)
    return seats


def _insert(connection: Connection, night_id: int, results: list[MatchResult],
            ratings_after: dict[int, list[tuple[float, float]]], versions: dict) -> None:
    """Insert matches and their seats: two statements for the whole batch. A match in
    ``ratings_after`` (by index: each seat's rating after it) is stored rated."""
    now = datetime.now(UTC)
    # A plain executemany, then the new ids in one query: RETURNING would make SQLite
    # insert the rows one statement at a time.
    insert_rows(connection, MATCHES, MATCH_COLUMNS, match_rows(night_id, results, ratings_after, now))
    indexes = [result.index for result in results]
    ids = dict(DriverSQL(connection).rows(_STORED_IN, (night_id, min(indexes), max(indexes))))
    insert_rows(connection, SEATS, SEAT_COLUMNS, seat_rows(
        results, ids, ratings_after, versions, lambda *key: _bot_version(connection, *key)))


def _bot_version(connection: Connection, name: str, package: str, version: str) -> int:
    """The id of a bot version, added if it is new. (Plain SQL: through SQLAlchemy the
    two statements were compiled afresh in each night's process, 3.5 ms of its first
    store.)"""
    driver = DriverSQL(connection)
    key = (name, package, version)
    found = driver.rows(_BOT_VERSION_ID, key)
    if not found:
        _add_bot_version(connection, driver, key)
        found = driver.rows(_BOT_VERSION_ID, key)
    return found[0][0]


def _add_bot_version(connection: Connection, driver: DriverSQL, key: tuple[str, str, str]) -> None:
    """Add a bot version, unless another night has just added it.

    On SQLite no one can: the store holds the database's write lock. On a server
    database the nights of two ladders may add the same new version at the same moment;
    the second insert then fails on the unique (name, package, version), inside a
    savepoint so that the store goes on, and the caller finds the other's row.
    """
    if connection.dialect.name == "sqlite":
        driver.run(_ADD_BOT_VERSION, key)
        return
    try:
        with connection.begin_nested():
            driver.run(_ADD_BOT_VERSION, key)
    except (IntegrityError, connection.dialect.dbapi.IntegrityError):  # (the driver's own, from DriverSQL)
        pass


def _rate(connection: Connection, ladder_id: int, matches: list[tuple[int | None, list]],
          env: trueskill.TrueSkill) -> list[list[tuple[float, float]]]:
    """Rate ``matches`` in order and store the ladder's new ratings, in this transaction.

    Each match is its winning seat and its seats in seat order (anything with the
    ``seat``, ``entrant``, ``rank`` and ``forfeit`` of a seat row). Returns, for each
    match, each seat's entrant's (mu, sigma) right after it.
    """
    from kotarena import ratings

    if not matches:
        return []
    driver = DriverSQL(connection)
    entrants = {seat.entrant for _, seats in matches for seat in seats}
    # Each entrant's rating as the matches go, and its [games, wins, forfeits, stored].
    now: dict[str, ratings.Rating] = {}
    counts: dict[str, list[int]] = {}
    for entrant, mu, sigma, games, wins, forfeits in driver.rows(_RATINGS, (ladder_id,)):
        if entrant in entrants:  # (a ladder has a few dozen entrants at most: all are read)
            now[entrant] = ratings.Rating(mu, sigma)
            counts[entrant] = [games, wins, forfeits, 1]
    after = rate_in_order(env, now, counts, matches)
    driver.run_many(_UPDATE_RATING, [(now[label].mu, now[label].sigma, games, wins, forfeits, ladder_id, label)
                                     for label, (games, wins, forfeits, known) in counts.items() if known])
    insert_rows(connection, RATINGS, _RATING_COLUMNS, [
        (ladder_id, label, now[label].mu, now[label].sigma, games, wins, forfeits)
        for label, (games, wins, forfeits, known) in counts.items() if not known])
    return after


def rate_pending(engine: Engine, night: Night, env: trueskill.TrueSkill, cache: dict | None = None) -> int:
    """Rate the night's stored matches that follow, without a gap, the ones already rated.

    Returns how many were rated; ``cache`` (as for :func:`store_results`) learns how
    far ratings have got.
    """
    with Session(engine) as session:
        _lock_ladder(session.connection(), night.ladder_id)
        first = _first_unrated(session, night)
        rated_upto = _store_and_rate(session.connection(), night, [], env, first, {})
        session.commit()
    if cache is not None:
        cache["rated_upto"] = rated_upto
    return rated_upto - first


def _first_unrated(session: Session, night: Night) -> int:
    """The number of the night's matches rated so far (they are always the first ones)."""
    return session.execute(select(func.count()).select_from(MATCHES).where(
        MATCHES.c.night_id == night.id, MATCHES.c.rated == True)).scalar_one()  # noqa: E712


def _stored_count(engine: Engine, night: Night) -> int:
    with Session(engine) as session:
        return session.execute(select(func.count()).select_from(MATCHES).where(MATCHES.c.night_id == night.id)
                               ).scalar_one()


def stored_indexes(engine: Engine, night: Night) -> set[int]:
    with Session(engine) as session:
        return set(session.exec(select(Match.index).where(Match.night_id == night.id)).all())


def run_night(
    engine: Engine,
    ladder,
    *,
    workers: int | None = None,
    fresh: bool = False,
    progress: Callable[[int, int, int], None] | None = None,
    executor_factory=make_executor,
) -> NightReport:
    """Play (or resume) a night of ``ladder``; returns what happened.

    ``progress(done, total, forfeits)`` is called after each stored match.
    """
    from kotarena import ratings

    started = time.perf_counter()
    env = ratings.make_env()
    night, already, cache = _resume(engine, ladder, fresh, env)
    planned = ladder.games
    done = len(already)
    played = forfeits = 0
    if progress:
        progress(done, planned, forfeits)
    # Scheduled as they are handed out: the first matches start while the rest are worked out.
    todo = (job for job in night_jobs(ladder, night.seed) if job.index not in already)
    # Results are stored in small batches, one transaction each (a batch at most
    # FLUSH_SECONDS old): a kill loses only the unstored batch, which a resume plays again.
    unstored: list[MatchResult] = []
    stored_at = time.monotonic()

    def store() -> None:
        nonlocal played, done, forfeits, stored_at
        stored_at = time.monotonic()
        if not unstored:
            return
        stored = store_results(engine, night, unstored, env, cache)  # (on failure they stay unstored)
        played += stored
        done += stored
        forfeits += sum(1 for result in unstored for seat in result.seats if seat.forfeit)
        unstored.clear()
        if progress:
            progress(done, planned, forfeits)

    with frozen_heap():
        try:
            for result in run_jobs(todo, workers=workers, executor_factory=executor_factory,
                                   total=planned - len(already)):
                unstored.append(result)
                if len(unstored) >= FLUSH_SIZE or time.monotonic() - stored_at >= FLUSH_SECONDS:
                    store()
            store()
        except BaseException as error:
            # Keep what was played, but let the night end with the error that stopped
            # it: a database that failed one store may well fail this one too.
            try:
                store()
            except Exception as also:  # noqa: BLE001 - reported on the first error
                error.add_note(f"storing the results not stored yet failed too: {type(also).__name__}: {also}")
            raise
    finished = done == planned or _stored_count(engine, night) == planned
    if finished:
        if cache.get("rated_upto", 0) < planned:  # not known to be all rated
            rate_pending(engine, night, env)
        with engine.begin() as connection:
            driver = DriverSQL(connection)
            driver.run(_NIGHT_DONE, ("done", driver.value(NIGHTS.c.finished_at, datetime.now(UTC)), night.id))
    return NightReport(ladder.name, night.number, night.seed, planned, len(already), played, forfeits, finished,
                       time.perf_counter() - started)


@contextlib.contextmanager
def frozen_heap() -> Iterator[None]:
    """Keep the objects that exist now out of the garbage collector's way while a
    night is played (``gc.freeze``).

    They are the modules and the database engine, most of a process, and they live on
    anyway. Each full collection walked all of them: in the coordinator, and in every
    worker, which inherits them when it is forked and then copies every memory page
    whose objects a collection touches. Frozen, a worker runs 1.4% fewer instructions
    a game (callgrind). A caller that froze objects itself is left as it was.
    """
    if gc.get_freeze_count():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _resume(engine: Engine, ladder, fresh: bool, env: trueskill.TrueSkill) -> tuple[Night, set[int], dict]:
    """The night to play (see :func:`open_night`), the indexes of its matches stored
    already, and what :func:`store_results` needs to know to go on (its ``cache``),
    with the stored matches that can be rated rated."""
    night, new = _open_night(engine, ladder, fresh)
    cache: dict = {}
    if new:  # nothing of it is stored or rated yet: no need to look
        return night, set(), cache
    if night.planned != ladder.games:  # (a night made by an older kotarena, which set it later)
        with Session(engine) as session:
            row = session.get(Night, night.id)
            row.planned = ladder.games
            session.add(row)
            session.commit()
    already = stored_indexes(engine, night)
    rate_pending(engine, night, env, cache)
    return night, already, cache


def rerate(engine: Engine, ladder_name: str) -> int:
    """Recompute a ladder's ratings from its stored matches, as its nights rated them:
    night by night, each in schedule order up to its first match not stored yet.

    Returns how many matches were rated.
    """
    from kotarena import ratings

    env = ratings.make_env()
    with Session(engine) as session:
        ladder = session.exec(select(LadderRow).where(LadderRow.name == ladder_name)).first()
        if ladder is None:
            raise NightError(f"no ladder named {ladder_name!r} in the database")
        _lock_ladder(session.connection(), ladder.id)
        nights = session.exec(select(Night).where(Night.ladder_id == ladder.id).order_by(Night.number)).all()
        night_ids = select(Night.id).where(Night.ladder_id == ladder.id)
        session.execute(delete(RATINGS).where(RATINGS.c.ladder_id == ladder.id))
        session.execute(update(MATCHES).where(MATCHES.c.night_id.in_(night_ids)).values(rated=False))
        session.execute(update(SEATS).where(SEATS.c.match_id.in_(select(MATCHES.c.id).where(
            MATCHES.c.night_id.in_(night_ids)))).values(mu=None, sigma=None))
        count = sum(_store_and_rate(session.connection(), night, [], env, 0, {}) for night in nights)
        session.commit()
    return count
