"""Hostile bots against the sandbox itself, in a real sealed night: the referee's
secrets, another sandbox, the referee's files beside the bot's own module.

The bots are ``tests/fixtures/hostilejail``, copied for each test into a directory of
its own that is put on ``sys.path`` (as a project directory or ``PYTHONPATH`` is), and
the night's results database, its bot logs and the ladder file lie in that same
directory: the sandbox binds it, so only what it binds of it keeps them out.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import sys
import time
from pathlib import Path

import pytest
from sqlmodel import Session, select
from test_hostile import _sandboxes  # the hostile night's helpers

from kotarena import plugins
from kotarena.storage.db import open_db
from kotarena.storage.models import Seat
from kotarena.tournament.night import load_sealed_ladder, run_night

FIXTURE = Path(__file__).parent.parent / "fixtures" / "hostilejail"
SECRET = "kotarena-test-secret-5f1d9c"
PASSWORD = "pg-password-8e2b47"
DB_URL = f"postgresql://league:{PASSWORD}@db.example.org/kotarena"


@pytest.fixture
def hostile_site(tmp_path, monkeypatch, sandbox):
    """The hostile package in a directory on ``sys.path``, and the operator's secrets
    in the environment the night starts from."""
    site = tmp_path / "site"
    shutil.copytree(FIXTURE, site)
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")])))
    monkeypatch.setenv("KOTARENA_TEST_SECRET", SECRET)
    monkeypatch.setenv("KOTARENA_DB", DB_URL)
    monkeypatch.delenv("KOTARENA_LOAD_PLUGINS", raising=False)
    plugins.reset()
    yield site
    plugins.reset()
    sys.modules.pop("kotarena_hostilejail", None)


def night_beside_the_bots(site: Path):
    ladder = site / "ladder.toml"
    ladder.write_text("""
name = "jail"
players = 2
games = 24
time_limit = 0.5
allow_repeats = true

[[bots]]
name = "random"
label = "honest"

[[bots]]
name = "jail-environ"

[[bots]]
name = "jail-lock"
label = "lock-a"

[[bots]]
name = "jail-lock"
label = "lock-b"

[[bots]]
name = "jail-snoop"
""")
    engine = open_db(site / "results.db")
    report = run_night(engine, load_sealed_ladder(ladder), workers=2)
    return engine, report


def test_no_sandbox_reads_the_referees_secrets_meets_another_or_reads_its_files(hostile_site):
    site = hostile_site
    # A log of the night before, which the snoop must not read either.
    (site / "bot-logs" / "earlier").mkdir(parents=True)
    (site / "bot-logs" / "earlier" / "someone.log").write_text("another bot's thoughts\n")
    engine, report = night_beside_the_bots(site)
    assert report.finished and report.played == 24

    with Session(engine) as session:
        seats = session.exec(select(Seat)).all()
    by_entrant: dict[str, list[Seat]] = {}
    for seat in seats:
        by_entrant.setdefault(seat.entrant, []).append(seat)
    assert set(by_entrant) == {"honest", "jail-environ", "lock-a", "lock-b", "jail-snoop"}
    # The honest seats, the lock pair and the snoop play on; the bot that gave up forfeits.
    for entrant in ("honest", "lock-a", "lock-b", "jail-snoop"):
        assert all(seat.forfeit is None for seat in by_entrant[entrant]), entrant
    assert all(seat.forfeit == "error" for seat in by_entrant["jail-environ"])
    details = [seat.forfeit_detail for seat in by_entrant["jail-environ"]]
    # What it gave up with is stored reason first, and bounded.
    assert all(detail.startswith("RuntimeError: gave up; read: ") for detail in details), details[0]
    # It did read what it could see (its own sandbox's processes), as its log says...
    engine.dispose()
    read = (site / "bot-logs" / "jail" / "jail-environ.log").read_text(errors="replace")
    assert "/proc/1/cmdline" in read and "bwrap" in read, read[:2000]
    # Its descriptors: the log is a pipe, its path nowhere.
    assert "'1': 'pipe:" in read and "bot-logs" not in read, read[:2000]

    # ...and nothing of the referee's: not in the database, not in any log.
    dump = "\n".join(sqlite3.connect(site / "results.db").iterdump())
    logs = {path.name: path.read_text(errors="replace") for path in (site / "bot-logs" / "jail").glob("*.log")}
    assert "READ own environment" in logs["jail-environ.log"]
    for text in (dump, *logs.values()):
        assert SECRET not in text
        assert PASSWORD not in text
        assert str(site) + "/results.db" not in text

    # No sandbox met another: every lock, lease and notification was refused.
    for entrant in ("jail-lock",):
        log = logs[f"{entrant}.log"]
        assert "CHEAT signal: failed" in log, log[-2000:]
        assert "CHEAT signal: won" not in log
        assert "inotify (listen) on kotarena_hostilejail.py: denied (EPERM)" in log
        assert "flock (signal) on kotarena_hostilejail.py: denied (EPERM)" in log
        assert "F_SETLK (signal) on os.py: denied (EPERM)" in log

    # The snoop imported its module from the directory that holds the database, the
    # logs and the ladder, and found none of them.
    snoop = logs["jail-snoop.log"]
    assert "CHEAT snoop: failed" in snoop and str(site) in snoop, snoop[-2000:]
    assert "CHEAT snoop: won" not in snoop

    deadline = time.monotonic() + 10
    while _sandboxes() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _sandboxes() == []
