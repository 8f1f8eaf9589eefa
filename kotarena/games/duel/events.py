"""Duel's event log in English, one line per event (``kotarena replay``, ``play``, ``match -v``)."""

from __future__ import annotations

from collections.abc import Sequence

from kotarena.engine.events import event_to_text
from kotarena.games.duel.cards import BY_ID
from kotarena.games.duel.faces import format_faces


def _card(card: str) -> str:
    return BY_ID[card].name if card in BY_ID else card


def event_text(event: tuple, names: Sequence[str]) -> str:
    kind, *args = event

    def who(seat: object) -> str:
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "nobody"

    if kind == "turn":
        return f"-- turn {args[1]}: {who(args[0])}"
    if kind == "roll":
        return f"{who(args[0])} rolls {format_faces(args[1])}"
    if kind == "reroll":
        return f"{who(args[0])} rerolls {' '.join(map(str, args[1]))}: {format_faces(args[2])}"
    if kind == "roll_off":
        return f"roll for first player: claws {args[0][0]} to {args[0][1]}"
    if kind == "spend":
        return f"{who(args[0])} spends {args[1]} dice token{'s' * (args[1] != 1)}"
    if kind == "pull":
        return f"{who(args[0])} pulls the {args[1]} marker {args[2]} ({args[3]})"
    if kind == "blocked":
        return f"{who(args[0])}'s pull of the {args[1]} marker stops on The King's token"
    if kind == "bonus":
        return f"{who(args[0])} gains the hype bonus: {args[1]}"
    if kind == "damage":
        return f"{who(args[0])} takes {args[1]} damage ({args[2]})"
    if kind == "heal":
        return f"{who(args[0])} heals {args[1]} ({args[2]})"
    if kind == "energy":
        return f"{who(args[0])} gains {args[1]} energy ({args[2]})"
    if kind == "tokens":
        return f"{who(args[0])} gains {args[1]} dice token{'s' * (args[1] != 1)} ({args[2]})"
    if kind == "buy":
        return f"{who(args[0])} buys {_card(args[1])} for {args[2]} energy"
    if kind == "hype":
        return f"{who(args[0])} places the {args[1]} hype token: {args[2]}"
    if kind == "block":
        return f"The King places blocking token {args[1]} on {args[2]} space {args[3]}"
    if kind == "reveal":
        return f"revealed: {_card(args[0])}"
    if kind == "market":
        return "market: " + ", ".join(_card(card) if card else "empty" for card in args[0])
    if kind == "sweep":
        return f"{who(args[0])} sweeps the market"
    if kind == "play":
        return f"{who(args[0])} plays {_card(args[1])}"
    if kind in ("discard", "discard_market"):
        return f"{who(args[0])} discards {_card(args[1])}"
    if kind == "reshuffle":
        return f"the deck ran out: {args[0]} cards out of play are shuffled into a new deck"
    if kind == "add":
        return f"{who(args[0])} adds {' '.join(args[1])} to its roll"
    if kind == "pick":
        return f"{who(args[0])} picks {args[1].replace('_', ' ')}"
    if kind == "camouflage":
        return f"{who(args[0])} rolls {args[1]} heart{'s' * (args[1] != 1)} for Camouflage"
    if kind == "dominated":
        return f"{who(args[0])} rolls {args[1]} fewer dice next turn (Dominate)"
    if kind == "swap":
        return f"{who(args[0])} swaps {_card(args[1])} for {_card(args[2])}"
    if kind == "end":
        return f"game over: {who(args[0])} wins ({args[1].replace('_', ' ')})"
    if kind == "act":
        return f"{who(args[0])}: {args[1]}"
    return event_to_text(event)
