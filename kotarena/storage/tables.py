"""The tables as the read-only commands name them: SQLAlchemy Core's lightweight
``table()``/``column()`` clauses, with only the columns those reads use.

The schema is declared once, by the SQLModel models (:mod:`kotarena.storage.models`):
they create the tables, and the writes go through them (the upgrades are SQL steps, in
:mod:`.db`). But importing them costs SQLModel, pydantic and SQLAlchemy's ORM: about
0.15 s of the 0.35 s of CPU ``kotarena matches`` took with them
(``benchmarks/startup-log.md``), against a budget of 0.3 s.
So the listings (:mod:`.queries`), the season reads of the site and export
(:mod:`.season`) and the schema-version check on opening (:mod:`.db`) name the tables
through these clauses instead, which import nothing past SQLAlchemy Core.

Why clauses and not a Core ``Table`` module the models are built from: SQLModel makes a
table model's columns from its fields, and refuses a model that has both fields and a
ready ``__table__`` ("Can't add additional column ... when specifying __table__", tried
with SQLModel 0.0.50); a model without fields would lose its validation and the fields
:class:`~kotarena.storage.models.MatchBase` and :class:`~kotarena.storage.models.SeatBase`
give their tables, so each column would be declared twice, in Core and as a field.
A clause holds only a name and a type, no keys or constraints to keep in step, and
``tests/tournament/test_read_tables.py`` checks that each one names a column of the
models' metadata with the same type, and that both read the same values (on SQLite and
PostgreSQL): the times, for one, come back aware and in UTC, as SQLModel's own type
returns them.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import JSON, BigInteger, Boolean, DateTime, Float, Integer, String, column, table
from sqlalchemy.sql.expression import TableClause
from sqlalchemy.types import TypeDecorator

__all__ = ["BOT_VERSION", "LADDER", "MATCH", "META", "NIGHT", "RATING", "SEAT", "TABLES"]


class UTCDateTime(TypeDecorator):
    """A time read as the models read it (SQLModel's type of the same name): aware, in
    UTC, also from a database that stores none (SQLite)."""

    impl = DateTime
    cache_ok = True

    def __init__(self) -> None:
        super().__init__(timezone=True)

    def process_result_value(self, value: datetime | None, dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.utcoffset() is None else value.astimezone(UTC)


def _table(table_name: str, /, **columns) -> TableClause:
    return table(table_name, *(column(key, type_) for key, type_ in columns.items()))


META = _table("kotarena_meta", key=String(), value=String())
BOT_VERSION = _table("bot_version", id=Integer(), name=String(), package=String(), version=String())
LADDER = _table("ladder", id=Integer(), name=String(), game=String(), created_at=UTCDateTime())
NIGHT = _table("night", id=Integer(), ladder_id=Integer(), number=Integer(), seed=BigInteger(), sealed=Boolean(),
               commitment=String(), status=String(), planned=Integer(), started_at=UTCDateTime(),
               finished_at=UTCDateTime())
MATCH = _table("match", id=Integer(), night_id=Integer(), index=Integer(), key=String(), game=String(),
               seed=BigInteger(), first_player=Integer(), rules_version=Integer(), status=String(),
               termination=String(), winner_seat=Integer(), turns=Integer(), duration=Float(), rated=Boolean(),
               played_at=UTCDateTime(), replay=String())
SEAT = _table("seat", match_id=Integer(), bot_version_id=Integer(), seat=Integer(), entrant=String(),
              rank=Integer(), forfeit=String(), forfeit_detail=String(), decisions=Integer(), cpu_seconds=Float(),
              facts=JSON(), times=String(), log=String(), mu=Float(), sigma=Float())
RATING = _table("rating", ladder_id=Integer(), entrant=String(), mu=Float(), sigma=Float(), games=Integer(),
                wins=Integer(), forfeits=Integer())

#: Every clause here (the test checks each against the models).
TABLES: tuple[TableClause, ...] = (META, BOT_VERSION, LADDER, NIGHT, MATCH, SEAT, RATING)
