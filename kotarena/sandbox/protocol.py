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
import math
import re
import sys
from collections.abc import Callable, Iterable
from enum import Enum
from typing import Any

from kotarena.engine.actions import Action, parse_action
from kotarena.engine.outcome import Outcome
from kotarena.forfeits import _ACTIONS  # (one cache of parsed texts; the referee's answers are read there)

#: The protocol's version: the ``protocol`` of the bot's first line and of ``hello``.
PROTOCOL = 1
#: The longest line a bot may send, in bytes; a longer one is garbage (``invalid``).
MAX_LINE = 1 << 20
#: Legal lists numbered on one batch connection (:mod:`kotarena.sandbox.batch`): a list
#: sent again after the first this many is sent whole.
LEGAL_LISTS = 1024


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


#: The deepest nesting of arrays and objects a line may hold. A message is an object of
#: plain fields, a view a few levels more; a deeper line is garbage, refused before it is
#: parsed (parsing it, or printing it, would recurse as deep as it goes).
MAX_DEPTH = 16
#: The longest integer a line may hold, in digits: Python's own default limit for
#: turning text into an integer (``sys.get_int_max_str_digits``), which the decoder
#: applies itself where the interpreter was told to allow longer ones.
MAX_DIGITS = 4300
#: The fields of a message that are read as text, wherever they appear at its top level.
TEXT_FIELDS = ("type", "action", "message", "kind")

_NOT_BRACKET = bytes(set(range(256)) - set(b"[]{}"))
_NOT_BRACKET_OR_QUOTE = bytes(set(range(256)) - set(b'[]{}"'))
_SQUARE = bytes.maketrans(b"{}", b"[]")


def _too_long(digits: int) -> ProtocolError:
    return ProtocolError(f"sent a number of {digits} digits (at most {MAX_DIGITS})")


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _too_long(len(text.lstrip("-")))
    return int(text)


def _real(text: str) -> float:
    if len(text) > MAX_DIGITS:
        raise _too_long(len(text))
    value = float(text)
    if not math.isfinite(value):
        raise ProtocolError(f"sent the number {text[:20]}, which is too large")
    return value


def _constant(name: str) -> None:
    raise ProtocolError(f"sent {name}, which is not JSON")


# A line is JSON as RFC 8259 means it, nothing that Python's decoder adds (NaN,
# Infinity, numbers too large for a float). Integers are read by the interpreter's own
# code, which refuses more than ``sys.get_int_max_str_digits()`` digits; where that
# limit is off or higher than ours, every integer goes through ``_integer`` instead (a
# call per number: slower). A key given twice is not refused: the last one counts, as
# everywhere in Python, and no line is stored or read again elsewhere.
_DECODE = json.JSONDecoder(parse_float=_real, parse_constant=_constant).decode
_DECODE_COUNTED = json.JSONDecoder(parse_int=_integer, parse_float=_real, parse_constant=_constant).decode
_INT_LIMIT = re.compile(r"Exceeds the limit \((\d+) digits\) for integer string conversion.*?has (\d+) digits")


def encode(message: dict) -> bytes:
    """One message as its line."""
    return (_ENCODE(message) + "\n").encode()


def decode(line: bytes) -> dict:
    """The message a line holds; :class:`ProtocolError`, with a one-line reason, for
    anything else.

    A message is a JSON object (UTF-8, at most :data:`MAX_LINE` bytes) nested at most
    :data:`MAX_DEPTH` deep, whose integers have at most :data:`MAX_DIGITS` digits and
    whose other numbers are finite floats (no ``NaN``, no ``Infinity``), with no text
    that is not Unicode (a lone surrogate), a text ``type``, and text in any of its
    :data:`TEXT_FIELDS` it has. Nothing else is ever raised, whatever the line holds.
    """
    if len(line) > MAX_LINE:
        raise ProtocolError(f"sent a line of {len(line)} bytes (at most {MAX_LINE})")
    try:
        text = line.decode()
    except UnicodeDecodeError as error:
        raise ProtocolError(f"sent a line that is not UTF-8 (byte {error.start})") from None
    if _too_deep(line):
        raise ProtocolError(f"sent a line nested more than {MAX_DEPTH} deep")
    limit = sys.get_int_max_str_digits()
    try:
        message = (_DECODE if 0 < limit <= MAX_DIGITS else _DECODE_COUNTED)(text)
    except ProtocolError:
        raise
    except (ValueError, RecursionError) as error:
        digits = _INT_LIMIT.search(str(error))
        if digits:
            raise _too_long(int(digits[2])) from None
        raise ProtocolError(f"sent {_shorten(line)}, which is not JSON") from None
    if not isinstance(message, dict):
        raise ProtocolError(f"sent {_shorten(line)}, which is not a JSON object")
    if b"\\" in line and b"\\u" in line and not _unicode(message):
        raise ProtocolError("sent text that is not Unicode (a lone surrogate)")
    kind = message.get("type")
    if type(kind) is not str:
        raise ProtocolError(f"sent a message whose type is {_json_kind(kind)}, not text")
    for name in TEXT_FIELDS:
        value = message.get(name)
        if value is not None and type(value) is not str:
            if name == "action":
                raise ProtocolError(f"answered with an action that is {_json_kind(value)}, which names no action")
            raise ProtocolError(f"sent a message of type {ascii(kind[:40])} whose {name} is {_json_kind(value)}, "
                                "not text")
    return message


