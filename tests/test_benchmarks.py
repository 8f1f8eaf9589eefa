"""The benchmark scripts run (their figures are for benchmarks, not tests)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def test_overhead_parts_compares_the_runner_and_a_whole_night_with_the_raw_engine(tmp_path):
    run = subprocess.run([sys.executable, str(BENCHMARKS / "overhead_parts.py"), "--games", "8", "--rounds", "1",
                          "--workers", "1"], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith("8 games of random bots at 4 seats, 1 worker, 1 rounds")
    rows = {line.split()[0]: line.split()[1:] for line in lines[2:4]}
    assert set(rows) == {"runner", "night"}
    for overhead, _range, worker_ratio, coordinator_ms in rows.values():
        assert overhead.endswith("%")
        assert float(worker_ratio) > 0 and float(coordinator_ms) > 0
    assert lines[4].strip().startswith("storing and rating add")


def test_query_memory_fills_a_database_and_reports_each_commands_peak_memory(tmp_path):
    run = subprocess.run([sys.executable, str(BENCHMARKS / "query_memory.py"), "--games", "60", "--night-size", "25",
                          "--keep", str(tmp_path / "memory.db")], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith(f"filled {tmp_path / 'memory.db'} with 60 games")
    measured = {line[:42].strip(): line[42:].split() for line in lines[2:]}
    assert {"kotarena history bot-0 --json", "kotarena league rerate memory"} <= set(measured)
    assert all(unit == "MiB" and float(memory) > 0 for memory, unit, _seconds in measured.values())


def test_sandbox_ceiling_measures_the_trusted_games_and_both_round_trips(tmp_path):
    run = subprocess.run([sys.executable, str(BENCHMARKS / "sandbox_ceiling.py"), "--games", "4", "--bot", "random"],
                         capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith("random bots, 4 players, 4 games")
    assert lines[1].startswith("trusted: ") and "decisions a game" in lines[1]
    assert [line.split(":")[0] for line in lines[2:]] == ["wire", "codec"]
    for line in lines[2:]:
        assert float(line.split("at best ")[1].split("%")[0]) < 100


def test_protocol_overhead_plays_the_same_games_in_go_and_python_and_a_night_without_forfeits(tmp_path, sandbox):
    from kotarena.bots.command import ProgramMissingError
    from kotarena.testing import missing

    try:
        from kotarena_go_heuristic import GoHeuristicBot

        GoHeuristicBot.argv()
    except (ImportError, ProgramMissingError) as error:
        missing(f"the Go bot is not built and installed: {error}")
    run = subprocess.run([sys.executable, str(BENCHMARKS / "protocol_overhead.py"), "--games", "3", "--rounds", "1",
                          "--night", "8", "--workers", "1"], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith("3 games of kot (4 seats: the bot, 3 random), 1 rounds, same games every way (checked)")
    assert [line.split()[0] for line in lines[2:5]] == ["python", "python", "go"]
    assert lines[-1] == "matches stored: 8; forfeits: 0"


def test_site_build_plays_a_season_copies_it_builds_its_site_again_after_a_night_and_reports_time_and_sizes(tmp_path):
    run = subprocess.run([sys.executable, str(BENCHMARKS / "site_build.py"), "--games", "8", "--played", "4",
                          "--night-size", "4", "--workers", "0", "--keep", str(tmp_path / "site.db")],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    played, copied, first, again, unchanged, sizes = run.stdout.splitlines()
    assert played.startswith(f"played 4 games into {tmp_path / 'site.db'}")
    assert copied.startswith("copied them to 8 games in ")
    assert first.startswith("first build: ") and ", 8 games played again, peak memory " in first
    assert again.startswith("after night 1 more: ") and ", 4 games played again, " in again
    assert unchanged.startswith("nothing new: ") and ", 0 games played again, " in unchanged
    assert sizes.startswith("leaderboard page ") and sizes.endswith(" files")


def test_duel_soak_plays_both_ways_of_seating_monsters_checks_every_action_and_reports_coverage(tmp_path):
    run = subprocess.run([sys.executable, str(BENCHMARKS / "duel_soak.py"), "--games", "8", "--workers", "1",
                          "--seed", "3"], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    summary, covered, *rest = run.stdout.splitlines()
    assert summary.startswith("8 games of Duel from seed 3 (monsters drawn and chosen, with and without cards")
    assert "every invariant checked after each: 0 failures" in summary
    assert covered.startswith("covered: ") and " monster 8," in covered  # 4 tables of choice, 2 picks each
    assert rest and rest[0].startswith("not covered: ")  # 8 games buy far from every card
    strict = subprocess.run([sys.executable, str(BENCHMARKS / "duel_soak.py"), "--games", "8", "--workers", "1",
                             "--seed", "3", "--require-all"], capture_output=True, text=True, cwd=tmp_path,
                            timeout=300)
    assert strict.returncode == 1 and strict.stdout.splitlines()[2] == rest[0]


def test_duel_soak_reports_a_broken_invariant_with_the_game_that_reproduces_it(monkeypatch):
    import importlib.util

    from kotarena.games.duel import game as duel_game

    spec = importlib.util.spec_from_file_location("duel_soak", BENCHMARKS / "duel_soak.py")
    soak = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "duel_soak", soak)  # (its dataclasses look their module up)
    spec.loader.exec_module(soak)
    # A checker that finds a problem once a monster has less than full health.
    monkeypatch.setattr(duel_game.Duel, "invariants",
                        lambda self, state: ["hurt"] if state.health[0] < state.monsters[0].health else [])
    found = soak.soak((0, 2))
    assert found.games == 0 and len(found.failures) == 2
    assert found.failures[0].startswith("game 0 (duel, deck default, pause False): after action ")
    assert "reproduce: game = new_game('duel', players=2, seed=0, deck='default')" in found.failures[0]
