"""The night's frequent statements, run on the database driver (``storage.db.DriverSQL``)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import Column, DateTime, Integer, MetaData, String, Table, select
from sqlalchemy.dialects import postgresql, sqlite

from kotarena.storage import open_db
from kotarena.storage.db import DriverSQL, _driver_sql, insert_rows

STATEMENT = "SELECT {id} FROM {match} WHERE {night_id} = ? AND {index} BETWEEN ? AND ?"


def dialect(module, paramstyle: str):
    return module.dialect(paramstyle=paramstyle)


def test_identifiers_are_quoted_where_the_database_needs_it():
    # "match" and "index" are keywords in SQLite; PostgreSQL takes both as names.
    assert _driver_sql(STATEMENT, dialect(sqlite, "qmark")) == \
        'SELECT id FROM "match" WHERE night_id = ? AND "index" BETWEEN ? AND ?'
    assert _driver_sql(STATEMENT, dialect(postgresql, "pyformat")) == \
        "SELECT id FROM match WHERE night_id = %s AND index BETWEEN %s AND %s"


@pytest.mark.parametrize(("paramstyle", "markers"), [
    ("qmark", ("?", "?")), ("format", ("%s", "%s")), ("pyformat", ("%s", "%s")), ("numeric", (":1", ":2")),
    ("named", (":p1", ":p2")),
])
def test_parameters_are_written_in_the_drivers_style(paramstyle, markers):
    sql = _driver_sql("UPDATE {rating} SET {mu} = ? WHERE {entrant} = ?", dialect(sqlite, paramstyle))
    assert sql == f"UPDATE rating SET mu = {markers[0]} WHERE entrant = {markers[1]}"


def test_statements_read_and_write_in_the_callers_transaction(tmp_path):
    engine = open_db(tmp_path / "a.db")
    with engine.begin() as connection:
        driver = DriverSQL(connection)
        driver.run("INSERT INTO {ladder} ({name}, {game}, {created_at}) VALUES (?, ?, ?)",
                   ("quick", "kot", "2026-11-23 12:00:00.000000"))
        driver.run_many("UPDATE {ladder} SET {game} = ? WHERE {name} = ?", [("origins", "quick"), ("duel", "none")])
        assert driver.rows("SELECT {name}, {game} FROM {ladder}") == [("quick", "origins")]
    with engine.connect() as connection:  # committed with the transaction
        assert DriverSQL(connection).rows("SELECT {game} FROM {ladder} WHERE {name} = ?", ("quick",)) == [("origins",)]
    with pytest.raises(RuntimeError), engine.begin() as connection:
        DriverSQL(connection).run("UPDATE {ladder} SET {game} = ?", ("kot",))
        raise RuntimeError("rolled back")
    with engine.connect() as connection:
        assert DriverSQL(connection).rows("SELECT {game} FROM {ladder}") == [("origins",)]


def test_bulk_rows_keep_their_nulls_booleans_dates_and_order(tmp_path):
    engine = open_db(tmp_path / "a.db")
    table = Table("bulk", MetaData(), Column("id", Integer, primary_key=True), Column("name", String),
                  Column("note", String), Column("flag", sqlite.BOOLEAN), Column("at", DateTime),
                  Column("kind", String, server_default="plain"))
    table.create(engine)
    at = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
    keys = ("name", "note", "flag", "at", "kind")
    rows = [("a", None, True, at, "x"), ("b", None, False, at, None), ("c", "note", True, None, "y"),
            ("d", None, None, at, "z"), ("e", None, True, at, "w")]
    with engine.begin() as connection:
        insert_rows(connection, table, keys, rows)
    with engine.connect() as connection:
        stored = connection.execute(select(table).order_by(table.c.id)).all()
    # In order (ids follow the rows), NULL where None was given, even in a column whose
    # server default a statement leaving it out would have stored instead.
    assert [row.name for row in stored] == ["a", "b", "c", "d", "e"]
    assert [row.note for row in stored] == [None, None, "note", None, None]
    assert [row.flag for row in stored] == [True, False, True, None, True]
    assert [row.at for row in stored] == [at.replace(tzinfo=None)] * 2 + [None] + [at.replace(tzinfo=None)] * 2
    assert [row.kind for row in stored] == ["x", None, "y", "z", "w"]


def test_a_value_the_driver_cannot_take_as_it_is_is_bound_as_sqlalchemy_binds_it(tmp_path):
    from kotarena.storage.models import LadderRow

    engine = open_db(tmp_path / "a.db")
    at = datetime(2026, 11, 25, 17, 30, 5, 123456, tzinfo=UTC)
    with engine.begin() as connection:
        driver = DriverSQL(connection)
        driver.run("INSERT INTO {ladder} ({name}, {game}, {created_at}) VALUES (?, ?, ?)",
                   ("quick", "kot", driver.value(LadderRow.__table__.c.created_at, at)))
        assert driver.value(LadderRow.__table__.c.name, "quick") == "quick"  # a string goes as it is
    with engine.connect() as connection:
        assert connection.execute(select(LadderRow.__table__.c.created_at)).scalar_one() == at
