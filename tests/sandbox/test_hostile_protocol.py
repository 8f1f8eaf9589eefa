"""A bot's bytes can only hurt the bot: in a real sealed night, bots that answer with
lines meant to break the referee (``tests/fixtures/hostileprotocol``) each forfeit
their own game with a one-line reason, and the night goes on to its end, everything
stored, the honest seats' games played and judged as any other.

Before the decoder refused them, the first of these lines (nested 400,000 deep, well
under the 1 MiB cap) raised RecursionError in the referee: the night stopped with
nothing stored, and every resume stopped again.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from bot_packages import installed
from click.testing import CliRunner
from sqlmodel import Session, select

from kotarena.cli import cli
from kotarena.forfeits import REASON_LIMIT
from kotarena.replay import replay_from_text, reproduce
from kotarena.sandbox.protocol import MAX_DEPTH
from kotarena.storage.db import open_db
from kotarena.storage.models import Match, Seat
from kotarena.tournament.matches import DETAIL_LIMIT
from kotarena.tournament.night import load_sealed_ladder, run_night

FIXTURE = Path(__file__).parent.parent / "fixtures" / "hostileprotocol"

#: Each garbage bot's forfeit: its kind, and words its one-line reason holds.
EXPECTED = {
    "garbage-deep": ("invalid", f"nested more than {MAX_DEPTH} deep"),
    "garbage-bigint": ("invalid", "a number of 900000 digits"),
    "garbage-utf8": ("invalid", "not UTF-8"),
    "garbage-cap": ("invalid", "which is not an action"),
    "garbage-nan": ("invalid", "NaN"),
    "garbage-surrogate": ("invalid", "lone surrogate"),
    "garbage-words": ("error", "RuntimeError: gave up"),
    "garbage-boom": ("error", "ValueError: boom"),
    "garbage-server": ("sandbox", f"nested more than {MAX_DEPTH} deep"),
}


@pytest.fixture
def hostileprotocol(monkeypatch, sandbox):
    """Make the garbage bots visible (an installed third-party package: untrusted)."""
    yield from installed(monkeypatch, FIXTURE, "kotarena_hostileprotocol")


def garbage_ladder(tmp_path: Path) -> Path:
    path = tmp_path / "garbage.toml"
    path.write_text('name = "garbage"\nplayers = 2\ngames = 36\nseed = 11\ntime_limit = 0.25\nallow_repeats = true\n'
                    '\n[[bots]]\nname = "random"\nlabel = "honest"\n'
                    + "".join(f'\n[[bots]]\nname = "{bot}"\n' for bot in EXPECTED))
    return path


def test_every_garbage_line_is_its_bots_forfeit_and_the_night_completes(tmp_path, hostileprotocol):
    db = tmp_path / "results.db"
    engine = open_db(db)
    report = run_night(engine, load_sealed_ladder(garbage_ladder(tmp_path)), workers=2)
    assert report.finished and report.played == 36

    with Session(engine) as session:
        seats = session.exec(select(Seat)).all()
        matches = session.exec(select(Match)).all()
    assert len(matches) == 36
    assert {seat.entrant for seat in seats} >= set(EXPECTED), "not every garbage bot was seated"
    for seat in seats:
        if seat.entrant == "honest":
            assert seat.forfeit is None, seat.forfeit_detail
            continue
        kind, words = EXPECTED[seat.entrant]
        assert seat.forfeit == kind, (seat.entrant, seat.forfeit, seat.forfeit_detail)
        reason = seat.forfeit_detail.split("\n", 1)[0]
        assert words in reason and len(reason) <= REASON_LIMIT, (seat.entrant, reason)
        assert len(seat.forfeit_detail) <= DETAIL_LIMIT
        assert not any(char in seat.forfeit_detail for char in "\x1b\x07\r\u202e"), seat.forfeit_detail[:300]
        if kind == "invalid":
            assert "\n" not in seat.forfeit_detail  # (the referee's words: one line)
    # Every stored game is a whole game the engine plays again to the stored end, and a
    # forfeited seat wins nothing.
    by_match = {match.id: [seat for seat in seats if seat.match_id == match.id] for match in matches}
    for match in matches:
        state = reproduce(replay_from_text(match.replay))
        assert state.outcome is not None and state.outcome.turns == match.turns
        if match.winner_seat is not None:
            winner = next(seat for seat in by_match[match.id] if seat.seat == match.winner_seat)
            assert winner.forfeit is None

    # What the listing shows: the reason first, never a traceback's first line.
    listing = CliRunner().invoke(cli, ["matches", "--limit", "100", "--db", str(db)])
    assert listing.exit_code == 0, listing.output
    assert "garbage-boom: error: ValueError: boom" in listing.stdout
    assert "garbage-words: error: RuntimeError: gave up" in listing.stdout
    assert "Traceback" not in listing.stdout and "\x1b" not in listing.stdout

    # Nothing is left running.
    deadline = time.monotonic() + 10
    while _sandboxes() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _sandboxes() == []


def _sandboxes() -> list[int]:
    """This process's descendants that run a sandbox's host."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], list(children.get(os.getpid(), []))
    while todo:
        pid = todo.pop()
        try:
            command = (Path("/proc") / str(pid) / "cmdline").read_bytes()
        except OSError:
            continue
        if b"kotarena.sandbox.host" in command:
            found.append(pid)
        todo.extend(children.get(pid, []))
    return found
