"""Bots that are programs: any language, speaking the JSON-lines protocol, always sandboxed.

A package declares a command-line bot as a :class:`CommandBot` subclass that names
its program in ``command``, and registers it through the ``register_bots`` hook like
any other bot::

    class GoHeuristic(CommandBot):
        name = "go-heuristic"
        games = frozenset({"kot", "origins"})
        command = ("bin/go-heuristic",)   # relative: to this module's directory

The program reads the referee's lines on standard input and answers on standard output
(``docs/protocol.md``; ``docs/other-languages.md`` is the page for its author). It
never runs in the referee's process, trusted or not: on the ladder it takes a
sandboxed seat (:mod:`kotarena.sandbox.seat`, the fork server ``exec``s it for each
game), and where kotarena calls a bot object itself (``play``, ``match``, ``compare``,
``bots check``) the object's methods seat the program in the sandbox and relay
(:mod:`kotarena.sandbox.program`, reached through the ``seat_program`` hook). Its CPU
time is counted from outside, by its seat's cgroup, in both cases.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any, ClassVar

from kotarena import plugins
from kotarena.bots.base import Bot
from kotarena.engine.actions import Action


class ProgramMissingError(RuntimeError):
    """A command-line bot's program is not there (not built, or not executable)."""


class CommandBot(Bot):
    """A bot that is a program speaking the protocol; subclass it and set ``command``."""

    #: The program and its arguments. A relative first element is a path from the
    #: directory of the module that defines the class (a program the package ships or
    #: builds); an absolute one is used as it is. The program runs in the sandbox, with
    #: ``/scratch`` as its working directory and a cleared environment.
    command: ClassVar[Sequence[str]] = ()
    #: Seconds of CPU time a decision may take where no ladder sets a limit (``play``,
    #: ``match``, ``bots check`` pass their own).
    time_limit: ClassVar[float] = 1.0

    def __init__(self, *, seed: int | None = None, **params: object) -> None:
        super().__init__(seed=seed, **params)
        self._seat: Any = None
        #: CPU seconds the program used for its last decision (counted by its cgroup).
        self.last_cpu = 0.0

    @classmethod
    def argv(cls) -> list[str]:
        """The command line that starts the program (:class:`ProgramMissingError` if its
        program is not an executable file)."""
        if not cls.command:
            raise ProgramMissingError(f"the {cls.name or cls.__name__} bot names no program (its 'command')")
        program, *arguments = (str(part) for part in cls.command)
        if not os.path.isabs(program):
            module = sys.modules[cls.__module__].__file__ or ""
            program = os.path.join(os.path.dirname(os.path.abspath(module)), program)
        if not (os.path.isfile(program) and os.access(program, os.X_OK)):
            raise ProgramMissingError(f"the {cls.name or cls.__name__} bot's program {program} is not there "
                                      "(build its package again: see its README)")
        return [program, *arguments]

    def start(self, view: Any) -> None:
        self.close()
        # (the sandbox, a layer above the bots, seats the program: kotarena.sandbox.builtin)
        self._seat = plugins.get_plugin_manager().hook.seat_program(bot=self, view=view)

    def choose(self, view: Any) -> Action:
        if self._seat is None:
            self.start(view)
        action, self.last_cpu = self._seat.choose(view)
        return action

    def finish(self, view: Any) -> None:
        if self._seat is not None:
            self._seat.finish(view)
            self._seat = None

    def close(self) -> None:
        """End the program's process if a game was left unfinished."""
        if self._seat is not None:
            self._seat.close()
            self._seat = None

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001, S110 - at teardown, a seat already gone is fine
            pass


def is_program(cls: type | None) -> bool:
    """Whether bot class ``cls`` is a program (it always plays in the sandbox)."""
    return isinstance(cls, type) and issubclass(cls, CommandBot)


__all__ = ["CommandBot", "ProgramMissingError", "is_program"]
