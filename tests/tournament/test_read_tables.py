"""The tables as the read-only commands name them (``kotarena/storage/tables.py``,
SQLAlchemy Core without SQLModel) are the models' tables: every column they name is one
the SQLModel models declare, of the same type, and reads the same values, on SQLite
and on PostgreSQL."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.types import TypeDecorator, TypeEngine
from sqlmodel import SQLModel
from test_night import inline, ladder_file

from kotarena.storage import open_db
from kotarena.storage.models import Meta  # noqa: F401 - with it, every model's table is SQLModel.metadata's
from kotarena.storage.tables import TABLES
from kotarena.tournament.ladder import load_ladder
from kotarena.tournament.night import run_night


def _kind(type_: TypeEngine) -> tuple[type, bool | None]:
    """What a column's type means for what is read: its class (SQLModel's ``AutoString``
    is a ``String``) and, for a date and time, whether it keeps a time zone."""
    if isinstance(type_, TypeDecorator):
        type_ = type_.impl_instance
    return type(type_), getattr(type_, "timezone", None)


def test_every_column_the_reads_name_is_a_models_column_of_the_same_type():
    declared = SQLModel.metadata.tables
    assert {clause.name for clause in TABLES} == set(declared)
    for clause in TABLES:
        for column in clause.c:
            assert column.name in declared[clause.name].c, f"{clause.name}.{column.name} is no model's column"
            assert _kind(column.type) == _kind(declared[clause.name].c[column.name].type), (
                f"{clause.name}.{column.name}: {column.type!r} here, {declared[clause.name].c[column.name].type!r} "
                "in the models")


def test_the_type_check_tells_a_64_bit_seed_from_an_integer_and_takes_sqlmodels_strings_as_strings():
    from sqlalchemy import BigInteger, DateTime, Integer, String
    from sqlmodel.sql.sqltypes import AutoString

    assert _kind(BigInteger()) != _kind(Integer())
    assert _kind(DateTime(timezone=True)) != _kind(DateTime())
    assert _kind(AutoString()) == _kind(String())


def _read_alike(engine) -> None:
    """Each clause's rows read through it are the rows read through the models' table:
    the same values of the same Python types (a datetime, a bool, a dict of facts)."""
    declared = SQLModel.metadata.tables
    with engine.connect() as connection:
        for clause in TABLES:
            names = [column.name for column in clause.c]
            light = sorted((tuple(row) for row in connection.execute(select(clause))), key=repr)
            full = sorted((tuple(row) for row in connection.execute(
                select(*(declared[clause.name].c[name] for name in names)))), key=repr)
            assert light, f"no {clause.name} rows to compare"
            assert light == full, clause.name
            assert [[type(value) for value in row] for row in light] == [
                [type(value) for value in row] for row in full], clause.name


def _stored_night(engine, tmp_path) -> None:
    report = run_night(engine, load_ladder(ladder_file(tmp_path, games=3)), executor_factory=inline)
    assert report.finished


def test_rows_read_through_the_clauses_are_the_models_rows_on_sqlite(tmp_path):
    engine = open_db(tmp_path / "night.db")
    _stored_night(engine, tmp_path)
    _read_alike(engine)


def test_rows_read_through_the_clauses_are_the_models_rows_on_postgresql(tmp_path, server):
    engine = open_db(server("tables"))
    _stored_night(engine, tmp_path)
    _read_alike(engine)
