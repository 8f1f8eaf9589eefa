"""State: one game of Duel in progress; the seam's methods and the effect API.

The turn is a queue of steps (``todo``, played by ``turn.advance``): a step either does
its work and goes on, or asks a decision and waits. Everything that changes health,
energy, dice tokens or the markers goes through the methods below, so that the cards
that watch those changes (``effects.py``) see them and victory is checked at the very
moment it happens.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from kotarena.engine import NATIVE
from kotarena.engine.actions import Action
from kotarena.engine.decisions import Decision
from kotarena.engine.dice import ScriptedDice
from kotarena.engine.outcome import GameOverError, IllegalActionError, Outcome, Termination
from kotarena.games.duel import effects, turn
from kotarena.games.duel.cards import BY_ID
from kotarena.games.duel.endings import ALL_ELIMINATED, LAST_STANDING, SPOTLIGHT, VICTORY_SPACE
from kotarena.games.duel.faces import FACE_NAMES
from kotarena.games.duel.monsters import Monster
from kotarena.games.duel.rules import MARKET_SIZE, MAX_TOKENS
from kotarena.games.duel.rulings import (
    BONUS_ON_SPACES_PASSED,
    BOTH_KNOCKED_OUT_IS_A_DRAW,
    RESHUFFLE_WHEN_DECK_RUNS_OUT,
    RIVAL_WINS_ON_SPACES_PASSED,
)
from kotarena.games.duel.track import (
    DICE,
    ENERGY_BONUS,
    HEAL,
    HYPE_TOKENS,
    SMASH,
    SMASH2,
    TRACK_NAMES,
    Board,
    toward,
)
from kotarena.games.duel.view import View, view_of
from kotarena.games.vocabulary import read_action

if TYPE_CHECKING:
    from mypy_extensions import i64  # a machine integer when compiled, int from source

__all__ = ["State", "shuffle"]

#: ``rulings.RIVAL_WINS_ON_SPACES_PASSED`` as a static of this (compiled) module: the
#: compiled build looks a name of the uncompiled rulings module up at every read, which
#: cost a pull about 1% of Duel's turns (docs/duel.md, "Speed").
_RIVAL_ZONE_ON_THE_WAY: Final[bool] = RIVAL_WINS_ON_SPACES_PASSED


class State:
    """A game of Duel: two monsters, seat 0 owning the tracks' negative end."""

    def __init__(self, names: Sequence[str], monsters: Sequence[Monster], *, seed: int, deck: list[str] | None,
                 dice: ScriptedDice | None = None, record: bool = True, game: str = "duel",
                 source: State | None = None) -> None:
        c = source
        self.game: str = game
        self.n: int = 2
        self.names: tuple[str, ...] = tuple(names)
        self._monsters: tuple[Monster, ...] = ()
        self.monster_ids: tuple[str, ...] = ()  #: set with ``monsters``, as views show them
        self.max_health: tuple[int, ...] = ()   #: set with ``monsters``
        if c is None:
            self.monsters = tuple(monsters)
        else:
            self._monsters, self.monster_ids, self.max_health = c._monsters, c.monster_ids, c.max_health
        self.seed: int | None = seed
        self.deck_name: str | None = ("duel" if deck is not None else None) if c is None else c.deck_name
        self.health: list[int] = [m.health for m in monsters] if c is None else c.health[:]
        self.energy: list[int] = [0, 0] if c is None else c.energy[:]
        self.tokens: list[int] = [0, 0] if c is None else c.tokens[:]
        self.keeps: list[list[str]] = [[], []] if c is None else [c.keeps[0][:], c.keeps[1][:]]
        self.board: Board = Board() if c is None else c.board.copy()
        self.deck: list[str] = (deck or []) if c is None else c.deck[:]
        self.market: list[str] = ["", "", ""] if c is None else c.market[:]
        self.gone: list[str] = [] if c is None else c.gone[:]  # cards out of play, face up
        self.turn: int = 0 if c is None else c.turn
        self.active: int = 0 if c is None else c.active
        self.first_player: int = 0 if c is None else c.first_player
        self.dice: list[int] = [] if c is None else c.dice[:]
        self.aside: list[int] = [] if c is None else c.aside[:]  # Titanic Batteries: not resolved
        self.added: list[int] = [] if c is None else c.added[:]  # Xenoid: faces added to the roll
        self.rolls_left: int = 0 if c is None else c.rolls_left
        self.rolls_used: int = 0 if c is None else c.rolls_used
        self.power_left: int = 0 if c is None else c.power_left
        self.claws_times: int = 1 if c is None else c.claws_times  # MekaDragon
        self.penalty: list[int] = [0, 0] if c is None else c.penalty[:]  # fewer dice next turn
        self.flags: set[str] = set() if c is None else set(c.flags)  # this turn's facts
        self.spent: int = 0 if c is None else c.spent  # dice tokens spent this turn
        self.claws_rolled: int = 0 if c is None else c.claws_rolled  # claw faces resolved this turn
        self.sweeps: int = 0 if c is None else c.sweeps  # sweeps this turn
        self.marks: set[str] = set() if c is None else set(c.marks)  # facts that outlast a turn (Dominate)
        self.taken: list[int] = [0, 0] if c is None else c.taken[:]  # damage taken this turn
        self.bought: bool = False if c is None else c.bought
        self.extra_turn: bool = False if c is None else c.extra_turn
        self.todo: list[tuple] = [] if c is None else c.todo[:]
        self.deferred: int = 0 if c is None else c.deferred  # effects.later's steps queued by the running step
        self.answer: tuple = () if c is None else c.answer  # the step that reads the pending answer
        self.outcome: Outcome | None = None if c is None else c.outcome
        self.to_move: int = -1 if c is None else c.to_move
        self.kind: str | None = None if c is None else c.kind
        self.legal: tuple[Action, ...] = () if c is None else c.legal
        self.history: list[tuple[int, Action]] = [] if c is None else (c.history[:] if record else [])
        self.log: list[tuple] | None = ([] if record else None) if c is None else (
            (c.log[:] if c.log is not None else []) if record else None)
        self.pause_between_turns: bool = False if c is None else c.pause_between_turns
        self.between_turns: bool = False if c is None else c.between_turns
        self.scripted: ScriptedDice | None = dice if c is None else (c.scripted.copy() if c.scripted else None)
        # A copy shares its source's generator until either of them draws from it
        # (``rng``): a search bot's copies rarely shuffle or roll outside the turn's
        # dice, and copying a generator's state was most of a copy's time.
        self._rng: random.Random = random.Random(seed) if c is None else c._rng
        self._rng_shared: bool = c is not None
        if c is not None:
            c._rng_shared = True

    @property
    def monsters(self) -> tuple[Monster, ...]:
        """The two monsters, by seat."""
        return self._monsters

    @monsters.setter
    def monsters(self, monsters: tuple[Monster, ...]) -> None:
        self._monsters = monsters
        self.monster_ids = tuple([m.id for m in monsters])
        self.max_health = tuple([m.health for m in monsters])

    @property
    def rng(self) -> random.Random:
        """The game's generator (shuffles, dice outside the turn's rolls), this state's own."""
        if self._rng_shared:
            self._rng = _copy_rng(self._rng)
            self._rng_shared = False
        return self._rng

    # ------------------------------------------------------------ the seam

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def decision(self) -> Decision | None:
        if self.to_move < 0:
            return None
        return Decision(self.to_move, self.kind or "", self.legal)

    def apply(self, action: Action | str) -> None:
        """Answer the pending decision with one of its legal actions."""
        if self.outcome is not None:
            raise GameOverError("the game is over; no action is legal")
        if self.to_move < 0:
            raise IllegalActionError("the game is paused between turns; call next_turn()")
        if isinstance(action, str):
            action = read_action(action)  # the family's verbs with their grammar (reroll 4 1)
        if not _offered(action, self.legal):
            shown = ", ".join(a.text for a in self.legal[:12]) + (", ..." if len(self.legal) > 12 else "")
            raise IllegalActionError(f"{action.text!r} is not legal now ({self.kind}); legal: {shown}")
        seat = self.to_move
        self.history.append((seat, action))
        if self.log is not None:  # (say() would pack the event even with no log)
            self.log.append(("act", seat, action.text))
        answer = self.answer
        self.to_move, self.kind, self.legal, self.answer = -1, None, (), ()
        turn.answer(self, answer, action)
        turn.advance(self)

    def next_turn(self) -> None:
        if not self.between_turns:
            raise IllegalActionError("the game is not paused between turns")
        self.between_turns = False
        turn.advance(self)

    def view(self, player: int) -> View:
        return view_of(self, player)

    def clone(self, *, record: bool = False) -> State:
        return State(self.names, self.monsters, seed=self.seed or 0, deck=None, record=record, game=self.game,
                         source=self)

    def child(self, action: Action | str) -> State:
        copy = self.clone()
        copy.apply(action)
        return copy

    # ------------------------------------------------------------ decisions and dice

    def ask(self, seat: int, kind: str, legal: Sequence[Action], answer: tuple) -> None:
        """Wait for ``seat`` to choose among ``legal``; ``answer`` names the step that reads it."""
        self.to_move, self.kind, self.legal, self.answer = seat, kind, tuple(legal), answer

    def roll(self, count: int) -> list[int]:
        """Dice rolled outside the turn's rolls (Camouflage), from the game's generator."""
        if self.scripted is not None:
            return self.scripted.roll(count)
        rng = self.rng
        return [int(rng.random() * 6) for _ in range(count)]

    def turn_dice(self, positions: Sequence[int]) -> list[int]:
        """The faces the dice at ``positions`` (from 1) show on this roll of the turn.

        Each roll of each turn has its faces drawn by die position from the seed, the
        turn and the roll alone, whatever was kept before: two games of one seed deal
        the same luck to the same seat (a duplicate pair), however the seats play."""
        if self.scripted is not None:
            return self.scripted.roll(len(positions))
        key = (((self.seed or 0) * 1_000_003 + self.turn) * 64 + self.rolls_used) * 16
        if COMPILED:
            return [_face(key, p) for p in positions]
        return [_mix(key + p) % 6 for p in positions]

    def say(self, *event: object) -> None:
        if self.log is not None:
            self.log.append(event)

    # ------------------------------------------------------------ questions

    def rival(self, seat: int) -> int:
        return 1 - seat

    def owns(self, seat: int, card: str) -> bool:
        return card in self.keeps[seat]

    def counts(self) -> list[int]:
        """How many of each face the roll's result holds (set-aside dice left out, added faces in)."""
        found = [0] * len(FACE_NAMES)
        for face in self.dice:
            found[face] += 1
        for face in self.aside:
            found[face] -= 1
        for face in self.added:
            found[face] += 1
        return found

    def count(self, face: int) -> int:
        """``counts()[face]``, without counting the other faces."""
        return self.dice.count(face) - self.aside.count(face) + self.added.count(face)

    # ------------------------------------------------------------ the effect API

    def gain_energy(self, seat: int, amount: int, why: str) -> None:
        if amount > 0 and self.outcome is None:
            self.energy[seat] += amount
            if self.log is not None:
                self.log.append(("energy", seat, amount, why))
            effects.energy_gained(self, seat, amount, why)

    def pay(self, seat: int, amount: int) -> None:
        self.energy[seat] -= amount

    def heal(self, seat: int, amount: int, why: str) -> None:
        if amount <= 0 or self.outcome is not None:
            return
        amount += effects.heal_bonus(self, seat)
        gained = min(amount, self.max_health[seat] - self.health[seat])
        if gained > 0:
            self.health[seat] += gained
            if self.log is not None:
                self.log.append(("heal", seat, gained, why))

    def gain_tokens(self, seat: int, amount: int, why: str) -> None:
        gained = min(amount, MAX_TOKENS - self.tokens[seat])
        if gained > 0 and self.outcome is None:
            self.tokens[seat] += gained
            if self.log is not None:
                self.log.append(("tokens", seat, gained, why))

    def damage(self, seat: int, amount: int, why: str) -> None:
        """``seat`` takes ``amount`` damage (the cards that guard it first); at 0 health
        its rival wins."""
        self.damage_both({seat: amount}, why)

    def damage_both(self, amounts: dict[int, int], why: str) -> None:
        """Damage dealt to both monsters at once: each loses it, then the game may end.
        When Camouflage's owner is hit, the damage waits for its choice to roll
        (``effects.camouflage_asks``)."""
        if self.outcome is not None or effects.camouflage_asks(self, amounts, why):
            return
        for seat, amount in amounts.items():
            amount = effects.prevent_damage(self, seat, amount)
            if amount <= 0:
                continue
            self.health[seat] = max(0, self.health[seat] - amount)
            self.taken[seat] += amount
            if self.log is not None:
                self.log.append(("damage", seat, amount, why))
            effects.damage_taken(self, seat, amount)
        down = [seat for seat in (0, 1) if self.health[seat] == 0]
        if len(down) == 2 and BOTH_KNOCKED_OUT_IS_A_DRAW:
            self.finish(None, ALL_ELIMINATED)
        elif down:
            self.finish(1 - down[0], LAST_STANDING)

    def pull(self, seat: int, track: int, amount: int, why: str) -> int:
        """``seat`` pulls a marker ``amount`` spaces toward its end; returns the spaces moved.

        The pull stops at the victory space, on The King's token when the rival of The
        King pulls, and where both markers stand in the puller's spotlight zone: the
        puller's win is checked at every space the marker moves onto (seed 002: "ви
        миттєво перемагаєте"), the rival's only where the pull ends
        (``rulings.RIVAL_WINS_ON_SPACES_PASSED``). The bonus of the space where it ends
        is gained (``rulings.BONUS_ON_SPACES_PASSED``)."""
        if amount <= 0 or self.outcome is not None:
            return 0
        board = self.board
        spaces = board.spaces(track)
        where = spaces.index(board.markers[track])
        start = where
        step = toward(seat)
        king_rival = self.monster_ids[1 - seat] == "the_king"
        other = board.markers[1 - track]
        # The zone the other marker stands in (it does not move): only there can this
        # pull put both markers in one zone, so the spaces are checked only then. The
        # rival's zone counts on the way only under RIVAL_WINS_ON_SPACES_PASSED; else
        # ``check_track`` reads it where the pull ends.
        zone = seat if board.in_spotlight(other, seat) else -1
        if zone < 0 and _RIVAL_ZONE_ON_THE_WAY and board.in_spotlight(other, 1 - seat):
            zone = 1 - seat
        left = 0  # times the marker came off a hype token (Scrappy)
        for _ in range(amount):
            if not 0 <= where + step < len(spaces):
                break
            token = spaces[where][0]
            where += step
            here = board.markers[track] = spaces[where]
            if token and here[0] != token:
                left += 1
            if BONUS_ON_SPACES_PASSED and where != start + step * amount:
                self.bonus(seat, here)
            if zone >= 0 and board.in_spotlight(here, zone):
                break  # both markers in one spotlight zone: the game ends here
            if king_rival and here[0] and HYPE_TOKENS[here[0]].blocks:
                self.say("blocked", seat, TRACK_NAMES[track])
                break
        moved = abs(where - start)
        if moved == 0:
            return 0
        if self.log is not None:
            self.log.append(("pull", seat, TRACK_NAMES[track], moved, why))
        if self.check_track():
            return moved
        effects.pulled(self, seat, track, moved, left, why)
        self.bonus(seat, spaces[where])
        return moved

    def bonus(self, seat: int, space: tuple[str, int]) -> None:
        """The hype bonus of ``space`` (if any), gained by the monster that moved the marker."""
        kind = self.board.bonus(space)
        if kind is None or self.outcome is not None:
            if kind is None and space[0]:
                effects.empty_hype_space(self, seat, space)
            return
        replaced = effects.replace_bonus(self, seat, kind)
        if replaced is not None:
            self.apply_bonus(seat, replaced)

    def apply_bonus(self, seat: int, kind: str) -> None:
        """Gain a hype bonus: the rival takes 1 or 2 damage, or 1 health, energy or dice token."""
        if self.log is not None:
            self.log.append(("bonus", seat, kind))
        if kind == SMASH:
            self.damage(1 - seat, 1, "hype bonus")
        elif kind == SMASH2:
            self.damage(1 - seat, 2, "hype bonus")
        elif kind == HEAL:
            self.heal(seat, 1, "hype bonus")
        elif kind == ENERGY_BONUS:
            self.gain_energy(seat, 1, "hype bonus")
        elif kind == DICE:
            self.gain_tokens(seat, 1, "hype bonus")

    def check_track(self) -> bool:
        """End the game if a marker stands on a victory space or both stand in one
        spotlight zone; whether it ended."""
        if self.outcome is not None:
            return True
        seat = self.board.winner_by_space()
        if seat is not None:
            self.finish(seat, VICTORY_SPACE)
            return True
        seat = self.board.winner_by_spotlight()
        if seat is not None:
            self.finish(seat, SPOTLIGHT)
            return True
        return False

    def finish(self, winner: int | None, why: Termination) -> None:
        ranks = (0, 0) if winner is None else tuple(0 if seat == winner else 1 for seat in (0, 1))
        self.outcome = Outcome(winner, why, ranks, self.turn)
        self.to_move, self.kind, self.legal, self.answer = -1, None, (), ()
        self.todo.clear()
        self.say("end", -1 if winner is None else winner, why.value)

    # ------------------------------------------------------------ cards

    def gain_card(self, seat: int, card: str) -> None:
        self.keeps[seat].append(card)

    def discard_keep(self, seat: int, card: str) -> None:
        self.keeps[seat].remove(card)
        self.gone.append(card)
        self.say("discard", seat, card)

    def buy_card(self, seat: int, slot: int, price: int) -> None:
        """Pay ``price`` for the card of ``slot`` and take it; its hype token is placed
        (a queued step) before its effect."""
        self.pay(seat, price)
        card = self.take_from_market(slot)
        self.say("buy", seat, card, price)
        steps: list[tuple] = [("card", seat, card)]
        if BY_ID[card].hype is not None:
            steps.insert(0, ("hype", seat, BY_ID[card].hype))
        self.todo[0:0] = steps  # next, before the rest of the queue (as ``turn.then``)

    def take_from_market(self, slot: int) -> str:
        """Take the card of ``slot`` (from 1); the cards to its left slide right and the
        deck's top card fills the slot nearest the deck."""
        index = slot - 1
        card = self.market[index]
        del self.market[index]
        self.market.insert(0, self.draw())
        if self.market[0]:
            self.say("reveal", self.market[0])
        return card

    def draw(self) -> str:
        """The deck's top card ("" if there is none, even after reshuffling)."""
        if not self.deck and RESHUFFLE_WHEN_DECK_RUNS_OUT and self.gone:
            self.deck, self.gone = self.gone, []
            shuffle(self.rng, self.deck)
            self.say("reshuffle", len(self.deck))
        return self.deck.pop(0) if self.deck else ""

    def cost(self, slot: int, discount: int = 0) -> int:
        """What the card in ``slot`` costs: 1 less in the rightmost slot."""
        return max(0, _COSTS[self.market[slot - 1]] - (1 if slot == MARKET_SIZE else 0) - discount)


