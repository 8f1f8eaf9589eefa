"""The league commands from the outside: run, leaderboard, matches, history, status, rerate, replay."""

from __future__ import annotations

import csv
import io
import json

import pytest
from click.testing import CliRunner

from kotarena.cli import cli
from kotarena.seeds import commitment
from kotarena.storage import open_db
from kotarena.storage.models import Meta

LADDER = """
name = "cli"
players = 2
games = 4
seed = 3
allow_repeats = true

[[bots]]
name = "random"
label = "alpha"

[[bots]]
name = "random"
label = "beta"
"""


@pytest.fixture
def night(tmp_path):
    """A database holding one finished night of the 'cli' ladder."""
    path = tmp_path / "cli.toml"
    path.write_text(LADDER)
    db = str(tmp_path / "league.db")
    result = CliRunner().invoke(cli, ["league", "run", str(path), "--workers", "0", "-q", "--db", db])
    assert result.exit_code == 0, result.output
    return path, db


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_league_run_ends_with_the_leaderboard(night):
    path, db = night
    result = invoke("league", "run", str(path), "--workers", "0", "--db", db)
    assert result.exit_code == 0
    assert "Leaderboard: cli" in result.stdout
    assert "night 2 of ladder 'cli' (seed " in result.stderr
    assert "4 matches played now" in result.stderr


def test_leaderboard_as_table_json_and_csv(night):
    _, db = night
    table = invoke("leaderboard", "cli", "--db", db)
    assert table.exit_code == 0 and "alpha" in table.stdout and "mu - 3*sigma" in table.stdout
    data = json.loads(invoke("leaderboard", "cli", "--json", "--db", db).stdout)
    rows = data["cli"]
    assert {row["entrant"] for row in rows} == {"alpha", "beta"}
    assert rows[0]["score"] >= rows[1]["score"]
    assert all(row["games"] == 4 for row in rows)
    assert sum(row["wins"] for row in rows) == 4
    parsed = list(csv.DictReader(io.StringIO(invoke("leaderboard", "--csv", "--db", db).stdout)))
    assert [row["entrant"] for row in parsed] == [row["entrant"] for row in rows]


def test_leaderboard_shows_each_ratings_interval_and_marks_ranks_the_data_cannot_separate(night):
    _, db = night
    rows = json.loads(invoke("leaderboard", "cli", "--json", "--db", db).stdout)["cli"]
    for row in rows:
        assert row["low"] < row["mu"] < row["high"]
        assert row["high"] - row["low"] == pytest.approx(2 * 1.96 * row["sigma"], abs=0.002)
    assert rows[-1]["ahead_of_next"] is None
    # Four games cannot tell two bots apart: the leader is not clearly ahead.
    assert rows[0]["ahead_of_next"] is False
    table = invoke("leaderboard", "cli", "--db", db).stdout
    assert "skill 95%" in table and "\n1=" in table and "not clearly ahead of the next entrant" in table


def test_clearly_ahead_needs_the_skills_difference_beyond_the_uncertainty():
    from kotarena.storage.queries import clearly_ahead

    assert clearly_ahead(30.0, 1.0, 25.0, 1.0)  # 5 > 1.645 * 1.414
    assert not clearly_ahead(30.0, 3.0, 25.0, 3.0)  # 5 < 1.645 * 4.24
    assert not clearly_ahead(25.0, 1.0, 25.0, 1.0)


