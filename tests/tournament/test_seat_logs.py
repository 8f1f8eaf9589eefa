"""A trusted bot's own lines, kept by its seat in the referee's process: what it writes
to ``sys.stdout`` and ``sys.stderr`` while it starts, decides and finishes is its game's,
each line under the step it began in, and still goes where it went before
(:class:`kotarena.tournament.seats.InProcessSeat`, :class:`kotarena.sandbox.botlog.SeatLines`)."""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

import pytest

from kotarena import plugins
from kotarena.games import new_game
from kotarena.sandbox.botlog import CALLS, FINISH, START, SeatLines, log_steps
from kotarena.site.frames import viewer_data
from kotarena.tournament.lockstep import play_tables
from kotarena.tournament.matches import MatchJob, play_match
from kotarena.tournament.seats import InProcessSeat, SeatSpec

LOGBOTS = Path(__file__).parent.parent / "fixtures" / "logbots"


@pytest.fixture
def logbots(monkeypatch):
    """The logging bots (tests/fixtures/logbots), installed and trusted."""
    monkeypatch.syspath_prepend(str(LOGBOTS))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(LOGBOTS), os.environ.get("PYTHONPATH")])))
    monkeypatch.setenv("KOTARENA_TRUST", "kotarena-logbots")
    plugins.reset()
    yield
    plugins.reset()
    sys.modules.pop("kotarena_logbots", None)


def _job(seed: int, *seats: SeatSpec) -> MatchJob:
    return MatchJob(index=seed, key=f"logs-{seed}", game="kot", deck=None, seed=seed, first_player=None,
                    seats=seats, time_limit=1.0)


def _said(result, seat: int) -> list[tuple[object, list[str]]]:
    """The seat's stored lines by step, checked against the decisions the viewer shows:
    each decision's lines say that decision's number and the action it chose."""
    steps = log_steps(result.seats[seat].log)
    data, _ = viewer_data(1, result.replay, [s.entrant for s in result.seats], [s.times for s in result.seats],
                          [s.log for s in result.seats])
    chosen = [d for frame in data["frames"] for d in frame["decisions"] if d["seat"] == seat]
    decided = [(step, lines) for step, lines in steps if type(step) is int]
    assert [step for step, _ in decided] == list(range(1, result.seats[seat].decisions + 1))
    for (number, lines), decision in zip(decided, chosen):
        # (the bot's own mark of decision 99 is text, its record separator taken out)
        assert lines == [f"decision {number}: {decision['choice']}", "99", f"decision {number} on stderr"]
        assert decision["log"] == "\n".join(lines)
    return steps


def test_a_trusted_bots_lines_are_kept_under_the_step_it_wrote_them_in(logbots, capsys):
    result = play_match(_job(1, SeatSpec("steps", "log-steps"), SeatSpec("plain", "random")))
    steps = _said(result, 0)
    assert steps[0] == (START, ["starting"]) and steps[-1] == (FINISH, ["finished"])
    assert result.seats[1].log is None  # (a bot that writes nothing has no lines)
    # Still written where they went before (here, pytest's capture).
    out, err = capsys.readouterr()
    assert "starting" in out and f"decision {result.seats[0].decisions}: " in out and "finished" in err


def test_a_bot_that_fails_keeps_its_lines_up_to_its_failure(logbots):
    result = play_match(_job(2, SeatSpec("steps", "log-steps", params=(("crash_at", 3),)),
                             SeatSpec("plain", "random")))
    seat = result.seats[0]
    assert seat.forfeit == "error" and "crashing on purpose" in seat.forfeit_detail
    steps = log_steps(seat.log)
    assert [step for step, _ in steps] == [START, 1, 2, 3]  # (no finish: a forfeited bot is not told)
    assert steps[-1][1][0].startswith("decision 3: ") and steps[-1][1][1:] == ["99", "decision 3 on stderr"]


def test_seats_of_many_tables_in_lockstep_each_keep_their_own_lines(logbots):
    """Three tables played together in one process, two logging bots at each: every
    seat's lines are its own game's and its own decisions', in order."""
    jobs = [_job(seed, SeatSpec("first", "log-steps"), SeatSpec("plain", "random"), SeatSpec("second", "log-steps"))
            for seed in (3, 4, 5)]
    results = play_tables(jobs)
    for result in results:
        for seat in (0, 2):
            steps = _said(result, seat)
            assert steps[0] == (START, ["starting"]) and steps[-1] == (FINISH, ["finished"])
        assert result.seats[1].log is None


def test_what_is_written_between_a_bots_calls_is_not_its_and_the_streams_are_given_back(logbots, capsys):
    state = new_game("kot", players=2, seed=6)
    seat = InProcessSeat(SeatSpec("steps", "log-steps"), 1.0)
    before = sys.stdout, sys.stderr
    seat.start(1, state.view(0))
    print("the referee's own line")
    while state.to_move != 0:
        state.apply(state.legal[0])
    seat.choose(state.view(0))
    seat.close()
    assert (sys.stdout, sys.stderr) == before
    assert "referee" not in seat.log
    assert [step for step, _ in log_steps(seat.log)] == [START, 1]
    out, _ = capsys.readouterr()
    assert "the referee's own line" in out and "starting" in out


def test_a_line_another_thread_writes_during_a_call_is_nobodys(capsys):
    class Seat:
        decisions = 0

    lines = SeatLines(Seat())
    CALLS.open()
    CALLS.lines = lines
    try:
        other = threading.Thread(target=print, args=("from another thread",))
        other.start()
        other.join()
        print("from the bot")
    finally:
        CALLS.lines = None
        CALLS.close()
    assert log_steps(lines.take()) == [(START, ["from the bot"])]
    assert "from another thread" in capsys.readouterr().out  # (written, as ever)
