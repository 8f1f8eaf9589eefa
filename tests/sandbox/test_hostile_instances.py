"""A bot's sandbox is an instance kept from game to game, and never meets a deal twice.

The bots of ``tests/fixtures/hostileinstances`` play untrusted, in real sealed nights:
one writes down every deal it meets everywhere it can keep something and looks for it
again; one thinks in 8 threads; one writes the outcome it is told at the end of a game;
one says from its host that it is another package; one raises.
"""

from __future__ import annotations

import sys
import time
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest
from bot_packages import installed
from sqlmodel import Session, select

from kotarena.storage.db import open_db
from kotarena.storage.models import BotVersion, Match, Seat
from kotarena.tournament.night import load_sealed_ladder, run_night

FIXTURE = Path(__file__).parent.parent / "fixtures" / "hostileinstances"


@pytest.fixture
def instances(monkeypatch, sandbox):
    """Make the fixture's bots visible (as an installed third-party package)."""
    yield from installed(monkeypatch, FIXTURE, "kotarena_hostile_instances")


def night(tmp_path: Path, text: str, workers: int):
    path = tmp_path / "ladder.toml"
    path.write_text(text)
    engine = open_db(tmp_path / "results.db")
    report = run_night(engine, load_sealed_ladder(path), workers=workers)
    with Session(engine) as session:
        rows = session.exec(select(Seat, BotVersion).where(Seat.bot_version_id == BotVersion.id)).all()
        matches = session.exec(select(Match)).all()
    # Each seat as stored, with the bot, package and version stored for it.
    seats = [SimpleNamespace(**seat.model_dump(), bot=bot.name, package=bot.package, version=bot.version)
             for seat, bot in rows]
    logs = tmp_path / "bot-logs" / "instances"
    return report, seats, matches, {log.stem: log.read_text(errors="replace") for log in logs.glob("*.log")}


def no_sandbox_left() -> list[int]:
    """Hosts of this test run's instances still running after a short wait (none, once a
    night has ended): wherever they are, an orphan of an unsandboxed instance included."""
    deadline = time.monotonic() + 10
    while True:
        left = sorted(hosts() - BEFORE)
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.2)


def hosts() -> set[int]:
    """The processes of the machine running kotarena's host with this Python."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if command[0] == sys.executable.encode() and b"kotarena.sandbox.host" in command:
                found.add(int(entry.name))
    return found


#: Hosts running before these tests (another test's, ending): not these tests' concern.
BEFORE: set[int] = set()


@pytest.fixture(autouse=True)
def _hosts_before():
    BEFORE.clear()
    BEFORE.update(hosts())


DUPLICATE_NIGHT = """
name = "instances"
players = 4
games = 32
duplicate = true
allow_repeats = true
time_limit = 1.0

[[bots]]
name = "deal-memory"
label = "memory-a"

[[bots]]
name = "deal-memory"
label = "memory-b"

[[bots]]
name = "finish-logger"

[[bots]]
name = "impostor"

[[bots]]
name = "raiser"

