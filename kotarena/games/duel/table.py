"""Duel's table in plain text (its ``Game.words``, :mod:`kotarena.games.duel.words`):
the monsters, both tracks, the market, the dice; the help for a decision and for a
named thing.

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
from kotarena.games.duel.cards import BY_ID
from kotarena.games.duel.display import LEGEND, space_marks
from kotarena.games.duel.events import token_words
from kotarena.games.duel.faces import FACE_NAMES
from kotarena.games.duel.monsters import BY_ID as MONSTERS
from kotarena.games.duel.track import TRACK_NAMES
from kotarena.games.duel.view import DuelView


def track_lines(view: DuelView) -> list[str]:
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


def render_duel(view: DuelView, me: int | None = None) -> str:
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


def question(view: DuelView) -> str:
    """What the pending decision asks; at the roll, what stopping now would do."""
    from kotarena.games.duel.game import DECISION_KINDS

    text = DECISION_KINDS.get(view.kind or "", f"{view.kind} decision")
    if view.kind == "roll" and view.dice:
        text += f"; stopping now: {roll_preview(view)}"
    return text


#: Faces a track needs before its marker moves: three pull it 1, each more 1 more (docs/duel.md).
_TRACK_FACES = 3


def roll_preview(view: DuelView) -> str:
    """What the dice as they stand would do on the tracks, and the rest in a word each:
    ``2 destruction: 1 short of pulling the destruction marker; 2 claws``."""
    counts = [0] * len(FACE_NAMES)
    for face in (*view.dice, *view.added):
        counts[face] += 1
    parts = []
    for track in TRACK_NAMES:
        count = counts[FACE_NAMES.index(track)]
        if count >= _TRACK_FACES:
            parts.append(f"{count} {track}: pull the {track} marker {count - _TRACK_FACES + 1} toward you")
        elif count:
            short = _TRACK_FACES - count
            parts.append(f"{count} {track}: {short} short of pulling the {track} marker, so it does not move")
    for name in ("claw", "heart", "energy", "power"):
        count = counts[FACE_NAMES.index(name)]
        if count:
            parts.append(f"{count} {name}{'s' if count != 1 and name != 'energy' else ''}")
    return "; ".join(parts) or "nothing"


def duel_help(view: DuelView) -> str:
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
        else:
            note = action_note(action, view)
        lines.append(f"  {action.text:<24} {note}".rstrip())
    if rerolls:
        lines.append(f"  reroll P ...             roll the dice at positions P again, e.g. '{rerolls[0].text}'")
    return "\n".join(lines)


def action_note(action, view: DuelView) -> str:
    """What one of Duel's own actions (``pass``, ``spend``, ``power``, ``hype``,
    ``block``, ``pick``, ``use``, ``sweep``) does at this decision."""
    kind, args = action.kind, action.args
    monster = MONSTERS[view.monsters[view.to_move]] if view.to_move >= 0 else None
    if kind == "pass":
        return {"power": f"leave {monster.power if monster else 'your superpower'} unused and resolve the dice",
                "hype": "leave the hype token where it is (off the board if it is not on it)",
                "card": "decline the card's choice",
                "tokens": "spend no dice tokens"}.get(view.kind or "", "decline")
    if kind == "spend":
        count = args[0]
        if not count:
            return "spend no dice tokens: roll the standard dice only"
        return f"spend {count} dice token{'s' if count != 1 else ''} for {count} special di{'c' if count != 1 else ''}e"
    if kind == "power" and monster is not None:
        if args[0] in TRACK_NAMES:
            return f"{monster.power}: pull the {args[0]} marker 1 space toward your end"
        faces = args[0] if len(args) == 1 else f"{args[0]} twice"
        return f"{monster.power}: add {faces} to your roll"
    if kind == "block" and monster is not None:
        return f"{monster.power}: put blocking token {args[0]} on {args[1]} space {args[2]}"
    if kind == "hype":
        spaces = " and ".join(str(space) for space in args[1:])
        return f"put the hype token on {args[0]} space{'s' if len(args) > 2 else ''} {spaces}"
    if kind == "pick":
        picked = MONSTERS.get(args[0])
        return f"play {picked.name} ({picked.health} health; {picked.power}: {picked.text})" if picked else ""
    if kind == "use" and args and args[0] in BY_ID:
        return f"use {BY_ID[args[0]].name}: {BY_ID[args[0]].text}"
    if kind == "sweep":
        return "pay 2 energy to discard the market and reveal three new cards"
    return ""


def duel_card_help(name: str) -> str:
    """What the thing called ``name`` is, as ``? NAME`` answers: a Duel card (its name
    or id: cost, type, hype token, effect), a monster or its superpower (``?
    Blockbuster``), a hype token, or an action's verb."""
    from kotarena.games.duel.cards import card_named
    from kotarena.games.duel.track import HYPE_TOKENS
    from kotarena.games.duel.verbs import VERBS

    try:
        card = card_named(name)
    except KeyError:
        pass
    else:
        hype = f", with {token_words(card.hype)}" if card.hype else ""
        return f"{card.name} ({card.cost} energy, {card.type}{hype}): {card.text}"
    key = name.strip().lower()
    for monster in MONSTERS.values():
        if key in (monster.id, monster.name.lower()):
            return (f"{monster.name}: a monster with {monster.health} health; its superpower {monster.power}: "
                    f"{monster.text}")
        if key == monster.power.lower():
            return f"{monster.power}, {monster.name}'s superpower: {monster.text}"
    token = key.replace(" ", "_").removesuffix("_hype_token").removesuffix("_token")
    matches = [t for t in HYPE_TOKENS if t == token or t.split("_")[0] == token]
    if matches:
        return "; ".join(token_words(t) for t in matches)
    verb = VERBS.get(key)
    if verb is not None:
        return f"{verb.usage}: {verb.help}"
    return (f"Nothing in Duel is called {name!r}: not a card ('kotarena cards --game duel' lists them), "
            f"a monster or superpower ({', '.join(m.power for m in MONSTERS.values())}), a hype token or an action.")


def duel_standings(state) -> str:
    rows = [(state.outcome.ranks[seat] + 1, state.names[seat], state.health[seat], state.energy[seat])
            for seat in sorted((0, 1), key=lambda s: state.outcome.ranks[s])]
    return table_text(("place", "monster", "health", "energy"), rows)


__all__: Sequence[str] = ("action_note", "duel_card_help", "duel_help", "duel_standings", "question", "render_duel",
                          "roll_preview", "track_lines")