def test_matches_history_status_and_rerate(night):
    _, db = night
    listed = json.loads(invoke("matches", "--ladder", "cli", "--json", "--db", db).stdout)
    assert len(listed) == 4 and all(len(m["seats"]) == 2 for m in listed)
    only_alpha = json.loads(invoke("matches", "--bot", "alpha", "--json", "--db", db).stdout)
    assert len(only_alpha) == 4
    assert "alpha" in invoke("matches", "--night", "1", "--db", db).stdout
    nobody = invoke("matches", "--bot", "gamma", "--night", "1", "--db", db)
    assert nobody.exit_code == 0 and nobody.stdout == ""
    assert nobody.stderr == "no stored matches of night 1 with entrant 'gamma'\n"
    assert json.loads(invoke("matches", "--bot", "gamma", "--json", "--db", db).stdout) == []
    history = json.loads(invoke("history", "alpha", "--json", "--db", db).stdout)
    assert len(history) == 4
    status = json.loads(invoke("league", "status", "cli", "--json", "--db", db).stdout)
    assert status == [{"night": 1, "status": "done", "sealed": False, "seed": 3, "commitment": commitment(3),
                       "planned": 4, "done": 4, "left": 0, "forfeits": 0}]
    before = json.loads(invoke("leaderboard", "cli", "--json", "--db", db).stdout)
    assert invoke("league", "rerate", "cli", "--db", db).exit_code == 0
    assert json.loads(invoke("leaderboard", "cli", "--json", "--db", db).stdout) == before


def test_a_history_longer_than_a_page_prints_as_one_table_and_one_json_list(night, monkeypatch):
    """``history`` streams its rows (a ladder may hold millions); a page at a time, the
    table and the JSON read as if printed whole."""
    from kotarena.cli import league
    from kotarena.cli.output import table_text
    from kotarena.storage import queries

    _, db = night
    rows = json.loads(invoke("history", "alpha", "--json", "--db", db).stdout)
    assert len(rows) == 4
    monkeypatch.setattr(queries, "PAGE", 3)
    monkeypatch.setattr(league, "TABLE_PAGE", 3)
    assert json.loads(invoke("history", "alpha", "--json", "--db", db).stdout) == rows
    table = invoke("history", "alpha", "--db", db).stdout
    assert table == table_text(("ladder", "match", "mu", "sigma", "score", "forfeit"),
                               [(*list(r.values())[:5], "") for r in rows]) + "\n"


def test_a_stored_match_replays(night):
    _, db = night
    match_id = json.loads(invoke("matches", "--json", "--db", db).stdout)[0]["match"]
    result = invoke("replay", "--match", str(match_id), "--db", db)
    assert result.exit_code == 0 and "reproduced: yes" in result.stdout
    missing = invoke("replay", "--match", "999", "--db", db)
    assert missing.exit_code == 1 and "no stored match with id 999" in missing.output


def test_a_stored_match_is_saved_as_a_replay_file_that_replays(night, tmp_path):
    _, db = night
    match_id = json.loads(invoke("matches", "--json", "--db", db).stdout)[0]["match"]
    path = tmp_path / "saved.replay"
    result = invoke("replay", "--match", str(match_id), "-q", "--save", str(path), "--db", db)
    assert result.exit_code == 0, result.output
    assert f"saved match {match_id}'s replay to {path}" in result.stderr
    assert f"match {match_id}: reproduced: yes" in result.stdout
    text = path.read_text()
    assert text.startswith("kotarena-replay 2\n") and "\npacked " in text  # as the league stored it
    again = invoke("replay", "-q", str(path))
    assert again.exit_code == 0 and f"{path}: reproduced: yes" in again.stdout
    assert again.stdout.split("(")[1] == result.stdout.split("(")[1]  # same players, seed, actions, turns


def test_save_needs_a_stored_match_and_a_place_it_can_write(night, tmp_path):
    _, db = night
    usage = invoke("replay", str(tmp_path / "x.replay"), "--save", str(tmp_path / "y.replay"))
    assert usage.exit_code == 2 and "--save writes a stored match's replay: give it with --match ID" in usage.output
    match_id = json.loads(invoke("matches", "--json", "--db", db).stdout)[0]["match"]
    unwritable = invoke("replay", "--match", str(match_id), "--save", str(tmp_path / "no" / "dir.replay"),
                        "--db", db)
    assert unwritable.exit_code == 1
    assert f"cannot save match {match_id}'s replay to {tmp_path / 'no' / 'dir.replay'}: " in unwritable.output