#: Each card's printed cost, by id (read at every buy step: a lookup in this module's
#: own table instead of the card table's module and the card's attribute).
_COSTS: Final[dict[str, int]] = {card_id: card.cost for card_id, card in BY_ID.items()}


_MASK: Final = (1 << 64) - 1


def _mix(x: int) -> int:
    """splitmix64's finaliser: a well-spread 64-bit hash of ``x`` (the turn's dice)."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


#: Whether this module is compiled: the dice then take ``_face``, the same hash on
#: machine integers (``_mix`` on Python's 64-bit integers took 0.9 microseconds a die
#: compiled, ``_face`` 0.04; from source ``_face`` is the slower, at 4 microseconds).
COMPILED: Final = NATIVE


def _face(key: int, position: i64) -> i64:
    """``_mix(key + position) % 6`` on 32-bit halves, the products on 16-bit quarters
    of the constants, so that no value passes 2**63 (the compiled build keeps them in
    machine integers). ``tests/engine/test_native.py`` checks the two agree."""
    x = key & _MASK
    low: i64 = (x & 0xFFFFFFFF) + position + _G_LOW
    high: i64 = ((x >> 32) + _G_HIGH + (low >> 32)) & _M32
    low &= _M32
    # x ^= x >> 30; x *= C1
    low ^= (low >> 30) | ((high & 0x3FFFFFFF) << 2)
    high ^= high >> 30
    high, low = _times(high, low, _C1_HIGH_0, _C1_HIGH_1, _C1_LOW_0, _C1_LOW_1)
    # x ^= x >> 27; x *= C2
    low ^= (low >> 27) | ((high & 0x7FFFFFF) << 5)
    high ^= high >> 27
    high, low = _times(high, low, _C2_HIGH_0, _C2_HIGH_1, _C2_LOW_0, _C2_LOW_1)
    # x ^= x >> 31; x % 6, with 2**32 % 6 == 4
    low ^= (low >> 31) | ((high & 0x7FFFFFFF) << 1)
    high ^= high >> 31
    return (high * 4 + low) % 6


def _times(high: i64, low: i64, c_high_0: i64, c_high_1: i64, c_low_0: i64, c_low_1: i64) -> tuple[i64, i64]:
    """``(high, low) * c`` modulo 2**64, ``c``'s halves given as 16-bit quarters."""
    a: i64 = low * c_low_0
    b: i64 = low * c_low_1
    t: i64 = a + ((b & 0xFFFF) << 16)
    new_high: i64 = (t >> 32) + (b >> 16) + high * c_low_0 + (((high * c_low_1) & 0xFFFF) << 16)
    new_high += low * c_high_0 + (((low * c_high_1) & 0xFFFF) << 16)
    return new_high & _M32, t & _M32


