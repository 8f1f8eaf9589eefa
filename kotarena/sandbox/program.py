"""Command-line bots in the sandbox: starting the program, and seating it outside ladders.

Two sides of a :class:`~kotarena.bots.command.CommandBot`:

* in the fork server (:mod:`kotarena.sandbox.host`), :func:`exec_program` turns a
  seat's freshly forked process into the bot's program, its standard input and output
  on the seat's connection: the program speaks the protocol itself, in the seat's
  sandbox and cgroup, so its CPU time is counted from outside like any sandboxed bot's,
  and its standard error on a pipe the referee reads the game's lines from (step by
  step, and on to the bot's log: :class:`~kotarena.sandbox.botlog.ProgramLines`);
* where a command-line bot's class itself is called (the Python API), a
  :class:`ProgramSeat` seats the program through the same fork servers and relays the
  bot object's calls to it (:mod:`kotarena.sandbox.relay`; ``play``, ``match``,
  ``compare`` and ``bots check`` seat it with a relay of their own, without importing
  its package).
"""

from __future__ import annotations

import os
import resource
import socket
from typing import Any, NoReturn

from kotarena.sandbox.relay import Relay


def exec_program(conn: socket.socket, argv: list[str], memory_mb: int, file_mb: int,
                 err: int | None = None) -> NoReturn:
    """Become the program ``argv``, speaking on ``conn`` (in a seat's forked process),
    its standard error ``err`` where the referee sent one: a pipe it reads the game's
    lines from, step by step (:class:`kotarena.sandbox.botlog.ProgramLines`); else the
    host's own, the log."""
    fd = conn.fileno()
    os.dup2(fd, 0)
    os.dup2(fd, 1)
    if err is not None:
        os.dup2(err, 2)
        os.close(err)
    size = memory_mb << 20
    resource.setrlimit(resource.RLIMIT_AS, (size, size))
    resource.setrlimit(resource.RLIMIT_FSIZE, (file_mb << 20, file_mb << 20))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    os.execv(argv[0], argv)  # (an OSError here: the seat ends, and forfeits as a crash)


class ProgramSeat(Relay):
    """A command-line bot's program seated for one game, for a caller that holds the
    bot object (:class:`~kotarena.bots.command.CommandBot` itself): a
    :class:`~kotarena.sandbox.relay.Relay` in the instance of the seat's number.

    Always in the sandbox: where it cannot be had, the seat is refused (``sandbox``).
    """

    def __init__(self, cls: type, view: Any, *, seed: int | None, params: dict, time_limit: float) -> None:
        import importlib.metadata

        from kotarena.bots.registry import get_bot

        try:  # (the registry knows which distribution registered the bot's name)
            dist = get_bot(cls.name).package if get_bot(cls.name).cls is cls else None
        except Exception:  # noqa: BLE001 - a class registered under no name here
            dist = None
        if dist is None:
            try:
                dist = importlib.metadata.packages_distributions().get(cls.__module__.split(".")[0], [None])[0]
            except Exception:  # noqa: BLE001 - a class defined outside any installed package
                dist = None
        super().__init__(cls.name, view, slot=view.player, seed=seed, params=params, time_limit=time_limit,
                         dist=dist, why="is a program, which plays only in the sandbox", program=True)


__all__ = ["ProgramSeat", "exec_program"]
