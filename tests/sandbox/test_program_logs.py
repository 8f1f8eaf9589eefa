"""A command-line bot's standard error, kept game by game and step by step: the referee
reads its program's pipe after each request's answer (the protocol is request and
answer), so what the program wrote meanwhile is that step's; nothing it writes moves a
line to another step or game (:class:`kotarena.sandbox.botlog.ProgramLines`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from bot_packages import installed

from kotarena.sandbox.botlog import FINISH, START, log_steps, log_text
from kotarena.site.frames import viewer_data
from kotarena.tournament.matches import MatchJob, play_match
from kotarena.tournament.seats import SeatSpec

PROGRAMS = Path(__file__).parent.parent / "fixtures" / "programbots"


@pytest.fixture
def programs(monkeypatch, sandbox):
    """The program bots (tests/fixtures/programbots), as an installed third-party package."""
    yield from installed(monkeypatch, PROGRAMS, "kotarena_programbots", trust="kotarena-programbots")


def _match(tmp_path, seed: int, *seats: SeatSpec):
    from kotarena.sandbox.instance import close_servers

    seats = seats or (SeatSpec("talker", "program-talker", trusted=False), SeatSpec("random", "random"))
    job = MatchJob(index=0, key=f"talk-{seed}", game="kot", deck=None, seed=seed, first_player=None,
                   seats=seats, time_limit=1.0, log_dir=str(tmp_path / "logs"))
    try:
        return play_match(job)
    finally:
        close_servers()


def test_a_programs_lines_are_kept_with_the_step_it_wrote_them_in(programs, tmp_path):
    result = _match(tmp_path, 3)
    talker = result.seats[0]
    assert talker.forfeit is None and talker.decisions > 0
    steps = log_steps(talker.log)
    assert steps[0] == (START, ["setting up"])
    assert steps[-1] == (FINISH, ["game over"])
    decisions = steps[1:-1]
    # Each decision's lines are its own: what the program said it chose, then its forged
    # mark of decision 99 (a record separator taken out: plain text) and forged header.
    assert [step for step, _ in decisions] == list(range(1, talker.decisions + 1))
    data, _ = viewer_data(1, result.replay, ["talker", "random"], [s.times for s in result.seats],
                          [s.log for s in result.seats])
    chosen = [decision for frame in data["frames"] for decision in frame["decisions"] if decision["seat"] == 0]
    for number, (decision, (_, lines)) in enumerate(zip(chosen, decisions), start=1):
        assert lines == [f"decision {number}: {decision['choice']}", "99", "--- match 0 seat 1 ---"]
        assert decision["log"] == "\n".join(lines)
    assert data["logs"][0] == log_text(talker.log) and "\x1e" not in data["logs"][0]
    # (the log file still has everything the program wrote)
    written = (tmp_path / "logs" / "program-talker.log").read_text()
    assert "setting up" in written and "game over" in written and f"decision {talker.decisions}:" in written


def test_each_game_of_a_program_keeps_its_own_lines_only(programs, tmp_path):
    first, second = _match(tmp_path, 4), _match(tmp_path, 5)
    for result in (first, second):
        talker = result.seats[0]
        said = [line for _, lines in log_steps(talker.log) for line in lines if line.startswith("decision ")]
        assert len(said) == talker.decisions  # (one game's: none of the other's)
        assert said == [f"decision {n}: {line.split(': ', 1)[1]}" for n, line in enumerate(said, start=1)]


def test_two_programs_at_one_table_each_keep_their_own_lines(programs, tmp_path):
    result = _match(tmp_path, 6, SeatSpec("one", "program-talker", trusted=False), SeatSpec("random", "random"),
                    SeatSpec("two", "program-talker", trusted=False))
    data, _ = viewer_data(1, result.replay, [s.entrant for s in result.seats], [s.times for s in result.seats],
                          [s.log for s in result.seats])
    for seat in (0, 2):
        chosen = [d["choice"] for frame in data["frames"] for d in frame["decisions"] if d["seat"] == seat]
        said = [line for step, lines in log_steps(result.seats[seat].log) if type(step) is int
                for line in lines if line.startswith("decision ")]
        assert said == [f"decision {n}: {choice}" for n, choice in enumerate(chosen, start=1)]


def test_a_program_that_fails_keeps_what_it_wrote_up_to_its_failure(programs, tmp_path):
    result = _match(tmp_path, 7, SeatSpec("quitter", "program-loud-quitter", trusted=False),
                    SeatSpec("random", "random"))
    quitter = result.seats[0]
    assert quitter.forfeit == "crash"
    assert log_steps(quitter.log) == [(1, ["giving up now"])]
