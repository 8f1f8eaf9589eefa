"""The text form of a logged event: one line that reads back to an equal tuple.

A game's ``state.log`` is a list of small tuples such as ``("damage", 1, 3, 2)``.
:func:`event_to_text` / :func:`event_from_text` give each of them the form replay files
store: ``damage 1 3 2``. The text is one line and reads back to an equal tuple, for
every event kind of every game, including kinds that future cards will add. (What a
person reads is the game's own: King of Tokyo's English lines are
:func:`kotarena.games.kot.events.format_event`.)

The text form (also used by replay headers) is a sequence of values separated by
spaces:

==========================  ===============================================
``12``, ``-1``              an int
``none``, ``true``,         ``None``, ``True``, ``False``
``false``
``stars``, ``Alienoid``     a string that is a plain word (ASCII letters, digits,
                            ``_ . : -``; starting with a letter or ``_``; not one
                            of the three words above in any case)
``"start in tokyo"``        any other string, as a JSON string (ASCII only, so a
                            line never breaks and never depends on an encoding)
``(0 1 2)``                 a tuple; ``()`` is the empty tuple
``[0 1 2]``                 a list
==========================  ===============================================

The event itself is the top-level sequence, without parentheses:
``event_to_text(("roll", 2, (0, 1, 2, 2, 4, 3), ()))`` is ``roll 2 (0 1 2 2 4 3) ()``.
"""

from __future__ import annotations

import json
import re

__all__ = ["EventTextError", "event_from_text", "event_to_text"]


class EventTextError(ValueError):
    """Text that is not the text form of an event."""


# ------------------------------------------------------------------ text form

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_.:\-]*", re.ASCII)
_INT = re.compile(r"-?(?:0|[1-9][0-9]*)", re.ASCII)
_LITERALS = {"none": None, "true": True, "false": False}
# A token: a JSON string, a bracket, or a run of anything else up to a separator.
_TOKEN = re.compile(r'(\s*)("(?:[^"\\]|\\.)*"?|[()\[\]]|[^\s()\[\]"]+)', re.ASCII)
_OPEN = {"(": ")", "[": "]"}
_CLOSING = frozenset(_OPEN.values())


def _value_text(value: object) -> str:
    # bool first: True is an int too, and must not come back as 1.
    if value is None:
        return "none"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(int(value))
    if isinstance(value, str):
        if _WORD.fullmatch(value) and value.lower() not in _LITERALS:
            return value
        return json.dumps(value, ensure_ascii=True)
    if isinstance(value, tuple):
        return "(" + " ".join(map(_value_text, value)) + ")"
    if isinstance(value, list):
        return "[" + " ".join(map(_value_text, value)) + "]"
    raise TypeError(
        f"an event may hold ints, strings, None, booleans, tuples and lists, not {type(value).__name__} ({value!r})"
    )


def event_to_text(event: tuple) -> str:
    """The one-line text form of an event tuple (see the module docstring).

    >>> event_to_text(("stars", 2, 1, "take tokyo"))
    'stars 2 1 "take tokyo"'

    Raises :class:`TypeError` for a value of another type (a float, a dict, ...).
    """
    if not isinstance(event, tuple):
        raise TypeError(f"an event is a tuple, not {type(event).__name__}")
    return " ".join(map(_value_text, event))


def _atom(token: str, text: str) -> object:
    if token.isascii() and token.isdigit():  # the common case first: seats, dice, amounts
        if token[0] != "0" or token == "0":
            return int(token)
    elif token.startswith('"'):
        try:
            value = json.loads(token)
        except ValueError:
            raise EventTextError(f"bad quoted string {token} in {text!r}") from None
        return value
    elif token in _LITERALS:
        return _LITERALS[token]
    elif _INT.fullmatch(token):
        return int(token)
    elif _WORD.fullmatch(token):
        return token
    raise EventTextError(f"bad value {token!r} in {text!r} (quote strings that are not plain words)")


def event_from_text(text: str) -> tuple:
    """The event tuple that :func:`event_to_text` wrote as ``text``.

    >>> event_from_text('stars 2 1 "take tokyo"')
    ('stars', 2, 1, 'take tokyo')

    Raises :class:`EventTextError` for text that is not such a form.
    """
    # The containers still open, innermost last; the event itself is the bottom one.
    stack: list[tuple[str, list]] = []
    opener, items = "", []
    after_value = False  # the previous token ended a value (an atom or a closing bracket)
    for match in _TOKEN.finditer(text):
        token = match.group(2)
        if token in _CLOSING:
            if not stack or _OPEN[opener] != token:
                raise EventTextError(f"unbalanced {token!r} in {text!r}")
            value = tuple(items) if opener == "(" else items
            opener, items = stack.pop()
            items.append(value)
            after_value = True
            continue
        if after_value and not match.group(1):
            raise EventTextError(f"values must be separated by spaces in {text!r}")
        if token in _OPEN:
            stack.append((opener, items))
            opener, items = token, []
            after_value = False
        else:
            items.append(_atom(token, text))
            after_value = True
    if stack:
        raise EventTextError(f"unclosed {opener!r} in {text!r}")
    return tuple(items)
