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

import functools
import re
from collections.abc import Mapping
from typing import Any

from kotarena.engine.actions import Action, ActionError, parse_action
from kotarena.engine.outcome import EngineError
from kotarena.games import get_game

_ACTIONS: dict[str, Action] = {}
#: The most texts kept parsed. Only an action's own text is kept (``"stop"``, not a
#: bot's ``"Stop"`` followed by a megabyte of spaces): what a bot sends never grows the
#: referee's memory beyond this.
_KEPT = 4096


def action_of(text: str) -> Action:
    """The action ``text`` names (:class:`~kotarena.engine.actions.ActionError` if none)."""
    action = _ACTIONS.get(text)
    if action is None:
        action = parse_action(text)
        if action.text == text and len(_ACTIONS) < _KEPT:
            _ACTIONS[text] = action
    return action


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


#: The longest reason stored, in characters (the first line of a forfeit's detail).
REASON_LIMIT = 300
#: The longest rest of a detail stored after its reason (a traceback's innermost frames).
BODY_LIMIT = 3000
#: How much of a detail is read at most before it is cleaned: its head and its tail.
_READ = 16_000
_TRACEBACK = "Traceback (most recent call last):"
#: Terminal escape sequences (CSI, OSC, DCS and the like, and two-character escapes).
_ESCAPE = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]?|[\]PX^_][^\x07\x1b]*(?:\x07|\x1b\\)?|[ -/]*[0-~]?)|\x9b[0-?]*[ -/]*[@-~]?")


def clean_detail(detail: object) -> str:
    """A forfeit's detail as it is stored and shown: one line of reason first, then (if
    there is more) the rest, bounded, with nothing a terminal or a page would act on.

    A detail may hold a bot's own words (its error message, its traceback, an answer it
    sent), so whatever it holds: terminal escapes and control characters (all but line
    breaks and tabs; carriage returns become line breaks), Unicode's format characters
    (bidirectional overrides) and text that is not Unicode (lone surrogates) are taken
    out; the reason is at most :data:`REASON_LIMIT` characters on one line, and the rest
    at most :data:`BODY_LIMIT`, its tail kept (a traceback's innermost frames). A
    Python traceback that comes first (as a sandboxed Python bot's host sends it) is
    turned around: its exception's line (``ValueError: boom``) is the reason. The result
    is its own cleaning: ``clean_detail(clean_detail(x)) == clean_detail(x)``.
    """
    text = detail if isinstance(detail, str) else str(detail)
    if len(text) > 2 * _READ:
        text = text[:_READ] + "\n[...]\n" + text[-_READ:]
    text = _printable(text)
    lines = [line.rstrip() for line in text.split("\n")]
    while lines and not lines[0].strip():
        lines.pop(0)
    if not lines:
        return "(no reason given)"
    at = _exception_line(lines) if lines[0] == _TRACEBACK else 0
    reason = " ".join(lines.pop(at).split())
    if len(reason) > REASON_LIMIT:
        reason = reason[:REASON_LIMIT - 3] + "..."
    body = "\n".join(lines).strip("\n")
    if len(body) > BODY_LIMIT:
        cut = body[-(BODY_LIMIT - 6):]
        body = "[...]\n" + cut[cut.find("\n") + 1:] if "\n" in cut else "[...]" + cut
    return reason + "\n" + body if body else reason


def forfeit_reason(detail: str | None) -> str:
    """The one-line reason of a forfeit's detail, as tables show it (old records, stored
    before :func:`clean_detail`, are cleaned here)."""
    return clean_detail(detail or "").split("\n", 1)[0]


def _printable(text: str) -> str:
    text = text.encode("utf-8", "replace").decode("utf-8")  # lone surrogates: "?"
    text = _ESCAPE.sub("", text).replace("\r\n", "\n").replace("\r", "\n").replace("\t", " ")
    if text.isprintable():
        return text
    # (Not printable: control and format characters, bidirectional overrides among
    # them, private use, unassigned, separators but the space.)
    return "".join(char for char in text if char == "\n" or char.isprintable())


def _exception_line(lines: list[str]) -> int:
    """Where the exception's own line is in a traceback: the first line after the last
    ``Traceback`` header's frames (which are indented) that is not indented; else its
    last line."""
    start = max(at for at, line in enumerate(lines) if line.strip() == _TRACEBACK)
    for at in range(start + 1, len(lines)):
        line = lines[at]
        if line and not line[0].isspace() and not line.startswith("[...]"):
            return at
    return max(at for at, line in enumerate(lines) if line.strip())


def as_action(answer: object, view: Any) -> Action:
    """The action a bot's answer names, or an ``invalid`` failure.

    Whether the action is legal is the engine's call (``state.apply`` checks it against
    its legal set); here we only turn text into an action and refuse anything else.
    """
    if type(answer) is Action:
        return answer
    if type(answer) is str:
        try:
            action = action_of(answer)
            if action not in view.legal:  # read with the game's verbs: its grammar (King of Tokyo
                # reads "reroll 4 1" as "reroll 1 4"), or a verb it has not, said so
                action = parse_action(answer, _verbs(getattr(view, "game", "")))
            return action
        except ActionError as error:
            raise BotFailure(INVALID, f"answered {answer[:200]!r}, which is not an action: {str(error)[:200]}") from None
    raise BotFailure(INVALID, f"answered {_safe_repr(answer)}, which is not an action (for the {view.kind} decision)")


@functools.lru_cache(maxsize=64)
def _verbs(game: str) -> Mapping[str, Any]:
    """The verbs of the game called ``game`` (none, for a game this kotarena does not
    know: any ``verb arg ...`` parses then)."""
    try:
        return get_game(game).verbs
    except EngineError:
        return {}


def _safe_repr(answer: object) -> str:
    # A trusted bot's answer is its own object: only its type is described, never its
    # repr (which is the bot's code).
    return f"an object of type {type(answer).__name__!r}"


__all__ = ["CRASH", "ERROR", "INVALID", "KINDS", "MEMORY", "SANDBOX", "TIMEOUT", "BotFailure", "action_of", "as_action",
           "clean_detail", "forfeit_reason"]
