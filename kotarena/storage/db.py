"""Opening the results database: where it lives, its schema version, SQLite settings.

The database is any SQLAlchemy URL; the default is a SQLite file in the user's data
directory (``platformdirs``). ``--db`` or ``KOTARENA_DB`` point elsewhere, with a
plain file path or a URL such as ``postgresql://host/kotarena``.

Opening a database of the current schema reads its version row through SQLAlchemy
Core (:mod:`.tables`), so that the read-only commands never import SQLModel; making a
new database's tables imports the models (:mod:`.models`), which declare them.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import create_engine, event, inspect, select, update
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import (
    ArgumentError,
    IntegrityError,
    NoSuchModuleError,
    OperationalError,
    ProgrammingError,
    SQLAlchemyError,
)

from kotarena.storage.tables import META

#: Bump when the tables change, add the step from the version before to ``_STEPS``
#: and say what changed, for users, in ``SCHEMA_CHANGES``.
SCHEMA_VERSION = 5

#: What each schema version changed, in words for the person whose database is
#: upgraded (the CLI says it with the upgrade).
SCHEMA_CHANGES: dict[int, str] = {
    2: "each seat now keeps its entrant's rating right after the match (the rating_history table is gone, "
       "its ratings moved onto the seats); seeds are 64-bit integers on PostgreSQL",
    3: "a seat keeps its game's own facts (for King of Tokyo: monster, stars, health, alive) as JSON in "
       "seat.facts, beside its rank, bot and forfeit; the monster, stars, health and alive columns are gone",
    4: "a night records whether it is sealed (its seed drawn in secret, shown only once the night is done) and "
       "the SHA-256 commitment to its seed (night.sealed, night.commitment; the nights before are not sealed); "
       "a match whose winner had forfeited (its autopilot won) no longer names a winner",
    5: "a seat keeps each of its decisions' time (seat.times) and what its bot wrote during the game "
       "(seat.log, bounded); the seats before have neither",
}


def schema_changes(old: int, new: int) -> list[str]:
    """What the versions after ``old`` up to ``new`` changed, oldest first."""
    return [f"version {version}: {SCHEMA_CHANGES[version]}" for version in range(old + 1, new + 1)
            if version in SCHEMA_CHANGES]


class DatabaseError(RuntimeError):
    """The database cannot be opened or used as it is."""


class UnknownLadderError(LookupError):
    """No ladder of that name in the database."""

    def __init__(self, name: str) -> None:
        super().__init__(f"no ladder named {name!r} in the database")
        self.name = name


def default_db_path() -> Path:
    """The results database when neither ``--db`` nor ``KOTARENA_DB`` names one."""
    import platformdirs  # (only here: a command given --db need not import it)

    return platformdirs.user_data_path("kotarena") / "kotarena.db"


def resolve_url(db: str | os.PathLike | None = None) -> str:
    """A SQLAlchemy URL from ``db``, ``KOTARENA_DB`` or the default path."""
    value = str(db) if db is not None else os.environ.get("KOTARENA_DB") or str(default_db_path())
    if "://" in value:
        try:
            make_url(value)
        except ValueError as error:  # (a port that is not a number; ArgumentError is a ValueError too)
            problem = error if isinstance(error, ArgumentError) else "its port must be a number"
            raise DatabaseError(f"bad database URL {shown_url(value)!r}: {problem}") from None
        return value
    return f"sqlite:///{Path(value).expanduser()}"


def in_memory(url: str) -> bool:
    """Whether ``url`` is a SQLite database in memory (gone when the process ends)."""
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        return False
    return (parsed.get_backend_name() == "sqlite"
            and (parsed.database in (None, "", ":memory:") or parsed.query.get("mode") == "memory"))


def _sqlite_file(url: str) -> Path | None:
    """The file of a SQLite database URL (``None``: not a SQLite file)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or in_memory(url):
        return None
    database = parsed.database or ""
    return Path(database[len("file:"):] if database.startswith("file:") else database)


