"""Installed means run (issue 32, item 12): a bot package whose wheel ships a ``.pth``
file has Python run that file's ``import`` line at every start of the environment it is
installed in. Installed with ``kotarena bots install``, it is in no environment: its
line runs in no process of the operator's (commands, a night's coordinator and
workers), and the bot still plays its games, sealed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from bot_packages import bot_wheel
from sqlmodel import Session, select

from kotarena import plugins
from kotarena.storage.db import open_db
from kotarena.storage.models import BotVersion, Match, Seat

#: The ``.pth`` line: it writes the process's id and command to the marker file named by
#: an environment variable (which the sandbox clears: only the operator's processes have it).
PTH_LINE = ("import os, sys; m = os.environ.get('PTH_MARKER'); "
            "m and open(m, 'a').write(f'pth ran in {os.getpid()}: {sys.argv}\\n')\n")
#: The same, at the bot module's import.
IMPORT_LINE = ("import os as _os, sys as _sys\n_m = _os.environ.get('PTH_MARKER')\n"
               "if _m:\n    open(_m, 'a').write(f'imported in {_os.getpid()}: {_sys.argv}\\n')\n")


@pytest.fixture
def pth_bot(tmp_path, monkeypatch, sandbox):
    """The ``.pth`` bot, installed in a bot store of the test's own with ``kotarena bots
    install``; the marker's path in the environment of every process started after."""
    marker = tmp_path / "marker"
    env = {"KOTARENA_BOT_STORE": str(tmp_path / "store"), "XDG_CACHE_HOME": str(tmp_path / "cache"),
           "PTH_MARKER": str(marker), "KOTARENA_DB": str(tmp_path / "results.db")}
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    wheel = bot_wheel(tmp_path / "wheels", "kotarena-pth", "0.1", bot="pth-bot", extra=IMPORT_LINE,
                      more={"kotarena_pth_hook.pth": PTH_LINE})
    done = kotarena("bots", "install", str(wheel), "--no-index")
    assert done.returncode == 0, done.stderr
    plugins.reset()
    yield tmp_path / "store" / "kotarena-pth-0.1", marker
    plugins.reset()


def kotarena(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kotarena", *args], capture_output=True, text=True, timeout=300)


def test_the_pth_file_is_live_where_a_python_processes_it(pth_bot):
    # What 'pip install' into this environment would do at every start: the line runs.
    directory, marker = pth_bot
    assert (directory / "kotarena_pth_hook.pth").is_file()
    subprocess.run([sys.executable, "-c", f"import site; site.addsitedir({str(directory)!r})"], check=True)
    assert "pth ran in" in marker.read_text()


def test_no_command_runs_a_stored_bots_pth_or_imports_it(pth_bot):
    directory, marker = pth_bot
    assert kotarena("--version").returncode == 0
    kotarena("leaderboard")
    listed = kotarena("bots", "list")
    assert "kotarena-pth" in listed.stdout and str(directory) in listed.stdout
    kotarena("bots")
    assert not marker.exists(), marker.read_text()


def test_a_sealed_night_plays_the_stored_bot_and_no_operator_process_runs_its_code(pth_bot, tmp_path):
    from kotarena.tournament.night import load_sealed_ladder, run_night

    _, marker = pth_bot
    ladder_file = tmp_path / "pth.toml"
    ladder_file.write_text('name = "pth"\nplayers = 2\ngames = 6\nseed = 3\ntime_limit = 0.5\n'
                           '[[bots]]\nname = "random"\n\n[[bots]]\nname = "pth-bot"\n')
    engine = open_db(Path(os.environ["KOTARENA_DB"]))
    report = run_night(engine, load_sealed_ladder(ladder_file), workers=2)
    assert report.finished and report.played == 6
    with Session(engine) as session:
        seats = [s for s in session.exec(select(Seat)).all() if s.entrant == "pth-bot"]
        assert len(session.exec(select(Match)).all()) == 6
        stored_as = {(v.package, v.version) for s in seats for v in [session.get(BotVersion, s.bot_version_id)]}
    assert len(seats) == 6
    assert [s.forfeit for s in seats] == [None] * 6, [s.forfeit_detail for s in seats]
    assert stored_as == {("kotarena-pth", "0.1")}
    # Neither this process (the coordinator) nor its workers ran the line or imported the bot.
    assert not marker.exists(), marker.read_text()