def _too_deep(line: bytes) -> bool:
    """Whether ``line`` opens more than :data:`MAX_DEPTH` arrays or objects at once.

    Only its brackets count, outside texts. Each pass takes away the pairs with nothing
    between them (the innermost), so a line nested ``d`` deep is empty after ``d``
    passes; what is left after :data:`MAX_DEPTH` passes is nested deeper, or opened and
    never closed. Every step is a pass of C code over the line (at most a few tens of
    milliseconds for the longest line), never a Python loop over its bytes.
    """
    if line.count(b"[") + line.count(b"{") <= MAX_DEPTH:
        return False
    if b'"' in line:
        # Texts out: escaped backslashes, then escaped quotes, so that every quote left
        # opens or closes a text; then every other piece is outside the texts.
        line = line.replace(b"\\\\", b"").replace(b'\\"', b"")
        line = b"".join(line.translate(None, _NOT_BRACKET_OR_QUOTE).split(b'"')[::2])
    brackets = line.translate(_SQUARE, _NOT_BRACKET)
    opened = brackets.find(b"]")
    if opened > MAX_DEPTH or (opened < 0 and len(brackets) > MAX_DEPTH):
        return True
    passes = 0
    while passes < MAX_DEPTH:
        shorter = brackets.replace(b"[]", b"")
        if len(shorter) == len(brackets):
            break
        brackets, passes = shorter, passes + 1
    else:
        return b"[" in brackets
    # Left: closing brackets, then opening ones that are never closed, each around up
    # to ``passes`` levels of what was taken away.
    return brackets.count(b"[") + passes > MAX_DEPTH


def _unicode(value: object) -> bool:
    """Whether every text in ``value`` (a decoded line, so at most :data:`MAX_DEPTH`
    deep) can be written as UTF-8."""
    if isinstance(value, str):
        try:
            value.encode()
        except UnicodeEncodeError:
            return False
        return True
    if isinstance(value, dict):
        return all(_unicode(key) and _unicode(item) for key, item in value.items())
    if isinstance(value, list):
        return all(_unicode(item) for item in value)
    return True


def _json_kind(value: object) -> str:
    if value is None:
        return "missing"
    kinds = {bool: "a boolean", int: "a number", float: "a number", list: "an array", dict: "an object"}
    return kinds.get(type(value), "not text")


def _shorten(line: bytes) -> str:
    text = line.decode("utf-8", "replace").rstrip("\n")
    return ascii(text if len(text) <= 80 else text[:77] + "...")


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
    """``value`` with its JSON arrays as tuples (as a view holds them)."""
    if type(value) is not list:
        return value
    if list in map(type, value):  # (most arrays hold none: one pass in C, then a copy in C)
        return tuple([_tuples(item) for item in value])
    return tuple(value)


def _outcome(data: object) -> Outcome | None:
    return None if data is None else Outcome.from_json(data)  # type: ignore[arg-type]


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

    def read(self, changes: dict, legal: tuple[Action, ...] | None = None) -> Any:
        """The view after ``changes`` (the whole view in ``hello``), with ``legal`` for
        its legal actions if given (instead of a ``legal`` in ``changes``)."""
        fields = {name: _FIELDS.get(name, _tuples)(value) for name, value in changes.items()}
        if legal is not None:
            fields["legal"] = legal
        self.view = self.view_type(**fields) if self.view is None else self.view._replace(**fields)
        return self.view


__all__ = ["LEGAL_LISTS", "MAX_DEPTH", "MAX_DIGITS", "MAX_LINE", "PROTOCOL", "ProtocolError", "ViewReader", "decode", "encode", "view_changes"]
