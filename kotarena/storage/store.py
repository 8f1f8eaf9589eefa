"""What a league night writes: its ladder and night, its matches with their seats, and
the ratings they lead to, rated in schedule order; and ``league rerate``. The rating
itself is :class:`kotarena.ratings.RatingBook`'s: the store reads a ladder's ratings into
one, has it rate the matches in order, and writes back what it gives.

Everything goes through SQLAlchemy Core statements on the models' tables, in the
caller's transactions. Writers of one ladder take turns: a transaction that stores or
rates begins by writing to the ladder's row (:func:`lock_ladder`), which makes it the
only one doing so until it commits (SQLite locks the database for it, PostgreSQL the
row), so what it then reads (which matches are stored, which rated, the current
ratings) is current and stays so.

Ratings go in schedule order (match 0, 1, 2, ... of a night) whatever order the matches
are stored in: a match is rated, its ``rated`` flag set and its seats given their
entrants' ratings after it, only once every match before it is rated. So the rated
matches of a night are always its first ones, a match is rated exactly once, and a night
stored in any order ends with the ratings of one stored in order. Stored matches are
rated a page at a time, so memory does not grow with the night or the ladder.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import trueskill
from sqlalchemy import bindparam, delete, func, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from kotarena.ratings import RatingBook, make_env
from kotarena.results import MatchResult, SeatResult
from kotarena.storage.db import UnknownLadderError  # (kept here too: where callers found it before)
from kotarena.storage.models import BotVersion, LadderRow, Match, MatchBase, Night, Rating, Seat, SeatBase, utcnow

__all__ = [
    "PAGE", "NightResults", "UnknownLadderError", "bot_version_id", "finish_night", "ladder_row", "lock_ladder",
    "open_night", "rerate", "set_planned", "stored_count", "stored_indexes",
]

#: Stored matches rated per statement (see :func:`_rate_stored`).
PAGE = 500

#: The fields of a match and of a seat that their tables store as they come.
_MATCH_FIELDS = tuple(MatchBase.model_fields)
_SEAT_FIELDS = tuple(SeatBase.model_fields)


def lock_ladder(connection: Connection, ladder_id: int) -> None:
    """Begin this transaction with a write to the ladder's row, so that from here on it
    is the only one storing or rating the ladder's matches (see the module's text)."""
    connection.execute(update(LadderRow).where(LadderRow.id == ladder_id).values(game=LadderRow.game))


def ladder_row(engine: Engine, name: str, game: str) -> tuple[int, str]:
    """The id and game of the ladder called ``name``, added (for ``game``) if it is new."""
    query = select(LadderRow.id, LadderRow.game).where(LadderRow.name == name)
    with engine.connect() as connection:
        found = connection.execute(query).first()
    if found is None:
        _add_ladder(engine, name, game)
        with engine.connect() as connection:
            found = connection.execute(query).one()
    return found.id, found.game


def _add_ladder(engine: Engine, name: str, game: str) -> None:
    """Add a ladder, unless another process has meanwhile: two processes starting a new
    ladder may both find it missing, and the one whose insert fails on the unique name
    uses the other's row."""
    try:
        with engine.begin() as connection:
            connection.execute(insert(LadderRow).values(name=name, game=game, created_at=utcnow()))
    except IntegrityError:
        pass


def open_night(engine: Engine, ladder_id: int, *, fresh: bool,
               new_night: Callable[[int], Night]) -> tuple[Night, bool]:
    """The ladder's unfinished night (unless ``fresh``), or else ``new_night(number)``,
    numbered after the ladder's last night, added; and whether it is the new one.

    The ladder is locked while its unfinished night is looked for and, if there is none,
    made: two processes starting the same ladder at once play the same night.
    """
    with engine.begin() as connection:
        lock_ladder(connection, ladder_id)
        running = connection.execute(
            select(Night).where(Night.ladder_id == ladder_id, Night.status == "running")
            .order_by(Night.number.desc()).limit(1)).first()
        if running is not None and not fresh:
            return Night(**running._mapping), False
        last = connection.execute(select(func.max(Night.number)).where(Night.ladder_id == ladder_id)).scalar()
        night = new_night((last or 0) + 1)
        night.ladder_id = ladder_id
        night.id = connection.execute(insert(Night).values(night.model_dump(exclude={"id"}))
                                      .returning(Night.id)).scalar_one()
    return night, True


def set_planned(engine: Engine, night_id: int, planned: int) -> None:
    """Record how many matches a night plans (a night made by an older kotarena may lack it)."""
    with engine.begin() as connection:
        connection.execute(update(Night).where(Night.id == night_id).values(planned=planned))


def finish_night(engine: Engine, night_id: int) -> None:
    with engine.begin() as connection:
        connection.execute(update(Night).where(Night.id == night_id).values(status="done", finished_at=utcnow()))


def stored_indexes(engine: Engine, night_id: int) -> set[int]:
    """The schedule indexes of the night's stored matches."""
    with engine.connect() as connection:
        return set(connection.scalars(select(Match.index).where(Match.night_id == night_id)))


