"""The read-only database commands reach the database through SQLAlchemy Core: none of
them imports SQLModel, pydantic or SQLAlchemy's ORM, which cost more CPU than their
whole answer (``benchmarks/startup.py``); the listings import neither the engine, the
games, TrueSkill nor the plugins. Each command runs in a fresh process, which says
what it imported."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from kotarena.cli import cli

#: Runs the CLI with the arguments after the first (a file), and writes to that file
#: every module the process imported, as the process ends.
PROBE = """
import atexit, json, sys
out = sys.argv.pop(1)
atexit.register(lambda: open(out, "w").write(json.dumps(sorted(sys.modules))))
from kotarena.cli import main
sys.argv[0] = "kotarena"
main()
"""

#: What no read-only database command imports.
ORM = {"sqlmodel", "pydantic", "sqlalchemy.orm"}
#: What the listings import besides: nothing of the games, the ratings or the plugins.
PLAY = {"kotarena.engine", "kotarena.games", "trueskill", "kotarena.plugins", "pluggy"}

LADDER = """
name = "probe"
players = 2
games = 3
seed = 4

[[bots]]
name = "random"
label = "left"

[[bots]]
name = "random"
label = "right"
"""

V4 = Path(__file__).parent.parent / "fixtures" / "schema_v4.sql"


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("probe")
    (folder / "probe.toml").write_text(LADDER)
    path = folder / "probe.db"
    result = CliRunner().invoke(cli, ["league", "run", str(folder / "probe.toml"), "--db", str(path),
                                      "--workers", "0", "-q"])
    assert result.exit_code == 0, result.output
    return path


def imported(tmp_path: Path, *arguments: str) -> tuple[set[str], subprocess.CompletedProcess]:
    """The modules a fresh ``kotarena ARGUMENTS`` imported, and how it ran."""
    out = tmp_path / "modules.json"
    run = subprocess.run([sys.executable, "-c", PROBE, str(out), *arguments], capture_output=True, text=True,
                         timeout=300)
    return set(json.loads(out.read_text())), run


@pytest.mark.parametrize("command", [
    ["leaderboard"], ["leaderboard", "probe", "--csv"], ["matches"], ["matches", "--json", "--bot", "left"],
    ["history", "left"], ["league", "status", "probe"], ["db", "path"],
], ids=" ".join)
def test_a_listing_imports_no_sqlmodel_pydantic_orm_engine_or_ratings(tmp_path, db, command):
    modules, run = imported(tmp_path, *command, "--db", str(db))
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip()
    assert not modules & (ORM | PLAY)
    assert "kotarena.storage.models" not in modules


@pytest.mark.parametrize("command", [["replay", "--match", "2", "-q"], ["export", "probe", "--no-replays"]],
                         ids=" ".join)
def test_replaying_or_exporting_a_stored_season_imports_no_sqlmodel_pydantic_or_orm(tmp_path, db, command):
    modules, run = imported(tmp_path, *command, "--db", str(db))
    assert run.returncode == 0, run.stderr
    assert not modules & ORM


def test_building_the_site_reads_the_database_without_sqlmodel_pydantic_or_orm(tmp_path, db):
    modules, run = imported(tmp_path, "site", "build", str(tmp_path / "site"), "--workers", "0", "-q",
                            "--db", str(db))
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "site" / "index.html").exists()
    assert not modules & ORM


def test_a_missing_database_is_refused_without_importing_sqlmodel(tmp_path):
    modules, run = imported(tmp_path, "matches", "--db", str(tmp_path / "nowhere.db"))
    assert run.returncode == 1
    assert "no results database at" in run.stderr
    assert not modules & ORM


def test_an_old_database_read_by_a_listing_is_upgraded_without_sqlmodel(tmp_path):
    import sqlite3

    from kotarena.storage.db import SCHEMA_VERSION

    path = tmp_path / "old.db"
    connection = sqlite3.connect(path)
    connection.executescript(V4.read_text())
    connection.close()
    modules, run = imported(tmp_path, "matches", "--db", str(path))
    assert run.returncode == 0, run.stderr
    assert f"upgraded the results database from schema version 4 to {SCHEMA_VERSION}" in run.stderr
    assert run.stdout.strip()
    assert not modules & ORM
    version = sqlite3.connect(path).execute("select value from kotarena_meta where key = 'schema_version'")
    assert version.fetchone() == (str(SCHEMA_VERSION),)
