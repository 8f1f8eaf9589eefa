"""No command runs an untrusted package's code in the operator's process.

``tests/fixtures/hostilenames`` is installed (on ``sys.path`` with its ``.dist-info``,
for this process and the processes it starts) and not trusted. Its import-time code
writes a marker file and rewrites every rating of the results database; both paths
are in the environment, as an attacker who read the organiser's command line would
know them. Every command runs here, through click's runner (so this process is the
operator's), and afterwards the marker is not there and the ratings are as they were.
Inside the sandbox the environment is cleared: there, the package's code finds neither.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from kotarena import plugins
from kotarena.cli import cli
from kotarena.testing import missing

HOSTILE_NAMES = Path(__file__).resolve().parent.parent / "fixtures" / "hostilenames"
IMPOSTOR = "kotarena-hostilenames:heuristic"


@pytest.fixture
def armed(tmp_path, monkeypatch, sandbox):
    """The hostile package installed and untrusted; a results database with a night of
    ratings; the marker's and the database's paths where its import-time code finds them."""
    marker = tmp_path / "imported.log"
    db = tmp_path / "results.db"
    ladder = tmp_path / "calm.toml"
    ladder.write_text('name = "calm"\nplayers = 2\ngames = 4\nseed = 1\nallow_repeats = true\n'
                      '[[bots]]\nname = "random"\n[[bots]]\nname = "random"\nlabel = "random-2"\n')
    monkeypatch.syspath_prepend(str(HOSTILE_NAMES))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(HOSTILE_NAMES), os.environ.get("PYTHONPATH")])))
    monkeypatch.setenv("HOSTILENAMES_MARKER", str(marker))
    monkeypatch.setenv("HOSTILENAMES_DB", str(db))
    monkeypatch.setenv("KOTARENA_DB", str(db))
    monkeypatch.delenv("KOTARENA_TRUST", raising=False)
    plugins.reset()
    run("league", "run", str(ladder), "--workers", "0", "-q")
    yield marker, db, tmp_path
    plugins.reset()
    sys.modules.pop("kotarena_hostilenames", None)


def run(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def ratings(db: Path) -> list[tuple]:
    with sqlite3.connect(db) as connection:
        return connection.execute("SELECT entrant, mu, sigma FROM rating ORDER BY entrant").fetchall()


def calm_ratings(db: Path) -> list[tuple]:
    with sqlite3.connect(db) as connection:
        return connection.execute("SELECT entrant, mu, sigma FROM rating JOIN ladder ON ladder.id = rating.ladder_id "
                                  "WHERE ladder.name = 'calm' ORDER BY entrant").fetchall()


def test_the_hostile_package_would_rewrite_the_ratings_if_it_were_imported(armed, tmp_path):
    marker, db, _ = armed
    copy = tmp_path / "copy.db"
    with sqlite3.connect(db) as source, sqlite3.connect(copy) as target:
        source.backup(target)
    env = {**os.environ, "HOSTILENAMES_DB": str(copy)}

    subprocess.run([sys.executable, "-c", "import kotarena_hostilenames"], env=env, check=True, timeout=60)

    assert marker.exists()
    assert {(mu, sigma) for _, mu, sigma in ratings(copy)} == {(99.0, 0.1)}


def test_every_command_leaves_the_untrusted_package_unimported(armed):
    marker, db, folder = armed
    before = calm_ratings(db)
    assert before and not marker.exists()
    replay = folder / "game.jsonl"
    run("match", "--bot", "random", "--bot", "random", "--seed", "2", "--replay", str(replay))
    other = folder / "names.toml"
    other.write_text(f'name = "names"\nplayers = 2\ngames = 4\nseed = 2\n'
                     f'[[bots]]\nname = "{IMPOSTOR}"\n[[bots]]\nname = "random"\n')

    outputs = {
        "games": run("games"),
        "cards": run("cards"),
        "replay": run("replay", str(replay)),
        "bots": run("bots"),
        "bots --json": run("bots", "--json"),
        "plugins": run("plugins"),
        "match": run("match", "--bot", IMPOSTOR, "--bot", "random", "--seed", "2", "--games", "2"),
        "compare": run("compare", "random", IMPOSTOR, "--seed", "1", "--max-games", "4", "--report-every", "0"),
        "bots check": CliRunner().invoke(cli, ["bots", "check", IMPOSTOR, "--games", "1"]).output,
        "play": CliRunner().invoke(cli, ["play", "--bot", IMPOSTOR]).output,
        "league run": run("league", "run", str(other), "--workers", "2", "-q"),
        "leaderboard": run("leaderboard", "calm"),
        "matches": run("matches", "--json"),
        "site build": run("site", "build", str(folder / "site"), "-q"),
        "export": run("export", "calm"),
        "hostile-names": CliRunner().invoke(cli, ["hostile-names"]).output,
    }

    assert not marker.exists(), marker.read_text()
    assert "kotarena_hostilenames" not in sys.modules
    assert calm_ratings(db) == before
    assert (99.0, 0.1) not in {(mu, sigma) for _, mu, sigma in ratings(db)}
    # The commands saw the package for what it is: untrusted, its bots sandboxed.
    assert "(sandboxed) Keeps dice toward" in outputs["bots"]
    assert "kotarena-hostilenames" in outputs["plugins"] and "sandboxed: not trusted" in outputs["plugins"]
    assert "bot name 'random' is already taken by package 'kotarena'" in outputs["bots"]
    assert "checked in the sandbox" in outputs["bots check"]
    assert "No such command 'hostile-names'" in outputs["hostile-names"]
    assert "kotarena-hostilenames" in outputs["hostile-names"]


def test_a_name_shared_with_an_installed_bot_is_refused_by_the_commands_that_play(armed):
    if not _installed("kotarena-heuristic"):
        missing("the example bot kotarena-heuristic")
    marker, _, _ = armed

    for args in (["match", "--bot", "heuristic", "--bot", "random"], ["compare", "random", "heuristic"],
                 ["bots", "check", "heuristic"]):
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 1, (args, result.output)
        assert result.output.strip() == (
            "Error: bot name 'heuristic' is registered by both kotarena-heuristic and kotarena-hostilenames, so "
            "neither plays as 'heuristic': name the one you mean as 'kotarena-heuristic:heuristic' or "
            "'kotarena-hostilenames:heuristic'"), args
    assert not marker.exists()


def _installed(distribution: str) -> bool:
    import importlib.metadata

    try:
        importlib.metadata.distribution(distribution)
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


def test_trust_imports_the_named_package_here_for_your_own_development(armed):
    marker, _, _ = armed

    result = CliRunner().invoke(cli, ["match", "--bot", IMPOSTOR, "--bot", "random", "--seed", "2",
                                      "--trust", "kotarena-hostilenames"])

    assert result.exit_code == 0, result.output
    assert marker.read_text().startswith(f"imported in process {os.getpid()}")


def test_without_the_sandbox_an_untrusted_bot_is_refused_in_one_line(monkeypatch, tmp_path):
    import kotarena.sandbox.jail as jail

    monkeypatch.syspath_prepend(str(HOSTILE_NAMES))
    monkeypatch.setenv("HOSTILENAMES_MARKER", str(tmp_path / "imported.log"))
    monkeypatch.delenv("KOTARENA_TRUST", raising=False)
    monkeypatch.setattr(jail, "sandbox_problem", lambda: "bubblewrap is not installed (Debian: apt-get install "
                                                         "bubblewrap)")
    plugins.reset()

    for args in (["match", "--bot", IMPOSTOR, "--bot", "random"], ["compare", "random", IMPOSTOR],
                 ["bots", "check", IMPOSTOR]):
        result = CliRunner().invoke(cli, args)

        assert result.exit_code == 1, (args, result.output)
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"Error: unknown bot '{IMPOSTOR}'. Its package "
                                                       "kotarena-hostilenames failed to load: not trusted, and its "
                                                       "bots cannot be read without the sandbox (bubblewrap is not "
                                                       "installed"), (args, lines)
        assert "trust it with --trust kotarena-hostilenames" in lines[0]
    assert not (tmp_path / "imported.log").exists()
    sys.modules.pop("kotarena_hostilenames", None)
