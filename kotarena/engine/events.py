"""Reading the event log: a plain English line per event, and a text form that round-trips.

``state.log`` is a list of small tuples such as ``("damage", 1, 3, 2)``. This module
gives each of them two faces:

* :func:`format_event` -- what a person reads: ``Cyber Bunny takes 3 damage from Giga
  Zaur``. It prints only what the event holds (the health left is not in a damage
  event, so it is not printed) and never fails: an event it does not know, or one
  whose shape it does not expect, is shown in its text form.
* :func:`event_to_text` / :func:`event_from_text` -- what replay files store:
  ``damage 1 3 2``. The text is one line and reads back to an equal tuple, for every
  event kind, including kinds that future cards will add.

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
from collections.abc import Sequence

from kotarena.engine.dice import FACE_NAMES

__all__ = ["EventTextError", "event_from_text", "event_to_text", "format_event"]


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


# ------------------------------------------------------------------ English

def _who(names: Sequence[str], seat: object) -> str:
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(names):
        return names[seat]
    return f"seat {seat}"


def _faces(dice: object) -> str:
    return " ".join(FACE_NAMES[f] if isinstance(f, int) and 0 <= f < len(FACE_NAMES) else str(f) for f in dice)


def _plural(count: object, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


_CARD_NAMES: dict[str, str] = {}


def _card_name(card_id: object) -> str:
    # Card ids are unique across decks; a card no deck knows is shown by its id.
    if not _CARD_NAMES:
        from kotarena.cards import DECKS

        _CARD_NAMES.update((info.id, info.name) for table in DECKS.values() for info in table)
    return _CARD_NAMES.get(card_id, str(card_id)) if isinstance(card_id, str) else str(card_id)


_STAR_REASONS = {
    "dice": "from the dice",
    "start in tokyo": "for starting the turn in Tokyo",
    "take tokyo": "for taking Tokyo",
}
_LEAVE_REASONS = {"yield": "yields", "eliminated": "eliminated", "bay closed": "Tokyo Bay closes"}
_WINS = {
    "stars": "by reaching 20 stars",
    "last_standing": "as the last monster standing",
}


def _rolloff(names, claws) -> str:
    return "Roll-off for the first turn: " + ", ".join(f"{_who(names, s)} {_plural(c, 'claw')}" for s, c in claws)


def _roll(names, seat, dice, positions) -> str:
    if not positions:
        return f"{_who(names, seat)} rolls {_faces(dice)}"
    return f"{_who(names, seat)} rerolls {' '.join(map(str, positions))} -> {_faces(dice)}"


def _damage(names, target, amount, source) -> str:
    line = f"{_who(names, target)} takes {amount} damage"
    return line if source is None or source == -1 else f"{line} from {_who(names, source)}"


def _over(names, winner, termination) -> str:
    if winner is None:
        return f"Game over: nobody wins ({termination})"
    return f"Game over: {_who(names, winner)} wins {_WINS.get(termination, f'({termination})')}"


#: kind -> (number of fields after the kind, formatter taking names and the fields).
_FORMATS = {
    "rolloff": (1, _rolloff),
    "turn": (2, lambda names, seat, number: f"Turn {number}: {_who(names, seat)}"),
    "roll": (3, _roll),
    "act": (2, lambda names, seat, text: f"{_who(names, seat)} chooses: {text}"),
    "stars": (3, lambda names, seat, amount, reason: (
        f"{_who(names, seat)} gains {_plural(amount, 'star')} {_STAR_REASONS.get(reason, f'({reason})')}")),
    "energy": (2, lambda names, seat, amount: f"{_who(names, seat)} gains {amount} energy"),
    "heal": (2, lambda names, seat, amount: f"{_who(names, seat)} heals {amount}"),
    "damage": (3, _damage),
    "eliminated": (1, lambda names, seat: f"{_who(names, seat)} is eliminated"),
    "enter": (2, lambda names, seat, place: f"{_who(names, seat)} enters Tokyo {str(place).capitalize()}"),
    "leave": (3, lambda names, seat, place, reason: (
        f"{_who(names, seat)} leaves Tokyo {str(place).capitalize()} ({_LEAVE_REASONS.get(reason, reason)})")),
    "bay closed": (0, lambda names: "Tokyo Bay closes: fewer than 5 monsters are left"),
    "buy": (4, lambda names, seat, card, slot, cost: (
        f"{_who(names, seat)} buys {_card_name(card)} from market slot {slot} for {cost} energy")),
    "sweep": (1, lambda names, seat: f"{_who(names, seat)} sweeps the market"),
    "reveal": (2, lambda names, slot, card: f"{_card_name(card)} is revealed in market slot {slot}"),
    "reshuffle": (1, lambda names, count: f"The discard pile ({_plural(count, 'card')}) is shuffled into a new deck"),
    "over": (2, _over),
}


def format_event(event: tuple, names: Sequence[str]) -> str:
    """One plain English line for an event of ``state.log``; ``names`` are the monsters by seat.

    >>> format_event(("roll", 2, (0, 1, 2, 2, 4, 3), ()), ["Alienoid", "Cyber Bunny", "Giga Zaur"])
    'Giga Zaur rolls 1 2 3 3 heart energy'

    Events of a kind (or shape) this module does not know are shown in their text
    form, so a new card's events print before anyone writes words for them.
    """
    entry = _FORMATS.get(event[0]) if event and isinstance(event[0], str) else None
    if entry is not None and len(event) == entry[0] + 1:
        try:
            return entry[1](names, *event[1:])
        except (TypeError, ValueError):  # an odd value in a known kind: fall back below
            pass
    try:
        return event_to_text(event)
    except TypeError:
        return repr(event)
