"""King of Tokyo as a :class:`~kotarena.engine.game.Game`: what the rest of kotarena
may ask of it.

The game object owns what its states play with: its :class:`~kotarena.games.kot.rules.Rules`
(the numbers and the named steps) and its decks, which it hands to every state it sets
up (:meth:`KingOfTokyo.blank`) or samples from a view (:meth:`KingOfTokyo.sample`).
"""

from __future__ import annotations

import functools
import random as _random_module
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from kotarena.engine.dice import ScriptedDice
from kotarena.engine.game import Game, GameOption, GameSpec, configured_name
from kotarena.engine.outcome import PositionError
from kotarena.games.kot import display as _display
from kotarena.games.kot import events as _events
from kotarena.games.kot import invariants as _invariants
from kotarena.games.kot.cards import DECKS, SPEC_SYNTAX, Deck, UnknownDeckError, get_deck, mix_decks
from kotarena.games.kot.kinds import DECISION_KINDS
from kotarena.games.kot.market import reveal, shuffle
from kotarena.games.kot.rules import CLASSIC, ORIGINS, ORIGINS_TWO_PLAYERS, Rules
from kotarena.games.kot.sample import sample_state
from kotarena.games.kot.state import State
from kotarena.games.kot.tokens import PACKED_TOKENS
from kotarena.games.kot.view import View
from kotarena.games.kot.words import ENDINGS, KotWords
from kotarena.games.vocabulary import SHARED_VERBS

#: The classic game. ``rules_version`` changes only when a rule really changes (6: Orb
#: of Doom, which a deck mixed with Origins cards plays, takes its health at the reroll).
SPEC = GameSpec("kot", "King of Tokyo", 2, 6, "kot", rules_version=6, aliases=("classic", "king-of-tokyo"),
                decks=tuple(sorted(DECKS)))

#: The option of a game with a two-player variant (Origins): played by two, the game
#: uses the variant's rules unless this is ``off``.
TWO_PLAYER_VARIANT = GameOption("two-player-variant", ("on", "off"),
                                "at 2 players, Tokyo gives energy instead of stars (on by default)")


class KingOfTokyo(Game):
    """A game of the King of Tokyo family; by default the classic game (2-6 monsters, 20
    stars or the last one standing wins).

    ``rules`` are what its states play by (:class:`~kotarena.games.kot.rules.Rules`) and
    ``decks`` the decks it plays (by name: ``spec.decks``); a variant of the same family
    is another instance with its own spec, rules and decks (:data:`ORIGINS_GAME`).
    ``two_players``, if given, are the rules of a game that starts with two monsters (a
    two-player variant), which the option ``two-player-variant=off`` turns off.
    """

    view_type = View
    decision_kinds = DECISION_KINDS
    seat_fact_names = ("monster", "stars", "health", "alive")
    verbs = SHARED_VERBS
    endings = ENDINGS

    def __init__(self, spec: GameSpec = SPEC, rules: Rules = CLASSIC, decks: Mapping[str, Deck] | None = None,
                 two_players: Rules | None = None) -> None:
        self.spec = spec
        self.rules = rules
        #: The rules two players play by, if not ``rules`` (Origins' two-player variant);
        #: the game then takes the option ``two-player-variant`` (``on``, ``off``).
        self.two_players = two_players
        self.options = {TWO_PLAYER_VARIANT.name: TWO_PLAYER_VARIANT} if two_players is not None else {}
        self.default_names = rules.monsters
        #: The decks this game plays, by name (by default the family's decks ``spec.decks`` names).
        self.decks: dict[str, Deck] = dict(decks) if decks is not None else {name: get_deck(name) for name in spec.decks}
        self._mixed: dict[str, Deck] = {}  # decks mixed from ``decks`` by a specification

    @functools.cached_property
    def words(self) -> KotWords:
        """The table, help, endings and card list as people read them (:mod:`~kotarena.games.kot.words`)."""
        return KotWords(self)

    def rules_for(self, players: int) -> Rules:
        """The rules a game of ``players`` monsters plays by."""
        if players == 2 and self.two_players is not None:
            return self.two_players
        return self.rules

    def with_options(self, options: Mapping[str, str]) -> KingOfTokyo:
        """This game without its two-player variant: the one option there is, and its
        one value other than the default (``two-player-variant=off``)."""
        name = configured_name(self.spec.name, options)
        spec = replace(self.spec, name=name, title=f"{self.spec.title} without the two-player variant",
                       aliases=(self.spec.name, *self.spec.aliases))
        return KingOfTokyo(spec, self.rules, self.decks)

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
        self.spec.check_players(players if isinstance(players, int) else len(players))
        rules = self.rules_for(players if isinstance(players, int) else len(players))
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
        rules = self.rules_for(len(view.names))
        if view.deck is None:
            return sample_state(view, seed, rules, (), ())
        deck = self.deck(view.deck)
        return sample_state(view, seed, rules, deck.cards, deck.card_effects)

    def seat_facts(self, state: State, seat: int) -> dict[str, object]:  # type: ignore[override]
        return {"monster": state.names[seat], "stars": state.stars[seat], "health": state.health[seat],
                "alive": state.alive[seat]}

    def replay_tokens(self) -> Mapping[str, str]:
        return PACKED_TOKENS

    def event_text(self, event: tuple, names: Sequence[str]) -> str:
        return _events.format_event(event, names)

    def event_lines(self, events: Sequence[tuple], names: Sequence[str]) -> list[str]:
        return _events.event_lines(events, names)

    def event_data(self, event: tuple) -> list:
        return _events.event_data(event)

    def snapshot(self, state: State) -> dict[str, Any]:  # type: ignore[override]
        return _display.snapshot(state)

    def purchases(self, events: Sequence[tuple]) -> list[tuple[int, str]]:
        return _display.purchases(events)

    def scenario_format(self):
        # Imported when asked for: scenarios read files and narrate, which games never need.
        from kotarena.games.kot.scenario import SCENARIOS

        return SCENARIOS

    def invariants(self, state: State) -> list[str]:  # type: ignore[override]
        return _invariants.invariants(state)


KING_OF_TOKYO = KingOfTokyo()

#: Origins' own deck (its 50 cards, ``cards/origins.py``), which it plays by default.
ORIGINS_DECK = "origins"
#: King of Tokyo: Origins (seed 001): 2-4 monsters, Tokyo City only, the Enter Tokyo
#: step; every deck of the family can be played (the seed's deck mixing).
ORIGINS_SPEC = GameSpec("origins", "King of Tokyo: Origins", 2, 4, ORIGINS_DECK,
                        rules_version=2, aliases=("kot-origins", "king-of-tokyo-origins"), decks=tuple(sorted(DECKS)))
#: The Origins game: its rules, and the two-player variant's when two play (unless the
#: option ``two-player-variant=off`` is given: ``origins:two-player-variant=off``).
ORIGINS_GAME = KingOfTokyo(ORIGINS_SPEC, ORIGINS, two_players=ORIGINS_TWO_PLAYERS)
