"""The sandbox's built-in plugin: a command-line bot object seats its program here.

:class:`~kotarena.bots.command.CommandBot` is a bot, a layer below the sandbox, so it
asks for its seat through the ``seat_program`` hook rather than importing the sandbox.
"""

from __future__ import annotations

from typing import Any

from kotarena.hookspecs import hookimpl


@hookimpl
def seat_program(bot: Any, view: Any) -> Any:
    from kotarena.sandbox.program import ProgramSeat

    return ProgramSeat(type(bot), view, seed=bot.seed, params=bot.params, time_limit=bot.time_limit)
