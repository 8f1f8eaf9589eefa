"""The results database's schema version: old databases are upgraded, newer ones refused.

``tests/fixtures/schema_v1.sql`` is a real schema-1 database (``sqlite3 .dump``) as
kotarena wrote it before seats kept their ratings: one 4-match night of a 3-player
ladder of two entrants, so an entrant sits twice at every table.
``tests/fixtures/schema_v2.sql`` is a real schema-2 database, from before seats kept
their game's facts as JSON: ladder ``old2`` (``OLD2_LADDER`` below) of ``random``,
``heuristic`` and ``fail-raise`` (which forfeits every game), one finished 4-match
night and a second night stopped with matches 1 and 3 stored, waiting for match 0.
"""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlmodel import Session, select

from kotarena.cli import cli
from kotarena.games import get_spec
from kotarena.storage import DatabaseError, open_db
from kotarena.storage.db import SCHEMA_VERSION, schema_version
from kotarena.storage.models import Rating, Seat
from kotarena.storage.store import rerate

V1 = Path(__file__).parent.parent / "fixtures" / "schema_v1.sql"
V2 = Path(__file__).parent.parent / "fixtures" / "schema_v2.sql"

OLD2_LADDER = """
name = "old2"
players = 3
games = 4
seed = 11
time_limit = 1.0

[[bots]]
name = "random"
label = "random-a"

[[bots]]
name = "heuristic"
label = "heuristic"
trusted = true

[[bots]]
name = "fail-raise"
label = "fail-raise"
params = { fail_on = 3 }
trusted = true
"""


#: The columns of schema 2's tables besides the seats (schema 4 added to the night's).
V2_COLUMNS = {
    "match": "*", "ladder": "*", "rating": "*", "bot_version": "*",
    "night": "id, ladder_id, number, seed, fingerprint, config, planned, status, started_at, finished_at",
}


def database(path: Path, dump: Path) -> Path:
    connection = sqlite3.connect(path)
    connection.executescript(dump.read_text())
    connection.close()
    return path


def v1_database(path: Path) -> Path:
    return database(path, V1)


