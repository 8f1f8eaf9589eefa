"""What the installed bots declare, read without importing them into the referee.

A plugin's import-time code is the bot author's code. The referee (the process that
reads a ladder, coordinates a night and stores its results, and its workers) imports
only kotarena and the packages of the bots a ladder trusts; everything else is imported
by the Python host in the sandbox (``kotarena.sandbox.host --catalogue``), which sends
back, as JSON, each bot's name, package, version, games, parameters and description.
:func:`seal` then gives the bot registry those declarations for the untrusted bots.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time

from kotarena.sandbox.jail import jail_command, python_paths, sandbox_problem
from kotarena.sandbox.seat import read_line

#: Seconds the installed plugins may take to import, all together.
CATALOGUE_SECONDS = 120.0


class CatalogueError(RuntimeError):
    """The installed bots' declarations could not be read."""


def read_catalogue(*, jailed: bool | None = None) -> dict:
    """The installed bots' declarations: ``{"bots": [...], "errors": [...]}``.

    Read in the sandbox (``jailed``, by default wherever it can be had), else in a plain
    process of its own with a cleared environment: never by importing plugins here.
    """
    if jailed is None:
        jailed = sandbox_problem() is None
    ours, theirs = socket.socketpair()
    command = [sys.executable, "-I", "-m", "kotarena.sandbox.host", "--catalogue", "--control", str(theirs.fileno()),
               "--path", json.dumps(python_paths())]
    with ours:
        try:
            streams = {"stdin": subprocess.DEVNULL, "stdout": subprocess.DEVNULL, "stderr": subprocess.PIPE}
            if jailed:
                process = jail_command(command).start(pass_fds=(theirs.fileno(),), start_new_session=True, **streams)
            else:
                process = subprocess.Popen(command, pass_fds=(theirs.fileno(),), start_new_session=True,
                                           env={"PATH": "/usr/bin:/bin"}, **streams)
        finally:
            theirs.close()
        try:
            line = read_line(ours, bytearray(), time.monotonic() + CATALOGUE_SECONDS)
        except (TimeoutError, OSError):
            line = None
        finally:
            if process.poll() is None:
                process.kill()
            _, err = process.communicate()
    if not line:
        detail = err.decode(errors="replace").strip().splitlines()[-1:] or ["no answer"]
        raise CatalogueError(f"could not read the installed bots: {detail[0]}")
    message = json.loads(line)
    if message.get("type") != "catalogue":
        raise CatalogueError(f"could not read the installed bots: {line[:200]!r}")
    return message


__all__ = ["CatalogueError", "read_catalogue"]
