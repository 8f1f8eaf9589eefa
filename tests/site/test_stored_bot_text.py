"""What a bot wrote, as the results show it: a forfeit's reason first on one clean line,
whatever the record holds, and a ladder's name never a path, even in a database an
older kotarena wrote (which checked neither).

The database here is a short night of kotarena's own bots whose records are then
changed as an older kotarena could have left them: a sandboxed bot's error stored
traceback first, with terminal escapes, and the ladder named ``../../x``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import update

from kotarena.cli import cli
from kotarena.storage import open_db
from kotarena.storage.models import LadderRow, Seat
from kotarena.tournament.ladder import parse_ladder
from kotarena.tournament.night import run_night

#: A sandboxed Python bot's error as the host sent it before (traceback first), with
#: what a hostile bot would add: escapes that clear the screen and retitle the terminal.
OLD_DETAIL = ('Traceback (most recent call last):\n  File "/bot/hostile.py", line 12, in choose\n'
              '    raise ValueError(secret)\n'
              "ValueError: boom \x1b[2J\x1b]0;owned\x07\rgone\n")
OLD_NAME = "../../x"


@pytest.fixture(scope="module")
def old_db(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("old") / "results.db"
    engine = open_db(path)
    ladder = parse_ladder('name = "plain"\nplayers = 2\ngames = 2\nseed = 3\n'
                          '[[bots]]\nname = "random"\nlabel = "steady"\n[[bots]]\nname = "random"\nlabel = "broken"\n')
    assert run_night(engine, ladder, workers=0).finished
    with engine.begin() as connection:
        connection.execute(update(Seat).where(Seat.entrant == "broken").values(forfeit="error",
                                                                              forfeit_detail=OLD_DETAIL))
        connection.execute(update(LadderRow).values(name=OLD_NAME))
    return str(path)


def run(*args: str):
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return result


def test_matches_shows_a_forfeits_reason_first_and_no_escape(old_db):
    out = run("matches", "--db", old_db).stdout
    assert "broken: error: ValueError: boom" in out
    assert "Traceback" not in out and "\x1b" not in out and "\r" not in out and "\x07" not in out


def test_replay_of_a_match_shows_the_reason_then_the_traceback_without_escapes(old_db):
    match = json.loads(run("matches", "--json", "--db", old_db).stdout)[0]["match"]
    out = run("replay", "--match", str(match), "--db", old_db).stdout
    reason = out.index("error: ValueError: boom")
    assert reason < out.index("Traceback (most recent call last):")
    assert "\x1b" not in out and "\x07" not in out


def test_the_site_shows_the_reason_first_and_stays_in_its_directory(old_db, tmp_path):
    site = tmp_path / "deep" / "site"
    run("site", "build", str(site), "-w", "0", "--db", old_db)
    written = [path for path in tmp_path.rglob("*") if path.is_file()]
    assert written and all(site in path.parents for path in written), written
    assert not (tmp_path / "x").exists()
    pages = "".join(path.read_text() for path in site.rglob("*.html"))
    assert "\x1b" not in pages and "\x07" not in pages
    broken = next(site.rglob("bot-broken.html")).read_text()
    assert broken.index("ValueError: boom") < broken.index("Traceback (most recent call last):")
    night = next(site.rglob("night-1.html")).read_text()
    assert "broken: error: ValueError: boom" in night


def test_export_gives_the_cleaned_reason_first(old_db, tmp_path):
    out = tmp_path / "season.jsonl"
    run("export", "-o", str(out), "--db", old_db)
    seats = [seat for line in out.read_text().splitlines() if (record := json.loads(line))["record"] == "match"
             for seat in record["seats"] if seat["forfeit"]]
    assert seats and all(seat["forfeit_reason"].startswith("ValueError: boom\nTraceback") for seat in seats)
    assert all("\x1b" not in seat["forfeit_reason"] for seat in seats)
    assert Path(out).parent == tmp_path
