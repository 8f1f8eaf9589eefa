"""King of Tokyo: Duel's encoder: the fixed action table and the observation vector.

**Actions.** One table for Duel (``docs/pettingzoo.md`` lists it), the same whatever
the ``monsters`` option, in this order:

1. ``stop`` and every ``reroll`` of the dice positions 1 to 8 (``MAX_DICE``): 256;
2. ``spend 0`` to ``spend 2``; ``pass``, ``done``, ``sweep``, ``buy 1`` to ``buy 3``;
3. the superpowers: ``power fame``, ``power destruction`` (Gigazaur's pulls, also
   Xenoid's faces of those names), ``power FACE`` for the other faces but power and
   ``power FACE FACE`` for each face but power (Xenoid), and ``block N TRACK SPACE`` for
   both of The King's tokens on every printed space of both tracks;
4. ``hype TRACK A [B]``: every place a 1-, 2- or 3-space hype token can lie on either
   track, both ways round;
5. ``pick MONSTER`` for the six monsters (``duel:monsters=choice``);
6. ``resolve PART`` for each part of a roll (:data:`~kotarena.games.duel.turn.PART_WORDS`),
   then Space Penguin's ``power token`` and ``power token token`` and MekaDragon's
   ``power multiply`` (Cyber Kitty's ``power energy [energy]`` are Xenoid's texts);
7. with the deck, each card that offers a choice, in the deck's order, with every
   argument its :data:`CARD_ARGUMENTS` allow: market slots, faces, keep cards (but
   the card itself), or marker pulls up to :data:`MAX_PULL`.

The only legal actions without an index are ``use in_shape N`` above :data:`MAX_PULL`:
no marker can move that far, so the smaller amounts, which stay legal, do as much.

**Observations.** A view as numbers from the observer's side: seat fields list the
observer first; the tracks run from the observer's victory space to its rival's (for
seat 2 the printed spaces are mirrored). Actions keep the printed spaces (``hype fame
3 4``, ``-7`` at seat 1's end), so the ``seat`` field says which end is the observer's.
"""

from __future__ import annotations

import functools

import numpy as np

from kotarena.engine.actions import Action
from kotarena.games.duel.cards import CARDS, KEEP
from kotarena.games.duel.faces import ADDABLE, FACE_NAMES
from kotarena.games.duel.game import Duel
from kotarena.games.duel.kinds import DECISION_KINDS
from kotarena.games.duel.monsters import MONSTERS
from kotarena.games.duel.rules import MARKET_SIZE, MAX_DICE, MAX_TOKENS
from kotarena.games.duel.track import (
    CELLS,
    DICE,
    ENERGY_BONUS,
    HALF,
    HEAL,
    HYPE_TOKENS,
    KING_TOKENS,
    SMASH,
    SMASH2,
    TRACK_NAMES,
    Board,
)
from kotarena.games.duel.turn import PART_WORDS
from kotarena.games.duel.verbs import BLOCK, HYPE, PICK, POWER, RESOLVE, SPEND
from kotarena.games.duel.view import View
from kotarena.games.vocabulary import BUY, DONE_ACTION, PASS_ACTION, SWEEP_ACTION, USE, reroll_table
from kotarena.pettingzoo.encoder import Encoder, Layout

#: The most spaces a track can have: 15 printed, one more for each of the two
#: extension tokens (the shortcut takes one away).
MAX_SPACES = len(CELLS) + sum(len(t.bonuses) - t.covers for t in HYPE_TOKENS.values() if len(t.bonuses) > t.covers)
#: The longest pull that can move a marker: from one end of the longest track to the other.
MAX_PULL = MAX_SPACES - 1
#: The arguments of each card's ``use`` actions, by card id (``docs/duel.md``, "Card
#: choices"): ``slot`` a market slot, ``faces`` two faces (the same twice allowed),
#: ``keep`` a keep card of the deck, ``pull`` spaces from 1 to :data:`MAX_PULL`.
CARD_ARGUMENTS: dict[str, tuple[str, ...]] = {
    "alien_metabolism": ("slot",),
    "camouflage": (),
    "dominate": ("keep",),
    "hibernation": (),
    "in_shape": ("pull",),
    "lightning_speed": (),
    "made_in_a_lab": ("slot",),
    "rebooting": (),
    "superconductor": (),
    "tesla_impulse": ("keep",),
    "titanic_batteries": ("faces",),
    "unchained": (),
    "unstable_dna": ("keep",),
}
#: The decision kinds, in the order of the observation's one-hot field.
KINDS = tuple(DECISION_KINDS)
#: What a track space can offer, in the order of each space's one-hot bonus.
BONUSES = (SMASH, SMASH2, HEAL, ENERGY_BONUS, DICE)
#: The hype tokens, in the order of the observation's token fields.
TOKENS = tuple(HYPE_TOKENS)
_SPACE_FEATURES = ("exists", "marker", "my spotlight", "rival's spotlight", *BONUSES, "The King's block")

