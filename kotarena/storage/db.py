"""Opening the results database: where it lives, its schema version, SQLite settings.

The database is any SQLAlchemy URL; the default is a SQLite file in the user's data
directory (``platformdirs``). ``--db`` or ``KOTARENA_DB`` point elsewhere, with a
plain file path or a URL such as ``postgresql://host/kotarena``.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from pathlib import Path

import platformdirs
from sqlalchemy import Boolean, Float, event, update
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError, IntegrityError, NoSuchModuleError, OperationalError, ProgrammingError
from sqlmodel import Session, SQLModel, create_engine, select

from kotarena.storage import models
from kotarena.storage.sqlite_rows import driver_runs

#: Bump when the tables change, add the step from the version before to ``_STEPS``
#: and say what changed, for users, in ``SCHEMA_CHANGES``.
SCHEMA_VERSION = 2

#: What each schema version changed, in words for the person whose database is
#: upgraded (the CLI says it with the upgrade).
SCHEMA_CHANGES: dict[int, str] = {
    2: "each seat now keeps its entrant's rating right after the match (the rating_history table is gone, "
       "its ratings moved onto the seats); seeds are 64-bit integers on PostgreSQL",
}


def schema_changes(old: int, new: int) -> list[str]:
    """What the versions after ``old`` up to ``new`` changed, oldest first."""
    return [f"version {version}: {SCHEMA_CHANGES[version]}" for version in range(old + 1, new + 1)
            if version in SCHEMA_CHANGES]


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
        except (ArgumentError, ValueError) as error:  # (a port that is not a number is a ValueError)
            raise DatabaseError(f"bad database URL {shown_url(value)!r}: {error}") from None
        return value
    path = Path(value).expanduser()
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path}"


def shown_url(url: str) -> str:
    """``url`` as messages show it: with its password, if it has one, as ``***``."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except (ArgumentError, ValueError):  # (not a URL SQLAlchemy reads: hide what looks like a password)
        return re.sub(r"(://[^:/@]*:)[^@/]*@", r"\1***@", url)


#: SQLite page size of a new results database.
PAGE_SIZE = 16384


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    cursor = dbapi_connection.cursor()
    # A new database gets 16 KB pages (an existing one keeps its own): a match's row
    # was mostly its replay, 2-3 KB, so 4 KB pages held one each, a third of it empty.
    # Storing a night's results took a quarter less CPU, in a file a fifth smaller.
    # Since replays are packed (about 550 bytes) the two page sizes store a night
    # alike (coordinator 64.9 against 65.6 µs a game, 14 alternated pairs).
    # (It must come first: once in WAL mode, the page size is fixed.)
    cursor.execute(f"PRAGMA page_size={PAGE_SIZE}")
    # WAL lets readers work during a night; the busy timeout lets two writers queue
    # instead of failing; foreign keys are off by default in SQLite.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


#: Tries at opening a database that another process is creating or upgrading.
OPEN_ATTEMPTS = 10


def open_db(db: str | os.PathLike | None = None, *,
            on_upgrade: Callable[[int, int], None] | None = None) -> Engine:
    """Open (creating if needed) the results database and check its schema version.

    A database of an older schema is upgraded in place, in one transaction;
    ``on_upgrade(old, new)`` is then called (the CLI says so on stderr).
    """
    url = resolve_url(db)
    is_sqlite = url.startswith("sqlite")
    try:
        engine = create_engine(url, connect_args={"timeout": 30} if is_sqlite else {})
    except (NoSuchModuleError, ImportError) as error:
        # An unknown dialect ("postgres://", a typo) or a driver that is not installed.
        raise DatabaseError(f"cannot open database {shown_url(url)}: SQLAlchemy cannot connect to "
                            f"{make_url(url).drivername!r} databases here ({error})") from None
    if is_sqlite:
        event.listen(engine, "connect", _sqlite_pragmas)
    # Two processes may open a new database at once: whoever loses the race to
    # create a table or the version row just tries again and finds them made.
    # (SQLite says "already exists" with an OperationalError; PostgreSQL with a
    # ProgrammingError, or an IntegrityError when both create a table's type at once.)
    # SQLite may also say "database is locked" at once, busy timeout or not: when two
    # connections that have both read want to write, one is refused rather than wait
    # for the other forever. It has rolled back by then, so it just tries again.
    for attempt in range(OPEN_ATTEMPTS):
        try:
            upgraded = _initialize(engine, url)
            if upgraded is not None and on_upgrade is not None:
                on_upgrade(upgraded, SCHEMA_VERSION)
            return engine
        except (OperationalError, ProgrammingError, IntegrityError) as error:
            if attempt == OPEN_ATTEMPTS - 1 or not _lost_a_race(error):
                raise DatabaseError(f"cannot open database {shown_url(url)}: {error.orig}") from None
            if "database is locked" in str(error):
                time.sleep(0.01 * (attempt + 1))
    return engine


def _lost_a_race(error: Exception) -> bool:
    """Whether ``error``, met while creating or checking the tables, is another process
    doing the same at the same moment (see :func:`open_db`)."""
    text = str(error)
    return isinstance(error, IntegrityError) or "already exists" in text or "database is locked" in text


