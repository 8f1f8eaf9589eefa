"""How a bot forfeits: the kinds of failure, and turning a bot's answer into an action.

A seat host (:mod:`kotarena.tournament.seats`, :mod:`kotarena.sandbox.seat`) turns every
way a bot can fail into a :class:`BotFailure` with one of these kinds:

``timeout``  the bot used more CPU time than the limit for one decision (or hung)
``error``    the bot raised an exception (the detail ends with its traceback)
``invalid``  the bot answered with something that is not a legal action, or broke the
             protocol (garbage, a wrong version, a line too long)
``crash``    the bot's process ended (it exited, was killed, or killed its host)
``memory``   the bot ran out of memory (its cap, or the kernel killed it for that)
``sandbox``  the sandbox could not seat the bot, or the bot broke one of its rules
"""

from __future__ import annotations

from typing import Any

from kotarena.engine.actions import Action, ActionError
from kotarena.sandbox.protocol import action_of

TIMEOUT = "timeout"
ERROR = "error"
INVALID = "invalid"
CRASH = "crash"
MEMORY = "memory"
SANDBOX = "sandbox"
#: Every kind of forfeit, in the order a report lists them.
KINDS = (TIMEOUT, ERROR, INVALID, CRASH, MEMORY, SANDBOX)

#: A decision may take this many times its CPU limit in wall-clock time before the
#: bot is judged hung (plus ``WALL_GRACE`` seconds for a loaded machine).
WALL_FACTOR = 10.0
WALL_GRACE = 5.0


class BotFailure(Exception):
    """A bot forfeits: ``kind`` is one of :data:`KINDS`, ``detail`` says what happened."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


def as_action(answer: object, view: Any) -> Action:
    """The action a bot's answer names, or an ``invalid`` failure.

    Whether the action is legal is the engine's call (``state.apply`` checks it against
    its legal set); here we only turn text into an action and refuse anything else.
    """
    if type(answer) is Action:
        return answer
    if type(answer) is str:
        try:
            return action_of(answer)
        except ActionError as error:
            raise BotFailure(INVALID, f"answered {answer[:200]!r}, which is not an action: {error}") from None
    raise BotFailure(INVALID, f"answered {_safe_repr(answer)}, which is not an action (for the {view.kind} decision)")


def _safe_repr(answer: object) -> str:
    # A trusted bot's answer is its own object: only its type is described, never its
    # repr (which is the bot's code).
    return f"an object of type {type(answer).__name__!r}"


__all__ = ["CRASH", "ERROR", "INVALID", "KINDS", "MEMORY", "SANDBOX", "TIMEOUT", "BotFailure", "as_action"]