def stored_count(engine: Engine, night_id: int) -> int:
    with engine.connect() as connection:
        return connection.execute(select(func.count()).select_from(Match).where(Match.night_id == night_id)
                                  ).scalar_one()


class NightResults:
    """Stores one night's results and rates them, in schedule order (see the module's
    text). What it learns between stores (bot version ids, how far ratings have got)
    it keeps; another process storing the same night meanwhile is fine."""

    def __init__(self, engine: Engine, night: Night, env: trueskill.TrueSkill) -> None:
        self.engine = engine
        self.night_id: int = night.id  # type: ignore[assignment]
        self.ladder_id = night.ladder_id
        self.env = env
        #: Every match below this index is known to be rated.
        self.rated_upto = 0
        self._versions: dict[tuple[str, str, str], int] = {}

    def store(self, results: Sequence[MatchResult]) -> int:
        """Store finished matches and rate what can be rated, in one transaction; returns
        how many were stored (matches another process stored first are skipped)."""
        versions: dict[tuple[str, str, str], int] = {}  # added in this transaction
        with self.engine.begin() as connection:
            lock_ladder(connection, self.ladder_id)
            indexes = [result.index for result in results]
            stored = set(connection.scalars(select(Match.index).where(
                Match.night_id == self.night_id, Match.index.in_(indexes)))) if indexes else set()
            fresh = sorted((result for result in results if result.index not in stored), key=lambda r: r.index)
            frontier = self._frontier(connection)
            ratings, rows = _load_book(connection, self.ladder_id, self.env)
            # The fresh matches that follow the rated ones without a gap are rated before
            # they are stored; the others wait, stored, for the matches before them.
            after: dict[int, list[tuple[float, float]]] = {}
            for result in fresh:
                if result.index != frontier:
                    break
                after[result.index] = ratings.rate(result.winner_seat, result.seats)
                frontier += 1
            if fresh:
                self._insert(connection, fresh, after, versions)
            frontier = _rate_stored(connection, self.night_id, frontier, ratings)
            _save_book(connection, self.ladder_id, ratings, rows)
        self._versions.update(versions)  # (only once committed: a rolled back row has no id)
        self.rated_upto = frontier
        return len(fresh)

    def rate_stored(self) -> int:
        """Rate the night's stored matches that follow, without a gap, the ones already
        rated (a night resumed, or stored by others); returns how many were rated."""
        with self.engine.begin() as connection:
            lock_ladder(connection, self.ladder_id)
            first = self._frontier(connection)
            ratings, rows = _load_book(connection, self.ladder_id, self.env)
            frontier = _rate_stored(connection, self.night_id, first, ratings)
            _save_book(connection, self.ladder_id, ratings, rows)
        self.rated_upto = frontier
        return frontier - first

    def _frontier(self, connection: Connection) -> int:
        """The index of the night's first unrated match: the rated ones are always the
        first ones, so it is ``rated_upto`` plus the rated matches from there on."""
        return self.rated_upto + connection.execute(select(func.count()).select_from(Match).where(
            Match.night_id == self.night_id, Match.index >= self.rated_upto, Match.rated.is_(True))).scalar_one()

    def _insert(self, connection: Connection, results: list[MatchResult],
                after: dict[int, list[tuple[float, float]]], versions: dict[tuple[str, str, str], int]) -> None:
        """Insert matches and their seats, two statements for the whole batch; a match in
        ``after`` (by index: each seat's rating after it) is stored rated."""
        played_at = utcnow()
        # (A result's fields begin with its table's: zip stops at the last of those.)
        ids = connection.execute(
            insert(Match).returning(Match.id, sort_by_parameter_order=True),
            [dict(zip(_MATCH_FIELDS, result), night_id=self.night_id, rated=result.index in after,
                  played_at=played_at) for result in results]).scalars().all()
        rows = []
        for match_id, result in zip(ids, results):
            rated = after.get(result.index)
            for k, seat in enumerate(result.seats):
                mu, sigma = rated[k] if rated is not None else (None, None)
                rows.append(dict(zip(_SEAT_FIELDS, seat), match_id=match_id, mu=mu, sigma=sigma,
                                 bot_version_id=self._version(connection, seat, versions)))
        connection.execute(insert(Seat), rows)

    def _version(self, connection: Connection, seat: SeatResult, added: dict[tuple[str, str, str], int]) -> int:
        key = (seat.bot, seat.package, seat.version)
        found = self._versions.get(key) or added.get(key)
        if found is None:
            found = added[key] = bot_version_id(connection, *key)
        return found


