"""The body of an actions-only replay: one line per action, ``a SEAT ACTION``.

A league night writes an actions-only replay for every match, about 150 lines of
about a dozen characters each. The lines repeat (a seat takes the same few actions
again and again), so each seat's line for each action is written once and kept, and a
replay's body is looked up line by line, in a table per seat keyed by the interned
action. This module is compiled with the engine (``NATIVE_MODULES`` in ``setup.py``):
as Python, hashing a ``(seat, action)`` tuple per line, a replay's body took 23-31 µs
a game; compiled, about 16.
"""

from __future__ import annotations

from kotarena.engine.actions import Action

__all__ = ["action_line", "body_lines", "joined_replay"]

#: For each seat, its line for each action written so far. Actions are interned and
#: hash by identity, so the tables stay as small as the legal actions.
_LINES: list[dict[Action, str]] = []


def action_line(seat: int, text: str) -> str:
    """The body line of an action: ``a SEAT ACTION``."""
    return f"a {seat} {text}"


def body_lines(history: list[tuple[int, Action]]) -> list[str]:
    """The body lines of a game's ``history`` (its ``(seat, action)`` pairs), in order."""
    tables = _LINES
    body: list[str] = []
    for seat, action in history:
        while seat >= len(tables):
            tables.append({})
        table = tables[seat]
        line = table.get(action)
        if line is None:
            line = table[action] = action_line(seat, action.text)
        body.append(line)
    return body


def joined_replay(before: str, seed: int | None, after: str, history: list[tuple[int, Action]], result: str) -> str:
    """An actions-only replay's text: the header lines ``before`` and ``after`` its seed
    line, the body lines of ``history``, the ``result`` line, and a final newline."""
    lines = [before, f"seed {seed}", after]
    lines.extend(body_lines(history))
    lines.append(result)
    lines.append("")
    return "\n".join(lines)
