"""King of Tokyo's event log in plain English: a line per event.

:func:`format_event` is what a person reads: ``Cyber Bunny takes 3 damage from Giga
Zaur``. Monsters are named and cards too (never a seat number or a card id); a line
says only what the event holds (the health left is not in a damage event, so it is not
printed). :func:`event_data` is the same event for JSON output, with seats counted
from 1 as every command shows them.

Each kind of event the game logs is a row of :data:`KINDS`: the types of its fields
(which say how a field reads, and which fields are seats) and its sentence. A test
plays games with every card of every deck and checks that each event has its row.
An event no row knows, or one whose shape it does not expect, is still shown, in its
text form (:func:`kotarena.engine.events.event_to_text`), so a new card's events print
before anyone writes words for them; :func:`describe_event` tells the two apart.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from kotarena.engine.actions import ActionError, parse_action
from kotarena.engine.events import event_to_text
from kotarena.games.kot.action_words import action_phrase, card_name, join_words
from kotarena.games.kot.faces import FACE_NAMES

__all__ = ["KINDS", "describe_event", "event_data", "event_lines", "format_event"]

# Field types. A field is read before the sentence is written: a seat becomes its
# monster's name, a card id its card's name, dice their faces.
SEAT = "seat"  #: a seat from 0
SEAT_OR_NONE = "seat?"  #: a seat, or None / -1 for nobody
INT = "int"
CARD = "card"  #: a card id
REASON = "reason"  #: why (a word the game uses, or the card id of the card that did it)
FACES = "faces"  #: dice faces (0-5)
WORD = "word"  #: any other text: a place, a termination, a face name, a token kind
ACTION = "action"  #: an action's text
POSITIONS = "positions"  #: dice positions from 1
CLAWS = "claws"  #: the roll-off: (seat, claws) pairs

_NOBODY = None


def _who(names: Sequence[str], seat: object) -> str | None:
    if seat is None or seat == -1:
        return _NOBODY
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(names):
        return names[seat]
    if isinstance(seat, int) and not isinstance(seat, bool):
        return f"seat {seat + 1}"
    raise TypeError(f"not a seat: {seat!r}")


def _faces(dice: object) -> str:
    return " ".join(FACE_NAMES[f] for f in dice)  # type: ignore[attr-defined]


def _plural(count: object, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


_REASONS = {
    "dice": "from the dice",
    "start in tokyo": "for starting the turn in Tokyo",
    "take tokyo": "for taking Tokyo",
    "yield": "yields",
    "eliminated": "eliminated",
    "bay closed": "Tokyo Bay closes",
}
_WINS = {
    "stars": "by reaching 20 stars",
    "last_standing": "as the last monster standing",
    "all_eliminated": "(the last monsters were eliminated together)",
}


def _reason(reason: object) -> str:
    """A reason as words: the game's own, or the card that did it."""
    return _REASONS.get(reason, card_name(reason)) if isinstance(reason, str) else str(reason)


def _read(kind: str, value: object, names: Sequence[str]) -> object:
    if kind in (SEAT, SEAT_OR_NONE):
        who = _who(names, value)
        if who is None and kind == SEAT:
            raise TypeError("a seat is missing")
        return who
    if kind == CARD:
        if not isinstance(value, str):
            raise TypeError(f"not a card id: {value!r}")
        return card_name(value)
    if kind == REASON:
        return _reason(value)
    if kind == FACES:
        return _faces(value)
    if kind == CLAWS:
        return [(_who(names, seat), claws) for seat, claws in value]  # type: ignore[attr-defined]
    if kind == INT and (not isinstance(value, int) or isinstance(value, bool)):
        raise TypeError(f"not a number: {value!r}")
    return value


def _shown(kind: str, value: object) -> object:
    """A field for JSON output: seats from 1, tuples as lists."""
    if kind in (SEAT, SEAT_OR_NONE):
        return None if value is None or value == -1 else value + 1  # type: ignore[operator]
    if kind == CLAWS:
        return [[seat + 1, claws] for seat, claws in value]  # type: ignore[attr-defined]
    if isinstance(value, tuple):
        return list(value)
    return value


# ------------------------------------------------------------------ the sentences


def _rolloff(claws) -> str:
    return "Roll-off for the first turn: " + ", ".join(f"{who} {_plural(c, 'claw')}" for who, c in claws)


def _roll(who, dice, positions) -> str:
    if not positions:
        return f"{who} rolls {dice}"
    return f"{who} rerolls {' '.join(map(str, positions))} -> {dice}"