_SEAT_FIELDS = (
    ("health", "health", np.inf),
    ("max_health", "maximum (starting) health", np.inf),
    ("energy", "energy", np.inf),
    ("tokens", "dice tokens held", float(MAX_TOKENS)),
    ("penalty", "dice fewer on its next roll (Thunder Stomp, Dominate)", np.inf),
    ("taken", "damage taken this turn", np.inf),
    ("active", "1 for the monster whose turn it is", 1.0),
    ("first", "1 for the first player", 1.0),
)


def action_table(with_cards: bool) -> list[Action]:
    """Duel's fixed action table, with or without the cards' ``use`` actions."""
    actions = list(reroll_table(MAX_DICE))
    actions += [Action.of(SPEND, k) for k in range(MAX_TOKENS + 1)]
    actions += [PASS_ACTION, DONE_ACTION, SWEEP_ACTION, *(Action.of(BUY, slot) for slot in range(1, MARKET_SIZE + 1))]
    # Gigazaur's "power fame" pulls the marker and Xenoid's adds the face: one action, two meanings.
    actions += dict.fromkeys([*(Action.of(POWER, track) for track in TRACK_NAMES),
                              *(Action.of(POWER, FACE_NAMES[face]) for face in ADDABLE)])
    actions += [Action.of(POWER, FACE_NAMES[face], FACE_NAMES[face]) for face in ADDABLE]
    actions += [Action.of(BLOCK, number, track, cell) for number in range(1, len(KING_TOKENS) + 1)
                for track in TRACK_NAMES for cell in CELLS]
    for track in TRACK_NAMES:
        for covers in sorted({token.covers for token in HYPE_TOKENS.values()}):
            for low in range(-HALF, HALF - covers + 2):
                high = low + covers - 1
                if covers == 1:
                    actions.append(Action.of(HYPE, track, low))
                else:
                    actions += [Action.of(HYPE, track, low, high), Action.of(HYPE, track, high, low)]
    actions += [Action.of(PICK, monster.id) for monster in MONSTERS]
    actions += [Action.of(RESOLVE, word) for word in PART_WORDS]
    actions += [Action.of(POWER, "token"), Action.of(POWER, "token", "token"), Action.of(POWER, "multiply")]
    if with_cards:
        domains: dict[str, list[tuple]] = {
            "slot": [(slot,) for slot in range(1, MARKET_SIZE + 1)],
            "faces": [(FACE_NAMES[a], FACE_NAMES[b]) for a in range(len(FACE_NAMES)) for b in range(a, len(FACE_NAMES))],
            "keep": [(card.id,) for card in CARDS if card.type == KEEP],
            "pull": [(k,) for k in range(1, MAX_PULL + 1)],
        }
        for card in CARDS:
            kinds = CARD_ARGUMENTS.get(card.id)
            if kinds is None:
                continue
            arguments: list[tuple] = [()]
            for kind in kinds:
                arguments = [(*done, *value) for done in arguments for value in domains[kind]]
            # No card names itself: Unstable DNA is never swapped for Unstable DNA.
            actions += [Action.of(USE, card.id, *args) for args in arguments if card.id not in args]
    return actions


