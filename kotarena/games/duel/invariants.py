"""Every rule of a Duel table a position may break (checked after every action in soaks,
``check_game`` and scenarios)."""

from __future__ import annotations

from kotarena.games.duel.rules import MARKET_SIZE, MAX_DICE, MAX_TOKENS
from kotarena.games.duel.track import CELLS, HYPE_TOKENS, TRACK_NAMES


def invariants(state) -> list[str]:
    found: list[str] = []
    for seat in (0, 1):
        name = state.names[seat]
        if not 0 <= state.health[seat] <= state.monsters[seat].health:
            found.append(f"{name} has {state.health[seat]} health (0 to {state.monsters[seat].health})")
        if state.health[seat] == 0 and state.outcome is None:
            found.append(f"{name} is at 0 health in a game that is not over")
        if not 0 <= state.tokens[seat] <= MAX_TOKENS:
            found.append(f"{name} holds {state.tokens[seat]} dice tokens (at most {MAX_TOKENS})")
        if state.energy[seat] < 0:
            found.append(f"{name} has {state.energy[seat]} energy")
    if len(state.dice) > MAX_DICE:
        found.append(f"{len(state.dice)} dice in a roll (at most {MAX_DICE})")
    if len(state.market) != MARKET_SIZE:
        found.append(f"the market has {len(state.market)} slots")
    board = state.board
    for track, name in enumerate(TRACK_NAMES):
        covered: dict[int, str] = {}
        for token, (where, low, _flipped) in board.placed.items():
            if where != track:
                continue
            for cell in range(low, low + HYPE_TOKENS[token].covers):
                if cell not in CELLS:
                    found.append(f"{token} lies off the {name} track")
                elif cell in covered:
                    found.append(f"{token} overlaps {covered[cell]} on the {name} track")
                covered[cell] = token
        marker = board.markers[track]
        if marker not in board.spaces(track):
            found.append(f"the {name} marker stands on {marker}, not a space of its track")
    if state.outcome is None and board.winner_by_space() is not None:
        found.append("a marker stands on a victory space in a game that is not over")
    if state.outcome is None and board.winner_by_spotlight() is not None:
        found.append("both markers stand in a spotlight zone in a game that is not over")
    return found