def _act(who, text, *, names) -> str:
    try:
        action = parse_action(text)
    except ActionError:
        raise ValueError(text) from None
    return f"{who or 'The monster to move'} chooses to {action_phrase(action, names)}"


def _damage(target, amount, source) -> str:
    line = f"{target} takes {amount} damage"
    return line if source is None else f"{line} from {source}"


def _over(winner, termination) -> str:
    if winner is None:
        return f"Game over: nobody wins {_WINS.get(termination, f'({termination})')}"
    return f"Game over: {winner} wins {_WINS.get(termination, f'({termination})')}"


def _cure(who, poison, shrink) -> str:
    spent = [f"{n} {what}" for n, what in ((poison, "poison"), (shrink, "shrink")) if n]
    return f"{who} spends hearts to remove {join_words(spent) or 'no'} token{'s' if poison + shrink != 1 else ''}"


def _place(place: object) -> str:
    return f"Tokyo {str(place).capitalize()}"


#: (kind, number of fields after the kind) -> (the fields' types, the sentence, which
#: takes the fields as read; ``act`` also takes the names).
KINDS: dict[tuple[str, int], tuple[tuple[str, ...], Callable[..., str]]] = {
    ("rolloff", 1): ((CLAWS,), _rolloff),
    ("turn", 2): ((SEAT, INT), lambda who, number: f"Turn {number}: {who}"),
    ("extra turn", 1): ((SEAT,), lambda who: f"{who} plays another turn"),
    ("roll", 3): ((SEAT, FACES, POSITIONS), _roll),
    ("act", 2): ((SEAT_OR_NONE, ACTION), _act),
    ("change die", 4): ((SEAT, INT, WORD, CARD), lambda who, position, face, card: (
        f"{who} turns die {position} into {'an' if face == 'energy' else 'a'} {face} ({card})")),
    ("stars", 3): ((SEAT, INT, REASON), lambda who, amount, reason: (
        f"{who} gains {_plural(amount, 'star')} {reason if reason.startswith(('from ', 'for ')) else f'({reason})'}")),
    ("lose stars", 3): ((SEAT, INT, REASON), lambda who, amount, reason: (
        f"{who} loses {_plural(amount, 'star')} ({reason})")),
    ("energy", 2): ((SEAT, INT), lambda who, amount: f"{who} gains {amount} energy"),
    ("lose energy", 3): ((SEAT, INT, REASON), lambda who, amount, reason: f"{who} loses {amount} energy ({reason})"),
    ("heal", 2): ((SEAT, INT), lambda who, amount: f"{who} heals {amount}"),
    ("max health", 2): ((SEAT, INT), lambda who, most: f"{who}'s maximum health is now {most}"),
    ("damage", 3): ((SEAT, INT, SEAT_OR_NONE), _damage),
    ("prevent", 3): ((SEAT, INT, CARD), lambda who, amount, card: f"{card} spares {who} {amount} damage"),
    ("camouflage", 3): ((SEAT, FACES, INT), lambda who, faces, cancelled: (
        f"{who}'s Camouflage rolls {faces or 'no dice'}: {cancelled} damage less")),
    ("lose health", 3): ((SEAT, INT, REASON), lambda who, amount, reason: f"{who} loses {amount} health ({reason})"),
    ("tokens", 3): ((SEAT, WORD, INT), lambda who, kind, total: f"{who} now has {_plural(total, f'{kind} token')}"),
    ("cure", 3): ((SEAT, INT, INT), _cure),
    ("eliminated", 1): ((SEAT,), lambda who: f"{who} is eliminated"),
    ("rescued", 2): ((SEAT, CARD), lambda who, card: (
        f"{card} saves {who}: it starts again with full health, no stars and no cards")),
    ("enter", 2): ((SEAT, WORD), lambda who, place: f"{who} enters {_place(place)}"),
    ("leave", 3): ((SEAT, WORD, REASON), lambda who, place, reason: f"{who} leaves {_place(place)} ({reason})"),
    ("bay closed", 0): ((), lambda: "Tokyo Bay closes: fewer than 5 monsters are left"),
    ("buy", 4): ((SEAT, CARD, INT, INT), lambda who, card, slot, cost: (
        f"{who} buys {card} from market slot {slot} for {cost} energy")),
    ("buy top", 3): ((SEAT, CARD, INT), lambda who, card, cost: (
        f"{who} buys {card} from the top of the deck for {cost} energy (Made in a Lab)")),
    ("buy discarded", 3): ((SEAT, CARD, INT), lambda who, card, cost: (
        f"{who} buys {card} from the discard pile for {cost} energy (Scavenger)")),
    ("take card", 4): ((SEAT, SEAT, CARD, INT), lambda who, owner, card, cost: (
        f"{who} buys {owner}'s {card} for {cost} energy, paid to {owner} (Parasitic Tentacles)")),
    ("sell", 3): ((SEAT, CARD, INT), lambda who, card, cost: (
        f"{who} discards {card} and takes its {cost} energy back (Metamorph)")),
    ("discard", 2): ((SEAT, CARD), lambda who, card: f"{who}'s {card} goes to the discard pile"),
    ("charge", 3): ((SEAT, CARD, INT), lambda who, card, amount: f"{who}'s {card} now holds {amount} energy"),
    ("discharge", 3): ((SEAT, CARD, INT), lambda who, card, taken: f"{who} takes {taken} energy from {card}"),
    ("pay", 4): ((SEAT, SEAT, INT, CARD), lambda payer, payee, amount, card: (
        f"{payer} pays {payee} {amount} energy ({card})")),
    ("mimic", 3): ((SEAT, SEAT, CARD), lambda who, owner, card: (
        f"{who} puts the Mimic token on {owner}'s {card}: Mimic now works as a copy of it")),
    ("mimic", 2): ((SEAT, SEAT_OR_NONE), lambda who, nobody: (
        f"{who}'s Mimic token comes off: the card it copied left play")),
    ("sweep", 1): ((SEAT,), lambda who: f"{who} sweeps the market"),
    ("reveal", 2): ((INT, CARD), lambda slot, card: f"{card} is revealed in market slot {slot}"),
    ("reshuffle", 1): ((INT,), lambda count: f"The discard pile ({_plural(count, 'card')}) is shuffled into a new deck"),
    ("over", 2): ((SEAT_OR_NONE, WORD), _over),
}


