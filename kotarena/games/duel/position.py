"""Describing a Duel position: tests and scenario files set a table up with this.

``build_position`` puts two monsters at the start of a turn of the active seat with
the health, energy, dice tokens, cards, market, markers and hype tokens given, and
scripted dice (``duel_dice``: groups of face names) for every roll to come.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from kotarena.engine.actions import parse_action
from kotarena.engine.dice import ScriptedDice
from kotarena.engine.outcome import PositionError
from kotarena.games.duel.cards import BY_ID, CARDS
from kotarena.games.duel.faces import FACE_NAMES, parse_faces
from kotarena.games.duel.invariants import invariants
from kotarena.games.duel.monsters import find_monster
from kotarena.games.duel.rules import MARKET_SIZE
from kotarena.games.duel.state import State
from kotarena.games.duel.track import CELLS, HYPE_TOKENS, KING_TOKENS, TRACK_NAMES, Space, action_placement
from kotarena.games.duel.turn import advance


def duel_dice(*groups: str | Sequence[str]) -> ScriptedDice:
    """Scripted Duel dice: each group the faces of one roll (``"claw fame power"``)."""
    return ScriptedDice([parse_faces(group) for group in groups], names=FACE_NAMES)


def marker_space(state: State, track: int, where: int | str) -> Space:
    """A marker's space from a scenario's words: a printed space (``-3``) or a hype
    token's space (``"fish_heal"``, ``"phantom_extend_heal:1"``)."""
    if isinstance(where, int):
        if where not in CELLS:
            raise PositionError(f"the {TRACK_NAMES[track]} marker cannot stand on space {where}: spaces go from "
                                f"{CELLS[0]} to {CELLS[-1]}")
        space: Space = ("", where)
    else:
        token, _, k = str(where).partition(":")
        space = (token, int(k or 0))
    if space not in state.board.spaces(track):
        raise PositionError(f"the {TRACK_NAMES[track]} marker cannot stand on {where!r}: it is covered or not on "
                            f"that track")
    return space


def build_position(
    monsters: Sequence[str],
    *,
    active: int = 0,
    turn: int = 2,
    health: Sequence[int] | None = None,
    energy: Sequence[int] = (0, 0),
    tokens: Sequence[int] = (0, 0),
    cards: Sequence[Sequence[str]] = ((), ()),
    market: Sequence[str] = (),
    deck: Sequence[str] | None = None,
    markers: Sequence[int | str] = (0, 0),
    hype: Mapping[str, str] | None = None,
    dice: ScriptedDice | None = None,
    game: str = "duel",
    pause_between_turns: bool = False,
    record: bool = True,
) -> State:
    """A Duel table at the start of ``active``'s turn number ``turn`` (turn 1 is the
    first player's very first, with 5 dice). ``hype`` maps a token to its placement in
    the action's words (``{"fish_heal": "fame -2"}``); ``market`` lists the face-up cards
    from slot 1 (nearest the deck) to slot 3 (1 energy cheaper); ``deck`` the cards to
    be revealed next, the rest of the cards (in an order of their own) after them. Raises :class:`PositionError` for a table that
    cannot exist."""
    chosen = [find_monster(name) for name in monsters]
    if len(chosen) != 2:
        raise PositionError(f"Duel is for 2 monsters, not {len(chosen)}")
    if chosen[0] == chosen[1]:
        raise PositionError(f"both seats play {chosen[0].name}")
    for card in [*market, *(deck or ()), *(c for kept in cards for c in kept)]:
        if card not in BY_ID:
            raise PositionError(f"no Duel card is called {card!r}")
    if len(market) > MARKET_SIZE:
        raise PositionError(f"the market has {MARKET_SIZE} slots, not {len(market)}")
    state = State([m.name for m in chosen], chosen, seed=0, deck=list(deck or ()), dice=dice or ScriptedDice(),
                      record=record, game=game)
    state.deck_name = "duel" if market or deck or any(cards) else None
    state.market = list(market) + [""] * (MARKET_SIZE - len(market))
    state.health = list(health) if health is not None else [m.health for m in chosen]
    state.energy, state.tokens = list(energy), list(tokens)
    state.keeps = [list(cards[0]), list(cards[1])]
    if state.deck_name:  # the other cards are the rest of the deck, after the ones named
        in_play = set(state.market) | set(state.deck) | {c for kept in state.keeps for c in kept}
        rest = [card.id for card in CARDS if card.id not in in_play]
        random.Random(0).shuffle(rest)
        state.deck += rest
    state.board.markers = [("", 99), ("", 99)]  # off the board while tokens are laid
    for token, where in (hype or {}).items():
        if token not in HYPE_TOKENS:
            raise PositionError(f"no hype token is called {token!r}; tokens: {', '.join(HYPE_TOKENS)}")
        try:
            placement = action_placement(parse_action(f"hype {where}"))
        except ValueError as error:
            raise PositionError(f"hype token {token}: {error}") from None
        if placement not in state.board.placements(token):
            raise PositionError(f"hype token {token} cannot lie on {where}: off the track or on another token")
        state.board.place(token, placement)
    for track in (0, 1):
        state.board.markers[track] = marker_space(state, track, markers[track])
    state.active = active
    state.first_player = active if turn % 2 == 1 else 1 - active
    state.turn = turn - 1
    state.pause_between_turns = pause_between_turns
    found = invariants(state)
    if found:
        raise PositionError(found[0])
    advance(state)
    return state


__all__ = ["KING_TOKENS", "build_position", "duel_dice", "marker_space"]
