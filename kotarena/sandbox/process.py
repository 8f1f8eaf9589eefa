"""What a seat's forked process does to itself before the bot runs: the limits that hold
whatever the bot does next, and, for a command-line bot, becoming its program.

Kept apart from :mod:`kotarena.sandbox.host` (the fork server that calls both) so that
neither the host nor the program seating imports the other.
"""

from __future__ import annotations

import os
import resource
import socket
from typing import NoReturn


def limit_memory(memory_mb: int, file_mb: int) -> None:
    """Caps that hold whatever the bot does next: address space, file size, no core."""
    size = memory_mb << 20
    resource.setrlimit(resource.RLIMIT_AS, (size, size))
    resource.setrlimit(resource.RLIMIT_FSIZE, (file_mb << 20, file_mb << 20))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def exec_program(conn: socket.socket, argv: list[str], memory_mb: int, file_mb: int,
                 err: int | None = None) -> NoReturn:
    """Become the command-line bot's program ``argv``, its standard input and output on
    ``conn`` (in a seat's freshly forked process): the program speaks the protocol
    itself, in the seat's sandbox and cgroup, so its CPU time is counted from outside
    like any sandboxed bot's. Its standard error is ``err`` where the referee sent one: a
    pipe it reads the game's lines from, step by step
    (:class:`kotarena.sandbox.botlog.ProgramLines`); else the host's own, the log."""
    fd = conn.fileno()
    os.dup2(fd, 0)
    os.dup2(fd, 1)
    if err is not None:
        os.dup2(err, 2)
        os.close(err)
    limit_memory(memory_mb, file_mb)
    os.execv(argv[0], argv)  # (an OSError here: the seat ends, and forfeits as a crash)