def _row(event: tuple) -> tuple[tuple[str, ...], Callable[..., str]] | None:
    if not event or not isinstance(event[0], str):
        return None
    return KINDS.get((event[0], len(event) - 1))


def describe_event(event: tuple, names: Sequence[str]) -> str | None:
    """The English line of an event whose kind and shape :data:`KINDS` knows, else ``None``."""
    row = _row(event)
    if row is None:
        return None
    types, sentence = row
    try:
        values = [_read(kind, value, names) for kind, value in zip(types, event[1:])]
        return sentence(*values, names=names) if sentence is _act else sentence(*values)
    except (TypeError, ValueError, IndexError, AttributeError):  # an odd value in a known kind
        return None


def format_event(event: tuple, names: Sequence[str]) -> str:
    """One plain English line for an event of ``state.log``; ``names`` are the monsters by seat.

    >>> format_event(("roll", 2, (0, 1, 2, 2, 4, 3), ()), ["Alienoid", "Cyber Bunny", "Giga Zaur"])
    'Giga Zaur rolls 1 2 3 3 heart energy'

    Events of a kind (or shape) this module does not know are shown in their text
    form, so a new card's events print before anyone writes words for them.
    """
    line = describe_event(event, names)
    if line is not None:
        return line
    try:
        return event_to_text(event)
    except TypeError:
        return repr(event)


def event_data(event: tuple) -> list:
    """The event as JSON-ready data for output: its kind, then its fields, with seats
    counted from 1 (``None`` for nobody). An event no row of :data:`KINDS` knows is
    given as it is logged."""
    row = _row(event)
    if row is None:
        return [list(value) if isinstance(value, tuple) else value for value in event]
    return [event[0], *(_shown(kind, value) for kind, value in zip(row[0], event[1:]))]


#: Actions whose effect the events tell (a reroll's new dice, a purchase, a sweep, a
#: yield), so narration skips the action itself.
_SHOWN_BY_EFFECT = ("reroll", "buy", "sweep", "yield")


def event_lines(events: Iterable[tuple], names: Sequence[str]) -> list[str]:
    """One line per event worth reading, in order, for narrating a game."""
    lines = []
    for event in events:
        if event[0] == "act" and isinstance(event[2], str) and event[2].split()[0] in _SHOWN_BY_EFFECT:
            continue
        text = format_event(event, names)
        if text:
            lines.append(text)
    return lines