def _initialize(engine: Engine, url: str) -> int | None:
    """Create the tables of a new database, or check (and upgrade) an existing one's.

    Returns the version an older database was upgraded from, else ``None``.
    """
    SQLModel.metadata.create_all(engine, tables=[models.Meta.__table__])
    with Session(engine) as session:
        row = session.get(models.Meta, "schema_version")
        if row is None:
            SQLModel.metadata.create_all(engine)
            session.add(models.Meta(key="schema_version", value=str(SCHEMA_VERSION)))
            session.commit()
            return None
        found = int(row.value)
    _check_version(found, url)
    if found == SCHEMA_VERSION:
        return None
    return found if _upgrade(engine, found, url) else None


def _check_version(found: int, url: str) -> None:
    if found > SCHEMA_VERSION:
        raise DatabaseError(
            f"database {shown_url(url)} has schema version {found}, newer than this kotarena understands "
            f"({SCHEMA_VERSION}); upgrade kotarena (pip install -U kotarena) or use another --db"
        )
    if any(version not in _STEPS for version in range(found, SCHEMA_VERSION)):
        raise DatabaseError(
            f"database {shown_url(url)} has schema version {found}, older than this kotarena's ({SCHEMA_VERSION}), "
            "and no migration exists for it; keep the old kotarena for it or use another --db"
        )


def _upgrade(engine: Engine, found: int, url: str) -> bool:
    """Bring a database from schema ``found`` to ``SCHEMA_VERSION``, all steps in one
    transaction: an interrupted upgrade leaves the old database as it was.

    Returns whether this call upgraded it (not another process meanwhile).
    """
    with engine.begin() as connection:
        # The version row is claimed first (a write, so this transaction now holds the
        # write lock): of two processes opening the same old database, one upgrades
        # it and the other, finding the version moved on, has nothing left to do.
        claimed = connection.execute(
            update(models.Meta.__table__)
            .where(models.Meta.__table__.c.key == "schema_version", models.Meta.__table__.c.value == str(found))
            .values(value=str(SCHEMA_VERSION))
        ).rowcount
        if not claimed:
            return False
        for version in range(found, SCHEMA_VERSION):
            try:
                for statement in _STEPS[version]:
                    if isinstance(statement, tuple):  # (dialect, SQL): for that database only
                        dialect, statement = statement
                        if dialect != connection.dialect.name:
                            continue
                    connection.exec_driver_sql(statement)
            except (OperationalError, ProgrammingError) as error:
                raise DatabaseError(f"cannot upgrade database {shown_url(url)} from schema version {version}: "
                                    f"{error.orig}") from None
    return True


#: The statements that take a database from each version to the next: plain SQL that
#: SQLite and PostgreSQL both run, or ``(dialect name, SQL)`` for one of them only.
_STEPS: dict[int, tuple[str | tuple[str, str], ...]] = {
    # 1 -> 2: a seat keeps its entrant's rating after the match (the rating_history
    # table's rows, which cost a night as much to write as the seats); the indexes on
    # match.night_id and seat.match_id go, the unique (night_id, index) and
    # (match_id, seat) indexes serving the same lookups; seeds become 64-bit integers
    # where INTEGER is 32 bits (PostgreSQL; SQLite's INTEGER already holds them).
    1: (
        ("postgresql", "ALTER TABLE night ALTER COLUMN seed TYPE BIGINT"),
        ("postgresql", "ALTER TABLE match ALTER COLUMN seed TYPE BIGINT"),
        "ALTER TABLE seat ADD COLUMN mu FLOAT",
        "ALTER TABLE seat ADD COLUMN sigma FLOAT",
        "CREATE INDEX kotarena_upgrade_history ON rating_history (match_id, entrant)",
        "UPDATE seat SET"
        " mu = (SELECT h.mu FROM rating_history AS h WHERE h.match_id = seat.match_id AND h.entrant = seat.entrant),"
        " sigma = (SELECT h.sigma FROM rating_history AS h"
        " WHERE h.match_id = seat.match_id AND h.entrant = seat.entrant)",
        "DROP TABLE rating_history",
        "DROP INDEX IF EXISTS ix_match_night_id",
        "DROP INDEX IF EXISTS ix_seat_match_id",
    ),
}


def schema_version(engine: Engine) -> int:
    with Session(engine) as session:
        row = session.exec(select(models.Meta).where(models.Meta.key == "schema_version")).first()
        return int(row.value) if row else 0


