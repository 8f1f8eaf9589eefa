"""King of Tokyo: Duel as a :class:`~kotarena.engine.game.Game`: the spec, setting a
table up (monsters, deck, first player), views, sampled games, seat facts, replay tokens.
"""

from __future__ import annotations

import functools
import random as _random_module
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from kotarena.engine.actions import Action
from kotarena.engine.game import Game, GameOption, GameSpec, UnknownDeckError, configured_name
from kotarena.engine.outcome import PositionError
from kotarena.games.duel import display as _display
from kotarena.games.duel import events as _events
from kotarena.games.duel import invariants as _invariants
from kotarena.games.duel.cards import CARDS
from kotarena.games.duel.faces import CLAW
from kotarena.games.duel.monsters import MONSTERS, NAMES, Monster, find_monster
from kotarena.games.duel.rulings import SECOND_PLAYER_ENERGY
from kotarena.games.duel.state import MARKET_SIZE, STANDARD_DICE, DuelState, shuffle
from kotarena.games.duel.turn import advance
from kotarena.games.duel.verbs import PICK, VERBS
from kotarena.games.duel.view import DuelView, sample_state
from kotarena.games.duel.words import ENDINGS, DuelWords

SPEC = GameSpec("duel", "King of Tokyo: Duel", 2, 2, "duel", rules_version=3,
                aliases=("kot-duel", "king-of-tokyo-duel"), decks=("duel",))

DECISION_KINDS = {
    "tokens": "spend dice tokens for special dice before the first roll (spend N)",
    "roll": "keep the dice (stop) or reroll some (reroll 1 4)",
    "power": "activate the superpower (power fame, power claw claw, block 1 fame 3, power token, power energy, "
             "power multiply) or stop (pass)",
    "order": "which part of the roll to resolve next (resolve power, resolve fame, resolve claw)",
    "hype": "put the bought card's hype token on a track (hype fame 3 4), or leave it (pass)",
    "buy": "buy a card (buy 3), sweep the market (sweep), or end the buy step (done: +1 energy if nothing bought)",
    "card": "use a card's choice (use <card id> ...) or decline it (pass)",
    "monster": "choose your monster (pick the_king), when the table lets the seats choose",
}

#: The deck before shuffling.
CARD_IDS = tuple(card.id for card in CARDS)

DRAWN, CHOICE = "drawn", "choice"
#: How the seats get their monsters: drawn from the seed, chosen by the seats in turn
#: (a ``monster`` decision, seat 1 first), or fixed (``gigazaur/the_king``: seat 1's, seat 2's).
MONSTERS_OPTION = GameOption(
    "monsters", (DRAWN, CHOICE, *(f"{a.id}/{b.id}" for a in MONSTERS for b in MONSTERS if a != b)),
    "how seats get their monsters when none are named: drawn (from the seed), choice (each seat picks, "
    "seat 1 first), or fixed as FIRST/SECOND (gigazaur/the_king)",
    shown=f"{DRAWN}|{CHOICE}|FIRST/SECOND (two of {', '.join(m.id for m in MONSTERS)})")

#: Packed replay tokens (a token's meaning never changes).
PACKED_TOKENS = {"s": "stop", "d": "done", "p": "pass", "w": "sweep", "0": "spend 0", "1": "spend 1",
                 "2": "spend 2", "F": "power fame", "D": "power destruction"}


def roll_off(state: DuelState) -> int:
    """Each monster rolls six dice; most claws goes first, ties roll again.

    The roll-off has dice of its own (scripted dice excepted) and is not logged: a
    replay records the first player and sets the table up without it, to the same game."""
    rng = _random_module.Random(f"duel-roll-off:{state.seed}")
    while True:
        claws = [(state.scripted.roll(STANDARD_DICE) if state.scripted is not None
                  else [int(rng.random() * 6) for _ in range(STANDARD_DICE)]).count(CLAW) for _ in (0, 1)]
        if claws[0] != claws[1]:
            return 0 if claws[0] > claws[1] else 1


def begin(state: DuelState, first: int) -> None:
    """The first player (``-1``: by the roll-off) and the other seat's energy."""
    if first < 0:
        first = roll_off(state)
    state.first_player = state.active = first
    state.energy[1 - first] += SECOND_PLAYER_ENERGY


def ask_pick(state: DuelState, seat: int, named: str = "") -> None:
    """Ask ``seat`` for its monster: any the other seat has not taken, or only ``named``
    (the monster a table given by names seats there, so that a replay, which names the
    monsters the seats picked, asks the same decisions again)."""
    taken = state.monsters[0].id if seat == 1 else None
    offered = [named] if named else [m.id for m in MONSTERS if m.id != taken]
    state.ask(seat, "monster", [Action.of(PICK, monster) for monster in offered], ("pick", seat, named))


def pick(state: DuelState, action: Action, seat: int, named: str = "") -> None:
    """A seat's monster: its name and health follow."""
    monster = find_monster(action.args[0])
    monsters = list(state.monsters)
    monsters[seat] = monster
    state.monsters = tuple(monsters)
    names = list(state.names)
    names[seat] = monster.name
    state.names = tuple(names)
    state.health[seat] = monster.health
    state.say("pick", seat, monster.id)


