"""The heuristic's Duel: rules of thumb that know the fame and destruction tracks.

Every function reads only what a :class:`~kotarena.games.duel.view.View` and a
Duel state share (``health``, ``energy``, ``tokens``, ``dice``, ``market``, ``board``,
``monsters`` ...), so the search bot's rollouts use them on raw states.

The plan: pull the marker that is nearer its victory space or spotlight zone on our
side, with the dice showing more of its face; keep claws while the rival is hurt or
we are well; keep hearts when low; keep power faces for the superpowers that pay.
"""

from __future__ import annotations

from collections.abc import Sequence

from kotarena.engine.actions import Action
from kotarena.games.duel.cards import BY_ID
from kotarena.games.duel.faces import CLAW, DESTRUCTION, ENERGY, FACE_NAMES, FAME, HEART, POWER
from kotarena.games.duel.track import DESTRUCTION_TRACK, FAME_TRACK, HYPE_TOKENS, TRACK_NAMES, toward

#: How much each monster's superpower makes of power faces.
POWER_WORTH = {"gigazaur": 0.8, "xenoid": 0.7, "space_penguin": 0.5, "mekadragon": 0.6, "cyber_kitty": 0.7,
               "the_king": 0.4}
#: Cards that hurt their buyer: bought only while healthy.
SELF_HARM = {"hors_doeuvre": 3, "jets_scrambled": 5, "the_party_is_over": 4}


def progress(table, seat: int, track: int) -> int:
    """How far a track's marker stands toward ``seat``'s end (spaces from the centre)."""
    board = table.board
    spaces = board.spaces(track)
    where = spaces.index(board.markers[track])
    centre = len(spaces) // 2
    return (centre - where) if toward(seat) < 0 else (where - centre)


def target_track(table, seat: int) -> int:
    """The track to pull this turn: more of its face among the dice, then the nearer win."""
    counts = [0] * 6
    for face in table.dice:
        counts[face] += 1
    fame = (counts[FAME], progress(table, seat, FAME_TRACK))
    destruction = (counts[DESTRUCTION], progress(table, seat, DESTRUCTION_TRACK))
    return FAME_TRACK if fame >= destruction else DESTRUCTION_TRACK


def face_worth(table, seat: int, face: int, track: int) -> float:
    rival = 1 - seat
    missing = _max_health(table, seat) - table.health[seat]
    if face == CLAW:
        return 1.0 if table.health[rival] <= 6 else 0.7
    if face == HEART:
        return 0.9 if missing >= 4 else (0.3 if missing else 0.0)
    if face == ENERGY:
        return 0.45
    if face == POWER:
        return POWER_WORTH[_monster(table, seat)]
    return 0.9 if (face == FAME) == (track == FAME_TRACK) else 0.0


def _monster(table, seat: int) -> str:
    monster = table.monsters[seat]
    return monster if isinstance(monster, str) else monster.id


def _max_health(table, seat: int) -> int:
    if hasattr(table, "max_health"):
        return table.max_health[seat]
    return table.monsters[seat].health


def roll_action(table, seat: int, legal: Sequence[Action]) -> Action:
    """Keep the dice worth keeping, reroll the others (or stop)."""
    track = target_track(table, seat)
    reroll = tuple(i for i, face in enumerate(table.dice, 1) if face_worth(table, seat, face, track) < 0.5)
    if reroll:
        for action in legal:
            if action.kind == "reroll" and action.args == reroll:
                return action
    return legal[0]


def power_action(table, seat: int, legal: Sequence[Action]) -> Action:
    options = [a for a in legal if a.text != "pass"]
    if not options:
        return legal[0]
    track = target_track(table, seat)
    name = TRACK_NAMES[track]
    for action in options:  # Gigazaur, or Xenoid adding the face of its track
        if action.kind == "power" and action.args[0] == name:
            if len(action.args) == 1 or any(a.args == (name, name) for a in options):
                twice = [a for a in options if a.args == (name, name)]
                return twice[0] if twice else action
    blocks = [a for a in options if a.kind == "block"]
    if blocks:  # The King: block the rival's way, next to the marker on the rival's side
        rival = 1 - seat

        def distance(action: Action) -> int:
            track_index = TRACK_NAMES.index(action.args[1])
            marker = table.board.markers[track_index]
            cell = marker[1] if not marker[0] else table.board.cells_of(marker)[0]
            ahead = (action.args[2] - cell) * toward(rival)
            return ahead if ahead > 0 else 99

        return min(blocks, key=distance)
    if _monster(table, seat) in ("space_penguin", "cyber_kitty", "mekadragon"):
        # Space Penguin takes every dice token, Cyber Kitty the bigger activation (4
        # energy for 3 faces), MekaDragon multiplies its claws.
        return max(options, key=lambda action: len(action.args))
    claws = [a for a in options if a.args == ("claw", "claw")] or [a for a in options if a.args == ("claw",)]
    return claws[0] if claws else options[0]


def hype_action(table, seat: int, legal: Sequence[Action]) -> Action:
    """Bonus tokens on our side just ahead of a marker; a track lengthener on the
    rival's side; a shortcut on ours."""
    options = [a for a in legal if a.kind == "hype"]
    if not options:
        return legal[0]
    board = table.board
    token = next((t for t in HYPE_TOKENS if t in (getattr(table, "answer", ()) or ())), None)
    lengthens = token is not None and len(HYPE_TOKENS[token].bonuses) > HYPE_TOKENS[token].covers

    def score(action: Action) -> int:
        track = TRACK_NAMES.index(action.args[0])
        marker = board.markers[track]
        cell = marker[1] if not marker[0] else board.cells_of(marker)[0]
        side = 1 - seat if lengthens else seat
        ahead = (action.args[1] - cell) * toward(side)
        return ahead if ahead > 0 else 50 + abs(ahead)

    return min(options, key=score)


def buy_action(table, seat: int, legal: Sequence[Action]) -> Action:
    """The dearest card it can afford (cards that hurt their buyer only while healthy)."""
    best, best_cost = legal[0], -1
    for action in legal:
        if action.kind != "buy":
            continue
        card = BY_ID[table.market[action.args[0] - 1]]
        if table.health[seat] <= SELF_HARM.get(card.id, 0) + 2:
            continue
        if card.cost > best_cost:
            best, best_cost = action, card.cost
    return best


def card_action(table, seat: int, legal: Sequence[Action]) -> Action:
    used = [a for a in legal if a.kind == "use"]
    if not used:
        return legal[0]
    card = used[0].args[0]
    if card == "hibernation":  # keep hibernating (pass) while hurt
        return legal[0] if table.health[seat] <= _max_health(table, seat) - 6 else used[0]
    if card in ("rebooting", "titanic_batteries", "dominate"):
        return legal[0]
    return used[-1]


def duel_action(table, seat: int, legal: Sequence[Action]) -> Action:
    """The heuristic's answer to any Duel decision."""
    kind = table.kind
    if kind == "roll":
        return roll_action(table, seat, legal)
    if kind == "tokens":
        return legal[-1]
    if kind == "power":
        return power_action(table, seat, legal)
    if kind == "order":  # the parts of the roll in the engine's default order (the first offered)
        return legal[0]
    if kind == "hype":
        return hype_action(table, seat, legal)
    if kind == "buy":
        return buy_action(table, seat, legal)
    if kind == "card":
        return card_action(table, seat, legal)
    if kind == "monster":  # the sturdiest monster left
        from kotarena.games.duel.monsters import find_monster

        return max(legal, key=lambda action: find_monster(action.args[0]).health)
    return legal[0]


__all__ = ["FACE_NAMES", "duel_action", "progress"]
