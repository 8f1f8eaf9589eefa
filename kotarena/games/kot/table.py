"""King of Tokyo's table in plain text, for terminals and pipes (its :class:`~kotarena.games.kot.words.KotWords`).

Everything here returns strings (no printing, no colour, no cursor tricks), so the
same text works in a terminal, a log file and a test. Seats and dice positions are
shown counting from 1, as players type them.

The pictures are those of the King of Tokyo family (its views): the classic game and
Origins alike. What differs between them is read from the view's game, by name: its
title, its places in Tokyo (the Bay only while open) and what Tokyo gives under the
rules the table plays by (Origins' two-player variant gives energy, not stars).
"""

from __future__ import annotations

from collections.abc import Sequence

from kotarena.engine.words import table_text
from kotarena.games.kot.cards import UnknownDeckError, find_card
from kotarena.games.kot.faces import FACE_NAMES
from kotarena.games.kot.rules import Rules
from kotarena.games.kot.state import State
from kotarena.games.kot.view import View

#: The question each decision kind asks, as a player would read it (the card decisions
#: are :data:`kotarena.games.kot.kinds.DECISION_KINDS`; ``question`` adds what is at stake).
QUESTIONS = {
    "roll": "keep these dice or reroll some?",
    "yield": "you were hit in Tokyo: stay or yield?",
    "buy": "buy a card, sweep the market, or done?",
    "dice": "use a card on the dice before they resolve, or pass?",
    "hearts": "spend hearts on tokens or on a card, or pass to heal?",  # (question() says what is on offer)
    "end": "use a card before the turn ends, or pass?",
    "damage": "use a card against the damage, or pass to take it?",
    "probe": "reroll one of the dice with Psychic Probe, or pass?",
    "reveal": "buy the card just revealed with Opportunist, or pass?",
    "start": "use a card as the turn starts (Mimic), or pass?",
}


def question(view: View) -> str:
    """What the pending decision asks, with what is at stake: the damage coming, the
    card revealed, whose dice, the hearts left (the question alone for the usual kinds)."""
    kind = view.kind
    text = QUESTIONS.get(kind, f"{kind} decision")
    names = view.names
    if kind == "damage" and view.pending:
        _target, amount, source, _attack = view.pending[0]
        whom = f" from {names[source]}" if 0 <= source < len(names) else ""
        text = f"{amount} damage is coming{whom}: {text}"
    elif kind == "reveal" and view.reveals:
        slot = view.reveals[0][0]
        card = view.market[slot] if 0 <= slot < len(view.market) else None
        if card is not None:
            text = (f"{card_label(view.deck, card)} ({card_cost(view.deck, card)} energy) was revealed in market "
                    f"slot {slot + 1}: {text}")
    elif kind == "probe":
        text = f"{names[view.active]}'s roll is over: {text}"
    elif kind == "hearts":
        text = f"{view.hearts} heart{'s' if view.hearts != 1 else ''} to spend: {_hearts_question(view)}"
    elif kind == "roll":
        rerolls = "reroll" if view.rolls_left == 1 else "rerolls"
        text += f" ({view.rolls_left} {rerolls} left)"
    return text


def _hearts_question(view: View) -> str:
    """The hearts decision's question from what is on offer: tokens only where a cure
    is legal, a card only where one can be used, and healing only outside Tokyo (a
    monster in Tokyo does not heal)."""
    kinds = {action.kind for action in view.legal}
    spend = [what for kind, what in (("cure", "on tokens"), ("use", "on a card")) if kind in kinds]
    in_tokyo = view.to_move in (view.city, view.bay)
    keep = "pass (in Tokyo hearts do not heal)" if in_tokyo else "pass to heal"
    if not spend:
        return f"{keep}?"
    return f"spend hearts {' or '.join(spend)}, or {keep}?"


def card_label(deck: str | None, card_id: str) -> str:
    """A card's display name (its id if the deck does not know it)."""
    if deck is None:
        return card_id
    try:
        return find_card(deck, card_id).name
    except UnknownDeckError:
        return card_id


def card_cost(deck: str | None, card_id: str) -> int | None:
    if deck is None:
        return None
    try:
        return find_card(deck, card_id).cost
    except UnknownDeckError:
        return None


