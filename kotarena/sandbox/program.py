"""Command-line bots in the sandbox: starting the program, and seating it outside ladders.

Two sides of a :class:`~kotarena.bots.command.CommandBot`:

* in the fork server (:mod:`kotarena.sandbox.host`), :func:`exec_program` turns a
  seat's freshly forked process into the bot's program, its standard input and output
  on the seat's connection: the program speaks the protocol itself, in the seat's
  sandbox and cgroup, so its CPU time is counted from outside like any sandboxed bot's;
* in a process that calls bot objects itself (``play``, ``match``, ``compare``,
  ``bots check``), a :class:`ProgramSeat` seats the program through the same fork
  servers and relays the bot object's calls to it.
"""

from __future__ import annotations

import os
import resource
import socket
from typing import Any, NoReturn

from kotarena.engine.actions import Action
from kotarena.forfeits import CRASH, SANDBOX, BotFailure, as_action


def exec_program(conn: socket.socket, argv: list[str], memory_mb: int, file_mb: int) -> NoReturn:
    """Become the program ``argv``, speaking on ``conn`` (in a seat's forked process)."""
    fd = conn.fileno()
    os.dup2(fd, 0)
    os.dup2(fd, 1)
    size = memory_mb << 20
    resource.setrlimit(resource.RLIMIT_AS, (size, size))
    resource.setrlimit(resource.RLIMIT_FSIZE, (file_mb << 20, file_mb << 20))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    os.execv(argv[0], argv)  # (an OSError here: the seat ends, and forfeits as a crash)


def _game_of(view: Any) -> str:
    """The game a view belongs to: its ``game`` field, else the game of its type."""
    from kotarena.games import games, get_game

    name = getattr(view, "game", None)
    if isinstance(name, str):
        return name
    for candidate in games():
        if get_game(candidate).view_type is type(view):
            return candidate
    raise ValueError(f"no installed game has views of type {type(view).__name__}")


class ProgramSeat:
    """A command-line bot's program seated for one game, for a caller that holds the
    bot object (the ladder seats programs through :mod:`kotarena.tournament.matches`).

    Always in the sandbox: where it cannot be had, the seat is refused (``sandbox``).
    """

    def __init__(self, cls: type, view: Any, *, seed: int | None, params: dict, time_limit: float) -> None:
        from kotarena.sandbox.jail import sandbox_problem
        from kotarena.sandbox.seat import SandboxedSeat, default_log_dir, seat_server
        from kotarena.tournament.seats import DEFAULT_MEMORY_MB

        self.name = cls.name
        problem = sandbox_problem()
        if problem is not None:
            raise BotFailure(SANDBOX, f"the {cls.name} bot is a program, which plays only in the sandbox: {problem}")
        self.server = seat_server(cls.name, view.player, jailed=True, memory_mb=DEFAULT_MEMORY_MB,
                                  log_dir=default_log_dir())
        self.seat = SandboxedSeat(self.server, time_limit, game=_game_of(view), seat=view.player,
                                  params=dict(params))
        try:
            self.seat.start(0 if seed is None else seed, view)
            self.seat.settle()
        except BotFailure as failure:
            self.close()
            raise self._named(failure) from None
        except BaseException:
            self.close()
            raise

    def choose(self, view: Any) -> tuple[Action, float]:
        """The program's action for ``view``, and the CPU seconds it took."""
        if self.seat is None:
            raise BotFailure(CRASH, f"the {self.name} bot's program already failed in this game")
        before = self.seat.cpu
        try:
            action = as_action(self.seat.choose(view), view)
        except BotFailure as failure:
            self.close()
            raise self._named(failure) from None
        except BaseException:
            self.close()
            raise
        return action, self.seat.cpu - before

    def _named(self, failure: BotFailure) -> BotFailure:
        # (the caller holds several bots: say whose program failed)
        return BotFailure(failure.kind, f"the {self.name} bot's program: {failure.detail}")

    def finish(self, view: Any) -> None:
        """Tell the program how the game ended, and end its processes."""
        try:
            self.seat.finish(view)
            self.seat.settle()
        finally:
            self.close()

    def close(self) -> None:
        """End the seat and every process the program left (the server stays for the next game)."""
        seat, self.seat = self.seat, None
        if seat is not None:
            seat.close()
            self.server.reset()


__all__ = ["ProgramSeat", "exec_program"]
