"""King of Tokyo as a :class:`~kotarena.engine.game.Game`: what the rest of kotarena
may ask of it.

The game object owns what its states play with: its :class:`~kotarena.games.kot.rules.Rules`
(the numbers and the named steps) and its decks, which it hands to every state it sets
up (:meth:`KingOfTokyo.blank`) or samples from a view (:meth:`KingOfTokyo.sample`).
"""

from __future__ import annotations

import random as _random_module
from collections.abc import Mapping, Sequence

from kotarena.engine.dice import ScriptedDice
from kotarena.engine.game import Game, GameSpec
from kotarena.engine.outcome import PositionError
from kotarena.games.kot import events as _events
from kotarena.games.kot import invariants as _invariants
from kotarena.games.kot.cards import DECKS, SPEC_SYNTAX, Deck, UnknownDeckError, get_deck, mix_decks
from kotarena.games.kot.kinds import DECISION_KINDS
from kotarena.games.kot.market import reveal, shuffle
from kotarena.games.kot.rules import CLASSIC, Rules
from kotarena.games.kot.sample import sample_state
from kotarena.games.kot.state import State
from kotarena.games.kot.tokens import PACKED_TOKENS
from kotarena.games.kot.view import View

#: The classic game. ``rules_version`` changes only when a rule really changes.
SPEC = GameSpec("kot", "King of Tokyo", 2, 6, "kot", rules_version=5, aliases=("classic", "king-of-tokyo"),
                decks=tuple(sorted(DECKS)))


class KingOfTokyo(Game):
    """Classic King of Tokyo: 2-6 monsters, 20 stars or the last one standing wins.

    ``rules`` are what its states play by (:class:`~kotarena.games.kot.rules.Rules`) and
    ``decks`` the decks it plays (by name: ``spec.decks``); a variant of the same family
    is another instance with its own spec, rules and decks.
    """

    view_type = View
    decision_kinds = DECISION_KINDS
    seat_fact_names = ("monster", "stars", "health", "alive")

    def __init__(self, spec: GameSpec = SPEC, rules: Rules = CLASSIC, decks: Mapping[str, Deck] | None = None) -> None:
        self.spec = spec
        self.rules = rules
        self.default_names = rules.monsters
        #: The decks this game plays, by name (by default the family's decks ``spec.decks`` names).
        self.decks: dict[str, Deck] = dict(decks) if decks is not None else {name: get_deck(name) for name in spec.decks}
        self._mixed: dict[str, Deck] = {}  # decks mixed from ``decks`` by a specification

    def deck(self, name: str) -> Deck:
        """The deck called ``name`` that this game plays: one of its decks, or a mix of
        them named by a deck specification (``kot-2e+origins``, ``kot+origins:biofuel``;
        see :func:`~kotarena.games.kot.cards.deck.parse_deck_spec`)."""
        deck = self.decks.get(name) or self._mixed.get(name)
        if deck is None:
            if "+" not in name and ":" not in name:
                raise UnknownDeckError(f"unknown deck {name!r}; known decks: {', '.join(self.decks)}, none "
                                       f"(or a mix: {SPEC_SYNTAX})")
            deck = self._mixed[name] = mix_decks(name, self.decks)
        return deck

    def check_deck(self, deck: str) -> None:
        self.deck(deck)

    def blank(
        self,
        players: int | Sequence[str],
        *,
        seed: int | None = None,
        deck: str | None = "default",
        dice: ScriptedDice | None = None,
        record: bool = True,
    ) -> State:
        """A table of this game before the first turn: monsters set up, deck shuffled,
        market dealt. Nobody has been chosen to start yet (``state.roll_off()``);
        ``state.begin(first)`` starts. See :meth:`new_state` for the parameters."""
        rules = self.rules
        self.spec.check_players(players if isinstance(players, int) else len(players))
        names = tuple(players) if not isinstance(players, int) else rules.monsters[:players]
        if len(set(names)) != len(names):
            raise PositionError("two monsters have the same name")
        if seed is None:
            seed = _random_module.SystemRandom().randrange(2**63)
        name = self.spec.deck if deck == "default" else deck
        if name is None:
            return State(rules, names, game=self.spec.name, seed=seed, dice=dice, record=record)
        cards = self.deck(name)
        if name not in self.decks:
            name = cards.name  # a mix, named with its cards by id
        state = State(rules, names, game=self.spec.name, seed=seed, deck=name, cards=cards.cards,
                      effects=cards.card_effects, dice=dice, record=record)
        shuffle(state.deck, state._random)
        for slot in range(rules.market_size):
            reveal(state, slot)
        return state

    def new_state(
        self,
        players: int | Sequence[str],
        *,
        seed: int | None = None,
        deck: str | None = "default",
        first_player: int | None = None,
        dice: ScriptedDice | None = None,
        record: bool = True,
    ) -> State:
        state = self.blank(players, seed=seed, deck=deck, dice=dice, record=record)
        first = state.roll_off() if first_player is None else first_player
        state.begin(first)
        return state

    def sample(self, view: View, seed: int | None = None) -> State:
        """A playable state of this game consistent with ``view`` (``View.sample_game``)."""
        if view.deck is None:
            return sample_state(view, seed, self.rules, (), ())
        deck = self.deck(view.deck)
        return sample_state(view, seed, self.rules, deck.cards, deck.card_effects)

    def seat_facts(self, state: State, seat: int) -> dict[str, object]:  # type: ignore[override]
        return {"monster": state.names[seat], "stars": state.stars[seat], "health": state.health[seat],
                "alive": state.alive[seat]}

    def replay_tokens(self) -> Mapping[str, str]:
        return PACKED_TOKENS

    def event_text(self, event: tuple, names: Sequence[str]) -> str:
        return _events.format_event(event, names)

    def event_lines(self, events: Sequence[tuple], names: Sequence[str]) -> list[str]:
        return _events.event_lines(events, names)

    def scenario_format(self):
        # Imported when asked for: scenarios read files and narrate, which games never need.
        from kotarena.games.kot.scenario import SCENARIOS

        return SCENARIOS

    def invariants(self, state: State) -> list[str]:  # type: ignore[override]
        return _invariants.invariants(state)


KING_OF_TOKYO = KingOfTokyo()
