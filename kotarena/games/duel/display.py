"""What people are shown of a Duel table (the site's replay viewer): a snapshot of the
tracks, markers, hype tokens, monsters, dice and market, and the cards each seat bought."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kotarena.games.duel.cards import BY_ID
from kotarena.games.duel.events import token_words
from kotarena.games.duel.faces import format_faces
from kotarena.games.duel.track import HYPE_TOKENS, TRACK_NAMES, Board, in_zone

if TYPE_CHECKING:
    from kotarena.games.duel.state import State

_BONUS_MARK = {"smash": "x", "smash2": "X", "heal": "h", "energy": "e", "dice": "d", None: "o"}
#: What the marks of a drawn track mean (``kotarena play`` prints it under the tracks too).
LEGEND = ("@ marker, V victory space, S spotlight zone; hype spaces: x smash, X double smash, h heal, "
          "e energy, d dice token, o no bonus, K The King's block")


def space_marks(board: Board, track: int) -> list[str]:
    """One mark per space of a track, from the first seat's victory space to the
    second seat's (:data:`LEGEND`): ``V . S S S . . @ . . S S o x o V``."""
    spaces = board.spaces(track)
    marks = []
    for index, space in enumerate(spaces):
        token, k = space
        if space == board.markers[track]:
            mark = "@"
        elif index in (0, len(spaces) - 1):
            mark = "V"
        elif token:
            mark = "K" if HYPE_TOKENS[token].blocks else _BONUS_MARK[board.bonus(space)]
        elif any(in_zone(k, seat) for seat in (0, 1)):
            mark = "S"
        else:
            mark = "."
        marks.append(mark)
    return marks


def marker_words(board: Board, track: int, names: Sequence[str]) -> str:
    """How far a track's marker stands from each victory space, in spaces."""
    where = board.index(track)
    last = len(board.spaces(track)) - 1
    return f"{where} from {names[0]}'s victory space, {last - where} from {names[1]}'s"


def snapshot(state: State) -> dict[str, Any]:
    """Each monster's health, energy, dice tokens and cards; both tracks drawn with their
    marker and hype tokens, where each marker stands, the dice as last rolled and the
    market (see ``Game.snapshot``)."""
    board = state.board
    # (The monster is the seat's name, which the viewer shows already.)
    seats = [{"health": state.health[seat],
              "max health": state.monsters[seat].health, "energy": state.energy[seat],
              "dice tokens": state.tokens[seat], "cards": [BY_ID[card].name for card in state.keeps[seat]]}
             for seat in (0, 1)]
    table: dict[str, Any] = {}
    for track, name in enumerate(TRACK_NAMES):
        table[f"{name} track"] = " ".join(space_marks(board, track))
        table[f"{name} marker"] = marker_words(board, track, state.names)
    table["tracks"] = f"{state.names[0]}'s end on the left, {state.names[1]}'s on the right; {LEGEND}"
    table["hype tokens"] = [f"{token_words(token)}: {TRACK_NAMES[track]} {_span(low, HYPE_TOKENS[token].covers)}"
                            for token, (track, low, _flipped) in sorted(board.placed.items(),
                                                                        key=lambda item: (item[1][0], item[1][1]))]
    table["dice"] = format_faces(state.dice)
    if state.deck_name is not None:
        table["market"] = [BY_ID[card].name if card else "(empty slot)" for card in state.market]
        table["deck"] = len(state.deck)
    return {"seats": seats, "table": table, "active": None if state.outcome is not None else state.active,
            "out": [seat for seat in (0, 1) if state.health[seat] == 0]}


def _span(low: int, covers: int) -> str:
    return f"space {low}" if covers == 1 else f"spaces {low} to {low + covers - 1}"


def purchases(events: Sequence[tuple]) -> list[tuple[int, str]]:
    """``(seat, card name)`` of every ``buy`` event, in order."""
    return [(event[1], BY_ID[event[2]].name if event[2] in BY_ID else str(event[2]))
            for event in events if event[0] == "buy" and len(event) == 4]


__all__ = ["LEGEND", "marker_words", "purchases", "snapshot", "space_marks"]
