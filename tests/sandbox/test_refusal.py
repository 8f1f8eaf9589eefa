"""A night with untrusted bots where the sandbox cannot be had: it says so and refuses,
unless the user asks for the bots to run unsandboxed."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from kotarena.cli import cli
from kotarena.storage.db import open_db
from kotarena.tournament.ladder import load_ladder
from kotarena.tournament.night import NightError, load_sealed_ladder, run_night

LADDER = """
name = "plain"
players = 2
games = 2
seed = 1
allow_repeats = true

[[bots]]
name = "random"
label = "trusted"

[[bots]]
name = "hostile-pickle"
"""


@pytest.fixture
def no_sandbox(monkeypatch):
    monkeypatch.setattr("kotarena.sandbox.jail.sandbox_problem", lambda: "bubblewrap is not installed")


def test_a_night_with_untrusted_bots_refuses_to_start_without_the_sandbox(tmp_path, hostile, no_sandbox):
    path = tmp_path / "plain.toml"
    path.write_text(LADDER)
    with pytest.raises(NightError) as error:
        run_night(open_db(tmp_path / "r.db"), load_ladder(path), workers=0)
    message = str(error.value)
    assert "cannot sandbox the untrusted bots (hostile-pickle)" in message
    assert "bubblewrap is not installed" in message and "--unsandboxed" in message


def test_unsandboxed_on_request_the_untrusted_bots_still_play_through_the_protocol(tmp_path, hostile, no_sandbox):
    path = tmp_path / "plain.toml"
    path.write_text(LADDER)
    # (read as league run reads it: the untrusted bots known from their catalogue, here
    # read in plain processes since there is no sandbox)
    report = run_night(open_db(tmp_path / "r.db"), load_sealed_ladder(path), workers=0, unsandboxed=True)
    assert report.finished and report.played == 2 and report.forfeits == 0


def test_league_run_says_why_in_one_line_and_fails(tmp_path, hostile, no_sandbox):
    path = tmp_path / "plain.toml"
    path.write_text(LADDER)
    result = CliRunner().invoke(cli, ["league", "run", str(path), "--db", str(tmp_path / "r.db"), "-q"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "cannot sandbox the untrusted bots" in result.output
