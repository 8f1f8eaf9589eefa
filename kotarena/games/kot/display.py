"""King of Tokyo's table as plain data for people (:meth:`KingOfTokyo.snapshot`) and the
cards bought in a log (:meth:`KingOfTokyo.purchases`), both read by the site's replay
viewer and card statistics."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kotarena.games.kot.cards import DECKS
from kotarena.games.kot.faces import FACE_NAMES

if TYPE_CHECKING:
    from kotarena.games.kot.state import State


def snapshot(state: State) -> dict[str, Any]:
    """Each monster's health, stars, energy, place in Tokyo, cards and tokens (poison,
    shrink: only where it has some); the dice as last rolled, Tokyo, the market and the
    deck (see ``Game.snapshot``)."""
    info = state.cards_info
    seats = []
    for seat in range(state.n):
        place = "City" if state.city == seat else "Bay" if state.bay == seat else ""
        facts: dict[str, Any] = {
            "health": state.health[seat], "max health": state.max_health[seat], "stars": state.stars[seat],
            "energy": state.energy[seat], "Tokyo": place, "cards": [info[card].name for card in state.owned[seat]],
        }
        tokens = []
        if state.poison[seat]:
            tokens.append(f"{state.poison[seat]} poison")
        if state.shrink[seat]:
            tokens.append(f"{state.shrink[seat]} shrink")
        if tokens:  # (a seat without shows none: the viewer's column appears once a seat has some)
            facts["tokens"] = ", ".join(tokens)
        seats.append(facts)
    table: dict[str, Any] = {
        "dice": " ".join(FACE_NAMES[face] for face in state.dice),
        "Tokyo City": state.names[state.city] if state.city >= 0 else "empty",
    }
    if state.bay_open:
        table["Tokyo Bay"] = state.names[state.bay] if state.bay >= 0 else "empty"
    if info:
        table["market"] = [info[card].name if card >= 0 else "(empty slot)" for card in state.market]
        table["deck"] = len(state.deck)
    return {"seats": seats, "table": table, "active": None if state.outcome is not None else state.active,
            "out": [seat for seat in range(state.n) if not state.alive[seat]]}


#: Card names by id (an id has one title in every deck; the first deck's spelling).
_NAMES: dict[str, str] = {}
for _deck in DECKS.values():
    for _card in _deck:
        _NAMES.setdefault(_card.id, _card.name)


def purchases(events: Sequence[tuple]) -> list[tuple[int, str]]:
    """``(seat, card name)`` of every ``buy`` event, in order."""
    return [(event[1], _NAMES.get(event[2], str(event[2]))) for event in events if event[0] == "buy" and len(event) == 5]