def bot_version_id(connection: Connection, name: str, package: str, version: str) -> int:
    """The id of a bot version, added if it is new.

    On SQLite no one else can add it meanwhile: the store holds the database's write
    lock. On a server database the nights of two ladders may add the same new version at
    the same moment; the second insert then fails on the unique (name, package,
    version), inside a savepoint so that its store goes on, and finds the other's row.
    """
    query = select(BotVersion.id).where(BotVersion.name == name, BotVersion.package == package,
                                        BotVersion.version == version)
    found = connection.execute(query).scalar()
    if found is not None:
        return found
    add = insert(BotVersion).values(name=name, package=package, version=version)
    if connection.dialect.name == "sqlite":
        connection.execute(add)
    else:
        try:
            with connection.begin_nested():
                connection.execute(add)
        except IntegrityError:
            pass  # added by another night meanwhile: use theirs
    return connection.execute(query).scalar_one()


def rerate(engine: Engine, ladder_name: str, env: trueskill.TrueSkill | None = None) -> int:
    """Recompute a ladder's ratings from its stored matches, as its nights rated them:
    night by night, each in schedule order up to its first match not stored yet.

    Returns how many matches were rated. Memory holds a page of matches and the
    entrants' ratings, however many matches the ladder has.
    """
    env = env or make_env()
    with engine.begin() as connection:
        ladder_id = connection.execute(select(LadderRow.id).where(LadderRow.name == ladder_name)).scalar()
        if ladder_id is None:
            raise UnknownLadderError(ladder_name)
        lock_ladder(connection, ladder_id)
        nights = select(Night.id).where(Night.ladder_id == ladder_id)
        connection.execute(delete(Rating).where(Rating.ladder_id == ladder_id))
        connection.execute(update(Match).where(Match.night_id.in_(nights)).values(rated=False))
        connection.execute(update(Seat).where(Seat.match_id.in_(select(Match.id).where(Match.night_id.in_(nights))))
                           .values(mu=None, sigma=None))
        ratings = RatingBook(env)
        count = sum(_rate_stored(connection, night_id, 0, ratings)
                    for night_id in connection.scalars(nights.order_by(Night.number)).all())
        _save_book(connection, ladder_id, ratings, set())
    return count


def _load_book(connection: Connection, ladder_id: int, env: trueskill.TrueSkill) -> tuple[RatingBook, set[str]]:
    """The ladder's stored ratings as a book to rate on, and the entrants that have a row."""
    # (A ladder has a few dozen entrants at most: all are read.)
    rows = connection.execute(select(Rating).where(Rating.ladder_id == ladder_id)).all()
    return RatingBook(env, rows), {row.entrant for row in rows}


def _save_book(connection: Connection, ladder_id: int, book: RatingBook, stored: set[str]) -> None:
    """Write every entrant's rating and counts from ``book``: update the rows of the
    entrants in ``stored``, add the others (who are then in ``stored``)."""
    rows = [{"b_entrant": entrant, "mu": mu, "sigma": sigma, "games": games, "wins": wins, "forfeits": forfeits}
            for entrant, mu, sigma, games, wins, forfeits in book.standings()]
    known = [row for row in rows if row["b_entrant"] in stored]
    if known:
        connection.execute(update(Rating).where(Rating.ladder_id == ladder_id,
                                                Rating.entrant == bindparam("b_entrant")), known)
    new = [{**row, "ladder_id": ladder_id, "entrant": row.pop("b_entrant")} for row in rows
           if row["b_entrant"] not in stored]
    if new:
        connection.execute(insert(Rating), new)
        stored.update(row["entrant"] for row in new)


def _rate_stored(connection: Connection, night_id: int, start: int, ratings: RatingBook) -> int:
    """Rate the night's stored matches from index ``start`` on, in index order, up to
    the first one not stored; returns the index of the first match left unrated.
    Every match from ``start`` on is unrated."""
    while True:
        page = connection.execute(select(Match.id, Match.index, Match.winner_seat).where(
            Match.night_id == night_id, Match.index >= start).order_by(Match.index).limit(PAGE)).all()
        run = 0  # the page's matches that follow one another from ``start``
        while run < len(page) and page[run].index == start + run:
            run += 1
        if run == 0:
            return start
        end = start + run
        seats: dict[int, list[Any]] = {}
        for seat in connection.execute(
                select(Seat.id, Seat.match_id, Seat.seat, Seat.entrant, Seat.rank, Seat.forfeit)
                .join(Match, Seat.match_id == Match.id)
                .where(Match.night_id == night_id, Match.index >= start, Match.index < end)
                .order_by(Seat.match_id, Seat.seat)):
            seats.setdefault(seat.match_id, []).append(seat)
        updates = []
        for match in page[:run]:
            after = ratings.rate(match.winner_seat, seats[match.id])
            updates.extend({"b_id": seat.id, "mu": mu, "sigma": sigma}
                           for seat, (mu, sigma) in zip(seats[match.id], after))
        connection.execute(update(Seat).where(Seat.id == bindparam("b_id")), updates)
        connection.execute(update(Match).where(Match.night_id == night_id, Match.index >= start, Match.index < end)
                           .values(rated=True))
        start = end
        if run < len(page) or len(page) < PAGE:
            return start
