"""Trusted plugins are imported by the commands that use them, and by no other; untrusted ones by none.

A plugin's import runs its authors' code in kotarena's own process: ``kotarena
--version`` or ``kotarena db path`` has no reason to run it. The fixture plugin
``kotarena-recorder`` writes a line to a log each time it is imported; the commands run
for real, in a subprocess that finds it installed.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


def kotarena(site: Path, log: Path, *args: str, trust: str | None = "kotarena-recorder") -> subprocess.CompletedProcess:
    env = {**os.environ, "KOTARENA_RECORDER_LOG": str(log), "KOTARENA_DB": str(log.parent / "k.db"),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")]))}
    env.pop("KOTARENA_TRUST", None)
    if trust is not None:
        env["KOTARENA_TRUST"] = trust
    return subprocess.run([sys.executable, "-m", "kotarena", *args], env=env, capture_output=True, text=True,
                          timeout=120)


def imports(log: Path) -> int:
    return len(log.read_text().splitlines()) if log.exists() else 0


@pytest.fixture
def recorder(install, site, tmp_path) -> tuple[Path, Path]:
    install("kotarena-recorder")
    return site, tmp_path / "imports.log"


@pytest.mark.parametrize("args", [("--version",), ("db", "path"), ("leaderboard", "--json"), ("matches", "--json")],
                         ids=lambda args: " ".join(args))
def test_commands_that_use_no_plugin_do_not_import_them(recorder, args):
    site, log = recorder
    result = kotarena(site, log, *args)
    assert imports(log) == 0, (args, result.stderr)


@pytest.mark.parametrize("args", [("bots",), ("plugins",), ("--help",), ("recorder-hello",)],
                         ids=lambda args: " ".join(args))
def test_commands_that_use_plugins_import_them_once(recorder, args):
    site, log = recorder
    result = kotarena(site, log, *args)
    assert result.returncode == 0, result.stderr
    assert imports(log) == 1
    if args == ("recorder-hello",):
        assert result.stdout == "hello from kotarena-recorder\n"
    if args == ("--help",):
        assert "recorder-hello" in result.stdout  # (help lists the plugins' commands)


@pytest.mark.parametrize("args", [("bots",), ("plugins",), ("--help",), ("games",)], ids=lambda args: " ".join(args))
def test_no_command_imports_an_untrusted_plugin(recorder, args, sandbox):
    site, log = recorder
    result = kotarena(site, log, *args, trust=None)
    assert result.returncode == 0, result.stderr
    assert imports(log) == 0


def test_an_untrusted_plugins_command_is_not_there_and_the_error_says_how_to_trust_it(recorder):
    site, log = recorder
    result = kotarena(site, log, "recorder-hello", trust=None)
    assert result.returncode == 2 and imports(log) == 0
    assert "No such command 'recorder-hello'" in result.stderr
    assert "not trusted" in result.stderr and "kotarena-recorder" in result.stderr
    assert "KOTARENA_TRUST=" in result.stderr


def test_the_trust_option_trusts_a_package_for_one_command(recorder):
    site, log = recorder
    result = kotarena(site, log, "--trust", "kotarena-recorder", "recorder-hello", trust=None)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "hello from kotarena-recorder\n" and imports(log) == 1
