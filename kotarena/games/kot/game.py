"""King of Tokyo as a :class:`~kotarena.engine.game.Game`: what the rest of kotarena
may ask of it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from kotarena.engine.dice import ScriptedDice
from kotarena.engine.game import Game, GameSpec
from kotarena.games.kot import invariants as _invariants
from kotarena.games.kot.cards import DECKS
from kotarena.games.kot.rules import CLASSIC, Rules
from kotarena.games.kot.state import (
    BUY_CARDS,
    DAMAGE,
    DICE_CARDS,
    END_CARDS,
    HEARTS,
    PROBE,
    REVEAL,
    ROLL,
    START_CARDS,
    YIELD_TOKYO,
    State,
)
from kotarena.games.kot.tokens import PACKED_TOKENS
from kotarena.games.kot.view import View

#: The classic game. ``rules_version`` changes only when a rule really changes.
SPEC = GameSpec("kot", "King of Tokyo", 2, 6, "kot", rules_version=4, aliases=("classic", "king-of-tokyo"),
                decks=tuple(sorted(DECKS)))

DECISION_KINDS: dict[str, str] = {
    ROLL: "after a roll with rerolls left: stop, or reroll some dice",
    YIELD_TOKYO: "attacked in Tokyo: stay, or yield your place",
    BUY_CARDS: "the buy step: buy a card, sweep the market, or be done (and cards' use actions)",
    DICE_CARDS: "before the dice resolve: pass, or use a card that changes or rerolls dice",
    HEARTS: "hearts against poison or shrink tokens: heal, or cure tokens",
    END_CARDS: "after buying, before the end of the turn: pass, or use a card (sell)",
    DAMAGE: "damage is about to reach you: take it, or use a card against it",
    PROBE: "another monster's roll is over: pass, or reroll one of its dice (Psychic Probe)",
    REVEAL: "a card was revealed on another monster's turn: pass, or buy it (Opportunist)",
    START_CARDS: "your turn starts: pass, or use a card (Mimic)",
}


class KingOfTokyo(Game):
    """Classic King of Tokyo: 2-6 monsters, 20 stars or the last one standing wins.

    ``rules`` are the numbers its states play by (:class:`~kotarena.games.kot.rules.Rules`).
    """

    view_type = View
    decision_kinds = DECISION_KINDS
    seat_fact_names = ("monster", "stars", "health", "alive")

    def __init__(self, spec: GameSpec = SPEC, rules: Rules = CLASSIC) -> None:
        self.spec = spec
        self.rules = rules
        self.default_names = rules.monsters

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
        count = players if isinstance(players, int) else len(players)
        self.spec.check_players(count)
        state = State.blank(players, rules=self.rules, seed=seed, deck=self.spec.deck if deck == "default" else deck,
                            dice=dice, record=record)
        state.game = self.spec.name
        first = state.roll_off() if first_player is None else first_player
        state.begin(first)
        return state

    def seat_facts(self, state: State, seat: int) -> dict[str, object]:  # type: ignore[override]
        return {"monster": state.names[seat], "stars": state.stars[seat], "health": state.health[seat],
                "alive": state.alive[seat]}

    def replay_tokens(self) -> Mapping[str, str]:
        return PACKED_TOKENS

    def invariants(self, state: State) -> list[str]:  # type: ignore[override]
        return _invariants.invariants(state)


KING_OF_TOKYO = KingOfTokyo()