def _check_file(url: str, create: bool) -> None:
    """Refuse, in one line, a SQLite file that is not there (``create``: that cannot be
    made there); the default file's directory is made, as the user's data directory."""
    path = _sqlite_file(url)
    if path is None:
        if in_memory(url) and not create:
            raise DatabaseError("no results database in memory (:memory: holds nothing once a command ends); "
                                "give --db the file or URL a night was stored in")
        return
    if path.is_dir():
        raise DatabaseError(f"cannot open database {path}: it is a directory")
    if path.exists():
        return
    if not create:
        raise DatabaseError(f"no results database at {path} ('kotarena league run' makes it; check --db or "
                            "KOTARENA_DB)")
    if path == default_db_path():
        path.parent.mkdir(parents=True, exist_ok=True)
    elif not path.parent.is_dir():
        raise DatabaseError(f"cannot create database {path}: the directory {path.parent} does not exist")


def shown_url(url: str) -> str:
    """``url`` as messages show it: with its password, if it has one, as ``***``; a
    SQLite file as its path."""
    try:
        parsed = make_url(url)
        if parsed.get_backend_name() == "sqlite" and parsed.database and not in_memory(url) and not parsed.query:
            return parsed.database
        return parsed.render_as_string(hide_password=True)
    except (ArgumentError, ValueError):  # (not a URL SQLAlchemy reads: hide what looks like a password)
        return re.sub(r"(://[^:/@]*:)[^@/]*@", r"\1***@", url)


#: SQLite page size of a new results database.
PAGE_SIZE = 16384


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    cursor = dbapi_connection.cursor()
    # A new database gets 16 KB pages (an existing one keeps its own), chosen when a
    # match's row was mostly an unpacked replay of 2-3 KB; see "Throughput" in
    # docs/league.md. (It must come first: once in WAL mode, the page size is fixed.)
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
            on_upgrade: Callable[[int, int], None] | None = None, create: bool = True) -> Engine:
    """Open the results database and check its schema version; ``create``: make it if
    it is not there (a SQLite file only in a directory that exists, but for the default
    file), else a missing database is a :class:`DatabaseError`, and so are a server
    database without kotarena's tables and one in memory.

    A database of an older schema is upgraded in place, in one transaction;
    ``on_upgrade(old, new)`` is then called (the CLI says so on stderr).
    """
    url = resolve_url(db)
    _check_file(url, create)
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
            if not create:
                _check_results(engine, url)
            upgraded = _initialize(engine, url)
            if upgraded is not None and on_upgrade is not None:
                on_upgrade(upgraded, SCHEMA_VERSION)
            return engine
        except (OperationalError, ProgrammingError, IntegrityError) as error:
            if attempt == OPEN_ATTEMPTS - 1 or not _lost_a_race(error):
                raise DatabaseError(f"cannot open database {shown_url(url)}: {error_line(error)}") from None
            if "database is locked" in str(error):
                time.sleep(0.01 * (attempt + 1))
        except SQLAlchemyError as error:  # (not a database at all, a server that cannot be reached...)
            raise DatabaseError(f"cannot open database {shown_url(url)}: {error_line(error)}") from None
    return engine


def error_line(error: BaseException) -> str:
    """A database error in one line: the driver's own first line, without the SQL, its
    parameters and SQLAlchemy's link that ``str(error)`` adds."""
    original = getattr(error, "orig", None)
    text = str(original if original is not None else error).strip()
    return (text.splitlines() or ["(no message)"])[0].strip()


def _lost_a_race(error: Exception) -> bool:
    """Whether ``error``, met while creating or checking the tables, is another process
    doing the same at the same moment (see :func:`open_db`)."""
    text = str(error)
    return isinstance(error, IntegrityError) or "already exists" in text or "database is locked" in text


