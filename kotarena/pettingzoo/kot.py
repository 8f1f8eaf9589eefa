"""The King of Tokyo family's encoder: the classic game and Origins, any deck.

**Actions.** One fixed table per game, player count and deck (``docs/pettingzoo.md``
lists it), in this order:

1. ``stop`` and every ``reroll`` of the dice positions 1 to ``Rules.die_slots`` (8: the
   most dice a monster can roll): 256 actions;
2. ``stay``, ``yield``; ``buy 1`` to ``buy <market size>``; ``sweep``, ``done``, ``pass``;
3. ``cure P S`` for every split of up to ``die_slots`` hearts between poison and
   shrink tokens;
4. each card of the deck that offers actions, in the deck's table order, with every
   argument its :data:`CARD_ARGUMENTS` allow: dice positions, faces, seats, market
   slots, the deck's card ids, or amounts of energy up to :data:`MAX_AMOUNT`.

The only legal actions without an index are amounts above :data:`MAX_AMOUNT` (``use
monster_batteries N`` with more energy than that): the smaller amounts stay legal.

**Observations.** A view as numbers, from the observing seat's side: seats are taken
in turn order starting with the observer (relative seat 0 is always "me"), so a policy
learned in one seat plays in every seat. :func:`layout` builds the fields; the docs
print them.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from kotarena.engine.actions import Action
from kotarena.games.kot.faces import FACE_NAMES
from kotarena.games.kot.game import KingOfTokyo
from kotarena.games.kot.kinds import DECISION_KINDS
from kotarena.games.kot.rules import Rules
from kotarena.games.kot.view import View
from kotarena.games.vocabulary import (
    BUY,
    CURE,
    DONE_ACTION,
    PASS_ACTION,
    STAY_ACTION,
    SWEEP_ACTION,
    YIELD_ACTION,
    reroll_table,
)
from kotarena.pettingzoo.encoder import Encoder, EncoderError, Layout

#: The most energy an action of the table puts on a card (``use monster_batteries N``).
MAX_AMOUNT = 20
#: The arguments of each card's ``use`` actions, by card id (``docs/cards.md``): ``die``
#: a dice position, ``face`` a face name, ``seat`` a seat (from 1), ``slot`` a market
#: slot, ``card`` a card id of the deck, ``amount`` energy from 1 to :data:`MAX_AMOUNT`.
CARD_ARGUMENTS: dict[str, tuple[str, ...]] = {
    "background_dweller": ("die",),
    "biofuel": (),
    "electric_armor": (),
    "energy_drink": (),
    "healing_ray": ("seat",),
    "herd_culler": ("die",),
    "jets": (),
    "made_in_a_lab": (),
    "metamorph": ("card",),
    "mimic": ("seat", "card"),
    "monster_batteries": ("amount",),
    "opportunist": ("slot",),
    "parasitic_tentacles": ("seat", "card"),
    "plot_twist": ("die", "face"),
    "psychic_probe": ("die",),
    "rapid_healing": (),
    "scavenger": ("card",),
    "shrinky": ("die",),
    "smoke_cloud": (),
    "stretchy": ("die", "face"),
    "telepath": (),
    "wings": (),
}
#: Faces as card actions name them: 1, 2 and 3 as numbers, the others as words.
FACE_ARGUMENTS: tuple[int | str, ...] = tuple(int(name) if name.isdigit() else name for name in FACE_NAMES)
#: The decision kinds, in the order of the observation's one-hot field.
KINDS = tuple(DECISION_KINDS)

_SEAT_FIELDS = (
    ("health", "health", np.inf),
    ("max_health", "maximum health", np.inf),
    ("stars", "stars", np.inf),
    ("energy", "energy", np.inf),
    ("alive", "1 while in the game", 1.0),
    ("city", "1 in Tokyo City", 1.0),
    ("bay", "1 in Tokyo Bay", 1.0),
    ("active", "1 for the monster whose turn it is", 1.0),
    ("poison", "poison tokens", np.inf),
    ("shrink", "shrink tokens", np.inf),
    ("counters", "counters on its cards, all together", np.inf),
)


def layout(players: int, cards: tuple[str, ...], rules: Rules) -> Layout:
    """The observation's fields for ``players`` seats, a deck of these distinct card
    ids (empty without cards) and these rules."""
    fields = Layout()
    fields.add("turn", 1, "the turn being played, from 1", np.inf)
    fields.add("rolls_left", 1, "rerolls left this turn", np.inf)
    fields.add("deck_size", 1, "cards left in the deck", np.inf)
    fields.add("bay_open", 1, "1 while Tokyo Bay is in use")
    fields.add("hearts", 1, "heart results still to spend (hearts decision)", np.inf)
    fields.add("extra_turns", 1, "extra turns the active monster has coming", np.inf)
    fields.add("dealt", 1, "1 once the active monster made another lose health this turn")
    fields.add("kind", len(KINDS), "the pending decision's kind, one-hot: " + ", ".join(KINDS))
    fields.add("attacker", players, "the attacking seat during yield decisions, one-hot by relative seat")
    for name, help, high in _SEAT_FIELDS:
        fields.add(f"seat_{name}", players, f"per relative seat: {help}", high)
    fields.add("dice", rules.die_slots * len(FACE_NAMES),
               f"the dice: for each of {rules.die_slots} positions, its face one-hot ({', '.join(FACE_NAMES)})")
    if cards:
        fields.add("owned", players * len(cards), "cards owned: per relative seat, the copies of each card id", np.inf)
        fields.add("market", rules.market_size * len(cards), "the market: per slot, its card id one-hot")
        fields.add("discard", len(cards), "the discard pile: copies of each card id", np.inf)
        fields.add("peek", len(cards), "the deck's top card when this seat may see it (Made in a Lab), one-hot")
    return fields


class KingOfTokyoEncoder(Encoder):
    """The encoder of a :class:`~kotarena.games.kot.game.KingOfTokyo` game (the classic
    game or Origins) for ``players`` seats and the deck called ``deck`` (``"default"``
    for the game's, ``None`` for none)."""

    def __init__(self, game: KingOfTokyo, players: int, deck: str | None) -> None:
        self.players = players
        self.rules = game.rules_for(players)
        name = game.spec.deck if deck == "default" else deck
        self.card_ids: tuple[str, ...] = ()
        offering: list[str] = []
        if name is not None:
            table = game.deck(name)
            self.card_ids = tuple(info.id for info in table.table)
            effects = {info.id: effect for info, effect in zip(table.cards, table.card_effects)}
            offering = [card for card in self.card_ids if effects[card].offer_kinds]
        self._card_at = {card: i for i, card in enumerate(self.card_ids)}
        super().__init__(self._action_table(offering), layout(players, self.card_ids, self.rules))
        self._slots = {field.name: self.layout.slot(field.name) for field in self.layout.fields}

    def _action_table(self, offering: Iterable[str]) -> list[Action]:
        rules = self.rules
        actions = list(reroll_table(rules.die_slots))
        actions += [STAY_ACTION, YIELD_ACTION]
        actions += [Action.of(BUY, slot) for slot in range(1, rules.market_size + 1)]
        actions += [SWEEP_ACTION, DONE_ACTION, PASS_ACTION]
        actions += [Action.of(CURE, poison, shrink) for poison in range(rules.die_slots + 1)
                    for shrink in range(rules.die_slots + 1 - poison) if poison or shrink]
        domains: dict[str, tuple] = {
            "die": tuple(range(1, rules.die_slots + 1)),
            "face": FACE_ARGUMENTS,
            "seat": tuple(range(1, self.players + 1)),
            "slot": tuple(range(1, rules.market_size + 1)),
            "card": self.card_ids,
            "amount": tuple(range(1, MAX_AMOUNT + 1)),
        }
        for card in offering:
            kinds = CARD_ARGUMENTS.get(card)
            if kinds is None:
                raise EncoderError(f"card {card!r} offers actions, but the encoder does not know their arguments; "
                                   "add them to CARD_ARGUMENTS in kotarena/pettingzoo/kot.py")
            arguments: list[tuple] = [()]
            for kind in kinds:
                arguments = [(*done, value) for done in arguments for value in domains[kind]]
            actions += [Action.of("use", card, *args) for args in arguments]
        return actions

    def encode(self, view: View) -> np.ndarray:
        n = self.players
        me = view.player
        order = [(me + offset) % n for offset in range(n)]
        out = np.zeros(self.layout.size, dtype=np.float32)
        slots = self._slots
        out[slots["turn"]] = view.turn
        out[slots["rolls_left"]] = view.rolls_left
        out[slots["deck_size"]] = view.deck_size
        out[slots["bay_open"]] = view.bay_open
        out[slots["hearts"]] = view.hearts
        out[slots["extra_turns"]] = view.extra_turns
        out[slots["dealt"]] = view.dealt
        if view.kind in DECISION_KINDS:
            out[slots["kind"].start + KINDS.index(view.kind)] = 1
        relative = {seat: r for r, seat in enumerate(order)}
        if view.attacker >= 0 and view.kind == "yield":
            out[slots["attacker"].start + relative[view.attacker]] = 1
        counters = view.counters or ((),) * n
        columns = {
            "health": view.health, "max_health": view.max_health, "stars": view.stars, "energy": view.energy,
            "alive": view.alive, "city": [seat == view.city for seat in range(n)],
            "bay": [seat == view.bay for seat in range(n)],
            "active": [seat == view.active and view.outcome is None for seat in range(n)],
            "poison": view.poison or (0,) * n, "shrink": view.shrink or (0,) * n,
            "counters": [sum(counters[seat]) for seat in range(n)],
        }
        for name, values in columns.items():
            out[slots[f"seat_{name}"]] = [values[seat] for seat in order]
        dice = slots["dice"].start
        for position, face in enumerate(view.dice):
            out[dice + position * len(FACE_NAMES) + face] = 1
        if self.card_ids:
            self._encode_cards(view, order, out)
        return out

    def _encode_cards(self, view: View, order: list[int], out: np.ndarray) -> None:
        slots, at, width = self._slots, self._card_at, len(self.card_ids)
        owned = slots["owned"].start
        for r, seat in enumerate(order):
            for card in view.cards[seat]:
                out[owned + r * width + at[card]] += 1
        market = slots["market"].start
        for slot, card in enumerate(view.market):
            if card is not None:
                out[market + slot * width + at[card]] = 1
        discard = slots["discard"].start
        for card in view.discard:
            out[discard + at[card]] += 1
        for what, card in view.private:
            if what == "made_in_a_lab":
                out[slots["peek"].start + at[card]] = 1



__all__ = ["CARD_ARGUMENTS", "FACE_ARGUMENTS", "KINDS", "KingOfTokyoEncoder", "MAX_AMOUNT", "layout"]
