"""League nights on PostgreSQL, the shared database of a ladder run from several
machines: a throwaway server is started for these tests (the ``server`` fixture of
conftest.py, on Debian's ``postgresql`` package; skipped where it is not installed, and
failing in CI)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import psycopg  # in the test extra, like every test dependency: missing, it is an error, not a skip
from click.testing import CliRunner
from sqlalchemy import text
from sqlmodel import Session, select
from test_night import inline, ladder_file, ratings_of, seat_history  # the night tests' helpers
from test_schema import replays_as_stored

from kotarena.cli import cli
from kotarena.storage import open_db
from kotarena.storage.db import SCHEMA_VERSION
from kotarena.storage.models import Match, Night
from kotarena.storage.store import rerate
from kotarena.tournament.ladder import load_ladder
from kotarena.tournament.night import run_night

V1 = Path(__file__).parent.parent / "fixtures" / "schema_v1_postgresql.sql"
#: ``pg_dump --inserts`` of the schema-2 database of ``schema_v2.sql`` (see test_schema.py).
V2 = Path(__file__).parent.parent / "fixtures" / "schema_v2_postgresql.sql"


def test_a_night_on_postgresql_stores_and_rates_as_on_sqlite(tmp_path, server):
    ladder = load_ladder(ladder_file(tmp_path, games=9))
    on_sqlite = open_db(tmp_path / "a.db")
    run_night(on_sqlite, ladder, executor_factory=inline)
    on_postgres = open_db(server("night"))
    report = run_night(on_postgres, ladder, executor_factory=inline)
    assert report.finished and report.played == 9
    with Session(on_postgres) as session:
        seeds = [m.seed for m in session.exec(select(Match)).all()]
    assert max(seeds) >= 2**31  # 63-bit seeds: PostgreSQL's INTEGER would not hold them
    assert ratings_of(on_postgres) == ratings_of(on_sqlite)
    history = [(index, seat, entrant, round(mu, 9), round(sigma, 9))
               for _, index, seat, entrant, mu, sigma in seat_history(on_postgres)]
    assert rerate(on_postgres, "night") == 9
    assert [(index, seat, entrant, round(mu, 9), round(sigma, 9))
            for _, index, seat, entrant, mu, sigma in seat_history(on_postgres)] == history
    assert ratings_of(on_postgres) == ratings_of(on_sqlite)


def test_the_cli_reads_a_postgresql_database(tmp_path, server):
    url = server("cli")
    run_night(open_db(url), load_ladder(ladder_file(tmp_path, games=3)), executor_factory=inline)
    for command in (["leaderboard", "night"], ["history", "random-a"], ["matches"], ["replay", "--match", "1", "-q"],
                    ["export", "night"], ["site", "build", str(tmp_path / "site"), "--workers", "0", "-q"]):
        result = CliRunner().invoke(cli, [*command, "--db", url])
        assert result.exit_code == 0, (command, result.output)


def test_a_schema_1_postgresql_database_is_upgraded_and_takes_full_seeds(tmp_path, server):
    """kotarena's first schema declared seeds INTEGER, so no match could be stored on
    PostgreSQL: the upgrade makes them BIGINT (``schema_v1_postgresql.sql`` is
    ``pg_dump --inserts`` of such a database, its first night stopped at the first match)."""
    url = server("old")
    with psycopg.connect(host=url.split("host=")[1], user="postgres", dbname="old") as connection:
        connection.execute(V1.read_text())
    upgraded = []
    engine = open_db(url, on_upgrade=lambda old, new: upgraded.append((old, new)))
    assert upgraded == [(1, SCHEMA_VERSION)]
    with engine.connect() as db:
        types = dict(db.execute(text(
            "SELECT table_name || '.' || column_name, data_type FROM information_schema.columns"
            " WHERE column_name IN ('seed', 'mu') AND table_schema = 'public'")).all())
        tables = {name for (name,) in db.execute(text(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"))}
    assert types == {"night.seed": "bigint", "match.seed": "bigint", "seat.mu": "double precision",
                     "rating.mu": "double precision"}
    assert "rating_history" not in tables
    ladder = load_ladder(ladder_file(tmp_path, name="old", games=4))
    report = run_night(engine, ladder, executor_factory=inline, fresh=True)
    assert report.finished and report.night == 2 and report.played == 4
    with Session(engine) as session:
        assert session.exec(select(Night).where(Night.number == 1)).one().status == "running"
    assert set(ratings_of(engine, "old")) == {"random-a", "random-b"}


def test_a_schema_2_postgresql_database_is_upgraded_keeping_every_seat_with_its_facts(tmp_path, server):
    import json

    url = server("old2")
    with psycopg.connect(host=url.split("host=")[1], user="postgres", dbname="old2") as connection:
        connection.execute(V2.read_text())
    with psycopg.connect(host=url.split("host=")[1], user="postgres", dbname="old2") as connection:
        before = connection.execute("SELECT id, monster, stars, health, alive, rank, forfeit, mu FROM seat"
                                    " ORDER BY id").fetchall()
        ratings = connection.execute("SELECT entrant, mu, sigma, games, wins FROM rating ORDER BY entrant").fetchall()
    upgraded = []
    engine = open_db(url, on_upgrade=lambda old, new: upgraded.append((old, new)))
    assert upgraded == [(2, SCHEMA_VERSION)]
    with engine.connect() as db:
        after = db.execute(text("SELECT id, facts, rank, forfeit, mu FROM seat ORDER BY id")).all()
        columns = {name for (name,) in db.execute(text(
            "SELECT column_name FROM information_schema.columns WHERE table_name = 'seat'"))}
        assert db.execute(text("SELECT entrant, mu, sigma, games, wins FROM rating ORDER BY entrant")).all() == ratings
    assert not {"monster", "stars", "health", "alive"} & columns
    assert [(seat_id, facts if isinstance(facts, dict) else json.loads(facts), rank, forfeit, mu)
            for seat_id, facts, rank, forfeit, mu in after] == [
        (seat_id, {"monster": monster, "stars": stars, "health": health, "alive": alive}, rank, forfeit, mu)
        for seat_id, monster, stars, health, alive, rank, forfeit, mu in before]
    for match_id in (1, 6):
        result = CliRunner().invoke(cli, ["replay", "--match", str(match_id), "-q", "--db", url])
        with engine.connect() as db:
            stored = db.execute(text("SELECT replay FROM match WHERE id = :id"), {"id": match_id}).scalar_one()
        replays_as_stored(result, match_id, stored)
    assert rerate(engine, "old2") == 4
    with engine.connect() as db:
        assert db.execute(text("SELECT entrant, mu, sigma, games, wins FROM rating ORDER BY entrant")).all() == ratings


def test_two_processes_running_one_ladder_on_postgresql_store_and_rate_each_match_once(tmp_path, server, failbots):
    """For real: two ``league run`` processes started at once on one ladder and one new
    database. They make the tables together, play the same night, and every match is
    stored and rated once, with the ratings of a night run alone. (A bot that sleeps
    4 ms a decision makes the night last long enough for the two to overlap.)"""

    url = server("shared")
    path = ladder_file(tmp_path, games=12, second="sleepy", params="params = { ms = 4 }")
    runs = [subprocess.Popen([sys.executable, "-m", "kotarena", "league", "run", str(path), "--workers", "1", "-q",
                              "--db", url], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for _ in range(2)]
    for run in runs:
        _, err = run.communicate(timeout=120)
        assert run.returncode == 0, err
    assert {run.returncode for run in runs} == {0}
    engine = open_db(url)
    with Session(engine) as session:
        assert len(session.exec(select(Night)).all()) == 1
        assert len(session.exec(select(Match)).all()) == 12
        assert all(m.rated for m in session.exec(select(Match)).all())
    alone = open_db(tmp_path / "alone.db")
    run_night(alone, load_ladder(path), executor_factory=inline)
    assert ratings_of(engine) == ratings_of(alone)


def test_two_nights_adding_the_same_new_bot_version_at_once_both_go_on(server):
    """Nights of two ladders store at the same moment, each the first match of a bot
    version new to the database: the second insert waits for the first store's commit,
    fails on the unique version, and that store goes on with the first one's row."""
    import threading

    from kotarena.storage.store import bot_version_id

    engine = open_db(server("versions"))
    key = ("random", "kotarena", "0.0.0-race")
    first, second = engine.connect(), engine.connect()
    first.begin()
    first_id = bot_version_id(first, *key)  # added, not committed yet
    found: list[int] = []
    failed: list[BaseException] = []

    def other_night() -> None:
        try:
            second.begin()
            found.append(bot_version_id(second, *key))  # waits for the first to commit
            second.commit()
        except BaseException as error:  # noqa: BLE001 - reported below
            failed.append(error)

    thread = threading.Thread(target=other_night)
    thread.start()
    thread.join(timeout=1.0)
    assert thread.is_alive(), "the second insert should wait for the first transaction"
    first.commit()
    thread.join(timeout=30)
    assert failed == [] and found == [first_id]
    with engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM bot_version WHERE version = '0.0.0-race'")).scalar() == 1
    first.close()
    second.close()