def _as_view(table: View | State) -> View:
    if isinstance(table, View):
        return table
    # A state's public picture: any seat's view shows the same public facts, and the
    # seat that must decide also sees the legal actions.
    return table.view(table.to_move if table.to_move >= 0 else 0)


def where(view: View, seat: int) -> str:
    """Where a monster stands: ``City``, ``Bay``, ``out`` or empty (outside Tokyo)."""
    if not view.alive[seat]:
        return "out"
    if seat == view.city:
        return "City"
    if seat == view.bay:
        return "Bay"
    return ""


def monsters_table(view: View, me: int | None = None) -> str:
    """One row per monster: seat, name, health, stars, energy, place, cards."""
    rows = []
    for seat, name in enumerate(view.names):
        marks = ("*" if seat == view.active and view.outcome is None else "") + (" (you)" if seat == me else "")
        cards = ", ".join(card_label(view.deck, c) for c in view.cards[seat])
        rows.append((
            seat + 1,
            f"{name}{marks}",
            f"{view.health[seat]}/{view.max_health[seat]}",
            view.stars[seat],
            view.energy[seat],
            where(view, seat),
            cards,
        ))
    return table_text(("#", "monster", "health", "stars", "energy", "where", "cards"), rows)


def table_rules(view: View, game) -> Rules | None:
    """The rules the view's table plays by (``game`` is the King of Tokyo game object)."""
    return game.rules_for(len(view.names)) if game is not None else None


def _reward(stars: int, energy: int) -> str:
    parts = [f"+{stars} star{'s' if stars != 1 else ''}"] if stars else []
    parts += [f"+{energy} energy"] if energy else []
    return " ".join(parts) or "nothing"


def tokyo_line(view: View, game=None) -> str:
    """Who holds Tokyo City (and the Bay, while open), and what Tokyo gives."""
    city = view.names[view.city] if view.city >= 0 else "empty"
    line = f"Tokyo City: {city}"
    if view.bay_open:
        bay = view.names[view.bay] if view.bay >= 0 else "empty"
        line += f"   Tokyo Bay: {bay}"
    rules = table_rules(view, game)
    if rules is not None:
        line += (f"   (entering {_reward(rules.take_tokyo_stars, rules.take_tokyo_energy)}, "
                 f"starting a turn there {_reward(rules.start_tokyo_stars, rules.start_tokyo_energy)})")
    return line


def market_line(view: View) -> str:
    if view.deck is None:
        return "Market: none (playing without cards)"
    slots = []
    for slot, card_id in enumerate(view.market, start=1):
        if card_id is None:
            slots.append(f"[{slot}] (empty)")
        else:
            slots.append(f"[{slot}] {card_label(view.deck, card_id)} ({card_cost(view.deck, card_id)})")
    return f"Market: {'  '.join(slots)}   deck: {view.deck_size} cards"


def dice_line(dice: Sequence[int]) -> str:
    """Dice with the positions ``reroll`` takes: ``[1] 3  [2] claw  [3] heart``."""
    return "  ".join(f"[{position}] {FACE_NAMES[face]}" for position, face in enumerate(dice, start=1))


def decision_line(view: View, me: int | None = None, ending=None) -> str:
    """Who must decide what, or how the game ended (``ending``: the game's words for it)."""
    if view.outcome is not None:
        return f"Game over: {ending(view.outcome, view.names) if ending else view.outcome.termination}"
    if view.between_turns:
        return f"Between turns; next up: {view.names[view.active]}"
    seat = view.to_move
    if seat < 0:
        return ""
    asked = question(view)
    if seat == me:
        return f"Your decision ({view.names[seat]}): {asked}"
    return f"{view.names[seat]} to decide: {asked}"


def render_table(table: View | State, game, me: int | None = None) -> str:
    """The whole table as text: turn, monsters, Tokyo, market, dice, decision.

    ``game`` is the table's game (its title, its rules); ``me`` marks one seat as
    "(you)": pass the seat of the viewing player.
    """
    view = _as_view(table)
    lines = [
        f"{game.spec.title}, turn {view.turn}: {view.names[view.active]}'s turn",
        monsters_table(view, me),
        tokyo_line(view, game),
        market_line(view),
    ]
    if view.dice:
        lines.append(f"Dice: {dice_line(view.dice)}")
    decision = decision_line(view, me, game.words.ending)
    if decision:
        lines.append(decision)
    return "\n".join(lines)
