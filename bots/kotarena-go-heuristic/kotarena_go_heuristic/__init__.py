"""The heuristic bot in Go: a command-line bot that kotarena seats in the sandbox.

The program (``go/``, built into ``bin/go-heuristic`` when the package is installed)
speaks kotarena's JSON-lines protocol on its standard input and output and plays by
the rules of thumb of the Python heuristic bot (``bots/kotarena-heuristic``). This
module only declares it: kotarena runs the program, never Go code in its own process.
"""

from __future__ import annotations

from kotarena.bots.command import CommandBot
from kotarena.hookspecs import hookimpl

__all__ = ["GoHeuristicBot", "register_bots"]


class GoHeuristicBot(CommandBot):
    """The heuristic bot's rules of thumb, in Go: dice goals, Tokyo by health, cards by worth."""

    name = "go-heuristic"
    games = frozenset({"kot", "origins"})
    parameters = {}  # none
    command = ("bin/go-heuristic",)


@hookimpl
def register_bots(register) -> None:
    """Tell kotarena about the Go heuristic bot."""
    register(GoHeuristicBot)
