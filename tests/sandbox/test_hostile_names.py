"""A bot whose name is a path plays a real sealed night: the referee names the seat's
log and its cgroup after the bot, so the name must never be a path, nor stop the night."""

from __future__ import annotations

from pathlib import Path

import pytest
from bot_packages import installed
from sqlmodel import Session, select

from kotarena.storage.db import open_db
from kotarena.storage.models import Seat
from kotarena.tournament.night import load_sealed_ladder, run_night

FIXTURE = Path(__file__).parent.parent / "fixtures" / "hostileslash"


@pytest.fixture
def slash(monkeypatch, sandbox):
    """The hostile package of a bot named like a path, installed and untrusted."""
    yield from installed(monkeypatch, FIXTURE, "kotarena_hostileslash")


def test_a_bot_named_like_a_path_plays_its_games_and_writes_nowhere_else(tmp_path, slash):
    ladder = tmp_path / "ladder.toml"
    ladder.write_text('name = "slash"\nplayers = 2\ngames = 8\nseed = 3\ntime_limit = 0.5\nallow_repeats = true\n'
                      '\n[[bots]]\nname = "random"\n\n[[bots]]\nname = "../../slash"\n')
    engine = open_db(tmp_path / "results.db")
    report = run_night(engine, load_sealed_ladder(ladder), workers=1)
    assert report.finished and report.played == 8
    with Session(engine) as session:
        seats = session.exec(select(Seat)).all()
    mine = [seat for seat in seats if seat.entrant == "../../slash"]
    assert mine and all(seat.forfeit is None for seat in mine), [seat.forfeit_detail for seat in mine]
    logs = tmp_path / "bot-logs" / "slash"
    assert len(list(logs.glob("*.log"))) == 1
    assert {path.name for path in tmp_path.iterdir()} <= {"bot-logs", "ladder.toml", "results.db", "results.db-wal",
                                                          "results.db-shm"}


def test_a_package_is_imported_in_no_sandbox_but_its_own_bots(tmp_path, slash):
    # The package's import-time code makes kotarena's random bot give up wherever it is
    # imported. Sandboxed, random's instance loaded every installed package (the seat
    # named no distribution for kotarena's own bots), so another package's code ran in
    # its sandbox and made it lose every game.
    ladder = tmp_path / "ladder.toml"
    ladder.write_text('name = "sabotage"\nplayers = 2\ngames = 6\nseed = 5\ntime_limit = 0.5\nallow_repeats = true\n'
                      '\n[[bots]]\nname = "random"\ntrusted = false\n\n[[bots]]\nname = "../../slash"\n')
    engine = open_db(tmp_path / "results.db")
    report = run_night(engine, load_sealed_ladder(ladder), workers=1)
    assert report.finished and report.played == 6
    with Session(engine) as session:
        seats = session.exec(select(Seat)).all()
    sandboxed_random = [seat for seat in seats if seat.entrant == "random"]
    assert sandboxed_random
    assert [seat.forfeit_detail for seat in sandboxed_random if seat.forfeit] == []