_M32: Final[i64] = 0xFFFFFFFF
#: splitmix64's constants in 32-bit halves, the multipliers' halves in 16-bit quarters.
_G_HIGH: Final[i64] = 0x9E3779B9
_G_LOW: Final[i64] = 0x7F4A7C15
_C1_HIGH_0: Final[i64] = 0x476D
_C1_HIGH_1: Final[i64] = 0xBF58
_C1_LOW_0: Final[i64] = 0xE5B9
_C1_LOW_1: Final[i64] = 0x1CE4
_C2_HIGH_0: Final[i64] = 0x49BB
_C2_HIGH_1: Final[i64] = 0x94D0
_C2_LOW_0: Final[i64] = 0x11EB
_C2_LOW_1: Final[i64] = 0x1331


def shuffle(rng: random.Random, items: list[str]) -> None:
    """``rng.shuffle(items)``, step for step as the standard library's (Fisher-Yates,
    each index drawn by ``getrandbits`` until below its bound), but compiled: from
    Python it costs a call of ``_randbelow`` a card, a tenth of a game's setting up.
    ``tests/engine/test_native.py`` checks it against ``random.shuffle``."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def _offered(action: Action, legal: tuple[Action, ...]) -> bool:
    """Whether ``action`` is one of ``legal``: by identity, as actions are interned (``in``
    compared each of up to 255 rerolls by ``__eq__`` first)."""
    for allowed in legal:
        if allowed is action:
            return True
    return False


def _copy_rng(source: random.Random) -> random.Random:
    # A fixed seed: ``Random()`` would first seed itself from the operating system,
    # only for ``setstate`` to overwrite it.
    copy = random.Random(0)
    copy.setstate(source.getstate())
    return copy
