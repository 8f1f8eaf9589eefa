"""Plain-text pictures of a Duel table: the monsters, both tracks, the market, the dice
(Duel's ``Game.words``, :mod:`kotarena.games.duel.words`, draws with them).

The tracks are drawn from the first seat's end (left) to the second seat's (right),
one column per space a marker can stand on::

    fame           V   .   S   S   S   .   .   @   .   .   S   S   S   .   V
                  -7  -6  -5  -4  -3  -2  -1   0   1   2   3   4   5   6   7

``@`` is the marker, ``V`` a victory space, ``S`` a spotlight space; a hype token's
spaces show their bonus (``x`` smash, ``X`` double smash, ``h`` heal, ``e`` energy,
``d`` dice token, ``o`` none, ``K`` The King's block) and, under them, the printed
space they lie on with a ``'``.
"""

from __future__ import annotations

from collections.abc import Sequence

from kotarena.engine.words import table_text
from kotarena.games.duel.cards import BY_ID, card_named
from kotarena.games.duel.display import LEGEND, space_marks
from kotarena.games.duel.events import token_words
from kotarena.games.duel.faces import FACE_NAMES
from kotarena.games.duel.help import action_note, explain, question, roll_preview
from kotarena.games.duel.monsters import BY_ID as MONSTERS
from kotarena.games.duel.track import TRACK_NAMES
from kotarena.games.duel.view import View


def track_lines(view: View) -> list[str]:
    """Both tracks, two lines each (the spaces, then where they lie)."""
    board = view.board
    lines = [f"tracks: {view.names[0]}'s end on the left, {view.names[1]}'s on the right"]
    for track, name in enumerate(TRACK_NAMES):
        marks = [f"{mark:>4}" for mark in space_marks(board, track)]
        numbers = []
        for space in board.spaces(track):
            cell = board.cells_of(space)[0]
            numbers.append(f"{cell:>3}'" if space[0] else f"{cell:>4}")
        lines.append(f"{name:<12}" + "".join(marks))
        lines.append(" " * 12 + "".join(numbers))
    for token, track, low, _flipped in view.hype:
        lines.append(f"  {token_words(token)} on {TRACK_NAMES[track]} from space {low}")
    lines.append("  " + LEGEND)
    return lines


def render_table(view: View, me: int | None = None) -> str:
    """The whole Duel table as text."""
    rows = []
    for seat in (0, 1):
        monster = MONSTERS[view.monsters[seat]]
        cards = ", ".join(BY_ID[c].name for c in view.keeps[seat]) or "-"
        rows.append((view.names[seat] + (" (you)" if seat == me else ""), f"{view.health[seat]}/{view.max_health[seat]}",
                     view.energy[seat], view.tokens[seat], monster.power, cards))
    market = []
    for slot, card in enumerate(view.market, start=1):
        if card:
            cost = BY_ID[card].cost - (1 if slot == len(view.market) else 0)
            market.append(f"[{slot}] {BY_ID[card].name} ({cost})")
        else:
            market.append(f"[{slot}] empty")
    lines = [
        f"King of Tokyo: Duel, turn {view.turn}: {view.names[view.active]}'s turn",
        table_text(("monster", "health", "energy", "dice tokens", "superpower", "cards"), rows),
        *track_lines(view),
        "market: " + "  ".join(market) + f"   (deck: {view.deck_size})",
    ]
    if view.dice:
        lines.append("dice: " + "  ".join(f"[{i}] {FACE_NAMES[f]}" for i, f in enumerate(view.dice, start=1))
                     + (f"   added: {' '.join(FACE_NAMES[f] for f in view.added)}" if view.added else "")
                     + f"   rerolls left: {view.rolls_left}")
    if view.outcome is None and view.kind:
        lines.append(f"{view.names[view.to_move]} decides: {view.kind}: {question(view)}")
    return "\n".join(lines)


#: What the ``order`` decision's answers resolve (the dice faces read "resolve the fame dice next").
RESOLVE_NOTES = {"power": "use the superpower next (then choose again)",
                 "cards": "resolve the cards that read the roll next"}
#: What the superpowers' new answers do.
POWER_NOTES = {"token": "take a dice token for each 'token' (Space Penguin)",
               "multiply": "count the claws times the power faces (MekaDragon)"}


def legal_help(view: View) -> str:
    """The legal actions of a Duel decision, rerolls summarised."""
    lines = ["Legal actions:"]
    rerolls = [a for a in view.legal if a.kind == "reroll"]
    for action in view.legal:
        if action.kind == "reroll":
            continue
        note = ""
        if action.kind == "buy":
            card = view.market[action.args[0] - 1]
            note = f"buy {BY_ID[card].name}: {BY_ID[card].text}"
        elif action.text == "done":
            note = "end the buy step (1 energy if you bought nothing)"
        elif action.text == "stop":
            note = f"keep the dice and resolve them ({roll_preview(view)})" if view.kind == "roll" else "stop"
        elif action.kind == "resolve":
            word = action.args[0]
            note = RESOLVE_NOTES.get(word) or (f"resolve {BY_ID[word].name} next" if word in BY_ID
                                               else f"resolve the {word} dice next")
        elif action.kind == "power" and action.args[0] in POWER_NOTES:
            note = POWER_NOTES[action.args[0]]
        elif action.kind == "use" and action.args[0] in ("camouflage", "lightning_speed"):
            note = BY_ID[action.args[0]].text
        else:
            note = action_note(action, view)
        lines.append(f"  {action.text:<24} {note}".rstrip())
    if rerolls:
        lines.append(f"  reroll P ...             roll the dice at positions P again, e.g. '{rerolls[0].text}'")
    return "\n".join(lines)


def card_help(name: str) -> str:
    """What the Duel card called ``name`` (its name or id) does: cost, type, hype token,
    effect; for any other name, what :func:`~kotarena.games.duel.help.explain` says."""
    try:
        card = card_named(name)
    except KeyError:
        return explain(name)
    hype = f", with {token_words(card.hype)}" if card.hype else ""
    return f"{card.name} ({card.cost} energy, {card.type}{hype}): {card.text}"


def standings(state) -> str:
    rows = [(state.outcome.ranks[seat] + 1, state.names[seat], state.health[seat], state.energy[seat])
            for seat in sorted((0, 1), key=lambda s: state.outcome.ranks[s])]
    return table_text(("place", "monster", "health", "energy"), rows)


__all__: Sequence[str] = ("card_help", "legal_help", "standings", "render_table", "track_lines")