class Duel(Game):
    """King of Tokyo: Duel, for exactly two monsters (seed 002; docs/duel.md)."""

    view_type = DuelView
    decision_kinds = DECISION_KINDS
    verbs = VERBS
    endings = ENDINGS
    seat_fact_names = ("monster", "health", "energy", "cards")
    default_names = NAMES
    options = {"monsters": MONSTERS_OPTION}

    def __init__(self, spec: GameSpec = SPEC, monsters: str = DRAWN) -> None:
        self.spec = spec
        #: How seats get monsters when only a number of players is given (``MONSTERS_OPTION``).
        self.monsters = monsters

    def with_options(self, options: Mapping[str, str]) -> Duel:
        spec = replace(self.spec, name=configured_name(self.spec.name, options),
                       title=f"{self.spec.title} (monsters: {options['monsters']})",
                       aliases=(self.spec.name, *self.spec.aliases))
        return Duel(spec, options["monsters"])

    def monsters_for(self, players: int | Sequence[str], seed: int) -> tuple[list[str], list[Monster]]:
        """Seats' names and monsters: the monsters named (each a Duel monster, no two
        alike), else as the game's ``monsters`` option says (for ``choice``, the first
        two monsters stand in until the seats have picked)."""
        if isinstance(players, int):
            self.spec.check_players(players)
            if self.monsters == DRAWN:
                drawn = _random_module.Random(f"duel-monsters:{seed}").sample(MONSTERS, 2)
            elif self.monsters == CHOICE:
                drawn = list(MONSTERS[:2])
            else:
                drawn = [find_monster(name) for name in self.monsters.split("/")]
            return [m.name for m in drawn], list(drawn)
        names = list(players)
        self.spec.check_players(len(names))
        monsters = [find_monster(name) for name in names]
        if monsters[0] == monsters[1]:
            raise PositionError(f"both seats chose {monsters[0].name}; each monster is played once")
        return [m.name for m in monsters], monsters

    def new_state(self, players, *, seed=None, deck="default", first_player=None, dice=None, record=True):
        if seed is None:
            seed = _random_module.SystemRandom().randrange(2**63)
        if deck not in (None, "default"):
            self.check_deck(deck)
        names, monsters = self.monsters_for(players, seed)
        cards = list(CARD_IDS) if deck is not None else None
        state = DuelState(names, monsters, seed=seed, deck=cards, dice=dice, record=record, game=self.spec.name)
        if cards is not None:
            shuffle(state.rng, state.deck)
            state.market = [state.deck.pop(0) for _ in range(MARKET_SIZE)]
            state.say("market", tuple(state.market))
        if first_player is not None and first_player not in (0, 1):
            raise PositionError(f"first_player is seat 0 or 1, not {first_player}")
        first = -1 if first_player is None else first_player
        if self.monsters == CHOICE:
            named = ("", "") if isinstance(players, int) else tuple(m.id for m in monsters)
            state.todo = [("pick", 0, named[0]), ("pick", 1, named[1]), ("begin", first)]
        else:
            begin(state, first)
        advance(state)
        return state

    def sample(self, view: DuelView, seed: int | None = None) -> DuelState:
        """A playable state consistent with ``view`` (``DuelView.sample_game``)."""
        return sample_state(self, view, seed)

    def check_deck(self, deck: str) -> None:
        if deck not in ("duel", "default"):
            raise UnknownDeckError(f"unknown deck {deck!r}; {self.spec.title} plays its own deck: duel, or none")

    @functools.cached_property
    def words(self) -> DuelWords:
        """The table, help, endings and card list as people read them (:mod:`~kotarena.games.duel.words`)."""
        return DuelWords(self)

    def card_rows(self) -> list[dict]:
        """The deck's cards for ``kotarena cards --game duel``, by name."""
        return [{"id": c.id, "name": c.name, "cost": c.cost, "type": c.type, "copies": 1, "hype": c.hype,
                 "effect": c.text, "implemented": True} for c in sorted(CARDS, key=lambda c: c.name.lower())]

    def seat_facts(self, state, seat):
        return {"monster": state.monsters[seat].name, "health": state.health[seat],
                "energy": state.energy[seat], "cards": len(state.keeps[seat])}

    def replay_tokens(self) -> Mapping[str, str]:
        return PACKED_TOKENS

    def invariants(self, state) -> list[str]:
        return _invariants.problems(state)

    def event_text(self, event: tuple, names: Sequence[str]) -> str:
        return _events.event_text(event, names)

    def event_lines(self, events: Sequence[tuple], names: Sequence[str]) -> list[str]:
        return _events.event_lines(events, names)

    def event_data(self, event: tuple) -> list:
        return _events.event_data(event)

    def snapshot(self, state) -> dict[str, Any]:
        return _display.snapshot(state)

    def purchases(self, events: Sequence[tuple]) -> list[tuple[int, str]]:
        return _display.purchases(events)

    def scenario_format(self):
        from kotarena.games.duel.scenario import DUEL_SCENARIOS

        return DUEL_SCENARIOS


DUEL_GAME = Duel()
