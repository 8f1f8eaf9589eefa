"""The results database's schema version: old databases are upgraded, newer ones refused.

``tests/fixtures/schema_v1.sql`` is a real schema-1 database (``sqlite3 .dump``) as
kotarena wrote it before seats kept their ratings: one 4-match night of a 3-player
ladder of two entrants, so an entrant sits twice at every table.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlmodel import Session, select

from kotarena.cli import cli
from kotarena.storage import DatabaseError, open_db
from kotarena.storage.db import SCHEMA_VERSION, schema_version
from kotarena.storage.models import Rating, Seat
from kotarena.storage.store import rerate

V1 = Path(__file__).parent.parent / "fixtures" / "schema_v1.sql"


def v1_database(path: Path) -> Path:
    connection = sqlite3.connect(path)
    connection.executescript(V1.read_text())
    connection.close()
    return path


def rows(path: Path, sql: str) -> list[tuple]:
    connection = sqlite3.connect(path)
    try:
        return connection.execute(sql).fetchall()
    finally:
        connection.close()


def test_a_schema_1_database_is_upgraded_keeping_every_rating_after_every_match(tmp_path):
    db = v1_database(tmp_path / "old.db")
    history = rows(db, "select match_id, entrant, mu, sigma from rating_history order by match_id, entrant")
    current = rows(db, "select entrant, mu, sigma, games, wins from rating order by entrant")
    upgraded = []
    engine = open_db(db, on_upgrade=lambda old, new: upgraded.append((old, new)))
    assert upgraded == [(1, SCHEMA_VERSION)] and schema_version(engine) == SCHEMA_VERSION
    # Each seat now holds its entrant's rating after the match; both seats of an entrant alike.
    seats = rows(db, "select distinct match_id, entrant, mu, sigma from seat order by match_id, entrant")
    assert seats == history and len(history) == 8
    assert rows(db, "select entrant, mu, sigma, games, wins from rating order by entrant") == current
    tables = {name for (name,) in rows(db, "select name from sqlite_master where type = 'table'")}
    indexes = {name for (name,) in rows(db, "select name from sqlite_master where type = 'index'")}
    assert "rating_history" not in tables
    assert not {"ix_match_night_id", "ix_seat_match_id", "kotarena_upgrade_history"} & indexes
    # Opening it again finds it current.
    open_db(db, on_upgrade=lambda old, new: upgraded.append((old, new)))
    assert len(upgraded) == 1


def test_an_upgraded_database_rerates_to_the_ratings_it_had(tmp_path):
    db = v1_database(tmp_path / "old.db")
    before = rows(db, "select entrant, mu, sigma, games, wins from rating order by entrant")
    engine = open_db(db)
    with Session(engine) as session:
        seats_before = [(s.id, s.mu, s.sigma) for s in session.exec(select(Seat).order_by(Seat.id)).all()]
    assert rerate(engine, "old") == 4
    after = rows(db, "select entrant, mu, sigma, games, wins from rating order by entrant")
    assert [(e, round(m, 9), round(s, 9), g, w) for e, m, s, g, w in after] == \
        [(e, round(m, 9), round(s, 9), g, w) for e, m, s, g, w in before]
    with Session(engine) as session:
        seats_after = [(s.id, s.mu, s.sigma) for s in session.exec(select(Seat).order_by(Seat.id)).all()]
        assert len(session.exec(select(Rating)).all()) == 2
    assert [(i, round(m, 9), round(s, 9)) for i, m, s in seats_after] == \
        [(i, round(m, 9), round(s, 9)) for i, m, s in seats_before]


def test_the_cli_says_it_upgraded_and_history_reads_the_old_ratings(tmp_path):
    db = v1_database(tmp_path / "old.db")
    history = rows(db, "select match_id, mu from rating_history where entrant = 'random-a' order by match_id")
    result = CliRunner().invoke(cli, ["history", "random-a", "--json", "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert "upgraded the results database from schema version 1 to 2" in result.stderr
    assert "version 2: each seat now keeps its entrant's rating right after the match" in result.stderr
    shown = json.loads(result.stdout)
    # Rating order is schedule order; the fixture's matches were stored 1, 0, 3, 2.
    order = dict(rows(db, 'select id, "index" from match'))
    assert [row["match"] for row in shown] == sorted(order, key=order.get)
    assert sorted((row["match"], row["mu"]) for row in shown) == [(m, round(mu, 3)) for m, mu in history]


def test_the_replays_an_older_kotarena_stored_still_replay(tmp_path):
    # Its replays are format 1 (an "a SEAT ACTION" line per action); new ones are packed.
    db = v1_database(tmp_path / "old.db")
    stored = rows(db, "select id, replay from match order by id")
    assert all(replay.startswith("kotarena-replay 1\n") and "\na 0 " in replay for _, replay in stored)
    for match_id, _ in stored:
        result = CliRunner().invoke(cli, ["replay", "--match", str(match_id), "-q", "--db", str(db)])
        assert result.exit_code == 0, result.output
        assert f"match {match_id}: reproduced: yes" in result.stdout


def test_a_failed_upgrade_leaves_the_old_database_as_it_was(tmp_path, monkeypatch):
    from kotarena.storage import db as db_module

    db = v1_database(tmp_path / "old.db")
    before = rows(db, "select * from seat order by id")
    broken = (*db_module._STEPS[1][:-1], "DROP INDEX no_such_index")
    monkeypatch.setitem(db_module._STEPS, 1, broken)
    with pytest.raises(DatabaseError, match="cannot upgrade database .* from schema version 1"):
        open_db(db)
    assert rows(db, "select value from kotarena_meta where key = 'schema_version'") == [("1",)]
    assert rows(db, "select * from seat order by id") == before
    assert rows(db, "select count(*) from rating_history") == [(8,)]


def test_a_schema_without_an_upgrade_path_is_refused_clearly(tmp_path, monkeypatch):
    from kotarena.storage import db as db_module

    db = v1_database(tmp_path / "old.db")
    monkeypatch.delitem(db_module._STEPS, 1)
    with pytest.raises(DatabaseError, match="schema version 1, older than this kotarena's .* no migration"):
        open_db(db)


def test_every_schema_version_says_what_it_changed():
    from kotarena.storage.db import SCHEMA_CHANGES, SCHEMA_VERSION, schema_changes

    assert sorted(SCHEMA_CHANGES) == list(range(2, SCHEMA_VERSION + 1))
    assert len(schema_changes(1, SCHEMA_VERSION)) == SCHEMA_VERSION - 1
    assert schema_changes(SCHEMA_VERSION, SCHEMA_VERSION) == []


def test_a_new_database_has_large_pages_and_an_old_one_keeps_its_own(tmp_path):
    """New databases get 16 KB pages (see PAGE_SIZE); a database made before keeps its
    page size, and works as before."""
    from kotarena.storage.db import PAGE_SIZE

    open_db(tmp_path / "new.db").dispose()
    assert rows(tmp_path / "new.db", "PRAGMA page_size") == [(PAGE_SIZE,)] == [(16384,)]
    old = v1_database(tmp_path / "old.db")
    open_db(old).dispose()
    assert rows(old, "PRAGMA page_size") == [(4096,)]
    assert rows(old, "PRAGMA journal_mode") == [("wal",)]


def test_a_database_locked_while_another_process_creates_it_is_opened_on_a_later_try(tmp_path, monkeypatch):
    # SQLite refuses one of two connections that both read and then want to write at
    # once, busy timeout or not ("database is locked"); that one rolls back and tries again.
    from sqlalchemy.exc import OperationalError

    from kotarena.storage import db

    real, refused = db._initialize, []

    def initialize(engine, url):
        if len(refused) < 2:
            refused.append(url)
            raise OperationalError("CREATE TABLE ...", {}, sqlite3.OperationalError("database is locked"))
        return real(engine, url)

    monkeypatch.setattr(db, "_initialize", initialize)
    engine = open_db(tmp_path / "raced.db")
    assert len(refused) == 2
    assert schema_version(engine) == SCHEMA_VERSION


def test_a_database_that_stays_locked_or_fails_otherwise_gets_a_clear_error(tmp_path, monkeypatch):
    from sqlalchemy.exc import OperationalError

    from kotarena.storage import db

    calls = []

    def locked(engine, url):
        calls.append(url)
        raise OperationalError("CREATE TABLE ...", {}, sqlite3.OperationalError("database is locked"))

    monkeypatch.setattr(db, "_initialize", locked)
    monkeypatch.setattr(db.time, "sleep", lambda seconds: None)
    with pytest.raises(DatabaseError, match="cannot open database .*raced.db: database is locked"):
        open_db(tmp_path / "raced.db")
    assert len(calls) == db.OPEN_ATTEMPTS

    def broken(engine, url):
        calls.append(url)
        raise OperationalError("SELECT ...", {}, sqlite3.OperationalError("disk I/O error"))

    calls.clear()
    monkeypatch.setattr(db, "_initialize", broken)
    with pytest.raises(DatabaseError, match="disk I/O error"):
        open_db(tmp_path / "broken.db")
    assert len(calls) == 1  # not another process's doing: no second try