[[bots]]
name = "random"
label = "honest"
"""


#: Two duplicate sets: every entrant is seated.
SHORT_NIGHT = DUPLICATE_NIGHT.replace("games = 32", "games = 8")


def test_a_bot_remembers_earlier_games_but_never_meets_a_deal_again(tmp_path, instances):
    report, seats, matches, logs = night(tmp_path, DUPLICATE_NIGHT, workers=2)
    assert report.sealed and report.finished and report.played == 32
    memory = logs["deal-memory"]
    # Every seat of every duplicate set, both entrants of the bot, repeats at a table
    # included: each game met a deal the bot's sandbox had never seen, in memory, in a
    # shared mapping made at import, or in a file anywhere it could write one...
    met = memory.count("DEAL new")
    assert met == sum(1 for seat in seats if seat.bot == "deal-memory") and met > 8
    assert "DEAL seen" not in memory and ": won" not in memory
    # ...though it did remember games it played before (its instance is kept), and
    # played several games in one process (nothing is started per game).
    assert any(f"remembers {n} other games" in memory for n in range(1, 100)), memory[-2000:]
    processes = {line.rsplit("process ", 1)[1] for line in memory.splitlines() if line.startswith("DEAL")}
    assert len(processes) < met
    honest = [seat for seat in seats if seat.entrant == "honest"]
    assert honest and all(seat.forfeit is None for seat in honest)
    assert no_sandbox_left() == []


def test_an_instance_playing_several_games_at_once_never_meets_a_deal_twice(tmp_path, instances):
    """The whole duplicate night in one lockstep (as a worker plays the matches it is
    handed): each instance plays several games at once, and still meets each deal once."""
    from kotarena.sandbox.instance import _SERVERS, close_servers
    from kotarena.tournament.lockstep import play_tables
    from kotarena.tournament.night import night_jobs, night_seed

    path = tmp_path / "ladder.toml"
    path.write_text(DUPLICATE_NIGHT.replace("time_limit", "seed = 3\ntime_limit"))
    ladder = load_sealed_ladder(path)
    jobs = [replace(job, log_dir=str(tmp_path / "logs")) for job in night_jobs(ladder, night_seed(ladder.seed, 1))]
    try:
        results = play_tables(jobs)
        most = max(server.batch_link.most for server in _SERVERS.values()
                   if server.bot == "deal-memory" and getattr(server, "batch_link", None))
    finally:
        close_servers()
    memory = (tmp_path / "logs" / "deal-memory.log").read_text()
    met = memory.count("DEAL new")
    assert met == sum(1 for result in results for seat in result.seats if seat.bot == "deal-memory") and met > 8
    assert "DEAL seen" not in memory
    assert most > 1
    assert all(seat.forfeit is None for result in results for seat in result.seats if seat.entrant == "honest")
    assert no_sandbox_left() == []


def test_the_same_deals_played_again_in_one_process_meet_new_instances(tmp_path, instances):
    """Two nights of one seeded ladder, one after the other in this process (as ``bench``
    plays its rounds): the second night's deals are the first's, and its instances are
    new ones."""
    seeded = SHORT_NIGHT.replace("time_limit", "seed = 11\ntime_limit")
    for number in range(2):
        folder = tmp_path / f"night-{number}"
        folder.mkdir()
        night(folder, seeded, workers=0)
    memory = (tmp_path / "night-1" / "bot-logs" / "instances" / "deal-memory.log").read_text()
    assert "DEAL new" in memory and "DEAL seen" not in memory
    assert no_sandbox_left() == []


def test_unsandboxed_on_request_players_are_kept_and_leave_nothing_behind(tmp_path, instances):
    """(Unsandboxed, a bot shares the machine's files with every other: only for bots you
    would trust anyway. Its instances still end with the night, processes and all.)"""
    path = tmp_path / "ladder.toml"
    path.write_text(THREADS_NIGHT.replace("many-threads", "finish-logger").replace(
        "time_limit", "seed = 4\ntime_limit"))
    report = run_night(open_db(tmp_path / "results.db"), load_sealed_ladder(path), workers=0, unsandboxed=True)
    assert report.finished and report.played == 4 and report.forfeits == 0
    told = (tmp_path / "bot-logs" / "instances" / "finish-logger.log").read_text()
    assert told.count("FINISH") == 4
    assert no_sandbox_left() == []


def test_what_is_stored_for_a_seat_is_the_referees_knowledge_not_the_bots_claim(tmp_path, instances):
    _, seats, _, _ = night(tmp_path, SHORT_NIGHT, workers=0)
    claimed = [seat for seat in seats if seat.bot in ("impostor", "deal-memory", "finish-logger")]
    assert claimed
    assert {(seat.package, seat.version) for seat in claimed} == {("kotarena-hostile-instances", "0.1")}


def test_finish_tells_a_sandboxed_bot_how_its_game_ended(tmp_path, instances):
    _, seats, matches, logs = night(tmp_path, SHORT_NIGHT, workers=0)
    told = [line for line in logs["finish-logger"].splitlines() if line.startswith("FINISH")]
    played = [seat for seat in seats if seat.bot == "finish-logger"]
    assert len(told) == len(played) > 0
    games = {match.id: match for match in matches}
    for seat in played:
        match = games[seat.match_id]
        line = f"FINISH seat {seat.seat}: winner {match.winner_seat}"
        # (a seat that forfeited wins nothing, but the bot is told the engine's outcome)
        assert any(told_line.startswith(line) for told_line in told) or match.winner_seat is None, (line, told)
        assert any(f"after {match.turns} turns" in told_line for told_line in told)


def test_a_bots_error_is_stored_with_its_reason_first(tmp_path, instances):
    _, seats, _, _ = night(tmp_path, SHORT_NIGHT, workers=0)
    raised = [seat for seat in seats if seat.bot == "raiser"]
    assert raised
    for seat in raised:
        assert seat.forfeit == "error"
        assert seat.forfeit_detail.startswith("ValueError: boom\n"), seat.forfeit_detail[:200]
        assert "_deep" in seat.forfeit_detail  # then where it went wrong


THREADS_NIGHT = """
name = "instances"
players = 2
games = 4
time_limit = 0.25

[[bots]]
name = "many-threads"

[[bots]]
name = "random"
label = "honest"
"""


def test_a_bot_thinking_in_many_threads_forfeits_at_its_cpu_limit(tmp_path, instances):
    """8 threads in every decision, until they have used four times its limit: the
    decision is a timeout, however many processors the threads run on."""
    _, seats, matches, logs = night(tmp_path, THREADS_NIGHT, workers=0)
    assert len(matches) == 4
    for seat in seats:
        if seat.bot == "many-threads":
            assert seat.forfeit == "timeout", (seat.forfeit, seat.forfeit_detail)
        else:
            assert seat.forfeit is None
    assert "THREADS answered" not in logs["many-threads"]  # stopped before its answer, every time
    assert no_sandbox_left() == []
