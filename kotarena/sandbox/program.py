"""Command-line bots seated outside ladders.

Where a :class:`~kotarena.bots.command.CommandBot`'s class itself is called (the Python
API), a :class:`ProgramSeat` seats the program through the fork servers and relays the
bot object's calls to it (:mod:`kotarena.sandbox.relay`; ``play``, ``match``,
``compare`` and ``bots check`` seat it with a relay of their own, without importing its
package). In the fork server, :func:`kotarena.sandbox.process.exec_program` turns a seat's
freshly forked process into the program, its standard error on a pipe the referee
reads the game's lines from (step by step, and on to the bot's log:
:class:`~kotarena.sandbox.botlog.ProgramLines`).
"""

from __future__ import annotations

from typing import Any

from kotarena.sandbox.relay import Relay


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


__all__ = ["ProgramSeat"]
