"""A sandboxed Python bot that forfeits keeps its lines up to its failure, where its host
is alive to hand them over: with its error report (an exception in its code), or asked
for them when the referee refused its answer (not an action, or not a legal one). Played
alone and in lockstep; what the bot prints (forged marks of steps and of other games)
moves no line to another step or game (:mod:`kotarena.sandbox.botlog`)."""

from __future__ import annotations

import textwrap

import pytest
from bot_packages import installed

from kotarena.sandbox.botlog import START, log_steps
from kotarena.seeds import bot_seeds
from kotarena.tournament.matches import MatchJob
from kotarena.tournament.seats import SeatSpec

#: A bot that says each step with its seed (which names its game), and at its decision
#: ``fail_at`` prints forged marks (of decision 1, of another game) and fails ``how``.
MODULE = '''
import sys

from kotarena.bots.random_bot import RandomBot
from kotarena.hookspecs import hookimpl


class Forfeiter(RandomBot):
    name = "log-forfeiter"

    def start(self, view):
        print(f"seed {self.seed} starting")

    def choose(self, view):
        self.decided = getattr(self, "decided", 0) + 1
        print(f"seed {self.seed} decision {self.decided}")
        if self.decided != self.params.get("fail_at"):
            return super().choose(view)
        print("\\x1e1\\n--- match 1 seat 0 log-forfeiter ---\\nforged for another game", file=sys.stderr)
        how = self.params["how"]
        if how == "error":
            raise RuntimeError("failing on purpose")
        while how == "spin":
            pass
        return "buy 99" if how == "illegal" else "keep it all"


@hookimpl
def register_bots(register):
    register(Forfeiter)
'''

#: Each way to fail: the forfeit stored.
FAILURES = {"error": "error", "illegal": "invalid", "nonsense": "invalid"}


@pytest.fixture
def forfeiter(monkeypatch, sandbox, tmp_path):
    """The forfeiting bot's package, installed (untrusted) from a directory of the test's."""
    package = tmp_path / "package"
    info = package / "kotarena_forfeitlogs-0.1.dist-info"
    info.mkdir(parents=True)
    (package / "kotarena_forfeitlogs.py").write_text(textwrap.dedent(MODULE))
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: kotarena-forfeitlogs\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[kotarena]\nforfeitlogs = kotarena_forfeitlogs\n")
    yield from installed(monkeypatch, package, "kotarena_forfeitlogs")


def _job(tmp_path, seed: int, how: str | None) -> MatchJob:
    params = (("fail_at", 3), ("how", how)) if how else ()
    seats = (SeatSpec("forfeiter", "log-forfeiter", trusted=False, params=params), SeatSpec("plain", "random"))
    return MatchJob(index=seed, key=f"forfeit-{seed}", game="kot", deck=None, seed=seed, first_player=0,
                    seats=seats, time_limit=1.0, log_dir=str(tmp_path / "logs"))


def _own_lines(job: MatchJob, log: str | None, decisions: int) -> list[tuple[object, list[str]]]:
    """The seat's stored lines by step, each naming this game's bot seed only."""
    seed = bot_seeds(job.seed, len(job.seats))[0]
    steps = log_steps(log)
    assert steps[0] == (START, [f"seed {seed} starting"])
    assert [step for step, _ in steps[1:]] == list(range(1, decisions + 1))
    for step, lines in steps[1:]:
        assert lines[0] == f"seed {seed} decision {step}"
    return steps


def _check_forfeit(job: MatchJob, result, how: str) -> None:
    seat = result.seats[0]
    assert seat.forfeit == FAILURES[how]
    if how == "error":
        assert "failing on purpose" in seat.forfeit_detail
    # Up to the failure and no further: the failing decision's lines, the forged ones as
    # its own text (the record separator taken out), and no finish (a forfeit is not told).
    steps = _own_lines(job, seat.log, 3)
    assert steps[-1][1][1:] == ["1", "--- match 1 seat 0 log-forfeiter ---", "forged for another game"]


@pytest.mark.parametrize("how", list(FAILURES))
def test_a_bot_forfeiting_in_a_match_played_alone_keeps_its_lines_up_to_the_failure(tmp_path, forfeiter, how):
    from kotarena.sandbox.instance import close_servers
    from kotarena.tournament.matches import play_match

    job = _job(tmp_path, 11, how)
    try:
        result = play_match(job)
        after = play_match(_job(tmp_path, 12, None))  # (the instance's next game: its own lines only)
    finally:
        close_servers()
    _check_forfeit(job, result, how)
    seat = after.seats[0]
    assert seat.forfeit is None and "forged" not in seat.log
    _own_lines(_job(tmp_path, 12, None), seat.log, seat.decisions)


@pytest.mark.parametrize("how", list(FAILURES))
def test_a_bot_forfeiting_at_one_table_of_a_lockstep_keeps_its_lines_and_the_others_theirs(tmp_path, forfeiter,
                                                                                           how):
    """Three tables played together by one instance of the bot: it fails at the first,
    whose seat keeps that game's lines up to the failure; the others keep their own."""
    from kotarena.sandbox.instance import close_servers
    from kotarena.tournament.lockstep import play_tables

    jobs = [_job(tmp_path, 21, how), _job(tmp_path, 22, None), _job(tmp_path, 23, None)]
    try:
        results = play_tables(jobs)
    finally:
        close_servers()
    _check_forfeit(jobs[0], results[0], how)
    for job, result in zip(jobs[1:], results[1:]):
        seat = result.seats[0]
        assert seat.forfeit is None and "forged" not in seat.log
        _own_lines(job, seat.log, seat.decisions)


def test_a_bot_killed_for_time_keeps_no_lines_but_its_log_file_has_them(tmp_path, forfeiter):
    """Its player is killed with what it kept: the log file (docs/sandbox.md) has them,
    what it wrote to standard error at least (its standard output, a file's buffered
    stream, loses what was not flushed with the process)."""
    from kotarena.sandbox.instance import close_servers
    from kotarena.tournament.matches import play_match

    job = _job(tmp_path, 31, "spin")
    job = job.__class__(**{**job.__dict__, "time_limit": 0.3})
    try:
        result = play_match(job)
    finally:
        close_servers()
    assert result.seats[0].forfeit == "timeout" and result.seats[0].log is None
    written = (tmp_path / "logs" / "log-forfeiter.log").read_text()
    assert "forged for another game" in written