def replays_as_stored(result, match_id: int, stored: str) -> None:
    """``kotarena replay --match`` of a stored match reproduces it. One played by older
    rules (the replay's ``rules-version``) is checked line by line all the same: these
    games met none of the rules changed since, so they reproduce too (one that did would
    be refused with a one-line error naming both versions: test_replay.py)."""
    played_by = int(re.search(r"^rules-version (\d+)$", stored, re.MULTILINE).group(1))
    assert played_by <= get_spec("kot").rules_version
    assert result.exit_code == 0, result.output
    assert f"match {match_id}: reproduced: yes" in result.stdout


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
    result = CliRunner().invoke(cli, ["history", "random-a", "--oldest-first", "--json", "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert f"upgraded the results database from schema version 1 to {SCHEMA_VERSION}" in result.stderr
    assert "version 2: each seat now keeps its entrant's rating right after the match" in result.stderr
    assert "version 3: a seat keeps its game's own facts" in result.stderr
    shown = json.loads(result.stdout)
    # Rating order is schedule order; the fixture's matches were stored 1, 0, 3, 2.
    order = dict(rows(db, 'select id, "index" from match'))
    assert [row["match"] for row in shown] == sorted(order, key=order.get)
    assert sorted((row["match"], row["mu"]) for row in shown) == [(m, round(mu, 3)) for m, mu in history]


def test_the_replays_an_older_kotarena_stored_still_replay_or_are_refused_for_their_rules(tmp_path):
    # Its replays are format 1 (an "a SEAT ACTION" line per action); new ones are packed.
    # They were played by rules version 4, and still reproduce under today's rules.
    db = v1_database(tmp_path / "old.db")
    stored = rows(db, "select id, replay from match order by id")
    assert all(replay.startswith("kotarena-replay 1\n") and "\na 0 " in replay for _, replay in stored)
    for match_id, replay in stored:
        result = CliRunner().invoke(cli, ["replay", "--match", str(match_id), "-q", "--db", str(db)])
        replays_as_stored(result, match_id, replay)


def test_a_schema_1_databases_seats_keep_their_monster_stars_health_and_alive_as_facts(tmp_path):
    db = v1_database(tmp_path / "old.db")
    before = rows(db, "select id, monster, stars, health, alive from seat order by id")
    open_db(db).dispose()
    facts = [(seat_id, json.loads(text)) for seat_id, text in rows(db, "select id, facts from seat order by id")]
    assert facts == [(seat_id, {"monster": monster, "stars": stars, "health": health, "alive": bool(alive)})
                     for seat_id, monster, stars, health, alive in before]


def test_a_schema_2_database_is_upgraded_keeping_every_row_with_each_seats_facts_as_json(tmp_path):
    db = database(tmp_path / "old.db", V2)
    seats = rows(db, "select id, match_id, seat, entrant, bot_version_id, rank, forfeit, forfeit_detail, decisions,"
                     " cpu_seconds, mu, sigma from seat order by id")
    facts = rows(db, "select monster, stars, health, alive from seat order by id")
    others = {table: rows(db, f"select {columns} from {table} order by id")
              for table, columns in V2_COLUMNS.items()}
    upgraded = []
    open_db(db, on_upgrade=lambda old, new: upgraded.append((old, new))).dispose()
    assert upgraded == [(2, SCHEMA_VERSION)]
    assert rows(db, "select id, match_id, seat, entrant, bot_version_id, rank, forfeit, forfeit_detail, decisions,"
                    " cpu_seconds, mu, sigma from seat order by id") == seats
    assert [json.loads(text) for (text,) in rows(db, "select facts from seat order by id")] == [
        {"monster": monster, "stars": stars, "health": health, "alive": bool(alive)}
        for monster, stars, health, alive in facts]
    columns = {name for _, name, *_ in rows(db, "PRAGMA table_info(seat)")}
    assert "facts" in columns and not {"monster", "stars", "health", "alive"} & columns
    assert {table: rows(db, f"select {columns} from {table} order by id")
            for table, columns in V2_COLUMNS.items()} == others
    assert rows(db, "select sealed, commitment from night") == [(0, None), (0, None)]  # (schema 4)
    assert len(seats) == 18 and sum(1 for seat in seats if seat[6] == "error") == 6


def test_an_upgraded_schema_2_database_shows_the_same_leaderboard_and_replays_its_matches(tmp_path):
    db = database(tmp_path / "old.db", V2)
    ratings = rows(db, "select entrant, mu, sigma, games, wins, forfeits from rating order by entrant")
    shown = CliRunner().invoke(cli, ["leaderboard", "old2", "--json", "--db", str(db)])
    assert shown.exit_code == 0, shown.output
    assert sorted((row["entrant"], row["mu"], row["sigma"], row["games"], row["wins"], row["forfeits"])
                  for row in json.loads(shown.stdout)["old2"]) == [
        (entrant, round(mu, 3), round(sigma, 3), games, wins, forfeits)
        for entrant, mu, sigma, games, wins, forfeits in ratings]
    for match_id, replay in rows(db, "select id, replay from match order by id"):
        result = CliRunner().invoke(cli, ["replay", "--match", str(match_id), "-q", "--db", str(db)])
        replays_as_stored(result, match_id, replay)
    listed = json.loads(CliRunner().invoke(cli, ["matches", "--json", "--limit", "1", "--db", str(db)]).stdout)
    assert set(listed[0]["seats"][0]) == {"seat", "entrant", "rank", "monster", "stars", "health", "alive", "forfeit",
                                         "forfeit_detail"}
    # Shown seats and places count from 1, as every command's; the table keeps them from 0.
    stored = rows(db, f"select seat, entrant, rank from seat where match_id = {listed[0]['match']} order by seat")
    assert [(s["seat"], s["entrant"], s["rank"]) for s in listed[0]["seats"]] == [
        (seat + 1, entrant, rank + 1) for seat, entrant, rank in stored]


def test_an_upgraded_schema_2_database_rerates_and_finishes_the_night_it_left_unfinished(tmp_path, failbots):
    from kotarena.tournament.ladder import load_ladder
    from kotarena.tournament.night import run_night
    from kotarena.tournament.runner import InlineExecutor

    db = database(tmp_path / "old.db", V2)
    before = rows(db, "select entrant, mu, sigma, games, wins from rating order by entrant")
    seats = rows(db, "select id, mu, sigma from seat order by id")
    engine = open_db(db)
    assert rerate(engine, "old2") == 4  # night 2 waits for its match 0
    assert rows(db, "select entrant, mu, sigma, games, wins from rating order by entrant") == before
    assert rows(db, "select id, mu, sigma from seat order by id") == seats
    path = tmp_path / "old2.toml"
    path.write_text(OLD2_LADDER)
    report = run_night(engine, load_ladder(path), executor_factory=lambda workers: InlineExecutor())
    assert (report.night, report.stored_before, report.played, report.finished) == (2, 2, 2, True)
    assert rows(db, 'select "index", rated from match where night_id = 2 order by "index"') == [
        (0, 1), (1, 1), (2, 1), (3, 1)]
    assert rows(db, "select sum(games) from rating") == [(24,)]


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


V3 = Path(__file__).parent.parent / "fixtures" / "schema_v3.sql"
#: A seat's columns in schemas 3 and 4 (schema 5 added ``times`` and ``log``).
SEAT_COLUMNS_V4 = ("seat, entrant, rank, forfeit, forfeit_detail, decisions, cpu_seconds, facts, id, match_id, "
                   "bot_version_id, mu, sigma")

#: ``tests/fixtures/schema_v3.sql`` is a real schema-3 database, from before sealed
#: nights: this ladder, which names no seed (so that kotarena played seed 0), one finished
#: night of 6 matches and a second night stopped with matches 1, 4 and 5 stored.
#: ``fail-raise`` forfeits at its first decision, and its autopilot won some matches:
#: the old kotarena stored those as its wins (winner_seat).
OLD3_LADDER = """
name = "old3"
players = 2
games = 6
time_limit = 1.0

[[bots]]
name = "random"
label = "random"

[[bots]]
name = "fail-raise"
label = "fail-raise"
params = { fail_on = 1 }
trusted = true
"""


def test_a_schema_3_database_is_upgraded_its_nights_not_sealed_and_no_forfeit_a_winner(tmp_path):
    db = database(tmp_path / "old.db", V3)
    nights = rows(db, "select id, number, seed, status from night order by id")
    forfeit_wins = rows(db, "select m.id from match m join seat s on s.match_id = m.id and s.seat = m.winner_seat"
                            " where s.forfeit is not null order by m.id")
    other_wins = rows(db, "select m.id, m.winner_seat from match m join seat s on s.match_id = m.id"
                          " and s.seat = m.winner_seat where s.forfeit is null order by m.id")
    seats = rows(db, "select * from seat order by id")
    assert forfeit_wins and other_wins  # (the fixture has both)
    upgraded = []
    open_db(db, on_upgrade=lambda old, new: upgraded.append((old, new))).dispose()
    assert upgraded == [(3, SCHEMA_VERSION)]
    assert rows(db, "select id, number, seed, status from night order by id") == nights
    assert rows(db, "select sealed, commitment from night") == [(0, None)] * len(nights)
    ids = ",".join(str(match_id) for (match_id,) in forfeit_wins)
    assert rows(db, f"select id from match where winner_seat is null and id in ({ids})") == forfeit_wins
    assert rows(db, "select id, winner_seat from match where winner_seat is not null order by id") == other_wins
    assert rows(db, f"select {SEAT_COLUMNS_V4} from seat order by id") == seats
    listed = json.loads(CliRunner().invoke(cli, ["matches", "--json", "--db", str(db)]).stdout)
    for match in listed:
        assert match["winner"] is None or not any(s["forfeit"] for s in match["seats"] if s["entrant"] ==
                                                  match["winner"])


def test_a_night_left_unfinished_before_sealed_nights_resumes_with_the_seed_it_stored(tmp_path, failbots):
    """Its ladder names no seed: a ladder that is sealed now. The night began with seed
    (a fingerprint of the missing seed as 0), so it resumes as it was, not sealed."""
    from kotarena.tournament.ladder import load_ladder
    from kotarena.tournament.night import run_night
    from kotarena.tournament.runner import InlineExecutor

    db = database(tmp_path / "old.db", V3)
    (seed,) = rows(db, "select seed from night where number = 2")[0]
    engine = open_db(db)
    path = tmp_path / "old3.toml"
    path.write_text(OLD3_LADDER)
    report = run_night(engine, load_ladder(path), executor_factory=lambda workers: InlineExecutor())
    assert (report.night, report.seed, report.sealed, report.stored_before, report.played, report.finished) == (
        2, seed, False, 3, 3, True)
    assert rows(db, 'select "index" from match where night_id = 2 order by "index"') == [(i,) for i in range(6)]
    # The next night is sealed.
    report = run_night(engine, load_ladder(path), executor_factory=lambda workers: InlineExecutor())
    assert report.night == 3 and report.sealed


V4 = Path(__file__).parent.parent / "fixtures" / "schema_v4.sql"

#: ``tests/fixtures/schema_v4.sql`` is a real schema-4 database, from before seats kept
#: each decision's time and their bot's lines: this ladder, one finished night of 4
#: matches (``heuristic`` trusted, so its CPU time is the guard's readings: 0.0 here).
OLD4_LADDER = """
name = "old4"
players = 2
games = 4
seed = 4
time_limit = 1.0

[[bots]]
name = "random"
label = "random"

[[bots]]
name = "heuristic"
label = "heuristic"
trusted = true
"""


def test_a_schema_4_database_is_upgraded_keeping_every_seat_without_times_or_lines(tmp_path):
    from kotarena.site.frames import viewer_data

    db = database(tmp_path / "old.db", V4)
    seats = rows(db, f"select {SEAT_COLUMNS_V4} from seat order by id")
    matches = rows(db, "select * from match order by id")
    upgraded = []
    open_db(db, on_upgrade=lambda old, new: upgraded.append((old, new))).dispose()
    assert upgraded == [(4, SCHEMA_VERSION)]
    assert rows(db, f"select {SEAT_COLUMNS_V4} from seat order by id") == seats
    assert rows(db, "select * from match order by id") == matches
    assert rows(db, "select times, log from seat") == [(None, None)] * len(seats)
    # The viewer shows an old match's decisions without times.
    (match_id, replay), *_ = rows(db, "select id, replay from match order by id")
    data, _ = viewer_data(match_id, replay, ["random", "heuristic"], [None, None], [None, None])
    assert data["error"] is None and data["timing"] == [None, None] and data["logs"] == [None, None]
    assert not any("time" in decision for frame in data["frames"] for decision in frame["decisions"])


def test_a_night_played_on_an_upgraded_schema_4_database_stores_each_decisions_time(tmp_path):
    from kotarena.decision_times import unpack_times
    from kotarena.tournament.ladder import load_ladder
    from kotarena.tournament.night import run_night
    from kotarena.tournament.runner import InlineExecutor

    db = database(tmp_path / "old.db", V4)
    engine = open_db(db)
    path = tmp_path / "old4.toml"
    path.write_text(OLD4_LADDER)
    report = run_night(engine, load_ladder(path), executor_factory=lambda workers: InlineExecutor())
    assert report.night == 2 and report.finished
    stored = rows(db, "select s.decisions, s.cpu_seconds, s.times, s.forfeit, s.forfeit_detail from seat s join match m on s.match_id = m.id"
                      " join night n on m.night_id = n.id where n.number = 2")
    assert len(stored) == 8
    answered = 0
    for decisions, cpu, times, forfeit, _ in stored:
        if decisions == 0:  # (heuristic is sealed in this test's process: it cannot be created here)
            assert forfeit == "error" and times is None
            continue
        how, seconds = unpack_times(times)
        assert how in ("tick", "cpu") and len(seconds) == decisions
        assert abs(sum(seconds) - cpu) < 1e-5 * (decisions + 1)
        answered += 1
    assert answered >= 4
