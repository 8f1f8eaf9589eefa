"""What a new user meets first with the league commands: sizing a night from the command
line, a database path that is wrong, and one clear line for each kind of bad input."""

from __future__ import annotations

import sqlite3

import pytest
from click.testing import CliRunner
from sqlalchemy.exc import OperationalError

from kotarena.cli import cli
from kotarena.storage import open_db

LADDER = """
name = "edges"
players = 2
games = 40
seed = 3
allow_repeats = true

[[bots]]
name = "random"
label = "alpha"

[[bots]]
name = "random"
label = "beta"
"""

DUPLICATE = LADDER.replace("allow_repeats = true", "allow_repeats = true\nduplicate = true")


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args))


def one_line_error(result, *, after_warnings: bool = False) -> str:
    """The command's error: exit 1, one line, no traceback; returns the line.
    ``after_warnings``: the night's warnings (not sealed) may come before it."""
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    if after_warnings:
        lines = [line for line in lines if "is not sealed" not in line]
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    assert "Traceback" not in result.output
    return lines[0]


@pytest.fixture(autouse=True)
def signal_handlers():
    """Put back this process's Ctrl-C and SIGTERM handlers: an interrupted ``league
    run`` leaves them ignored, as the process it stopped is about to end."""
    import signal

    kept = {signum: signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM)}
    yield
    for signum, handler in kept.items():
        signal.signal(signum, handler)


@pytest.fixture
def ladder(tmp_path):
    path = tmp_path / "edges.toml"
    path.write_text(LADDER)
    return path


# ------------------------------------------------------------------ sizing a night


def test_games_plays_that_many_matches_and_leaves_the_file_as_it_was(tmp_path, ladder):
    db = str(tmp_path / "league.db")
    result = invoke("league", "run", str(ladder), "--games", "3", "--workers", "0", "-q", "--db", db)
    assert result.exit_code == 0, result.output
    assert ladder.read_text() == LADDER
    status = invoke("league", "status", "edges", "--db", db, "--json")
    assert '"planned": 3' in status.output and '"done": 3' in status.output


def test_games_that_would_cut_a_duplicate_set_is_refused_naming_the_option(tmp_path):
    path = tmp_path / "dup.toml"
    path.write_text(DUPLICATE)
    line = one_line_error(invoke("league", "run", str(path), "--games", "5", "--db", str(tmp_path / "x.db")))
    assert "games (--games): 5 does not end on a whole duplicate set; use 4 or 6" in line
    assert not (tmp_path / "x.db").exists()


def test_seed_fixes_the_night_and_unseals_it(tmp_path, ladder):
    ladder.write_text(LADDER.replace("seed = 3\n", ""))  # (a sealed ladder)
    db = str(tmp_path / "league.db")
    result = invoke("league", "run", str(ladder), "--games", "2", "--seed", "12345", "--workers", "0", "--db", db)
    assert result.exit_code == 0, result.output
    assert "is not sealed: its seed (12345)" in result.stderr
    assert "seed 12345; not sealed" in result.stderr


def test_time_limit_out_of_range_is_refused_naming_the_option(tmp_path, ladder):
    line = one_line_error(invoke("league", "run", str(ladder), "--time-limit", "0", "--db", str(tmp_path / "x.db")))
    assert "time_limit (--time-limit): must be between" in line


def test_a_resumed_night_needs_the_same_options(tmp_path, ladder, monkeypatch):
    """--games is part of what the night plays: another --games is another night."""
    from kotarena.tournament import night as night_module

    db = str(tmp_path / "league.db")
    calls = []
    original = night_module.run_jobs

    def stop_after_one(jobs, **kwargs):
        for result in original(jobs, **kwargs):
            calls.append(result)
            yield result
            raise KeyboardInterrupt

    monkeypatch.setattr(night_module, "FLUSH_SIZE", 1)
    monkeypatch.setattr(night_module, "run_jobs", stop_after_one)
    result = invoke("league", "run", str(ladder), "--games", "4", "--workers", "0", "-q", "--db", db)
    import signal

    assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN  # (till the process ends: no traceback as it exits)
    assert result.exit_code == 130
    assert "interrupted: 1 of 4 matches of night 1 are stored; run the same command to resume" in result.stderr
    monkeypatch.setattr(night_module, "run_jobs", original)
    other = invoke("league", "run", str(ladder), "--games", "6", "--workers", "0", "-q", "--db", db)
    assert "changed since its unfinished night 1 started" in one_line_error(other)
    same = invoke("league", "run", str(ladder), "--games", "4", "--workers", "0", "-q", "--db", db)
    assert same.exit_code == 0, same.output


# ------------------------------------------------------------------ the database's path


READ_ONLY = [
    ("matches",), ("leaderboard",), ("history", "alpha"), ("league", "status", "edges"),
    ("league", "rerate", "edges"), ("export",), ("replay", "--match", "1"),
]


@pytest.mark.parametrize("command", READ_ONLY, ids=lambda command: " ".join(command))
def test_a_read_only_command_never_makes_a_database(tmp_path, command):
    missing = tmp_path / "nope" / "dir" / "x.db"
    line = one_line_error(invoke(*command, "--db", str(missing)))
    assert f"no results database at {missing}" in line
    assert not (tmp_path / "nope").exists()


