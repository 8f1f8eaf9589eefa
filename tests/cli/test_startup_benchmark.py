"""The start-up benchmark runs and reports every command it measures, and which are over
the budget (its figures are for benchmarks/startup-log.md and docs/league.md, not for
tests: nothing here times anything)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCHMARK = Path(__file__).resolve().parent.parent.parent / "benchmarks" / "startup.py"


def test_startup_measures_the_database_commands_cpu_beside_its_floors(tmp_path):
    run = subprocess.run([sys.executable, str(BENCHMARK), "--games", "40", "--rounds", "1",
                          "--keep", str(tmp_path / "startup.db")], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith("CPU seconds from start to answer, 40 games in the database, 1 rounds")
    assert lines[-1].startswith("database commands over 0.3 CPU-s (median): ")
    rows = {line[:32].strip(): line[32:].split() for line in lines[2:-1]}
    assert set(rows) == {"python -c pass", "python -c 'import sqlalchemy'", "python -c 'import sqlmodel'",
                         "kotarena --help", "kotarena db path",
                         "kotarena leaderboard", "kotarena matches", "kotarena league status",
                         "kotarena history bot-0"}
    assert all(float(median) > 0 for median, _minimum in rows.values())
