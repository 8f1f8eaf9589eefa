"""League fixtures: the misbehaving-bots plugin, on ``sys.path`` like an installed package,
and a throwaway PostgreSQL server.

``tests/fixtures/failbots`` holds a module and its ``.dist-info`` (with the entry
point), so ``importlib.metadata`` discovers it exactly as it discovers a pip-installed
bot. ``PYTHONPATH`` carries it into subprocesses (resume tests run the real CLI).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import psycopg  # in the test extra, like every test dependency: missing, it is an error, not a skip
import pytest

from kotarena import plugins
from kotarena.testing import missing

FAILBOTS = Path(__file__).parent.parent / "fixtures" / "failbots"


@pytest.fixture
def failbots(monkeypatch):
    """Make the failbots plugin visible (and only it besides what is installed), and
    trusted: the tests seat its bots in their own process too (a ladder still seats
    them in the sandbox unless it says ``trusted = true``)."""
    monkeypatch.syspath_prepend(str(FAILBOTS))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(FAILBOTS), os.environ.get("PYTHONPATH")])))
    monkeypatch.setenv("KOTARENA_TRUST", "kotarena-failbots")
    plugins.reset()
    yield FAILBOTS
    plugins.reset()
    sys.modules.pop("kotarena_failbots", None)


def _server_programs() -> Path | None:
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).parent
    installed = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"), key=lambda p: int(p.parts[-3]))
    return installed[-1].parent if installed else None


@pytest.fixture(scope="module")
def server():
    """A PostgreSQL server of our own, on a Unix socket in a temporary folder; yields
    a function giving the URL of a new, empty database on it."""
    programs = _server_programs()
    if programs is None:
        missing("PostgreSQL's server programs (initdb, pg_ctl) are not installed (apt install postgresql)")
    # Outside pytest's own temporary folder, which only root may enter: the server
    # refuses to run as root, so under root it runs as the postgres user.
    root = Path(tempfile.mkdtemp(prefix="kotarena-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    data = root / "data"

    def new_database(name: str) -> str:
        with psycopg.connect(host=str(root), user="postgres", dbname="postgres", autocommit=True) as connection:
            connection.execute(f"CREATE DATABASE {name}")
        return f"postgresql+psycopg://postgres@/{name}?host={root}"

    try:
        subprocess.run([*as_user, str(programs / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres",
                        "--no-sync"], check=True, capture_output=True)
        subprocess.run([*as_user, str(programs / "pg_ctl"), "-D", str(data), "-w", "-l", str(root / "log"),
                        "-o", f"-k {root} -c listen_addresses='' -F", "start"], check=True, capture_output=True)
        yield new_database
    finally:
        if (data / "postmaster.pid").exists():
            subprocess.run([*as_user, str(programs / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                           capture_output=True)
        shutil.rmtree(root, ignore_errors=True)


def write_ladder(path: Path, text: str) -> Path:
    path.write_text(text)
    return path
