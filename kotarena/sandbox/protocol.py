"""The JSON-lines protocol between the referee and a bot in another process.

Every message is one JSON object on one line (UTF-8, ending in ``\\n``); ``docs/protocol.md``
is the reference for bot authors. A conversation, one per seat and game:

1. the bot says which protocol it speaks: ``{"type": "bot", "protocol": 1}``;
2. the referee: ``{"type": "hello", "protocol": 1, "game", "seat", "players", "seed",
   "params", "limits", "view"}``; the bot answers ``{"type": "ready"}`` when it is set up;
3. for each decision: ``{"type": "decide", "view": {...}}``, answered by
   ``{"type": "action", "action": "<text of one of view.legal>"}``;
4. at the end: ``{"type": "finish", "view": {...}}`` (``view.outcome`` set), answered
   by ``{"type": "bye"}``; then the referee closes the connection.

A bot that cannot go on may say ``{"type": "error", "message": "..."}`` instead of an
answer (it forfeits, with that message). ``view`` in ``hello`` is the whole view; in
``decide`` and ``finish`` it holds only the fields that changed since the view sent
before (merge them into the last one). Views are sent so because most of a table stays
the same from one decision to the next, and encoding it whole is most of the cost of a
decision.

This module is shared by the referee (:mod:`kotarena.sandbox.seat`) and the Python host
(:mod:`kotarena.sandbox.host`): it imports no bot and no game.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from enum import Enum
from typing import Any

from kotarena.engine.actions import Action, parse_action
from kotarena.engine.outcome import Outcome

#: The protocol's version: the ``protocol`` of the bot's first line and of ``hello``.
PROTOCOL = 1
#: The longest line a bot may send, in bytes; a longer one is garbage (``invalid``).
MAX_LINE = 1 << 20


class ProtocolError(ValueError):
    """A line that breaks the protocol (not JSON, not an object, a wrong ``type``...)."""


def _plain(value: object) -> object:
    """``json.dumps``'s fallback for what a view holds besides tuples, numbers and text."""
    if isinstance(value, Action):
        return value.text
    if isinstance(value, Outcome):
        return value.to_json()
    if isinstance(value, Enum):
        return value.value
    raise TypeError(f"{type(value).__name__} cannot be sent in a view")


_ENCODE = json.JSONEncoder(separators=(",", ":"), default=_plain, ensure_ascii=False).encode


_DECODE = json.JSONDecoder().decode


def encode(message: dict) -> bytes:
    """One message as its line."""
    return (_ENCODE(message) + "\n").encode()


def decode(line: bytes) -> dict:
    """The message a line holds; :class:`ProtocolError` for anything else."""
    if len(line) > MAX_LINE:
        raise ProtocolError(f"sent a line of {len(line)} bytes (at most {MAX_LINE})")
    try:
        message = _DECODE(line.decode())
    except (ValueError, UnicodeDecodeError):
        raise ProtocolError(f"sent {_shorten(line)}, which is not JSON") from None
    if not isinstance(message, dict):
        raise ProtocolError(f"sent {_shorten(line)}, which is not a JSON object")
    return message


def _shorten(line: bytes) -> str:
    text = line.decode("utf-8", "replace").rstrip("\n")
    return repr(text if len(text) <= 80 else text[:77] + "...")


def view_changes(view: tuple, last: tuple | None) -> dict:
    """The fields of ``view`` that differ from ``last`` (all of them when ``last`` is
    ``None``), ready to encode."""
    if last is None:
        changes = dict(zip(view._fields, view))  # type: ignore[attr-defined]
    else:
        changes = {name: value for name, value, before in zip(view._fields, view, last)  # type: ignore[attr-defined]
                   if value is not before and value != before}
    legal = changes.get("legal")
    if legal:  # (their texts here: the encoder's fallback for other objects is slow)
        changes["legal"] = [action.text for action in legal]
    return changes


def _tuples(value: object) -> object:
    return tuple(_tuples(item) for item in value) if isinstance(value, list) else value


def _outcome(data: object) -> Outcome | None:
    return None if data is None else Outcome.from_json(data)  # type: ignore[arg-type]


_ACTIONS: dict[str, Action] = {}


def action_of(text: str) -> Action:
    """The action ``text`` names (:class:`~kotarena.engine.actions.ActionError` if none)."""
    action = _ACTIONS.get(text)
    if action is None:
        action = _ACTIONS[text] = parse_action(text)
    return action


def _actions(texts: Iterable[str]) -> tuple[Action, ...]:
    # The same few dozen texts come back all game: parse each once.
    actions = []
    for text in texts:
        action = _ACTIONS.get(text)
        if action is None:
            action = _ACTIONS[text] = parse_action(text)
        actions.append(action)
    return tuple(actions)


#: How the fields that are not plain data come back from their JSON form.
_FIELDS: dict[str, Callable[[Any], Any]] = {
    "legal": _actions,
    "outcome": _outcome,
}


class ViewReader:
    """Rebuilds a game's views on the bot's side from the messages' ``view`` fields."""

    def __init__(self, view_type: type) -> None:
        self.view_type = view_type
        self.view: Any = None

    def read(self, changes: dict) -> Any:
        """The view after ``changes`` (the whole view in ``hello``)."""
        fields = {name: _FIELDS.get(name, _tuples)(value) for name, value in changes.items()}
        self.view = self.view_type(**fields) if self.view is None else self.view._replace(**fields)
        return self.view


__all__ = ["MAX_LINE", "PROTOCOL", "ProtocolError", "ViewReader", "decode", "encode", "view_changes"]