class DriverSQL:
    """Plain SQL run on the database driver's own cursor, in the caller's transaction.

    A league night stores its results in small transactions of about ten statements
    each. Through SQLAlchemy each statement costs a fraction of a millisecond of
    Python (building it, its cache key, the execution context, the result), more than
    SQLite takes to run it: a one-match store took 2 ms. Here a statement is a string
    written once, in which ``{name}`` is an identifier (quoted as the database needs)
    and ``?`` a parameter (rewritten into the driver's parameter style); rows come back
    as the driver's tuples, untouched by SQLAlchemy's type processing, so statements
    read and write only plain numbers, strings and booleans (a boolean column reads
    back as 0 or 1 from SQLite).
    """

    __slots__ = ("_cursor", "_dialect", "_named")

    def __init__(self, connection: Connection) -> None:
        self._dialect = connection.dialect
        self._cursor = connection.connection.driver_connection.cursor()
        self._named = self._dialect.paramstyle == "named"

    def rows(self, template: str, parameters: tuple = ()) -> list[tuple]:
        """The rows of a query."""
        self.run(template, parameters)
        return self._cursor.fetchall()

    def run(self, template: str, parameters: tuple = ()) -> None:
        self._cursor.execute(self.sql(template), self._parameters(parameters))

    def run_many(self, template: str, rows: list[tuple]) -> None:
        """One statement for each of ``rows`` (the driver's ``executemany``)."""
        if rows:
            self._cursor.executemany(self.sql(template), [self._parameters(row) for row in rows] if self._named
                                     else rows)

    def value(self, column, value: object) -> object:
        """``value`` of ``column`` as SQLAlchemy binds it (a date, say, in the form
        SQLite stores it), for a statement to write where plain values will not do."""
        processor = column.type.dialect_impl(self._dialect).bind_processor(self._dialect)
        return processor(value) if processor is not None else value

    def sql(self, template: str) -> str:
        """``template`` as this database's driver takes it."""
        key = (template, self._dialect.name, self._dialect.paramstyle)
        found = _DRIVER_SQL.get(key)
        if found is None:
            found = _DRIVER_SQL[key] = _driver_sql(template, self._dialect)
        return found

    def _parameters(self, values: tuple) -> tuple | dict:
        return {f"p{number}": value for number, value in enumerate(values, 1)} if self._named else values


_DRIVER_SQL: dict[tuple[str, str, str], str] = {}
_MARKERS = {"qmark": "?", "format": "%s", "pyformat": "%s", "numeric": ":{}", "named": ":p{}"}


def _driver_sql(template: str, dialect) -> str:
    quote = dialect.identifier_preparer.quote

    class Quoted(dict):
        def __missing__(self, name: str) -> str:
            return quote(name)

    pieces = template.format_map(Quoted()).split("?")
    marker = _MARKERS[dialect.paramstyle]
    return pieces[0] + "".join(marker.format(number) + piece for number, piece in enumerate(pieces[1:], 1))


def insert_rows(connection: Connection, table, keys: tuple[str, ...], rows: list[tuple]) -> None:
    """Insert ``rows`` (tuples of the columns ``keys``, in that order) into ``table``, in
    order.

    On SQLite the rows go straight to the driver's ``executemany``, with SQLAlchemy's
    type processing applied only to the columns that need it (dates), booleans as 1 and
    0, and NULL columns left out of the statement (see
    :mod:`kotarena.storage.sqlite_rows`): a league night inserts several rows per
    match, and SQLAlchemy's per-row handling cost more than SQLite's work.
    Other databases get a plain SQLAlchemy insert.
    """
    if not rows:
        return
    dialect = connection.dialect
    if dialect.name != "sqlite":
        connection.execute(table.insert(), [dict(zip(keys, row)) for row in rows])
        return
    _, processors, omittable = _compiled_insert(table, keys, dialect)
    driver = connection.connection.driver_connection
    for nulls, run in driver_runs(rows, processors, omittable):
        columns = tuple(key for column, key in enumerate(keys) if column not in nulls) if nulls else keys
        driver.executemany(_compiled_insert(table, columns, dialect)[0], run)


_INSERTS: dict[tuple, tuple[str, tuple, tuple]] = {}
#: Column types whose values SQLite stores exactly as SQLAlchemy's bind processors
#: would make them: a float as a REAL, a bool as the INTEGER 1 or 0 (which
#: ``driver_runs`` binds; and the columns' REAL and NUMERIC affinities turn an int in a
#: float column into a REAL either way).
_STORED_AS_IS = (Float, Boolean)


def _compiled_insert(table, keys: tuple[str, ...], dialect) -> tuple[str, tuple, tuple]:
    """The SQL of an insert of ``keys`` with positional parameters; each column's bind
    processor (``None`` where the driver takes the value as it is); and whether a
    NULL in the column may be left out of the statement (it has no server default)."""
    found = _INSERTS.get((table.name, keys, dialect.name))
    if found is None:
        compiled = table.insert().compile(dialect=dialect, column_keys=list(keys))
        if list(compiled.positiontup or ()) != list(keys):
            raise RuntimeError(f"unexpected parameter order inserting into {table.name}: {compiled.positiontup}")
        processors = tuple(None if isinstance(table.c[key].type, _STORED_AS_IS) else
                           table.c[key].type.dialect_impl(dialect).bind_processor(dialect) for key in keys)
        omittable = tuple(table.c[key].server_default is None for key in keys)
        found = _INSERTS[(table.name, keys, dialect.name)] = (compiled.string, processors, omittable)
    return found
