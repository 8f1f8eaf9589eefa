"""Hostile bots in a real night: every cheat fails, is its bot's forfeit where it breaks
a rule, and leaves the night, the results and the honest bots' games as they would be.

Each hostile bot (``tests/fixtures/hostilebots``) plays untrusted, so in the sandbox, and
tries one escape at its first decision; what it managed is in its log.
"""

from __future__ import annotations

import os
import socket
import time
from pathlib import Path

import pytest
from sqlmodel import Session, select

from kotarena.storage.db import open_db
from kotarena.storage.models import Match, Seat
from kotarena.tournament.night import load_sealed_ladder, run_night

#: What each hostile bot's seats must end with: a forfeit kind, or None (the cheat
#: failed quietly and the bot played on).
EXPECTED = {
    "hostile-pickle": None,
    "hostile-seed": None,
    "hostile-db": None,
    "hostile-file": None,
    "hostile-socket": None,
    "hostile-fork": None,
    "hostile-timer": "timeout",
    "hostile-kill": "crash",
    "hostile-memory": "memory",
    "hostile-flood": "error",
    "hostile-exit": "crash",
    "hostile-forkexit": "crash",
    "hostile-remember": None,
}


@pytest.fixture
def listener():
    """A TCP port on this machine that records whoever connects."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.01)
    yield server
    server.close()


def hostile_ladder(tmp_path: Path, port: int, marker: str) -> Path:
    targets = {
        "hostile-pickle": tmp_path / "pickle-ran",
        "hostile-db": tmp_path / "results.db",
        "hostile-file": tmp_path / "written-by-a-bot",
        "hostile-socket": port,
        "hostile-fork": marker,
    }
    entries = []
    for bot in EXPECTED:
        target = targets.get(bot)
        params = f'\nparams = {{ target = "{target}" }}' if target is not None else ""
        entries.append(f'[[bots]]\nname = "{bot}"{params}\n')
    path = tmp_path / "hostile.toml"
    path.write_text("""
name = "hostile"
players = 2
games = 30
seed = 5
time_limit = 0.25
allow_repeats = true

[[bots]]
name = "random"
label = "honest"

""" + "\n".join(entries))
    return path


def test_every_cheat_fails_and_the_night_completes(tmp_path, hostile, listener, capfd, monkeypatch):
    marker = f"kotarena-orphan-{time.time_ns()}"
    imports = tmp_path / "imports.log"
    monkeypatch.setenv("HOSTILE_IMPORT_LOG", str(imports))
    engine = open_db(tmp_path / "results.db")
    ladder = load_sealed_ladder(hostile_ladder(tmp_path, listener.getsockname()[1], marker))
    report = run_night(engine, ladder, workers=2)
    assert report.finished and report.played == 30
    # The hostile package was imported only in sandboxes: never by this process (which
    # read the ladder and stored the results) nor by its workers.
    assert not imports.exists(), imports.read_text()

    with Session(engine) as session:
        seats = session.exec(select(Seat)).all()
        matches = session.exec(select(Match)).all()
    assert len(matches) == 30
    played = {seat.entrant for seat in seats}
    assert played >= set(EXPECTED), f"not every hostile bot was seated: {set(EXPECTED) - played}"
    for seat in seats:
        if seat.entrant == "honest":
            assert seat.forfeit is None, f"an honest seat forfeited: {seat.forfeit_detail}"
        else:
            assert seat.forfeit == EXPECTED[seat.entrant], (seat.entrant, seat.forfeit, seat.forfeit_detail)
    # A bot that forfeited is never a game's winner.
    for match in matches:
        if match.winner_seat is not None:
            winner = next(s for s in seats if s.match_id == match.id and s.seat == match.winner_seat)
            assert winner.forfeit is None

    logs = tmp_path / "bot-logs" / "hostile"
    text = {path.stem: path.read_text(errors="replace") for path in logs.glob("*.log")}
    # (The file bot may believe it wrote its file: into its own scratch /tmp, where the
    # sandbox made the directories leading to the hidden database. The real file is
    # checked below.)
    for bot in ("hostile-seed", "hostile-db", "hostile-socket", "hostile-remember"):
        assert f"CHEAT {bot.split('-')[1]}: failed" in text[bot], text[bot][-2000:]
        assert ": won" not in text[bot]
    assert "no connection" in text["hostile-socket"] and "no name" in text["hostile-socket"]
    assert text["hostile-remember"].count("CHEAT remember: failed") >= 2  # it met several games
    # Nothing the bots tried reached the machine.
    assert not (tmp_path / "pickle-ran").exists()
    assert not (tmp_path / "written-by-a-bot").exists()
    with pytest.raises(OSError):
        listener.accept()
    # The flood went to the bot's log, capped, and not to the night's output.
    assert (logs / "hostile-flood.log").stat().st_size <= 70 << 20
    out, err = capfd.readouterr()
    assert "FLOOD" not in out + err and "CHEAT" not in out + err
    # Nothing is left running: not the orphan, not a sandbox.
    deadline = time.monotonic() + 10
    while (processes_matching(marker) or _sandboxes()) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert processes_matching(marker) == []
    assert _sandboxes() == []


def _sandboxes() -> list[tuple[int, str]]:
    return [(pid, command) for pid, command in descendants(os.getpid()) if "kotarena.sandbox.host" in command]


def descendants(pid: int) -> list[tuple[int, str]]:
    """The processes descended from ``pid``, with their command lines."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], list(children.get(pid, []))
    while todo:
        child = todo.pop()
        try:
            command = (Path("/proc") / str(child) / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        found.append((child, command))
        todo.extend(children.get(child, []))
    return found


def processes_matching(text: str) -> list[tuple[int, str]]:
    """Every process of the machine whose command line holds ``text``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            if text in command and entry.name != str(os.getpid()):
                found.append((int(entry.name), command))
    return found
