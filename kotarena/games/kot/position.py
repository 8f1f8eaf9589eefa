"""Set up any position: monsters, Tokyo, market, deck top, whose turn.

Scenarios and tests describe a table with :class:`MonsterSetup` values and get a
:class:`~kotarena.games.kot.state.State` at the start of the given monster's turn.
Positions that cannot exist in a game are refused with a :class:`PositionError`
naming the problem.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from kotarena.engine.dice import ScriptedDice
from kotarena.engine.outcome import PositionError
from kotarena.games import get_game
from kotarena.games.kot.cards import UnknownDeckError, find_card
from kotarena.games.kot.kinds import BAY, CITY
from kotarena.games.kot.state import State


@dataclass
class MonsterSetup:
    """One monster of a described position (defaults are a fresh monster)."""

    name: str
    health: int = 10
    max_health: int = 10
    stars: int = 0
    energy: int = 0
    tokyo: str | None = None  #: ``"city"``, ``"bay"`` or ``None``
    alive: bool = True
    cards: Sequence[str] = field(default_factory=tuple)  #: keep cards, by id or name
    poison: int = 0  #: poison tokens
    shrink: int = 0  #: shrink tokens
    #: counters on this monster's cards, by card id (Smoke Cloud's charges, energy on
    #: Monster Batteries); cards not named carry what they carry when just bought.
    counters: Mapping[str, int] = field(default_factory=dict)


def build_position(
    monsters: Sequence[MonsterSetup],
    *,
    first: str | int,
    game: str = "kot",
    deck: str | None = "default",
    market: Sequence[str] | None = None,
    deck_top: Sequence[str] = (),
    dice: ScriptedDice | None = None,
    seed: int = 0,
    record: bool = True,
    pause_between_turns: bool = False,
    begin: bool = True,
) -> State:
    """A state at the start of ``first``'s turn (or before it, with ``begin=False``).

    ``market`` names the face-up cards (slot 1 first); ``deck_top`` the cards on top of
    the deck, the next one to be revealed first. Other cards stay in the seeded
    shuffled order below them.
    """
    kot = get_game(game)
    names = [m.name for m in monsters]
    state: State = kot.blank(names, seed=seed, deck=deck, dice=dice, record=record)  # type: ignore[attr-defined]
    state.pause_between_turns = pause_between_turns
    alive_count = sum(1 for m in monsters if m.alive)
    if alive_count < 2:
        raise PositionError("a game in progress needs at least 2 monsters alive")
    state.bay_open = state.rules.bay_opens(len(names)) and state.rules.bay_opens(alive_count)
    state.alive_count = alive_count
    for p, m in enumerate(monsters):
        _place_monster(state, p, m)
    if deck is not None and state.deck_name is not None:
        _deal_cards(state, monsters, market, deck_top)
    elif market or deck_top or any(m.cards for m in monsters):
        raise PositionError("cards are named but the game has no deck")
    else:
        state.cards_changed()  # tokens act without cards
    if isinstance(first, str):
        if first not in names:
            raise PositionError(f"first monster {first!r} is not at the table ({', '.join(names)})")
        first = names.index(first)
    if begin:
        state.begin(first)
    else:
        state.active = first
    return state


def _place_monster(state: State, p: int, m: MonsterSetup) -> None:
    where = f"monster {m.name!r}"
    if m.max_health < 1:
        raise PositionError(f"{where}: max_health must be at least 1, not {m.max_health}")
    if m.alive and not 1 <= m.health <= m.max_health:
        raise PositionError(f"{where}: health {m.health} is outside 1..{m.max_health} for a living monster")
    if not m.alive and m.health != 0:
        raise PositionError(f"{where}: an eliminated monster has 0 health, not {m.health}")
    if m.stars < 0 or m.energy < 0:
        raise PositionError(f"{where}: stars and energy cannot be negative")
    if m.poison < 0 or m.shrink < 0:
        raise PositionError(f"{where}: tokens cannot be negative")
    state.poison[p] = m.poison if m.alive else 0
    state.shrink[p] = m.shrink if m.alive else 0
    state.health[p] = m.health
    state.max_health[p] = m.max_health
    state.stars[p] = m.stars
    state.energy[p] = m.energy
    state.alive[p] = m.alive
    if not m.alive:
        state.eliminated_at[p] = (0, 0)
    place = (m.tokyo or "").lower() or None
    if place is None or place == "none":
        return
    if not m.alive:
        raise PositionError(f"{where}: an eliminated monster cannot be in Tokyo")
    if place == CITY:
        if state.city >= 0:
            raise PositionError(f"{where}: Tokyo City already holds {state.names[state.city]!r}")
        state.city = p
    elif place == BAY:
        if not state.bay_open:
            raise PositionError(
                f"{where}: Tokyo Bay is used only while {state.rules.bay_min_players} or more monsters are alive")
        if state.bay >= 0:
            raise PositionError(f"{where}: Tokyo Bay already holds {state.names[state.bay]!r}")
        state.bay = p
    else:
        raise PositionError(f"{where}: tokyo must be 'city', 'bay' or 'none', not {m.tokyo!r}")


def _deal_cards(
    state: State,
    monsters: Sequence[MonsterSetup],
    market: Sequence[str] | None,
    deck_top: Sequence[str],
) -> None:
    """Move the named cards out of the shuffled deck to where the position puts them."""
    # Undo the market the game's blank table dealt: the position says what is face up.
    size = len(state.market)
    for slot in range(size):
        if state.market[slot] >= 0:
            state.deck.append(state.market[slot])
        state.market[slot] = -1
    if state.log is not None:
        state.log.clear()

    def take(key: str, where: str) -> int:
        try:
            info = find_card(state.deck_name, key)
        except UnknownDeckError as error:
            raise PositionError(f"{where}: {error}") from None
        for i in range(len(state.deck) - 1, -1, -1):
            if state.cards_info[state.deck[i]].id == info.id:
                return state.deck.pop(i)
        raise PositionError(f"{where}: no copy of {info.name!r} is left in the deck")

    for p, m in enumerate(monsters):
        for key in m.cards:
            card = take(key, f"monster {m.name!r}")
            info = state.cards_info[card]
            if info.type != "keep":
                raise PositionError(f"monster {m.name!r}: {info.name!r} is a discard card")
            if not m.alive:
                raise PositionError(f"monster {m.name!r}: an eliminated monster owns no cards")
            state.owned[p].append(card)
            initial = state.effect_of(card).initial_counters
            if info.id in m.counters:
                state.counters[card] = m.counters[info.id]
            elif initial is not None:
                state.counters[card] = initial
        unknown = set(m.counters) - {state.cards_info[c].id for c in state.owned[p]}
        if unknown:
            raise PositionError(f"monster {m.name!r}: counters on cards it does not own: {', '.join(sorted(unknown))}")
    if market is not None and len(market) > size:
        raise PositionError(f"market: at most {size} face-up cards, not {len(market)}")
    face_up = [take(key, "market") for key in market] if market is not None else []
    top = [take(key, "deck_top") for key in deck_top]
    for slot, card in enumerate(face_up):
        state.market[slot] = card
    if market is None:
        # A market left unnamed is dealt from the shuffled rest of the deck, so the
        # named deck_top cards stay on top, to be revealed next.
        for slot in range(size):
            state.reveal(slot)
    state.deck.extend(reversed(top))  # the deck's top is the end of the list
    state.cards_changed()
