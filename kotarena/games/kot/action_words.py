"""What each King of Tokyo action does, in words: the phrases the event log, the
``kotarena play`` prompt and its ``?`` help share.

:func:`action_phrase` turns an action into an imperative phrase (``reroll dice 1 and
4``, ``use Stretchy: turn die 3 into a claw for 2 energy``). It reads the action only,
or, given the view of the monster deciding, names what the action touches too (the
card in a market slot and its cost, the top card Made in a Lab shows). Seats in card
actions count from 1, as people type them; they are shown by the monsters' names.

Every card with a ``use`` action has its phrase in :data:`USE_PHRASES` (a test checks
each such card of every deck), so no card action reads as its raw text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kotarena.engine.actions import Action
from kotarena.games.kot.cards import DECKS

__all__ = ["USE_PHRASES", "action_phrase", "card_name", "face_word", "join_words", "pass_phrase"]

#: Card names by id. An id is one title in every deck, though an edition may word the
#: card or spell its name otherwise ("It Has a Child!"): the first deck's name is shown.
_CARD_NAMES: dict[str, str] = {}
for _table in DECKS.values():
    for _info in _table:
        _CARD_NAMES.setdefault(_info.id, _info.name)


def card_name(card_id: object) -> str:
    """A card's name from its id (an id no deck knows is shown as it is)."""
    return _CARD_NAMES.get(card_id, str(card_id)) if isinstance(card_id, str) else str(card_id)


def known_card(card_id: object) -> bool:
    """Whether some deck of the family holds a card with this id."""
    return isinstance(card_id, str) and card_id in _CARD_NAMES


def face_word(face: object) -> str:
    """A die face as a phrase: ``a 3``, ``a claw``, ``an energy``."""
    word = str(face)
    return f"an {word}" if word == "energy" else f"a {word}"


def join_words(items: Sequence[object]) -> str:
    """``1``, ``1 and 4``, ``1, 2 and 4``."""
    words = [str(item) for item in items]
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


def _seat_name(names: Sequence[str], seat: object) -> str:
    # Card actions name seats from 1.
    if isinstance(seat, int) and not isinstance(seat, bool) and 1 <= seat <= len(names):
        return names[seat - 1]
    return f"seat {seat}"


