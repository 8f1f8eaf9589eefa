"""Duel's event log in English, one line per event (``kotarena replay``, ``play``, ``match -v``).

As King of Tokyo's (``kotarena/games/kot/events.py``), each kind of event is a row of
:data:`KINDS`: which of its fields are seats (what :func:`event_data` counts from 1 and
a sentence names by monster) and its sentence. Cards, monsters and hype tokens are
named in words, never by id; an event no row knows is shown in its text form, and
:func:`describe_event` tells the two apart (the tests play every card and monster and
check that none falls back).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from kotarena.engine.actions import ActionError, parse_action
from kotarena.engine.events import event_to_text
from kotarena.games.duel.cards import BY_ID
from kotarena.games.duel.faces import format_faces
from kotarena.games.duel.monsters import BY_ID as MONSTERS_BY_ID
from kotarena.games.duel.track import HYPE_TOKENS

__all__ = ["KINDS", "describe_event", "event_data", "event_lines", "event_text", "token_words"]

_SEATS = ("first", "second")
_WINS = {"victory_space": "a marker reached its victory space", "spotlight": "both markers stand in its spotlight zone",
         "last_standing": "its rival has no health left"}


def card_words(card: object) -> str:
    """A card's printed name (anything else as it is)."""
    return BY_ID[card].name if isinstance(card, str) and card in BY_ID else str(card)


def token_words(token: str) -> str:
    """A hype token in words: ``the Dragon hype token (energy, smash, heal)``."""
    found = HYPE_TOKENS.get(token)
    if found is None:
        return f"the {token} token"
    if found.blocks:
        return f"The King's blocking token {token[-1]}"
    picture = token.split("_")[0].capitalize()
    if token == "alien_shortcut":
        return f"the {picture} hype token (a shortcut)"
    bonuses = ", ".join(bonus or "empty" for bonus in found.bonuses)
    return f"the {picture} hype token ({bonuses})"


