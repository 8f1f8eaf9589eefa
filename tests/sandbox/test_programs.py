"""Command-line bots: programs in any language, always seated in the sandbox.

The programs here are shell scripts of ``tests/fixtures/programbots`` (the Go example
bot's own tests are in ``bots/kotarena-go-heuristic``): what a program does with its
CPU and its process is judged from outside, whatever language it is written in.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from bot_packages import installed
from click.testing import CliRunner

from kotarena.bots.registry import get_bot
from kotarena.cli import cli
from kotarena.forfeits import CRASH, SANDBOX, TIMEOUT, BotFailure
from kotarena.games import new_game
from kotarena.tournament.matches import MatchJob, play_match
from kotarena.tournament.seats import SeatSpec

PROGRAMS = Path(__file__).parent.parent / "fixtures" / "programbots"


@pytest.fixture
def programs(monkeypatch, sandbox):
    """Make the program bots visible (as an installed third-party package), trusted: the
    tests make its bot objects here (a program still plays only in the sandbox)."""
    yield from installed(monkeypatch, PROGRAMS, "kotarena_programbots", trust="kotarena-programbots")


def _first_decision(bot_name: str, time_limit: float = 0.2):
    state = new_game("kot", players=2, seed=1)
    bot = get_bot(bot_name).make(seed=1)
    bot.time_limit = time_limit
    view = state.view(state.to_move)
    try:
        bot.start(view)
        return bot.choose(view)
    finally:
        bot.close()


def test_a_program_that_thinks_past_the_limit_forfeits_on_the_cpu_time_its_cgroup_counts(programs):
    # The shell loop runs in the program's own process: this process's CPU clock
    # would never see it.
    with pytest.raises(BotFailure) as failure:
        _first_decision("program-spinner")
    assert failure.value.kind == TIMEOUT and "CPU time" in failure.value.detail


def test_a_program_that_exits_mid_game_crashes(programs):
    with pytest.raises(BotFailure) as failure:
        _first_decision("program-quitter")
    assert failure.value.kind == CRASH and "exit code 3" in failure.value.detail


def test_a_program_that_was_never_built_cannot_be_seated_and_says_where_it_looked(programs, tmp_path):
    with pytest.raises(BotFailure) as failure:
        _first_decision("program-unbuilt")
    assert failure.value.kind == SANDBOX and "bin/not-built is not there" in failure.value.detail
    job = MatchJob(index=0, key="unbuilt", game="kot", deck=None, seed=2, first_player=None,
                   seats=(SeatSpec("unbuilt", "program-unbuilt", trusted=False), SeatSpec("random", "random")),
                   time_limit=0.5, log_dir=str(tmp_path))
    result = play_match(job)
    assert result.seats[0].forfeit == SANDBOX and result.seats[1].forfeit is None



def test_match_reports_a_failing_program_in_one_line(programs):
    result = CliRunner().invoke(cli, ["match", "--bot", "program-quitter", "--bot", "random", "--seed", "1"])

    assert result.exit_code == 1
    assert result.output.splitlines()[-1] == (
        "Error: the program-quitter bot's program: its process ended without answering (exit code 3) (crash)")


def test_two_servers_of_one_bot_and_seat_with_other_settings_each_have_their_own_cgroup(programs, tmp_path):
    from kotarena.sandbox.seat import seat_server

    # (the caller names the bot's distribution: the host loads that one and kotarena's own only)
    small = seat_server("program-quitter", 0, jailed=True, memory_mb=256, log_dir=tmp_path, dist="kotarena-programbots")
    large = seat_server("program-quitter", 0, jailed=True, memory_mb=512, log_dir=tmp_path, dist="kotarena-programbots")
    try:
        assert small is not large and small.group.dirs != large.group.dirs
    finally:
        large.close()
        small.close()  # (it shared the other's cgroup once, and closing it failed)


@pytest.mark.parametrize("lockstep", [False, True], ids=["alone", "lockstep"])
def test_a_program_whose_host_was_killed_during_the_game_forfeits_as_a_crash(programs, monkeypatch, tmp_path,
                                                                            lockstep):
    """Its host killed at its second decision (by the test, as a bot killing its host
    would), the program plays on answering legal actions: its seat still forfeits, as
    a crash, once the game is over (its answers unvouched for); played alone or by the
    lockstep, which asks a program's seat directly. (Unsandboxed on request, so that the
    program surely outlives its host: in the sandbox, whose namespace ends with the
    host, it may die first, a crash too.)"""
    import signal

    from kotarena.sandbox.instance import close_servers
    from kotarena.sandbox.seat import SandboxedSeat
    from kotarena.tournament.lockstep import play_tables

    choose, killed = SandboxedSeat.choose, []

    def choose_then_kill(seat, view):
        action = choose(seat, view)
        if seat.decisions == 2:
            os.kill(seat.server.server_pid, signal.SIGKILL)
            killed.append(seat.server.server_pid)
        return action

    monkeypatch.setattr(SandboxedSeat, "choose", choose_then_kill)
    seats = (SeatSpec("talker", "program-talker", trusted=False), SeatSpec("random", "random"))
    job = MatchJob(index=0, key="killed", game="kot", deck=None, seed=8, first_player=0, seats=seats,
                   time_limit=1.0, log_dir=str(tmp_path / "logs"), sandbox=False)
    try:
        result = play_tables([job])[0] if lockstep else play_match(job)
    finally:
        close_servers()
    talker = result.seats[0]
    assert killed and talker.decisions > 2  # (it played on after its host was killed)
    assert talker.forfeit == CRASH and "killed during the game" in talker.forfeit_detail
    assert result.seats[1].forfeit is None and result.status == "forfeit"