def layout(with_cards: bool) -> Layout:
    """The observation's fields, with or without the deck's."""
    fields = Layout()
    fields.add("seat", 1, "1 when the observer is seat 2 (owns the printed +7 end), 0 for seat 1")
    fields.add("turn", 1, "the turn being played, from 1 (0 while monsters are picked)", np.inf)
    fields.add("rolls_left", 1, "rerolls left this turn", np.inf)
    fields.add("power_left", 1, "power faces left to activate the superpower with", np.inf)
    fields.add("claws_times", 1, "what each claw counts for (MekaDragon)", np.inf)
    fields.add("spent", 1, "dice tokens spent this turn", float(MAX_TOKENS))
    fields.add("sweeps", 1, "sweeps of the market this turn", np.inf)
    fields.add("bought", 1, "1 once the active monster bought a card this turn")
    fields.add("extra_turn", 1, "1 when the active monster plays another turn after this one (Frenzy)")
    fields.add("kind", len(KINDS), "the pending decision's kind, one-hot: " + ", ".join(KINDS))
    for name, help, high in _SEAT_FIELDS:
        fields.add(f"seat_{name}", 2, f"per relative seat: {help}", high)
    fields.add("seat_monster", 2 * len(MONSTERS), "per relative seat, its monster one-hot: "
               + ", ".join(monster.id for monster in MONSTERS))
    fields.add("dice", MAX_DICE * len(FACE_NAMES),
               f"the dice: for each of {MAX_DICE} positions, its face one-hot ({', '.join(FACE_NAMES)})")
    fields.add("aside", len(FACE_NAMES), "faces set aside from the roll, by face (Titanic Batteries)", np.inf)
    fields.add("added", len(FACE_NAMES), "faces added to the roll, by face (Xenoid)", np.inf)
    for track in TRACK_NAMES:
        fields.add(f"{track}_to_me", 1, f"spaces the {track} marker has to go to the observer's victory space",
                   float(MAX_PULL))
        fields.add(f"{track}_to_rival", 1, f"spaces the {track} marker has to go to the rival's victory space",
                   float(MAX_PULL))
        fields.add(f"{track}_spaces", MAX_SPACES * len(_SPACE_FEATURES),
                   f"the {track} track's spaces from the observer's victory space, {MAX_SPACES} at most, "
                   f"each: {', '.join(_SPACE_FEATURES)}")
    fields.add("hype_track", len(TOKENS) * len(TRACK_NAMES),
               "per hype token (" + ", ".join(TOKENS) + "): the track it lies on, one-hot (fame, destruction)")
    fields.add("hype_at", len(TOKENS), "per hype token: the first printed space it covers, counted from 1 at the "
               "observer's victory space (0 off the board)", float(len(CELLS)))
    if with_cards:
        fields.add("deck_size", 1, "cards left in the deck", np.inf)
        fields.add("market", MARKET_SIZE * len(CARDS), "the market: per slot (1 nearest the deck), its card id one-hot")
        fields.add("keeps", 2 * len(CARDS), "keep cards: per relative seat, each card id owned")
        fields.add("gone", len(CARDS), "the cards out of play, by card id")
    return fields


@functools.lru_cache(maxsize=4096)
def _track_rows(me: int, track: int, tokens: tuple[tuple[str, int, int, bool], ...]) -> tuple[list, np.ndarray]:
    """One track's spaces from ``me``'s victory space, and their features but the
    marker's, for the hype tokens lying on it (the same few layouts recur all game,
    so they are worked out once)."""
    board = Board()
    board.placed = {token: (where, low, turned) for token, where, low, turned in tokens}
    spaces = board.spaces(track)
    if me == 1:
        spaces = spaces[::-1]
    rows = np.zeros((len(spaces), len(_SPACE_FEATURES)), dtype=np.float32)
    for i, space in enumerate(spaces):
        rows[i, 0] = 1
        rows[i, 2] = board.in_spotlight(space, me)
        rows[i, 3] = board.in_spotlight(space, 1 - me)
        bonus = board.bonus(space)
        if bonus is not None:
            rows[i, 4 + BONUSES.index(bonus)] = 1
        if space[0] and HYPE_TOKENS[space[0]].blocks:
            rows[i, 4 + len(BONUSES)] = 1
    rows.flags.writeable = False
    return spaces, rows.reshape(-1)


