"""What the league commands list: leaderboards, stored matches, rating histories, nights.

Each query leaves filtering, sorting and counting to the database and returns plain
rows (dicts with the keys the commands print). Those that can be long are read a page
at a time (:data:`PAGE` rows): :func:`history` is a generator, and :func:`matches`
reads at most ``limit`` matches, so what a command holds in memory does not grow with
the number of games stored.

They name the tables through SQLAlchemy Core (:mod:`.tables`), not the SQLModel
models, so a listing imports neither SQLModel nor pydantic nor SQLAlchemy's ORM.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from sqlalchemy import exists, func, select
from sqlalchemy.engine import Engine

from kotarena.storage.db import UnknownLadderError
from kotarena.storage.tables import LADDER, MATCH, NIGHT, RATING, SEAT

__all__ = ["PAGE", "history", "ladder_names", "leaderboard", "match_forfeits", "match_replay", "matches", "nights"]

#: Rows read from the database at a time by the queries that can return many.
PAGE = 1000


def ladder_names(engine: Engine) -> list[str]:
    """Every stored ladder's name, in alphabetical order."""
    with engine.connect() as connection:
        return list(connection.scalars(select(LADDER.c.name).order_by(LADDER.c.name)))


def _ladder_id(connection, name: str) -> int:
    found = connection.execute(select(LADDER.c.id).where(LADDER.c.name == name)).scalar()
    if found is None:
        raise UnknownLadderError(name)
    return found


def leaderboard(engine: Engine, ladder_name: str) -> list[dict[str, Any]]:
    """A ladder's ratings, best conservative estimate (``mu - 3 sigma``) first, each
    with its place (``rank``), games, wins, win share and forfeits, the 95% interval
    of its skill (``low``, ``high``: ``mu -/+ 1.96 sigma``), and ``ahead_of_next``:
    whether the data separate it from the entrant ranked just below (``None`` for the
    last; see :func:`clearly_ahead`)."""
    with engine.connect() as connection:
        ladder_id = _ladder_id(connection, ladder_name)
        ratings = connection.execute(select(RATING).where(RATING.c.ladder_id == ladder_id)).all()
    rows = [
        {"entrant": r.entrant, "score": round(r.mu - 3 * r.sigma, 3), "mu": round(r.mu, 3),
         "sigma": round(r.sigma, 3), "games": r.games, "wins": r.wins,
         "win_share": round(r.wins / r.games, 3) if r.games else 0.0, "forfeits": r.forfeits}
        for r in ratings  # (a ladder has a few dozen entrants at most)
    ]
    rows.sort(key=lambda r: (-r["score"], r["entrant"]))
    for place, row in enumerate(rows, 1):
        row["rank"] = place
        row["low"], row["high"] = round(row["mu"] - Z95 * row["sigma"], 3), round(row["mu"] + Z95 * row["sigma"], 3)
    for above, below in zip(rows, rows[1:]):
        above["ahead_of_next"] = clearly_ahead(above["mu"], above["sigma"], below["mu"], below["sigma"])
    if rows:
        rows[-1]["ahead_of_next"] = None
    return rows


#: Standard deviations either side of mu for a 95% interval.
Z95 = 1.96


def clearly_ahead(mu: float, sigma: float, next_mu: float, next_sigma: float) -> bool:
    """Whether a rating is ahead of the next one by more than the data's uncertainty: the
    difference of the two skills (independent normals) is above 0 with 95% confidence,
    ``mu - next_mu > 1.645 * sqrt(sigma^2 + next_sigma^2)`` (one-sided)."""
    return mu - next_mu > 1.645 * math.sqrt(sigma * sigma + next_sigma * next_sigma)


def matches(engine: Engine, *, ladder: str | None = None, entrant: str | None = None, night: int | None = None,
            limit: int = 50) -> list[dict[str, Any]]:
    """The newest ``limit`` stored matches (of a ladder, of a night number, with an
    entrant at the table), newest first, each with its seats (the game's facts about a
    seat among its keys). Seats and ranks (places) count from 1, as every command shows
    them; the tables keep them from 0."""
    query = (select(MATCH.c.id, MATCH.c.index, MATCH.c.seed, MATCH.c.status, MATCH.c.termination, MATCH.c.winner_seat,
                    MATCH.c.turns, MATCH.c.duration, NIGHT.c.number, LADDER.c.name)
             .join(NIGHT, MATCH.c.night_id == NIGHT.c.id).join(LADDER, NIGHT.c.ladder_id == LADDER.c.id))
    if ladder is not None:
        query = query.where(LADDER.c.name == ladder)
    if night is not None:
        query = query.where(NIGHT.c.number == night)
    if entrant is not None:
        query = query.where(exists().where(SEAT.c.match_id == MATCH.c.id, SEAT.c.entrant == entrant))
    with engine.connect() as connection:
        found = connection.execute(query.order_by(MATCH.c.id.desc()).limit(limit)).all()
        seats: dict[int, list[Any]] = {}
        for start in range(0, len(found), PAGE):
            for seat in connection.execute(
                    select(SEAT.c.match_id, SEAT.c.seat, SEAT.c.entrant, SEAT.c.rank, SEAT.c.facts, SEAT.c.forfeit,
                           SEAT.c.forfeit_detail)
                    .where(SEAT.c.match_id.in_([row.id for row in found[start:start + PAGE]]))
                    .order_by(SEAT.c.match_id, SEAT.c.seat)):
                seats.setdefault(seat.match_id, []).append(seat)
    return [{
        "id": row.id, "ladder": row.name, "night": row.number, "index": row.index, "seed": row.seed,
        "status": row.status, "termination": row.termination,
        # (A seat that forfeited won nothing; before schema 4 its autopilot's win was stored as a win.)
        "winner": next((s.entrant for s in seats.get(row.id, []) if s.seat == row.winner_seat and not s.forfeit),
                       None),
        "turns": row.turns, "duration": round(row.duration, 3),
        "seats": [{"seat": s.seat + 1, "entrant": s.entrant, "rank": s.rank + 1, **s.facts, "forfeit": s.forfeit,
                   "forfeit_detail": s.forfeit_detail}
                  for s in seats.get(row.id, [])],
    } for row in found]


