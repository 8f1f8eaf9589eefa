"""Opening the results database: where it lives, its schema version, SQLite settings.

The database is any SQLAlchemy URL; the default is a SQLite file in the user's data
directory (``platformdirs``). ``--db`` or ``KOTARENA_DB`` point elsewhere, with a
plain file path or a URL such as ``postgresql://host/kotarena``.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs
from sqlalchemy import event
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import ArgumentError, IntegrityError, OperationalError
from sqlmodel import Session, SQLModel, create_engine, select

from kotarena.storage import models

#: Bump when the tables change, and teach ``_migrate`` how to get there.
SCHEMA_VERSION = 1


class DatabaseError(RuntimeError):
    """The database cannot be opened or used as it is."""


def default_db_path() -> Path:
    return platformdirs.user_data_path("kotarena") / "kotarena.db"


def resolve_url(db: str | os.PathLike | None = None) -> str:
    """A SQLAlchemy URL from ``db``, ``KOTARENA_DB`` or the default path."""
    value = str(db) if db is not None else os.environ.get("KOTARENA_DB") or str(default_db_path())
    if "://" in value:
        try:
            make_url(value)
        except ArgumentError as error:
            raise DatabaseError(f"bad database URL {value!r}: {error}") from None
        return value
    path = Path(value).expanduser()
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path}"


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    cursor = dbapi_connection.cursor()
    # WAL lets readers work during a night; the busy timeout lets two writers queue
    # instead of failing; foreign keys are off by default in SQLite.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def open_db(db: str | os.PathLike | None = None) -> Engine:
    """Open (creating if needed) the results database and check its schema version."""
    url = resolve_url(db)
    is_sqlite = url.startswith("sqlite")
    engine = create_engine(url, connect_args={"timeout": 30} if is_sqlite else {})
    if is_sqlite:
        event.listen(engine, "connect", _sqlite_pragmas)
    # Two processes may open a new database at once: whoever loses the race to
    # create a table or the version row just tries again and finds them made.
    for attempt in range(5):
        try:
            _initialize(engine, url)
            return engine
        except (OperationalError, IntegrityError) as error:
            if attempt == 4 or "already exists" not in str(error) and not isinstance(error, IntegrityError):
                raise DatabaseError(f"cannot open database {url}: {error.orig}") from None
    return engine


def _initialize(engine: Engine, url: str) -> None:
    SQLModel.metadata.create_all(engine, tables=[models.Meta.__table__])
    with Session(engine) as session:
        row = session.get(models.Meta, "schema_version")
        if row is None:
            SQLModel.metadata.create_all(engine)
            session.add(models.Meta(key="schema_version", value=str(SCHEMA_VERSION)))
            session.commit()
        else:
            _check_version(int(row.value), url)


def _check_version(found: int, url: str) -> None:
    if found > SCHEMA_VERSION:
        raise DatabaseError(
            f"database {url} has schema version {found}, newer than this kotarena understands "
            f"({SCHEMA_VERSION}); upgrade kotarena (pip install -U kotarena) or use another --db"
        )
    if found < SCHEMA_VERSION:
        raise DatabaseError(
            f"database {url} has schema version {found}, older than this kotarena's ({SCHEMA_VERSION}), "
            "and no migration exists for it; keep the old kotarena for it or use another --db"
        )


def schema_version(engine: Engine) -> int:
    with Session(engine) as session:
        row = session.exec(select(models.Meta).where(models.Meta.key == "schema_version")).first()
        return int(row.value) if row else 0


def insert_rows(session: Session, table, keys: tuple[str, ...], rows: list[tuple]) -> None:
    """Insert ``rows`` (tuples of the columns ``keys``, in that order) into ``table`` in
    one executemany.

    On SQLite the rows go straight to the driver, with SQLAlchemy's type processing
    applied only to the columns that need it (dates): a league night inserts several
    rows per match, and SQLAlchemy's per-row handling cost more than SQLite's work.
    A date shared by consecutive rows (a batch's timestamp) is converted once.
    Other databases get a plain SQLAlchemy insert.
    """
    if not rows:
        return
    connection = session.connection()
    dialect = connection.dialect
    if dialect.name != "sqlite":
        session.execute(table.insert(), [dict(zip(keys, row)) for row in rows])
        return
    sql, processors = _compiled_insert(table, keys, dialect)
    if processors:
        rows = [list(row) for row in rows]
        for column, process in enumerate(processors):
            if process is None:
                continue
            last = done = None
            for row in rows:
                value = row[column]
                if value is not None:
                    if value is not last:
                        last, done = value, process(value)
                    row[column] = done
        rows = [tuple(row) for row in rows]  # the driver call takes tuples
    connection.exec_driver_sql(sql, rows)


_INSERTS: dict[tuple, tuple[str, tuple | None]] = {}


def _compiled_insert(table, keys: tuple[str, ...], dialect) -> tuple[str, tuple | None]:
    """The SQL of an insert of ``keys`` with positional parameters, and each column's
    bind processor (``None`` when no column has one)."""
    found = _INSERTS.get((table.name, keys, dialect.name))
    if found is None:
        compiled = table.insert().compile(dialect=dialect, column_keys=list(keys))
        if list(compiled.positiontup or ()) != list(keys):
            raise RuntimeError(f"unexpected parameter order inserting into {table.name}: {compiled.positiontup}")
        processors = tuple(table.c[key].type.dialect_impl(dialect).bind_processor(dialect) for key in keys)
        found = _INSERTS[(table.name, keys, dialect.name)] = (
            compiled.string, processors if any(p is not None for p in processors) else None)
    return found
