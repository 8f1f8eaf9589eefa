"""King of Tokyo: Duel as a :class:`~kotarena.engine.game.Game`: the spec, setting a
table up (monsters, deck, first player), views, sampled games, seat facts, replay tokens.
"""

from __future__ import annotations

import functools
import random as _random_module
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from kotarena.engine.game import Game, GameOption, GameSpec, UnknownDeckError, configured_name
from kotarena.engine.outcome import PositionError
from kotarena.games.duel import display as _display
from kotarena.games.duel import events as _events
from kotarena.games.duel import invariants as _invariants
from kotarena.games.duel.cards import CARDS
from kotarena.games.duel.kinds import DECISION_KINDS
from kotarena.games.duel.monsters import MONSTERS, NAMES, Monster, find_monster
from kotarena.games.duel.rules import MARKET_SIZE
from kotarena.games.duel.sample import sample_state
from kotarena.games.duel.start import begin
from kotarena.games.duel.state import State, shuffle
from kotarena.games.duel.tokens import PACKED_TOKENS
from kotarena.games.duel.turn import advance
from kotarena.games.duel.verbs import VERBS
from kotarena.games.duel.view import View
from kotarena.games.duel.words import ENDINGS, DuelWords

SPEC = GameSpec("duel", "King of Tokyo: Duel", 2, 2, "duel", rules_version=4,
                aliases=("kot-duel", "king-of-tokyo-duel"), decks=("duel",))

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

class Duel(Game):
    """King of Tokyo: Duel, for exactly two monsters (seed 002; docs/duel.md)."""

    view_type = View
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
        state = State(names, monsters, seed=seed, deck=cards, dice=dice, record=record, game=self.spec.name)
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

    def sample(self, view: View, seed: int | None = None) -> State:
        """A playable state consistent with ``view`` (``View.sample_game``)."""
        return sample_state(view, seed)

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
        return _invariants.invariants(state)

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
        from kotarena.games.duel.scenario import SCENARIOS  # (scenario files: only when one is read)

        return SCENARIOS


DUEL_GAME = Duel()