class DuelEncoder(Encoder):
    """The encoder of a :class:`~kotarena.games.duel.game.Duel` game (any ``monsters``
    option) for its two seats, with the deck (``"default"`` or ``"duel"``) or without
    (``None``)."""

    def __init__(self, game: Duel, players: int, deck: str | None) -> None:
        if deck not in (None, "default"):
            game.check_deck(deck)
        self.players = players
        self.with_cards = deck is not None
        self.card_ids: tuple[str, ...] = tuple(card.id for card in CARDS) if self.with_cards else ()
        self._card_at = {card: i for i, card in enumerate(self.card_ids)}
        self._monster_at = {monster.id: i for i, monster in enumerate(MONSTERS)}
        super().__init__(action_table(self.with_cards), layout(self.with_cards))
        self._slots = {field.name: self.layout.slot(field.name) for field in self.layout.fields}

    def encode(self, view: View) -> np.ndarray:
        me = view.player
        order = (me, 1 - me)
        out = np.zeros(self.layout.size, dtype=np.float32)
        slots = self._slots
        out[slots["seat"]] = me
        for name in ("turn", "rolls_left", "power_left", "claws_times", "spent", "sweeps", "bought", "extra_turn"):
            out[slots[name]] = getattr(view, name)
        if view.kind in DECISION_KINDS:
            out[slots["kind"].start + KINDS.index(view.kind)] = 1
        playing = view.outcome is None
        columns = {
            "health": view.health, "max_health": view.max_health, "energy": view.energy, "tokens": view.tokens,
            "penalty": view.penalty, "taken": view.taken,
            "active": [seat == view.active and playing for seat in (0, 1)],
            "first": [seat == view.first_player for seat in (0, 1)],
        }
        for name, values in columns.items():
            out[slots[f"seat_{name}"]] = [values[seat] for seat in order]
        monsters = slots["seat_monster"].start
        for r, seat in enumerate(order):
            out[monsters + r * len(MONSTERS) + self._monster_at[view.monsters[seat]]] = 1
        dice = slots["dice"].start
        for position, face in enumerate(view.dice):
            out[dice + position * len(FACE_NAMES) + face] = 1
        for face in view.aside:
            out[slots["aside"].start + face] += 1
        for face in view.added:
            out[slots["added"].start + face] += 1
        self._encode_tracks(view, out)
        if self.with_cards:
            self._encode_cards(view, order, out)
        return out

    def _encode_tracks(self, view: View, out: np.ndarray) -> None:
        slots, me = self._slots, view.player
        width = len(_SPACE_FEATURES)
        for track, name in enumerate(TRACK_NAMES):
            on_track = tuple(item for item in view.hype if item[1] == track)
            spaces, rows = _track_rows(me, track, on_track)
            where = spaces.index(view.markers[track])
            out[slots[f"{name}_to_me"]] = where
            out[slots[f"{name}_to_rival"]] = len(spaces) - 1 - where
            start = slots[f"{name}_spaces"].start
            out[start:start + rows.size] = rows
            out[start + where * width + 1] = 1
        track_start, at_start = slots["hype_track"].start, slots["hype_at"].start
        for token, track, low, _turned in view.hype:
            i = TOKENS.index(token)
            out[track_start + i * len(TRACK_NAMES) + track] = 1
            first = low if me == 0 else -(low + HYPE_TOKENS[token].covers - 1)
            out[at_start + i] = first + HALF + 1

    def _encode_cards(self, view: View, order: tuple[int, int], out: np.ndarray) -> None:
        slots, at, width = self._slots, self._card_at, len(self.card_ids)
        out[slots["deck_size"]] = view.deck_size
        market = slots["market"].start
        for slot, card in enumerate(view.market):
            if card:
                out[market + slot * width + at[card]] = 1
        keeps = slots["keeps"].start
        for r, seat in enumerate(order):
            for card in view.keeps[seat]:
                out[keeps + r * width + at[card]] = 1
        for card in view.gone:
            out[slots["gone"].start + at[card]] = 1



__all__ = ["BONUSES", "CARD_ARGUMENTS", "DuelEncoder", "KINDS", "MAX_PULL", "MAX_SPACES", "TOKENS", "action_table",
           "layout"]