def _check_results(engine: Engine, url: str) -> None:
    """Refuse a database that kotarena never wrote (it is not made here)."""
    if not inspect(engine).has_table(META.name):
        raise DatabaseError(f"database {shown_url(url)} holds no kotarena results ('kotarena league run' stores "
                            "them; check --db or KOTARENA_DB)")


def _initialize(engine: Engine, url: str) -> int | None:
    """Create the tables of a new database, or check (and upgrade) an existing one's.

    Returns the version an older database was upgraded from, else ``None``.
    """
    found = _stored_version(engine)
    if found is None:
        _create_tables(engine)
        return None
    _check_version(found, url)
    if found == SCHEMA_VERSION:
        return None
    return found if _upgrade(engine, found, url) else None


def _stored_version(engine: Engine) -> int | None:
    """The schema version the database's ``kotarena_meta`` row holds (``None``: no such
    row or table yet)."""
    if not inspect(engine).has_table(META.name):
        return None
    with engine.connect() as connection:
        value = connection.execute(select(META.c.value).where(META.c.key == "schema_version")).scalar()
    return None if value is None else int(value)


def _create_tables(engine: Engine) -> None:
    """Make every table, as the models declare them, then the version row."""
    from sqlmodel import SQLModel

    from kotarena.storage.models import Meta  # (and, with it, every table SQLModel.metadata creates)

    SQLModel.metadata.create_all(engine)
    with engine.begin() as connection:
        connection.execute(Meta.__table__.insert().values(key="schema_version", value=str(SCHEMA_VERSION)))


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
            update(META).where(META.c.key == "schema_version", META.c.value == str(found))
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
    # 2 -> 3: results are game-neutral: what a game keeps about a seat beyond its rank,
    # bot and forfeit is JSON (every seat so far is King of Tokyo's). The default only
    # fills the new column for the rows already there. (SQLite drops columns from 3.35.)
    2: (
        "ALTER TABLE seat ADD COLUMN facts JSON NOT NULL DEFAULT '{}'",
        ("sqlite", "UPDATE seat SET facts = json_object('monster', monster, 'stars', stars, 'health', health,"
                   " 'alive', json(CASE WHEN alive THEN 'true' ELSE 'false' END))"),
        ("postgresql", "UPDATE seat SET facts = json_build_object('monster', monster, 'stars', stars,"
                       " 'health', health, 'alive', alive)"),
        ("postgresql", "ALTER TABLE seat ALTER COLUMN facts DROP DEFAULT"),
        "ALTER TABLE seat DROP COLUMN monster",
        "ALTER TABLE seat DROP COLUMN stars",
        "ALTER TABLE seat DROP COLUMN health",
        "ALTER TABLE seat DROP COLUMN alive",
    ),
    # 3 -> 4: sealed nights (docs/seeds.md). The nights before played seeds their ladder
    # fixed: not sealed, and no commitment was published for them. A forfeiting seat is
    # no match's winner, as the ratings already counted it.
    3: (
        "ALTER TABLE night ADD COLUMN sealed BOOLEAN NOT NULL DEFAULT FALSE",
        ("postgresql", "ALTER TABLE night ALTER COLUMN sealed DROP DEFAULT"),
        "ALTER TABLE night ADD COLUMN commitment VARCHAR",
        "UPDATE match SET winner_seat = NULL WHERE EXISTS (SELECT 1 FROM seat WHERE seat.match_id = match.id"
        " AND seat.seat = match.winner_seat AND seat.forfeit IS NOT NULL)",
    ),
    # 4 -> 5: each decision's time and the bot's lines of the game (the replay viewer's
    # decision panel); the seats played before kept neither.
    4: (
        "ALTER TABLE seat ADD COLUMN times VARCHAR",
        "ALTER TABLE seat ADD COLUMN log VARCHAR",
    ),
}


def schema_version(engine: Engine) -> int:
    """The database's schema version (0: it has none yet)."""
    return _stored_version(engine) or 0