def test_a_match_id_given_as_a_file_gets_a_hint_to_use_match(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = invoke("replay", "12")
    assert result.exit_code == 1
    assert "12: cannot read the file" in result.output and "kotarena replay --match 12" in result.output
    assert "--match" not in invoke("replay", "game.replay").output  # a file name is only a file name


@pytest.mark.parametrize(
    "text, problem",
    [
        ("players = 4\ngames = [\n", "not valid TOML"),
        ('players = 4\ncolour = "red"\nbots = "all"\n', "colour"),
        ('players = 2\n[[bots]]\nname = "rnadom"\n[[bots]]\nname = "random"\n', "rnadom"),
        ('players = 9\nbots = "all"\nallow_repeats = true\n', "players"),
    ],
    ids=["syntax", "unknown key", "unknown bot", "table size"],
)
def test_a_bad_ladder_file_is_one_line_naming_the_file(tmp_path, text, problem):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    result = invoke("league", "run", str(path), "--db", str(tmp_path / "x.db"))
    assert result.exit_code == 1
    message = result.output.strip()
    assert message.startswith("Error: ") and "bad.toml" in message and problem in message
    assert "\n" not in message and "Traceback" not in message


def test_a_ladder_file_with_several_problems_names_them_all(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('players = 7\ncolour = "red"\n[[bots]]\nname = "nosuchbot"\n')
    result = invoke("league", "run", str(path), "--db", str(tmp_path / "x.db"))
    assert result.exit_code == 1 and "Traceback" not in result.output
    lines = result.output.strip().split("\n")
    assert lines[:3] == [
        f"Error: {path}: 3 problems:",
        "  colour: unknown key (known keys: name, game, deck, players, games, time_limit, format, challenger, "
        "duplicate, seed, workers, allow_repeats, bots, params, trusted)",
        "  players: King of Tokyo is for 2 to 6 players, not 7",
    ]
    assert lines[3].startswith("  bots[0].name: unknown bot 'nosuchbot' (installed: ") and len(lines) == 4


def test_a_database_from_a_newer_kotarena_is_refused_clearly(tmp_path):
    from sqlmodel import Session

    db = tmp_path / "future.db"
    engine = open_db(db)
    with Session(engine) as session:
        session.add(Meta(key="schema_version", value="99")) if session.get(Meta, "schema_version") is None else None
        row = session.get(Meta, "schema_version")
        row.value = "99"
        session.add(row)
        session.commit()
    result = invoke("leaderboard", "--db", str(db))
    assert result.exit_code == 1
    assert "schema version 99, newer than this kotarena" in result.output


def test_leaderboard_of_an_unknown_ladder_is_an_error(tmp_path):
    open_db(tmp_path / "x.db")
    result = invoke("leaderboard", "nope", "--db", str(tmp_path / "x.db"))
    assert result.exit_code == 1 and "no ladder named 'nope'" in result.output


def test_db_path_follows_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("KOTARENA_DB", str(tmp_path / "here.db"))
    assert invoke("db", "path").stdout.strip() == str(tmp_path / "here.db")


@pytest.mark.parametrize(
    "url, problem",
    [
        ("mysqlx://ann:s3cret@db.example/league", "SQLAlchemy cannot connect to 'mysqlx' databases here"),
        ("postgresql://ann:s3cret@db.example:port/league", "bad database URL"),
    ],
    ids=["unknown-dialect", "bad-port"],
)
def test_a_database_url_that_cannot_be_used_is_a_clear_error_without_its_password(url, problem):
    result = invoke("leaderboard", "--db", url)
    assert result.exit_code == 1 and problem in result.output, result.output
    assert "s3cret" not in result.output and "ann:***@db.example" in result.output
    assert "Traceback" not in result.output


def test_db_path_shows_a_url_without_its_password(monkeypatch):
    monkeypatch.setenv("KOTARENA_DB", "postgresql+psycopg://ann:s3cret@db.example/league")
    assert invoke("db", "path").stdout.strip() == "postgresql+psycopg://ann:***@db.example/league"