def match_replay(engine: Engine, match_id: int) -> str | None:
    """The replay of stored match ``match_id``, as stored (``None``: no such match)."""
    with engine.connect() as connection:
        return connection.execute(select(MATCH.c.replay).where(MATCH.c.id == match_id)).scalar()


def match_forfeits(engine: Engine, match_id: int) -> list[dict[str, Any]]:
    """The seats of stored match ``match_id`` that forfeited, in seat order: seat (from
    1, as shown), entrant, forfeit (its kind) and forfeit_detail (what happened, a
    traceback's last frames for an error)."""
    with engine.connect() as connection:
        found = connection.execute(
            select(SEAT.c.seat, SEAT.c.entrant, SEAT.c.forfeit, SEAT.c.forfeit_detail)
            .where(SEAT.c.match_id == match_id, SEAT.c.forfeit.is_not(None)).order_by(SEAT.c.seat)).all()
    return [{**row._mapping, "seat": row.seat + 1} for row in found]


def history(engine: Engine, entrant: str, *, ladder: str | None = None, newest_first: bool = False,
            limit: int | None = None) -> Iterator[dict[str, Any]]:
    """An entrant's rating after each of its rated matches, ladder by ladder, in the
    order they were rated (``newest_first``: the other way), at most ``limit`` a ladder;
    read from the database a page at a time as it is consumed, and no further than the
    limit."""
    with engine.connect() as connection:
        names = [ladder] if ladder is not None else list(connection.scalars(
            select(LADDER.c.name).order_by(LADDER.c.name)))
    for name in names:
        query = (select(SEAT.c.match_id, SEAT.c.mu, SEAT.c.sigma, SEAT.c.forfeit, SEAT.c.forfeit_detail)
                 .join(MATCH, SEAT.c.match_id == MATCH.c.id).join(NIGHT, MATCH.c.night_id == NIGHT.c.id)
                 .join(LADDER, NIGHT.c.ladder_id == LADDER.c.id)
                 .where(LADDER.c.name == name, SEAT.c.entrant == entrant, SEAT.c.mu.is_not(None)))
        if newest_first:
            query = query.order_by(NIGHT.c.number.desc(), MATCH.c.index.desc(), SEAT.c.seat)
        else:
            query = query.order_by(NIGHT.c.number, MATCH.c.index, SEAT.c.seat)
        with engine.connect() as connection:
            last, count = None, 0
            rows = connection.execution_options(yield_per=min(PAGE, limit or PAGE)).execute(query)
            for match_id, mu, sigma, forfeit, detail in rows:
                if match_id == last:
                    continue  # an entrant in several seats of a match has one rating after it (and
                    # its first seat's forfeit, if any, stands for the match's)
                if count == limit:
                    break
                last, count = match_id, count + 1
                yield {"ladder": name, "match": match_id, "mu": round(mu, 3), "sigma": round(sigma, 3),
                       "score": round(mu - 3 * sigma, 3), "forfeit": forfeit, "forfeit_detail": detail}


def nights(engine: Engine, ladder_name: str) -> list[dict[str, Any]]:
    """Each night of a ladder: its number, status, whether it is ``sealed``, its seed,
    the ``commitment`` to it (SHA-256), matches planned, stored (``done``) and left, and
    forfeited seats; counted by the database.

    A sealed night's seed is ``None`` until the night is done: it is the night's secret
    (``docs/seeds.md``); then it is published, to be checked against the commitment.
    """
    with engine.connect() as connection:
        ladder_id = _ladder_id(connection, ladder_name)
        done = dict(connection.execute(
            select(MATCH.c.night_id, func.count()).join(NIGHT, MATCH.c.night_id == NIGHT.c.id)
            .where(NIGHT.c.ladder_id == ladder_id).group_by(MATCH.c.night_id)).all())
        forfeits = dict(connection.execute(
            select(MATCH.c.night_id, func.count()).select_from(SEAT).join(MATCH, SEAT.c.match_id == MATCH.c.id)
            .join(NIGHT, MATCH.c.night_id == NIGHT.c.id)
            .where(NIGHT.c.ladder_id == ladder_id, SEAT.c.forfeit.is_not(None)).group_by(MATCH.c.night_id)).all())
        rows = connection.execute(select(NIGHT.c.id, NIGHT.c.number, NIGHT.c.status, NIGHT.c.seed, NIGHT.c.sealed,
                                         NIGHT.c.commitment, NIGHT.c.planned)
                                  .where(NIGHT.c.ladder_id == ladder_id).order_by(NIGHT.c.number)).all()
    return [{"night": n.number, "status": n.status, "sealed": bool(n.sealed),
             "seed": n.seed if n.status == "done" or not n.sealed else None, "commitment": n.commitment,
             "planned": n.planned,
             "done": done.get(n.id, 0), "left": max(n.planned - done.get(n.id, 0), 0),
             "forfeits": forfeits.get(n.id, 0)} for n in rows]
