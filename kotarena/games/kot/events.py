"""King of Tokyo's event log in plain English: a line per event.

:func:`format_event` is what a person reads: ``Cyber Bunny takes 3 damage from Giga
Zaur``. It prints only what the event holds (the health left is not in a damage event,
so it is not printed) and never fails: an event it does not know, or one whose shape it
does not expect, is shown in its text form
(:func:`kotarena.engine.events.event_to_text`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from kotarena.engine.dice import FACE_NAMES
from kotarena.engine.events import event_to_text
from kotarena.games.kot.cards import DECKS

__all__ = ["format_event"]



def _who(names: Sequence[str], seat: object) -> str:
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(names):
        return names[seat]
    return f"seat {seat}"


def _faces(dice: object) -> str:
    return " ".join(FACE_NAMES[f] if isinstance(f, int) and 0 <= f < len(FACE_NAMES) else str(f) for f in dice)


def _plural(count: object, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


#: Card names by id. An id is one title in every deck, though an edition may word the
#: card or spell its name otherwise ("It Has a Child!"): the first deck's name is shown.
_CARD_NAMES: dict[str, str] = {}
for _table in DECKS.values():
    for _info in _table:
        _CARD_NAMES.setdefault(_info.id, _info.name)


def _card_name(card_id: object) -> str:
    # A card no deck knows is shown by its id.
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
    "lose stars": (3, lambda names, seat, amount, reason: (
        f"{_who(names, seat)} loses {_plural(amount, 'star')} ({_card_name(reason)})")),
    "lose energy": (3, lambda names, seat, amount, reason: (
        f"{_who(names, seat)} loses {amount} energy ({_card_name(reason)})")),
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


#: Actions whose effect the events tell (a reroll's new dice, a purchase, a sweep, a
#: yield), so narration skips the action itself.
_SHOWN_BY_EFFECT = ("reroll", "buy", "sweep", "yield")


def event_lines(events: Iterable[tuple], names: Sequence[str]) -> list[str]:
    """One line per event worth reading, in order, for narrating a game."""
    lines = []
    for event in events:
        if event[0] == "act" and event[2].split()[0] in _SHOWN_BY_EFFECT:
            continue
        text = format_event(event, names)
        if text:
            lines.append(text)
    return lines