def test_site_build_never_makes_a_database(tmp_path):
    missing = tmp_path / "x.db"
    line = one_line_error(invoke("site", "build", str(tmp_path / "site"), "--db", str(missing)))
    assert f"no results database at {missing}" in line
    assert not missing.exists()


def test_a_read_only_command_finds_nothing_in_a_server_database_without_results(tmp_path):
    """A file that SQLite opens but that kotarena never wrote (here: an empty one)."""
    empty = tmp_path / "empty.db"
    sqlite3.connect(empty).execute("CREATE TABLE other (x)").connection.close()
    line = one_line_error(invoke("matches", "--db", str(empty)))
    assert "holds no kotarena results" in line and str(empty) in line


def test_league_run_makes_a_database_only_in_a_directory_that_exists(tmp_path, ladder):
    missing = tmp_path / "nope" / "x.db"
    line = one_line_error(invoke("league", "run", str(ladder), "--workers", "0", "--db", str(missing)))
    assert f"cannot create database {missing}: the directory {missing.parent} does not exist" in line
    assert not missing.parent.exists()


@pytest.mark.parametrize("url", [":memory:", "sqlite://", "sqlite:///:memory:"])
def test_league_run_refuses_a_database_in_memory(ladder, url):
    line = one_line_error(invoke("league", "run", str(ladder), "--workers", "0", "--db", url))
    assert "a database in memory (:memory:) is gone when the command ends" in line


@pytest.mark.parametrize("command", [("matches",), ("league", "run", "LADDER", "--workers", "0")],
                         ids=["matches", "league run"])
def test_a_db_that_is_not_a_database_is_one_line_naming_it(tmp_path, ladder, command):
    notes = tmp_path / "notes.txt"
    notes.write_text("shopping list\n" * 200)
    args = [str(ladder) if arg == "LADDER" else arg for arg in command]
    line = one_line_error(invoke(*args, "--db", str(notes)))
    assert f"cannot open database {notes}: file is not a database" in line
    assert notes.read_text() == "shopping list\n" * 200


def test_a_directory_as_db_is_one_line(tmp_path):
    line = one_line_error(invoke("matches", "--db", str(tmp_path)))
    assert f"cannot open database {tmp_path}: it is a directory" in line


def test_a_port_that_is_not_a_number_is_one_line():
    line = one_line_error(invoke("matches", "--db", "postgresql://me:secret@localhost:fivefour/league"))
    assert line == ("Error: bad database URL 'postgresql://me:***@localhost:fivefour/league': "
                    "its port must be a number")


def test_a_server_that_is_not_there_is_one_short_line(tmp_path):
    """(A socket directory with no server in it: refused at once.)"""
    url = f"postgresql+psycopg://me@/league?host={tmp_path}"
    line = one_line_error(invoke("matches", "--db", url))
    assert line.startswith("Error: cannot open database postgresql+psycopg://me@/league?host=")
    assert len(line) < 400 and "[SQL" not in line


def test_replay_of_a_match_number_past_any_id_is_one_line(tmp_path):
    open_db(tmp_path / "x.db")
    result = invoke("replay", "--match", str(10**29), "--db", str(tmp_path / "x.db"))
    assert result.exit_code == 2 and "Traceback" not in result.output  # (a usage error: click shows the usage)
    assert f"Error: Invalid value for '--match': {10**29} is not in the range" in result.output


# ------------------------------------------------------------------ a night that fails


def _database_error(message: str, statement: str = "INSERT INTO seat (a, b) VALUES (?, ?)") -> OperationalError:
    return OperationalError(statement, [("x" * 50, 1)] * 100, sqlite3.OperationalError(message))


def test_a_full_disk_says_so_in_one_line_and_counts_what_is_stored(tmp_path, ladder, monkeypatch):
    from kotarena.storage import store

    def full(self, results):
        raise _database_error("database or disk is full")

    monkeypatch.setattr(store.NightResults, "store", full)
    db = tmp_path / "league.db"
    line = one_line_error(invoke("league", "run", str(ladder), "--games", "4", "--workers", "0", "-q",
                                 "--db", str(db)), after_warnings=True)
    assert f"the disk of database {db} is full (database or disk is full)" in line
    assert "0 of 4 matches of night 1 are stored" in line
    assert "what was played is stored" not in line and "[SQL" not in line and "parameters" not in line


def test_a_server_lost_mid_night_is_one_short_line_without_the_sql(tmp_path, ladder, monkeypatch):
    from kotarena.storage import store

    def lost(self, results):
        raise _database_error("server closed the connection unexpectedly\n\tThis probably means the server "
                              "terminated abnormally", statement="INSERT INTO match " + "(x) " * 500)

    monkeypatch.setattr(store.NightResults, "store", lost)
    line = one_line_error(invoke("league", "run", str(ladder), "--games", "4", "--workers", "0", "-q",
                                 "--db", str(tmp_path / "league.db")), after_warnings=True)
    assert line.count("server closed") == 1
    assert "lost database" in line and "server closed the connection unexpectedly" in line
    assert len(line) < 400 and "INSERT" not in line


