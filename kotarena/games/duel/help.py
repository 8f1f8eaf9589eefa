"""What Duel's decisions and names mean, in words (Duel's ``Game.words``): the question a
decision asks, what stopping the dice now would do, what each of Duel's own actions does,
and what a monster, a superpower or a hype token is."""

from __future__ import annotations

from kotarena.engine.actions import Action
from kotarena.games.duel.cards import BY_ID
from kotarena.games.duel.events import token_words
from kotarena.games.duel.faces import FACE_NAMES
from kotarena.games.duel.kinds import DECISION_KINDS
from kotarena.games.duel.monsters import BY_ID as MONSTERS
from kotarena.games.duel.track import HYPE_TOKENS, TRACK_NAMES
from kotarena.games.duel.verbs import VERBS
from kotarena.games.duel.view import View


def question(view: View) -> str:
    """What the pending decision asks; at the roll, what stopping now would do."""
    text = DECISION_KINDS.get(view.kind or "", f"{view.kind} decision")
    if view.kind == "roll" and view.dice:
        text += f"; stopping now: {roll_preview(view)}"
    return text


#: Faces a track needs before its marker moves: three pull it 1, each more 1 more (docs/duel.md).
_TRACK_FACES = 3


def roll_preview(view: View) -> str:
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


def action_note(action: Action, view: View) -> str:
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


def explain(name: str) -> str:
    """What the thing called ``name`` is, as ``? NAME`` answers when it is not a card: a
    monster or its superpower (``? Blockbuster``), a hype token (``? cat``), or a verb."""
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


__all__ = ["action_note", "explain", "question", "roll_preview"]