def _plural(count: object, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _cells(cells: Sequence[object]) -> str:
    return f"space {cells[0]}" if len(cells) == 1 else f"spaces {cells[0]} to {cells[-1]}"


def action_words(text: str) -> str:
    """What an action does, in words (the sentence of an ``act`` event, after the monster)."""
    try:
        action = parse_action(text)
    except ActionError:
        return f"chooses {text}"
    kind, args = action.kind, action.args
    if kind == "spend":
        return f"spends {_plural(args[0], 'dice token')}" if args[0] else "spends no dice tokens"
    if kind == "stop":
        return "keeps the dice"
    if kind == "reroll":
        return "rerolls " + ("die " if len(args) == 1 else "dice ") + " ".join(map(str, args))
    if kind == "power":
        return f"activates its superpower: {' and '.join(map(str, args))}"
    if kind == "resolve":
        part = ({"power": "its superpower", "cards": "the cards that read its roll"}.get(args[0])
                or (card_words(args[0]) if args[0] in BY_ID else f"its {args[0]} dice"))
        return f"resolves {part} next"
    if kind == "block":
        return f"puts its blocking token {args[0]} on the {args[1]} track, space {args[2]}"
    if kind == "hype":
        return f"puts the hype token on the {args[0]} track, {_cells(args[1:])}"
    if kind == "buy":
        return f"buys the card in market slot {args[0]}"
    if kind == "sweep":
        return "sweeps the market"
    if kind == "done":
        return "ends the buy step"
    if kind == "pass":
        return "passes"
    if kind == "pick":
        return "is chosen"  # the seat's name is already the monster it picks
    if kind == "use":
        choice = ", ".join(card_words(arg) if arg in BY_ID else f"slot {arg}" if isinstance(arg, int) else str(arg)
                           for arg in args[1:])
        return f"uses {card_words(args[0])}" + (f": {choice}" if choice else "")
    return f"chooses {text}"


def _monster(monster: object) -> str:
    return MONSTERS_BY_ID[monster].name if monster in MONSTERS_BY_ID else str(monster)


#: Each kind of event: the positions of its seat fields, then its sentence, given the
#: event's fields with seats already named.
KINDS: dict[str, tuple[tuple[int, ...], Callable[..., str]]] = {
    "turn": ((0,), lambda who, turn: f"-- turn {turn}: {who}"),
    "roll": ((0,), lambda who, dice: f"{who} rolls {format_faces(dice)}"),
    "reroll": ((0,), lambda who, kept, dice: (
        f"{who} rerolls {'die' if len(kept) == 1 else 'dice'} {' '.join(map(str, kept))}: {format_faces(dice)}")),
    "roll_off": ((), lambda claws: f"Roll for the first turn: {_plural(claws[0], 'claw')} to {claws[1]}"),
    "spend": ((0,), lambda who, count: f"{who} spends {_plural(count, 'dice token')} for special dice"),
    "pull": ((0,), lambda who, track, moved, why: (
        f"{who} pulls the {track} marker {_plural(moved, 'space')} ({why})")),
    "blocked": ((0,), lambda who, track: f"{who}'s pull of the {track} marker stops on The King's blocking token"),
    "bonus": ((0,), lambda who, kind: f"{who} gains the hype bonus: {kind}"),
    "damage": ((0,), lambda who, amount, why: f"{who} takes {amount} damage ({why})"),
    "heal": ((0,), lambda who, amount, why: f"{who} heals {amount} ({why})"),
    "energy": ((0,), lambda who, amount, why: f"{who} gains {amount} energy ({why})"),
    "tokens": ((0,), lambda who, amount, why: f"{who} gains {_plural(amount, 'dice token')} ({why})"),
    "buy": ((0,), lambda who, card, price: f"{who} buys {card_words(card)} for {price} energy"),
    "hype": ((0,), lambda who, token, text: (
        f"{who} places {token_words(token)} on the {parse_action(text).args[0]} track, "
        f"{_cells(parse_action(text).args[1:])}")),
    "block": ((0,), lambda who, number, track, cell: (
        f"{who} places its blocking token {number} on the {track} track, space {cell}")),
    "reveal": ((), lambda card: f"{card_words(card)} is revealed in the market"),
    "market": ((), lambda cards: "The market: " + ", ".join(card_words(c) if c else "an empty slot" for c in cards)),
    "sweep": ((0,), lambda who, cards: (
        f"{who} sweeps the market: " + ", ".join(card_words(c) for c in cards if c) + " go out of play")),
    "play": ((0,), lambda who, card: f"{who} plays {card_words(card)}"),
    "discard": ((0,), lambda who, card: f"{who} discards {card_words(card)}"),
    "discard_market": ((0,), lambda who, card: f"{who} discards {card_words(card)} from the market"),
    "reshuffle": ((), lambda count: (
        f"The deck ran out: the {_plural(count, 'card')} out of play are shuffled into a new deck")),
    "add": ((0,), lambda who, faces: f"{who} adds {' and '.join(faces)} to its roll"),
    "pick": ((), lambda seat, monster: f"The {_SEATS[seat]} seat picks {_monster(monster)}"),
    "camouflage": ((0,), lambda who, hearts: f"{who} rolls {_plural(hearts, 'heart')} for Camouflage"),
    "dominated": ((0,), lambda who, count: (
        f"{who} rolls {count} fewer {'die' if count == 1 else 'dice'} next turn (Dominate)")),
    "swap": ((0,), lambda who, card, theirs: f"{who} swaps {card_words(card)} for {card_words(theirs)}"),
    "end": ((0,), lambda who, why: (
        f"Game over: {who} wins ({_WINS.get(why, why.replace('_', ' '))})" if who is not None
        else "Game over: both monsters are knocked out at once, a draw")),
    "act": ((0,), lambda who, text: f"{who} {action_words(text)}"),
}


def _row(event: tuple) -> tuple[tuple[int, ...], Callable[..., str]] | None:
    return KINDS.get(event[0]) if event and isinstance(event[0], str) else None


def describe_event(event: tuple, names: Sequence[str]) -> str | None:
    """The English line of an event whose kind :data:`KINDS` knows, else ``None``."""
    row = _row(event)
    if row is None:
        return None
    seats, sentence = row
    fields = list(event[1:])
    for at in seats:
        seat = fields[at]
        if not isinstance(seat, int) or isinstance(seat, bool) or not -1 <= seat < len(names):
            return None
        fields[at] = None if seat == -1 else names[seat]
    if any(field is None for at, field in enumerate(fields) if at in seats) and event[0] != "end":
        return None
    try:
        return sentence(*fields)
    except (TypeError, ValueError, IndexError, KeyError, AttributeError, ActionError):  # an odd value in a known kind
        return None


def event_text(event: tuple, names: Sequence[str]) -> str:
    """One plain English line for an event of ``state.log``; ``names`` are the monsters by seat."""
    line = describe_event(event, names)
    return line if line is not None else event_to_text(event)


def _shown(value: object) -> object:
    return [_shown(item) for item in value] if isinstance(value, (tuple, list)) else value


def event_data(event: tuple) -> list:
    """The event as JSON-ready data for output: its kind, then its fields, with seats
    counted from 1 (``None`` for nobody) and tuples as lists."""
    row = _row(event)
    seats = row[0] if row is not None else ()
    if event and event[0] == "pick":
        seats = (0,)  # the seat that picks, written out in words by the sentence
    fields = [None if at in seats and value == -1 else value + 1 if at in seats and isinstance(value, int)
              else _shown(value) for at, value in enumerate(event[1:])]
    return [event[0], *fields]


#: Actions whose effect has its own line (a reroll's dice, a purchase, a sweep, a pick, a
#: token placed), so narration skips the action itself.
_SHOWN_BY_EFFECT = ("reroll", "buy", "sweep", "pick", "hype", "block")


def event_lines(events: Iterable[tuple], names: Sequence[str]) -> list[str]:
    """One line per event worth reading, in order, for narrating a game."""
    return [event_text(event, names) for event in events if not _shown_by_effect(event)]


def _shown_by_effect(event: tuple) -> bool:
    if event[0] != "act" or not isinstance(event[2], str):
        return False
    kind = event[2].split()[0]
    return kind in _SHOWN_BY_EFFECT or (kind == "spend" and event[2] != "spend 0")
