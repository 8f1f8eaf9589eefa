"""What the site and ``kotarena export`` read about a whole ladder (a season): its
ladder and nights, every match with its seats, the bot versions that played,
head-to-head results and win shares by turn order.

Like :mod:`kotarena.storage.queries`, the database counts and groups; the matches are
read a page at a time (:func:`season_matches` is a generator), so memory does not grow
with the number of games stored. Seats and places are as stored (from 0): the callers
number them for people. The tables are named through SQLAlchemy Core
(:mod:`.tables`), as the listings name them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from sqlalchemy import and_, case, func, select
from sqlalchemy.engine import Engine

from kotarena.storage.db import UnknownLadderError
from kotarena.storage.queries import PAGE
from kotarena.storage.tables import BOT_VERSION, LADDER, MATCH, NIGHT, RATING, SEAT

__all__ = ["bot_versions", "crosstable", "current_ratings", "forfeits", "ladder", "match_blocks", "rating_history", "season_matches",
           "season_nights", "turn_order_wins"]


def ladder(engine: Engine, name: str) -> dict[str, Any]:
    """The ladder called ``name``: its id, name, game and when it was made."""
    with engine.connect() as connection:
        row = connection.execute(select(LADDER.c.id, LADDER.c.name, LADDER.c.game, LADDER.c.created_at)
                                 .where(LADDER.c.name == name)).first()
    if row is None:
        raise UnknownLadderError(name)
    return {"id": row.id, "name": row.name, "game": row.game, "created_at": row.created_at.isoformat()}


def season_nights(engine: Engine, ladder_id: int) -> list[dict[str, Any]]:
    """Each night of the ladder in order: number, seed (``None`` while a sealed night's
    seed is secret), whether sealed, its commitment, status, matches planned and
    stored, when it started and finished."""
    stored = func.count(MATCH.c.id)
    with engine.connect() as connection:
        rows = connection.execute(
            select(NIGHT.c.id, NIGHT.c.number, NIGHT.c.seed, NIGHT.c.sealed, NIGHT.c.commitment, NIGHT.c.status,
                   NIGHT.c.planned, NIGHT.c.started_at, NIGHT.c.finished_at, stored.label("stored"))
            .outerjoin(MATCH, MATCH.c.night_id == NIGHT.c.id).where(NIGHT.c.ladder_id == ladder_id)
            .group_by(NIGHT.c.id).order_by(NIGHT.c.number)).all()
    return [{"night": n.number, "seed": n.seed if n.status == "done" or not n.sealed else None,
             "sealed": bool(n.sealed), "commitment": n.commitment, "status": n.status, "planned": n.planned,
             "stored": n.stored, "started_at": n.started_at.isoformat(),
             "finished_at": n.finished_at.isoformat() if n.finished_at else None} for n in rows]


def season_matches(engine: Engine, ladder_id: int, *, replays: bool = True,
                   night: int | None = None) -> Iterator[dict[str, Any]]:
    """Every stored match of the ladder (of its night number ``night`` only, if given),
    night by night in schedule order, each with its seats in seat order (entrant, rank,
    forfeit and its detail, the game's facts, the bot's name, package and version, the
    entrant's rating after the match) and, with ``replays``, its replay as stored. Read a
    page of :data:`PAGE` matches at a time."""
    columns = [MATCH.c.id, MATCH.c.index, MATCH.c.key, MATCH.c.game, MATCH.c.seed, MATCH.c.first_player,
               MATCH.c.rules_version, MATCH.c.status, MATCH.c.termination, MATCH.c.winner_seat, MATCH.c.turns,
               MATCH.c.duration, MATCH.c.rated, MATCH.c.played_at, NIGHT.c.number.label("night")]
    if replays:
        columns.append(MATCH.c.replay)
    after = (0, -1)  # (night number, index) of the last match read: pages by keyset, not OFFSET
    chosen = [] if night is None else [NIGHT.c.number == night]
    with engine.connect() as connection:
        while True:
            found = connection.execute(
                select(*columns).join(NIGHT, MATCH.c.night_id == NIGHT.c.id)
                .where(NIGHT.c.ladder_id == ladder_id, *chosen,
                       (NIGHT.c.number > after[0]) | and_(NIGHT.c.number == after[0], MATCH.c.index > after[1]))
                .order_by(NIGHT.c.number, MATCH.c.index).limit(PAGE)).all()
            if not found:
                return
            seats: dict[int, list[dict[str, Any]]] = {}
            for seat in connection.execute(
                    select(SEAT.c.match_id, SEAT.c.seat, SEAT.c.entrant, SEAT.c.rank, SEAT.c.forfeit,
                           SEAT.c.forfeit_detail, SEAT.c.decisions, SEAT.c.cpu_seconds, SEAT.c.times, SEAT.c.log,
                           SEAT.c.facts, SEAT.c.mu, SEAT.c.sigma, BOT_VERSION.c.name.label("bot"),
                           BOT_VERSION.c.package, BOT_VERSION.c.version)
                    .join(BOT_VERSION, SEAT.c.bot_version_id == BOT_VERSION.c.id)
                    .where(SEAT.c.match_id.in_([row.id for row in found])).order_by(SEAT.c.match_id, SEAT.c.seat)):
                seats.setdefault(seat.match_id, []).append(dict(seat._mapping))
            for row in found:
                match = dict(row._mapping)
                match["played_at"] = row.played_at.isoformat()
                match["seats"] = seats.get(row.id, [])
                yield match
            after = (found[-1].night, found[-1].index)


def match_blocks(engine: Engine, ladder_id: int, size: int) -> list[dict[str, Any]]:
    """The ladder's stored matches in blocks of ``size`` places of a night's schedule
    (block ``b`` of a night holds its matches ``b * size`` to ``b * size + size - 1``),
    in order: night number, block, how many matches it holds and its ``signature``,
    which changes when a match is added to the block or the night is replaced by
    another (the night's id and start, and the sum and largest of its matches' ids).
    The site rebuilds a block's games for the viewer only when its signature changed.
    Counted by the database from the unique (night, index) key's index."""
    block = (MATCH.c.index // size).label("block")
    with engine.connect() as connection:
        rows = connection.execute(
            select(NIGHT.c.number, NIGHT.c.id, NIGHT.c.started_at, block, func.count(), func.sum(MATCH.c.id),
                   func.max(MATCH.c.id))
            .join(NIGHT, MATCH.c.night_id == NIGHT.c.id).where(NIGHT.c.ladder_id == ladder_id)
            .group_by(NIGHT.c.number, NIGHT.c.id, NIGHT.c.started_at, block).order_by(NIGHT.c.number, block)).all()
    return [{"night": number, "block": int(part), "matches": count,
             "signature": f"{night_id}/{started.isoformat()}/{count}/{total}/{largest}"}
            for number, night_id, started, part, count, total, largest in rows]


def forfeits(engine: Engine, ladder_id: int) -> list[dict[str, Any]]:
    """Every forfeited seat of the ladder, night by night in schedule order: entrant,
    match (its id), night, index, seat (from 0), forfeit (its kind), forfeit_detail."""
    with engine.connect() as connection:
        rows = connection.execute(
            select(SEAT.c.entrant, SEAT.c.match_id.label("match"), NIGHT.c.number.label("night"), MATCH.c.index,
                   SEAT.c.seat, SEAT.c.forfeit, SEAT.c.forfeit_detail)
            .join(MATCH, SEAT.c.match_id == MATCH.c.id).join(NIGHT, MATCH.c.night_id == NIGHT.c.id)
            .where(NIGHT.c.ladder_id == ladder_id, SEAT.c.forfeit.is_not(None))
            .order_by(NIGHT.c.number, MATCH.c.index, SEAT.c.seat)).all()
    return [dict(row._mapping) for row in rows]


def _nights(ladder_id: int, night: int | None) -> list:
    """The conditions that pick the ladder's matches (of night number ``night`` only)."""
    return [NIGHT.c.ladder_id == ladder_id] + ([] if night is None else [NIGHT.c.number == night])


def rating_history(engine: Engine, ladder_id: int, entrant: str,
                   pick: Callable[[int], Sequence[int]] | None = None) -> list[tuple[int, float, float]]:
    """An entrant's rating after each of its rated matches of the ladder, in the order
    they were rated: ``(number, mu, sigma)``, numbered from 1. ``pick(count)``, given how
    many there are, chooses the numbers wanted (default: all): the database numbers and
    picks them, so a chart of a long history reads only the points it draws."""
    # (An entrant in several seats of a match has one rating after it, in each of them.)
    rated = (select(NIGHT.c.number.label("night"), MATCH.c.index.label("index"), func.min(SEAT.c.mu).label("mu"),
                    func.min(SEAT.c.sigma).label("sigma"))
             .join(MATCH, SEAT.c.match_id == MATCH.c.id).join(NIGHT, MATCH.c.night_id == NIGHT.c.id)
             .where(NIGHT.c.ladder_id == ladder_id, SEAT.c.entrant == entrant, SEAT.c.mu.is_not(None))
             .group_by(SEAT.c.match_id, NIGHT.c.number, MATCH.c.index)).subquery()
    numbered = select(func.row_number().over(order_by=(rated.c.night, rated.c.index)).label("number"),
                      rated.c.mu, rated.c.sigma).subquery()
    query = select(numbered).order_by(numbered.c.number)
    with engine.connect() as connection:
        if pick is not None:
            count = connection.execute(select(func.count()).select_from(rated)).scalar_one()
            query = query.where(numbered.c.number.in_(list(pick(count))))
        return [(number, mu, sigma) for number, mu, sigma in connection.execute(query)]


def bot_versions(engine: Engine, ladder_id: int, *, night: int | None = None) -> list[dict[str, Any]]:
    """Which bot version each entrant played with, and in how many seats: entrant, bot,
    package, version, seats (one row per entrant and version); of night number ``night``
    only, if given."""
    with engine.connect() as connection:
        rows = connection.execute(
            select(SEAT.c.entrant, BOT_VERSION.c.name, BOT_VERSION.c.package, BOT_VERSION.c.version,
                   func.count().label("seats"))
            .join(BOT_VERSION, SEAT.c.bot_version_id == BOT_VERSION.c.id).join(MATCH, SEAT.c.match_id == MATCH.c.id)
            .join(NIGHT, MATCH.c.night_id == NIGHT.c.id).where(*_nights(ladder_id, night))
            .group_by(SEAT.c.entrant, BOT_VERSION.c.name, BOT_VERSION.c.package, BOT_VERSION.c.version)
            .order_by(SEAT.c.entrant, BOT_VERSION.c.version)).all()
    return [{"entrant": r.entrant, "bot": r.name, "package": r.package, "version": r.version, "seats": r.seats}
            for r in rows]


def crosstable(engine: Engine, ladder_id: int, *, night: int | None = None) -> dict[tuple[str, str], dict[str, int]]:
    """Head to head, for each ordered pair of entrants that met: ``(a, b) -> {"met",
    "above", "tied"}``, counted over the pairs of seats they held at the same table:
    how often they met, how often ``a`` finished above ``b`` (a better place), how
    often level (of night number ``night`` only, if given). (In a two-player ladder
    "above" is a win.)"""
    mine_table, theirs_table = SEAT.alias("mine"), SEAT.alias("theirs")
    mine, theirs = mine_table.c, theirs_table.c
    with engine.connect() as connection:
        rows = connection.execute(
            select(mine.entrant, theirs.entrant, func.count(),
                   func.sum(case((mine.rank < theirs.rank, 1), else_=0)),
                   func.sum(case((mine.rank == theirs.rank, 1), else_=0)))
            .select_from(mine_table)
            .join(theirs_table, and_(theirs.match_id == mine.match_id, theirs.entrant != mine.entrant))
            .join(MATCH, mine.match_id == MATCH.c.id).join(NIGHT, MATCH.c.night_id == NIGHT.c.id)
            .where(*_nights(ladder_id, night)).group_by(mine.entrant, theirs.entrant)).all()
    return {(a, b): {"met": met, "above": int(above), "tied": int(tied)} for a, b, met, above, tied in rows}


def turn_order_wins(engine: Engine, ladder_id: int, *, night: int | None = None) -> dict[str, Any]:
    """Wins by place in the turn order (0: the seat that played first), for the matches
    whose first player is stored (of night number ``night`` only, if given):
    ``{"positions": [{"position", "games", "wins"}], "unknown": matches left out}``. A seat that forfeited wins nothing. (A match whose
    first player was chosen by the roll-off has none stored: its order is in its replay.)"""
    players = (select(SEAT.c.match_id, func.count().label("n")).join(MATCH, SEAT.c.match_id == MATCH.c.id)
               .join(NIGHT, MATCH.c.night_id == NIGHT.c.id).where(*_nights(ladder_id, night))
               .group_by(SEAT.c.match_id).subquery())
    position = (SEAT.c.seat - MATCH.c.first_player + players.c.n) % players.c.n
    won = case((and_(MATCH.c.winner_seat == SEAT.c.seat, SEAT.c.forfeit.is_(None)), 1), else_=0)
    with engine.connect() as connection:
        rows = connection.execute(
            select(position.label("position"), func.count(), func.sum(won))
            .select_from(SEAT).join(MATCH, SEAT.c.match_id == MATCH.c.id).join(NIGHT, MATCH.c.night_id == NIGHT.c.id)
            .join(players, players.c.match_id == MATCH.c.id)
            .where(*_nights(ladder_id, night), MATCH.c.first_player.is_not(None))
            .group_by(position).order_by(position)).all()
        unknown = connection.execute(
            select(func.count()).select_from(MATCH).join(NIGHT, MATCH.c.night_id == NIGHT.c.id)
            .where(*_nights(ladder_id, night), MATCH.c.first_player.is_(None))).scalar_one()
    return {"positions": [{"position": p, "games": games, "wins": int(wins)} for p, games, wins in rows],
            "unknown": unknown}


def current_ratings(engine: Engine, ladder_id: int) -> dict[str, tuple[float, float]]:
    """Each rated entrant's current ``(mu, sigma)`` in the ladder, as stored (unrounded)."""
    with engine.connect() as connection:
        return {row.entrant: (row.mu, row.sigma) for row in connection.execute(
            select(RATING.c.entrant, RATING.c.mu, RATING.c.sigma).where(RATING.c.ladder_id == ladder_id))}