def _plural(count: object, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _cost_of(view: Any, card_id: object) -> int | None:
    if view is None or getattr(view, "deck", None) is None or not isinstance(card_id, str):
        return None
    from kotarena.games.kot.cards import UnknownDeckError, find_card

    try:
        return find_card(view.deck, card_id).cost
    except UnknownDeckError:
        return None


def _costing(view: Any, card_id: object) -> str:
    cost = _cost_of(view, card_id)
    return "" if cost is None else f" ({cost} energy)"


# ------------------------------------------------------------------ card actions

#: A card action's phrase: (arguments after the card id, names, view or None) -> what it does.
UsePhrase = Callable[[tuple, Sequence[str], Any], str]


def _die_to(what: str) -> UsePhrase:
    return lambda args, names, view: f"turn die {args[0]} into {face_word(args[1])}{what}"


def _parasitic(args: tuple, names: Sequence[str], view: Any) -> str:
    return (f"buy {card_name(args[1])}{_costing(view, args[1])} from {_seat_name(names, args[0])}, "
            f"paying its owner")


def _made_in_a_lab(args: tuple, names: Sequence[str], view: Any) -> str:
    top = dict(getattr(view, "private", ()) or ()).get("made_in_a_lab") if view is not None else None
    if top is None:
        return "buy the top card of the deck"
    return f"buy the top card of the deck, {card_name(top)}{_costing(view, top)}"


def _opportunist(args: tuple, names: Sequence[str], view: Any) -> str:
    slot = args[0]
    market = getattr(view, "market", ()) if view is not None else ()
    if isinstance(slot, int) and 1 <= slot <= len(market) and market[slot - 1] is not None:
        card = market[slot - 1]
        return f"buy {card_name(card)}{_costing(view, card)}, just revealed in market slot {slot}"
    return f"buy the card just revealed in market slot {slot}"


def _psychic_probe(args: tuple, names: Sequence[str], view: Any) -> str:
    whose = f"{names[view.active]}'s" if view is not None and 0 <= view.active < len(names) else "the active monster's"
    return f"reroll {whose} die {args[0]} (a heart discards Psychic Probe)"


def _mimic(args: tuple, names: Sequence[str], view: Any) -> str:
    target = f"{_seat_name(names, args[0])}'s {card_name(args[1])}"
    paid = " for 1 energy" if view is not None and view.kind == "start" else ""
    return f"put the Mimic token on {target}{paid}: Mimic works as a copy of it"


def _metamorph(args: tuple, names: Sequence[str], view: Any) -> str:
    cost = _cost_of(view, args[0])
    back = "its cost" if cost is None else f"{cost} energy"
    return f"discard your {card_name(args[0])} and take {back} back"


#: Each card's ``use`` action in words, by card id.
USE_PHRASES: dict[str, UsePhrase] = {
    "herd_culler": lambda args, names, view: f"turn die {args[0]} into a 1 (once a turn)",
    "plot_twist": _die_to(" (Plot Twist is then discarded)"),
    "stretchy": _die_to(" for 2 energy"),
    "telepath": lambda args, names, view: "pay 1 energy for one more reroll",
    "energy_drink": lambda args, names, view: "pay 1 energy for one more reroll",
    "smoke_cloud": lambda args, names, view: "spend one of its charges for one more reroll",
    "background_dweller": lambda args, names, view: f"reroll die {args[0]} (a 3)",
    "shrinky": lambda args, names, view: f"turn die {args[0]} (a 2) into a 1",
    "rapid_healing": lambda args, names, view: "pay 2 energy to heal 1",
    "healing_ray": lambda args, names, view: (
        f"spend a heart to heal {_seat_name(names, args[0])} 1; it pays you 2 energy (or the 1 it has)"),
    "biofuel": lambda args, names, view: "turn one heart into 1 energy",
    "made_in_a_lab": _made_in_a_lab,
    "parasitic_tentacles": _parasitic,
    "monster_batteries": lambda args, names, view: (
        f"put {args[0]} of your energy on Monster Batteries; the bank doubles it to {2 * args[0]}"
        if isinstance(args[0], int) else f"put {args[0]} energy on Monster Batteries"),
    "scavenger": lambda args, names, view: (
        f"buy {card_name(args[0])}{_costing(view, args[0])} from the discard pile"),
    "metamorph": _metamorph,
    "wings": lambda args, names, view: "pay 2 energy to take no damage for the rest of the turn",
    "jets": lambda args, names, view: "leave Tokyo to the attacker and take none of this damage",
    "electric_armor": lambda args, names, view: "pay 1 energy to take 1 damage less",
    "psychic_probe": _psychic_probe,
    "opportunist": _opportunist,
    "mimic": _mimic,
}


def use_phrase(action: Action, names: Sequence[str], view: Any = None) -> str | None:
    """``use CARD: what it does``, or ``None`` for a card without a phrase here."""
    card, args = action.args[0], action.args[1:]
    phrase = USE_PHRASES.get(card) if isinstance(card, str) else None
    if phrase is None:
        return None
    try:
        return f"use {card_name(card)}: {phrase(args, names, view)}"
    except (IndexError, TypeError, ValueError):  # arguments of another shape: no phrase
        return None


# ------------------------------------------------------------------ every action

#: What ``pass`` declines at each card decision.
_PASSES = {
    "dice": "let the dice resolve as they are",
    "hearts": "let the hearts left heal you (outside Tokyo)",
    "end": "end the turn without using a card",
    "damage": "take the damage",
    "probe": "leave the dice as they are",
    "reveal": "let the revealed card be",
    "start": "start the turn without using a card",
}


def pass_phrase(kind: str | None) -> str:
    """What ``pass`` does at a decision of ``kind``."""
    return _PASSES.get(kind or "", "pass: use no card")


def action_phrase(action: Action, names: Sequence[str], view: Any = None) -> str:
    """What ``action`` does, as an imperative phrase.

    ``names`` are the monsters by seat; ``view`` (the deciding monster's, or ``None``)
    adds what the action touches: the card in a market slot and its cost, the decision
    a ``pass`` declines.

    >>> action_phrase(Action.of("reroll", 1, 4), ["Alienoid", "Kraken"])
    'reroll dice 1 and 4'
    """
    kind, args = action.kind, action.args
    if kind == "stop":
        return "keep the dice as they are and resolve them"
    if kind == "reroll":
        return f"reroll {'die' if len(args) == 1 else 'dice'} {join_words(args)}"
    if kind == "stay":
        return "stay in Tokyo"
    if kind == "yield":
        return "yield: leave Tokyo to the attacker"
    if kind == "buy":
        slot = args[0]
        market = getattr(view, "market", ()) if view is not None else ()
        if 1 <= slot <= len(market) and market[slot - 1] is not None:
            card = market[slot - 1]
            return f"buy {card_name(card)}{_costing(view, card)} from market slot {slot}"
        return f"buy the card in market slot {slot}"
    if kind == "sweep":
        return "pay 2 energy to sweep the market: three new cards"
    if kind == "done":
        return "end the buy step"
    if kind == "pass":
        return "pass" if view is None else pass_phrase(view.kind)
    if kind == "cure":
        poison, shrink = args
        spent = [_plural(n, "heart") + f" on {what} tokens" for n, what in ((poison, "poison"), (shrink, "shrink")) if n]
        return f"spend {join_words(spent)} (the other hearts heal)"
    if kind == "use":
        phrase = use_phrase(action, names, view)
        if phrase is not None:
            return phrase
        return f"use {card_name(args[0])} {' '.join(map(str, args[1:]))}".rstrip()
    return action.text
