"""What King of Tokyo's prompt explains (``kotarena play``): every legal action with
what it does (``?``), and a card (``? CARD``).

Both read the deciding monster's view and return text (no printing), in the words the
event log uses (:mod:`kotarena.games.kot.action_words`), so what a person is offered
reads as what the log says afterwards.
"""

from __future__ import annotations

from collections.abc import Sequence

from kotarena.engine.actions import Action
from kotarena.engine.words import help_row as _row
from kotarena.games.kot.action_words import USE_PHRASES, action_phrase, card_name, join_words
from kotarena.games.kot.cards import UnknownDeckError, get_deck
from kotarena.games.kot.faces import FACE_NAMES
from kotarena.games.kot.view import View

__all__ = ["card_help", "legal_help"]

#: A card action offered more often than this (Plot Twist: every die, every face) is
#: shown once, as a pattern with the values each argument takes.
MOST_LISTED = 8
_WIDTH = 22


def _values(values: Sequence[object]) -> str:
    distinct = list(dict.fromkeys(values))
    if _placeholder(distinct) == "FACE":  # faces in their usual order: 1 2 3 energy heart claw
        distinct.sort(key=lambda face: FACE_NAMES.index(str(face)))
    if all(isinstance(v, int) for v in distinct) and len(distinct) > 2:
        numbers = sorted(distinct)  # type: ignore[type-var]
        if numbers == list(range(numbers[0], numbers[-1] + 1)):  # type: ignore[operator]
            return f"{numbers[0]} to {numbers[-1]}"
    return ", ".join(card_name(v) if isinstance(v, str) and v not in FACE_NAMES else str(v) for v in distinct)


def _placeholder(values: Sequence[object]) -> str:
    if all(str(v) in FACE_NAMES for v in values) and any(isinstance(v, str) for v in values):
        return "FACE"
    if all(isinstance(v, int) for v in values):
        return "N"
    return "CARD"


def _pattern(group: list[Action], view: View) -> list[str]:
    """A card action offered with many arguments: its pattern, what it does, the values."""
    card = group[0].args[0]
    columns = list(zip(*(action.args[1:] for action in group)))
    holders = [_placeholder(column) for column in columns]
    text = " ".join(["use", card, *holders])
    what = USE_PHRASES[card](tuple(holders), view.names, view) if card in USE_PHRASES else "use the card"
    values = "; ".join(f"{holder}: {_values(column)}" for holder, column in zip(holders, columns))
    return [_row(text, f"use {card_name(card)}: {what}"), f"  {'':<{_WIDTH}} ({values}; {len(group)} choices)"]


def legal_help(view: View) -> str:
    """Every legal action of ``view`` with what it does: rerolls and card actions with
    many arguments as patterns, the others one per line."""
    lines = [f"Legal actions ({view.kind} decision):"]
    legal = view.legal
    groups: dict[str, list[Action]] = {}
    for action in legal:
        if action.kind == "use":
            groups.setdefault(action.args[0], []).append(action)
    shown_groups: set[str] = set()  # the card actions shown as a pattern, and "reroll"
    for action in legal:
        if action.kind == "reroll":
            if "reroll" not in shown_groups:
                shown_groups.add("reroll")
                faces = "  ".join(f"[{i}] {FACE_NAMES[f]}" for i, f in enumerate(view.dice, start=1))
                lines.append(_row("reroll P ...", f"reroll the dice at positions P (1-{len(view.dice)}), "
                                                  "e.g. 'reroll 1 4'; the others are kept"))
                lines.append(f"  {'':<{_WIDTH}} dice: {faces}")
            continue
        if action.kind == "use":
            card = action.args[0]
            if len(groups[card]) > MOST_LISTED:
                if card not in shown_groups:
                    shown_groups.add(card)
                    lines.extend(_pattern(groups[card], view))
                continue
        lines.append(_row(action.text, action_phrase(action, view.names, view)))
    cards = sorted({a.args[0] for a in legal if a.kind == "use"})
    if cards:
        lines.append(f"Type '? CARD' for what a card does, e.g. '? {card_name(cards[0])}'.")
    elif view.deck is not None:
        lines.append("Type '? CARD' for what a card does.")
    return "\n".join(lines)


def _where(view: View, card_id: str) -> list[str]:
    places = [f"market slot {slot}" for slot, market in enumerate(view.market, start=1) if market == card_id]
    places += [f"{view.names[seat]}'s cards" for seat, owned in enumerate(view.cards) if card_id in owned]
    if card_id in view.discard:
        places.append("the discard pile")
    return places


def card_help(view: View, key: str) -> str:
    """What the card ``key`` (an id or a name, any case) of the table's deck does: its
    cost, type and effect, the decision where it is used, and where it is now."""
    if view.deck is None:
        return "This game is played without cards."
    wanted = key.strip()
    deck = get_deck(view.deck)
    try:
        info = deck.find(wanted)
    except UnknownDeckError:
        try:
            info = deck.find(wanted.replace(" ", "_"))
        except UnknownDeckError:
            return f"No card {wanted!r} in this game's deck ({view.deck}); 'kotarena cards --deck {view.deck}' lists them."
    effect = next(e for card, e in zip(deck.cards, deck.card_effects) if card.id == info.id)
    lines = [f"{info.name} ({info.id}): {info.cost} energy, {info.type} card.", f"  {info.text}"]
    kinds = sorted(effect.offer_kinds)
    if info.id in USE_PHRASES and kinds:
        when = join_words([f"the {kind} decision" for kind in kinds])
        lines.append(f"  Use it with 'use {info.id} ...' in {when}; '?' then lists its choices.")
    places = _where(view, info.id)
    lines.append(f"  Now in: {join_words(places)}." if places else "  Now in: the deck (or out of sight).")
    return "\n".join(lines)
