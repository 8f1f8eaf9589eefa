"""A PostgreSQL server stopped in the middle of a night: one short line, not the SQL and
its parameters (up to 6.4 KB of them), and the same command finishes the night once the
server is back. (A module of its own: it stops its server.)"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from sqlalchemy.engine import make_url
from test_night import ladder_file, run_cli, wait_for_matches

from kotarena.storage import open_db


def _pg_ctl(url: str, *args: str) -> None:
    """Run ``pg_ctl`` on the test server behind ``url`` (as the conftest's ``server``
    started it: data in ``HOST/data``, as the postgres user when we are root)."""
    root = Path(make_url(url).query["host"])
    found = shutil.which("pg_ctl")
    program = Path(found) if found else sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"),
                                               key=lambda p: int(p.parts[-3]))[-1]
    as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    subprocess.run([*as_user, str(program), "-D", str(root / "data"), *args], check=True, capture_output=True,
                   timeout=60)


def test_a_server_stopped_mid_night_is_one_short_line_and_the_night_resumes(tmp_path, server, failbots):
    url = server("stopped_mid_night")
    path = ladder_file(tmp_path, name="pgstop", games=40, second="sleepy", params="params = { ms = 4 }")
    env = {**os.environ, "KOTARENA_DB": url}
    process = run_cli("league", "run", str(path), "--workers", "1", "-q", env=env)
    engine = open_db(url)
    wait_for_matches(engine, process, 2)
    engine.dispose()
    _pg_ctl(url, "-m", "immediate", "stop")
    out, err = process.communicate(timeout=120)
    assert process.returncode == 1, err
    lines = [line for line in err.strip().splitlines() if "is not sealed" not in line]
    assert len(lines) == 1, err
    line = lines[0]
    assert line.startswith("Error: the night stopped: ") and "run the same command to resume" in line
    assert "lost database postgresql+psycopg://postgres@/stopped_mid_night" in line
    assert len(line) < 600 and "[SQL" not in line and "INSERT" not in line and "Traceback" not in err
    root = Path(make_url(url).query["host"])
    _pg_ctl(url, "-w", "-l", str(root / "log"), "-o", f"-k {root} -c listen_addresses='' -F", "start")
    resumed = run_cli("league", "run", str(path), "--workers", "1", "-q", env=env)
    out, err = resumed.communicate(timeout=180)
    assert resumed.returncode == 0, err
    assert "Leaderboard: pgstop" in out