# ------------------------------------------------------------------ nonsense refused


def test_a_game_name_with_an_empty_option_list_is_refused(tmp_path, ladder):
    ladder.write_text(LADDER.replace('players = 2', 'game = "kot:"\nplayers = 2'))
    line = one_line_error(invoke("league", "run", str(ladder), "--db", str(tmp_path / "x.db")))
    assert "game: no game options after ':' in 'kot:'" in line


def test_an_empty_deck_name_is_refused():
    result = invoke("match", "--bot", "random", "--bot", "random", "--deck", "")
    assert result.exit_code == 2 and "'--deck': names no deck" in result.output


def test_a_seed_past_64_bits_is_refused():
    line = one_line_error(invoke("match", "--bot", "random", "--bot", "random", "--seed", str(10**26)))
    assert "a seed is a whole number from 0 to 9223372036854775807" in line


def test_a_ladder_seed_past_64_bits_is_refused(tmp_path, ladder):
    line = one_line_error(invoke("league", "run", str(ladder), "--seed", str(10**26), "--db", str(tmp_path / "x.db")))
    assert "seed (--seed): must be between 0 and 9223372036854775807" in line


def test_a_game_for_one_table_size_says_it_once(tmp_path, ladder):
    ladder.write_text(LADDER.replace('players = 2', 'game = "duel"\nplayers = 3'))
    line = one_line_error(invoke("league", "run", str(ladder), "--db", str(tmp_path / "x.db")))
    assert "is for 2 players, not 3" in line


def test_the_summary_counts_in_words(tmp_path, ladder):
    result = invoke("league", "run", str(ladder), "--games", "1", "--workers", "0", "--db", str(tmp_path / "x.db"))
    assert result.exit_code == 0, result.output
    assert "1 match played now" in result.stderr and ", 0 forfeits," in result.stderr


# ------------------------------------------------------------------ history


@pytest.fixture
def two_nights(tmp_path, ladder):
    """A database with two nights of 3 matches of the 'edges' ladder (alpha plays each)."""
    db = str(tmp_path / "league.db")
    for _ in range(2):
        result = invoke("league", "run", str(ladder), "--games", "3", "--workers", "0", "-q", "--db", db)
        assert result.exit_code == 0, result.output
    return db


def history_matches(result) -> list[int]:
    assert result.exit_code == 0, result.output
    return [int(line.split()[1]) for line in result.stdout.splitlines()[2:]]


def test_history_shows_the_newest_matches_first_up_to_the_limit(two_nights):
    every = history_matches(invoke("history", "alpha", "--db", two_nights, "--oldest-first"))
    assert len(every) == 6
    newest = invoke("history", "alpha", "--db", two_nights, "--limit", "4")
    assert history_matches(newest) == every[::-1][:4]
    assert "(4 matches of 'alpha' shown a ladder; ladder 'edges', which has more: --limit N shows more" in newest.stderr


def test_history_limit_0_shows_them_all_and_a_limit_that_fits_says_nothing(two_nights):
    assert len(history_matches(invoke("history", "alpha", "--db", two_nights, "--limit", "0"))) == 6
    fits = invoke("history", "alpha", "--db", two_nights, "--limit", "6")
    assert len(history_matches(fits)) == 6 and "more" not in fits.stderr


def test_history_as_json_pages_too(two_nights):
    import json

    rows = json.loads(invoke("history", "alpha", "--db", two_nights, "--limit", "2", "--json").stdout)
    assert len(rows) == 2 and rows[0]["match"] > rows[1]["match"]


def test_the_history_query_stops_reading_at_its_limit(two_nights):
    """It reads a ladder's rows newest first and stops at the limit."""
    from kotarena.storage import open_db, queries

    engine = open_db(two_nights, create=False)
    newest = list(queries.history(engine, "alpha", newest_first=True, limit=2))
    oldest = list(queries.history(engine, "alpha", limit=2))
    whole = list(queries.history(engine, "alpha"))
    assert newest == whole[::-1][:2] and oldest == whole[:2]


def test_a_trusted_bot_that_refuses_its_params_stops_the_night_before_it_starts(tmp_path, ladder):
    import importlib.util

    if importlib.util.find_spec("kotarena_mcts") is None:
        from kotarena.testing import missing

        missing("the example bot kotarena-mcts is not installed (python bots/install_examples.py)")
    ladder.write_text(LADDER.replace('name = "random"\nlabel = "beta"',
                                     'name = "mcts"\nlabel = "beta"\ntrusted = true\nparams = { playouts = -5 }'))
    db = tmp_path / "x.db"
    line = one_line_error(invoke("league", "run", str(ladder), "--workers", "0", "--db", str(db)))
    assert line == ("Error: entrant 'beta': the mcts bot refuses its params (playouts = -5): playouts must be at "
                    "least 1, not -5")
    from kotarena.storage import open_db
    from kotarena.storage.queries import ladder_names

    assert ladder_names(open_db(db, create=False)) == []
