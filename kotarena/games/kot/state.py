"""The game state and the turn machine of classic King of Tokyo.

A :class:`State` holds the whole table. It always either waits for one player's
decision (``to_move``, ``kind``, ``legal``) or is over (``outcome``). ``apply(action)``
checks the action against the legal list, carries it out and runs the game forward to
the next decision, so between two calls the state is always at a decision point.

Design notes (why it looks like this):

* Per-player facts live in parallel lists indexed by seat, so a copy is a handful of
  list copies and the hot path touches no per-monster objects.
* Legal action lists are precomputed tuples shared by every game (one per dice count,
  one per combination of affordable market slots); the engine never builds an action
  on the hot path.
* Chance comes from a seeded ``random.Random`` (only ``random()`` is used, whose
  output is the same on every platform and Python version) or from
  :class:`~kotarena.engine.dice.ScriptedDice`.
* Dice do not depend on decisions: at the start of each turn the engine draws one
  number per possible roll, which fixes the face of every die position in that roll
  (``_faces``), and a roll takes the faces of the positions it rolls. Whatever a
  player keeps, the die at position 3 of the second roll of turn 12 shows the same
  face. Replaying a seed with the seats rotated ("duplicate" play) therefore hands
  every seat the same luck. Deck reshuffles draw from their own stream for the same
  reason.
* The event log is a list of small tuples; formatting happens only when someone reads
  it (:mod:`kotarena.games.kot.events`).
"""

from __future__ import annotations

import random as _random_module
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final, cast

from kotarena.engine.actions import (
    BUY,
    BUY_ACTIONS,
    CURE,
    DONE_ACTION,
    PASS_ACTION,
    REROLL,
    STAY,
    STAY_ACTION,
    STOP,
    SWEEP,
    SWEEP_ACTION,
    YIELD,
    YIELD_ACTION,
    Action,
    reroll_table,
)
from kotarena.engine.dice import CLAW, ENERGY, HEART, ScriptedDice
from kotarena.engine.outcome import (
    GameOverError,
    IllegalActionError,
    Outcome,
    PositionError,
    Termination,
)
from kotarena.games.kot.cards import KEEP, CardInfo, deck_cards, deck_effects
from kotarena.games.kot.cards.moments import (
    ATTACK_BONUS,
    ATTACKED,
    BONUS_REROLL,
    BOUGHT,
    CARD_DAMAGE,
    CLAWS,
    COST,
    END_TURN,
    ENERGY_BONUS,
    GUARD,
    HEAL_BONUS,
    HURT,
    MOMENTS,
    OFFERS,
    RESCUE,
    REVEALED,
    SCORE,
    START_TURN,
    TAKEN,
    TARGETS,
    YIELDED,
    ZERO,
)
from kotarena.games.kot.cards.moments import (
    DICE_COUNT as DICE_COUNT_MOMENT,
)
from kotarena.games.kot.rules import CLASSIC, Rules
from kotarena.games.kot.view import View, build_view

if TYPE_CHECKING:
    from kotarena.engine.decisions import Decision

# Decision kinds: what question the pending decision asks.
ROLL = "roll"      #: after a roll with rerolls left: ``stop`` or ``reroll ...``
YIELD_TOKYO = "yield"  #: attacked in Tokyo: ``stay`` or ``yield``
BUY_CARDS = "buy"  #: the buy step: ``buy N``, ``sweep`` or ``done`` (and cards' ``use ...``)
DICE_CARDS = "dice"  #: before the dice resolve: ``pass`` or a card's ``use ...`` (change a die, reroll)
HEARTS = "hearts"  #: hearts against tokens: ``pass`` (heal) or ``cure P S``
END_CARDS = "end"  #: after buying, before the end of the turn: ``pass`` or a card's ``use ...`` (sell)
DAMAGE = "damage"  #: damage is about to reach this monster: ``pass`` (take it) or a card's ``use ...``
PROBE = "probe"  #: another monster's roll is over: ``pass`` or ``use psychic_probe N`` (reroll its die N)
REVEAL = "reveal"  #: a card was revealed on another monster's turn: ``pass`` or ``use opportunist SLOT``
START_CARDS = "start"  #: the turn starts, before the roll: ``pass`` or a card's ``use ...`` (Mimic)

CITY = "city"
BAY = "bay"

#: The faces of four dice for each number below 6**4, the first die slowest.
_FOUR_FACES = tuple((a, b, c, d) for a in range(6) for b in range(6) for c in range(6) for d in range(6))
_EIGHT_DICE = 6**8


def _faces(key: float, slots: int) -> tuple[int, ...]:
    """The faces of the ``slots`` die positions of one roll (``Rules.die_slots``, eight
    in the classic game), from one ``random()`` number: its first 6**slots outcomes in
    base 6, one digit per die, the first die slowest.

    One draw per roll instead of one per die keeps the dice as fair as before (a 53-bit
    number spread over 6**8 outcomes favours some by less than one part in a billion)
    at an eighth of the calls.
    """
    if slots == 8:
        high, low = divmod(int(key * _EIGHT_DICE), 1296)
        return _FOUR_FACES[high] + _FOUR_FACES[low]
    number = int(key * 6**slots)
    faces = [0] * slots
    for i in range(slots - 1, -1, -1):
        number, faces[i] = divmod(number, 6)
    return tuple(faces)

_REROLL_TABLES: dict[int, tuple[tuple[Action, ...], frozenset[Action]]] = {}


def _reroll_legal(dice_count: int) -> tuple[tuple[Action, ...], frozenset[Action]]:
    entry = _REROLL_TABLES.get(dice_count)
    if entry is None:
        table = reroll_table(dice_count)
        entry = _REROLL_TABLES[dice_count] = (table, frozenset(table))
    return entry


def _buy_tables(size: int) -> list[tuple[tuple[Action, ...], frozenset[Action]]]:
    """Index ``mask | sweep << size``: bit ``s`` of ``mask`` set when slot ``s+1`` is affordable."""
    tables = [_NOTHING_TO_BUY]  # shared by every market size: the buy step compares it by identity
    for index in range(1, 2 << size):
        legal = [DONE_ACTION]
        legal.extend(BUY_ACTIONS[s] if s < 3 else Action.of(BUY, s + 1) for s in range(size) if index >> s & 1)
        if index >> size & 1:
            legal.append(SWEEP_ACTION)
        tables.append((tuple(legal), frozenset(legal)))
    return tables


_NOTHING_TO_BUY: tuple[tuple[Action, ...], frozenset[Action]] = ((DONE_ACTION,), frozenset((DONE_ACTION,)))
#: The buy tables of the classic market (three slots); other sizes are made when first asked.
_BUY_LEGAL = _buy_tables(3)
_OTHER_BUY_TABLES: dict[int, list[tuple[tuple[Action, ...], frozenset[Action]]]] = {}


def _buy_legal(size: int) -> list[tuple[tuple[Action, ...], frozenset[Action]]]:
    if size == 3:
        return _BUY_LEGAL
    tables = _OTHER_BUY_TABLES.get(size)
    if tables is None:
        tables = _OTHER_BUY_TABLES[size] = _buy_tables(size)
    return tables
_YIELD_LEGAL = ((STAY_ACTION, YIELD_ACTION), frozenset((STAY_ACTION, YIELD_ACTION)))
_NO_LEGAL: tuple[tuple[Action, ...], frozenset[Action]] = ((), frozenset())

#: The hooks of a table where no card acts: one empty tuple per moment, shared.
_NO_HOOKS: tuple[tuple, ...] = ((),) * len(MOMENTS)
_NO_FLAGS: frozenset = frozenset()
_NO_OFFERS: dict = {}

# What the game does once the damage queue is empty (see ``_drain``).
_THEN_NOTHING = 0
_THEN_ATTACK = 1   #: after the claws: attack effects, yielding, moving in, then buying
_THEN_BUY = 2      #: back to the buy step (card damage while buying, Burrowing)
_THEN_END = 3      #: finish the turn (poison at the end of a turn)


def shuffle(items: list, random) -> None:
    """Fisher-Yates with ``random()`` only, so a seed shuffles alike everywhere."""
    for i in range(len(items) - 1, 0, -1):
        j = int(random() * (i + 1))
        items[i], items[j] = items[j], items[i]


class State:
    """The whole table of one King of Tokyo game. See the module docstring.

    :meth:`__init__` declares every field, once, with its starting value and how a copy
    takes it: :meth:`clone` is ``__init__`` given the state to copy, and the sampled
    copy (:mod:`kotarena.games.kot.view`) starts from a blank state, so a new field
    needs only its line there.
    """

    def __init__(
        self,
        rules: Rules = CLASSIC,
        names: tuple[str, ...] = (),
        *,
        game: str = "kot",
        seed: int | None = None,
        deck: str | None = None,
        cards: tuple[CardInfo, ...] = (),
        effects: tuple[Any, ...] = (),
        dice: ScriptedDice | None = None,
        record: bool = False,
        rng: _random_module.Random | None = None,
        source: State | None = None,
    ) -> None:
        """A table before anything happened: every monster fresh, nobody in Tokyo, the
        deck (the physical ``cards`` of ``deck`` and their ``effects``) in table order
        and the market empty; :meth:`blank` shuffles and deals, :meth:`begin` starts.
        With ``source``, a copy of that state instead (:meth:`clone`), whose generator
        is ``rng`` and whose log and history are copied with ``record``.

        Every field of a state is declared here, once, with its type, its starting
        value and, after ``if c is None else``, what a copy takes: a list is copied (a
        list of lists list by list), a dict too, anything else is immutable and shared
        (tuples such as the hook tables and the legal list, numbers, strings, ``None``).
        ``tests/engine/test_state_fields.py`` checks every field of the declaration
        against both copies.
        """
        c = source
        n = len(names) if c is None else c.n
        if rng is None:
            rng = _random_module.Random(seed)
        # The game and its seats.
        self.game: str = game if c is None else c.game
        self.rules: Rules = rules if c is None else c.rules
        self.n: int = n
        self.names: tuple[str, ...] = names if c is None else c.names
        self.seed: int | None = seed if c is None else c.seed
        self.deck_name: str | None = deck if c is None else c.deck_name
        #: The physical cards (copies expanded); a card in play is an index into them.
        self.cards_info: tuple[CardInfo, ...] = cards if c is None else c.cards_info
        # Each monster, by seat.
        self.health: list[int] = [rules.starting_health] * n if c is None else c.health[:]
        self.max_health: list[int] = [rules.starting_health] * n if c is None else c.max_health[:]
        self.stars: list[int] = [0] * n if c is None else c.stars[:]
        self.energy: list[int] = [0] * n if c is None else c.energy[:]
        self.alive: list[bool] = [True] * n if c is None else c.alive[:]
        self.owned: list[list[int]] = [[] for _ in range(n)] if c is None else [cards[:] for cards in c.owned]
        self.poison: list[int] = [0] * n if c is None else c.poison[:]
        self.shrink: list[int] = [0] * n if c is None else c.shrink[:]
        #: ``(turn, damage batch)`` of each monster's elimination (``None``: alive).
        self.eliminated_at: list[Any] = [None] * n if c is None else c.eliminated_at[:]
        self.alive_count: int = n if c is None else c.alive_count
        # Tokyo: the seat in each place (-1: empty).
        self.city: int = -1 if c is None else c.city
        self.bay: int = -1 if c is None else c.bay
        self.bay_open: bool = rules.bay_opens(n) if c is None else c.bay_open
        # The turn and the dice.
        self.active: int = 0 if c is None else c.active
        self.turn: int = 0 if c is None else c.turn
        self.dice: list[int] = [] if c is None else c.dice[:]
        self.rolls_left: int = 0 if c is None else c.rolls_left
        # The cards: the market (-1: an empty slot), the deck (its top is the end) and
        # the discard pile; counters on cards in play; the card Made in a Lab shows and
        # the card the mimic token is on (-1: none).
        self.market: list[int] = [-1] * rules.market_size if c is None else c.market[:]
        self.deck: list[int] = list(range(len(cards))) if c is None else c.deck[:]
        self.discard: list[int] = [] if c is None else c.discard[:]
        self.counters: dict[int, int] = {} if c is None else dict(c.counters)
        self.peek: int = -1 if c is None else c.peek
        self.mimic: int = -1 if c is None else c.mimic
        # The pending decision (the legal list and its set are shared tables).
        self.to_move: int = -1 if c is None else c.to_move
        self.kind: str | None = None if c is None else c.kind
        self.legal: tuple[Action, ...] = () if c is None else c.legal
        self._legal_set: frozenset[Action] = frozenset() if c is None else c._legal_set
        self.outcome: Outcome | None = None if c is None else c.outcome
        # What happened: the event log (``None``: not recorded) and the actions.
        self.log: list[tuple] | None = (
            ([] if record else None) if c is None else list(c.log) if record and c.log is not None else None)
        self.history: list[tuple[int, Action]] = [] if c is None or not record else list(c.history)
        self.pause_between_turns: bool = False if c is None else c.pause_between_turns
        self.between_turns: bool = False if c is None else c.between_turns
        # Chance: the seeded generator (or scripted dice), this turn's roll draws, and
        # how many rolls, reshuffles and card rolls have drawn so far.
        self._rng: _random_module.Random = rng
        self._random: Callable[[], float] = rng.random
        self._script: ScriptedDice | None = dice if c is None or c._script is None else c._script.copy()
        self._turn_dice: list[float] = [] if c is None else c._turn_dice[:]
        self._roll_no: int = 0 if c is None else c._roll_no
        self._reshuffles: int = 0 if c is None else c._reshuffles
        self._card_rolls: int = 0 if c is None else c._card_rolls
        # An attack: who attacked from outside, who may yield, who was hit; the damage
        # batch number (monsters eliminated by one batch tie).
        self._attacker: int = -1 if c is None else c._attacker
        self._yielders: list[int] = [] if c is None else c._yielders[:]
        self._hit: list[int] = [] if c is None else c._hit[:]
        self._batch: int = 0 if c is None else c._batch
        # The views' cache of card ids (see build_view); dropped whenever cards move.
        self._card_ids: Any = None if c is None else c._card_ids
        # Card effects: one per physical card, and the hooks of the cards in play, per
        # moment, for everybody and by owner (tables never changed in place: rebuilt).
        self._effects: tuple[Any, ...] = effects if c is None else c._effects
        self._hooks: tuple[tuple[Any, ...], ...] = _NO_HOOKS if c is None else c._hooks
        self._offer_hooks: dict[str, tuple[Any, ...]] = _NO_OFFERS if c is None else dict(c._offer_hooks)
        self._mine: tuple[tuple[tuple[Any, ...], ...], ...] = (_NO_HOOKS,) * n if c is None else c._mine
        self._my_offers: tuple[dict[str, tuple[Any, ...]], ...] = (_NO_OFFERS,) * n if c is None else c._my_offers
        #: Whether turns take the card path (some card acts, or a token is out).
        self._slow: bool = False if c is None else c._slow
        # The damage queue: entries still to judge, judged ones about to land, the one
        # a ``damage`` decision waits on, monsters at 0 health not yet eliminated, and
        # the step that follows once it is empty.
        self._queue: list[tuple[int, int, int, bool]] = [] if c is None else c._queue[:]
        self._ready: list[tuple[int, int, int, bool]] = [] if c is None else c._ready[:]
        self._pending_hit: Any = None if c is None else c._pending_hit
        self._dropped: list[int] = [] if c is None else c._dropped[:]
        self._then: int = _THEN_NOTHING if c is None else c._then
        # Turn facts cards read: extra turns to come, once-a-turn flags, whether the
        # active monster has hurt another, revealed cards still offered, hearts to spend.
        self._extra_turns: int = 0 if c is None else c._extra_turns
        self._flags: frozenset[tuple[Any, ...]] = _NO_FLAGS if c is None else c._flags
        self._dealt: bool = False if c is None else c._dealt
        self._revealed: list[tuple[int, int]] = [] if c is None else c._revealed[:]
        self._hearts_left: int = 0 if c is None else c._hearts_left

    # ------------------------------------------------------------------ setup

    @classmethod
    def blank(
        cls,
        players: int | Sequence[str],
        *,
        rules: Rules = CLASSIC,
        seed: int | None = None,
        deck: str | None = "kot",
        dice: ScriptedDice | None = None,
        record: bool = True,
    ) -> State:
        """A table before the first turn: monsters set up, deck shuffled, market dealt.

        Nobody has been chosen to start yet; :func:`new_game` does the roll-off.
        """
        names = tuple(players) if not isinstance(players, int) else rules.monsters[:players]
        n = len(names)
        if not 2 <= n <= 6:
            raise PositionError(f"King of Tokyo is for 2 to 6 players, not {n}")
        if len(set(names)) != n:
            raise PositionError("two monsters have the same name")
        if seed is None:
            seed = _random_module.SystemRandom().randrange(2**63)
        if deck is None:
            s = cls(rules, names, seed=seed, dice=dice, record=record)
        else:
            s = cls(rules, names, seed=seed, deck=deck, cards=deck_cards(deck), effects=deck_effects(deck), dice=dice,
                    record=record)
            shuffle(s.deck, s._random)
            for slot in range(rules.market_size):
                s._reveal(slot)
        return s

    def roll_off(self) -> int:
        """Everyone rolls six dice; most claws starts, ties roll again among themselves."""
        contenders = [p for p in range(self.n) if self.alive[p]]
        while len(contenders) > 1:
            claws = {p: self._roll_off_dice().count(CLAW) for p in contenders}
            best = max(claws.values())
            if self.log is not None:
                self.log.append(("rolloff", tuple(sorted(claws.items()))))
            contenders = [p for p in contenders if claws[p] == best]
        return contenders[0]

    def begin(self, first: int) -> None:
        """Start the first turn with monster ``first``."""
        if not (0 <= first < self.n and self.alive[first]):
            raise PositionError(f"monster #{first} cannot take the first turn")
        self.active = first
        self._start_turn()

    # ----------------------------------------------------------- the public API

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def decision(self) -> Decision | None:
        """The pending :class:`~kotarena.engine.decisions.Decision`, or ``None``."""
        from kotarena.engine.decisions import Decision

        if self.to_move < 0:
            return None
        return Decision(self.to_move, cast(str, self.kind), self.legal)

    def apply(self, action: Action | str) -> None:
        """Carry out the deciding player's action and run on to the next decision.

        Raises :class:`IllegalActionError` if the action is not legal now; the state is
        then unchanged.
        """
        if action.__class__ is not Action:
            from kotarena.engine.actions import parse_action

            action = parse_action(cast(str, action))
        if action not in self._legal_set:
            if self.outcome is not None:
                raise GameOverError("the game is over; no action is legal")
            if self.between_turns:
                raise IllegalActionError("the game is paused between turns; call next_turn() first")
            legal = ", ".join(a.text for a in self.legal[:12])
            more = f" and {len(self.legal) - 12} more" if len(self.legal) > 12 else ""
            raise IllegalActionError(
                f"{action.text!r} is not legal for {self.names[self.to_move]} now ({self.kind}); "
                f"legal: {legal}{more}"
            )
        player = self.to_move
        self.history.append((player, action))
        if self.log is not None:
            self.log.append(("act", player, action.text))
        kind = action.kind
        # The most frequent answers first.
        if kind == REROLL:
            self._reroll(action.args)
        elif kind == "done":
            if self._slow:
                self._end_turn()
            else:
                self._finish_turn()
        elif kind == STAY:
            self._ask_yield()
        elif kind == YIELD:
            self._yield(player)
        elif kind == STOP:
            self._resolve()
        elif kind == BUY:
            self._buy(action.args[0] - 1)
        elif kind == SWEEP:
            self._sweep()
        else:  # pass, use, cure: a card decision
            self._card_choice(player, action)

    def next_turn(self) -> None:
        """Start the next turn of a game paused between turns (see ``pause_between_turns``)."""
        if not self.between_turns:
            raise IllegalActionError("the game is not paused between turns")
        self.between_turns = False
        self._start_turn()

    def view(self, player: int) -> View:
        """What seat ``player`` may see now (see :mod:`kotarena.games.kot.view`)."""
        return build_view(self, player)

    def in_tokyo(self, player: int) -> bool:
        return player == self.city or player == self.bay

    def place_of(self, player: int) -> str | None:
        """``"city"``, ``"bay"`` or ``None``."""
        if player == self.city:
            return CITY
        if player == self.bay:
            return BAY
        return None

    def card(self, index: int) -> CardInfo:
        """The card behind a physical card index (market, deck, owned cards)."""
        return self.cards_info[index]

    # ------------------------------------------------------------ the turn

    def _decide(self, player: int, kind: str | None, table: tuple[tuple[Action, ...], frozenset[Action]]) -> None:
        self.to_move = player
        self.kind = kind
        self.legal, self._legal_set = table

    def _roll_off_dice(self) -> list[int]:
        if self._script is not None:
            return self._script.roll(self.rules.dice)
        random = self._random
        return [int(random() * 6) for _ in range(self.rules.dice)]

    def _draw_turn_dice(self) -> None:
        """Draw this turn's dice: one number per roll a turn normally has, each standing
        for the faces of all ``Rules.die_slots`` die positions of that roll (see ``_faces``)."""
        random = self._random
        self._turn_dice = [random() for _ in range(self.rules.rerolls + 1)]
        self._roll_no = 0

    def _roll(self, positions: tuple[int, ...]) -> list[int]:
        """Faces for the dice at ``positions`` (from 1) in the turn's next roll."""
        if self._script is not None:
            return self._script.roll(len(positions))
        roll_no = self._roll_no
        self._roll_no = roll_no + 1
        keys = self._turn_dice
        if roll_no >= len(keys):
            # A roll beyond the usual three (cards): its faces come from a stream of
            # their own for this turn and roll, so taking it or not leaves every later
            # turn's dice as they were (duplicate play relies on that).
            stream = _random_module.Random(((self.seed or 0) * 1_000_003 + self.turn) * 1_009 + roll_no + 1)
            keys.append(stream.random())
        faces = _faces(keys[roll_no], self.rules.die_slots)
        return [faces[i - 1] for i in positions]

    def _start_turn(self) -> None:
        p = self.active
        self.turn += 1
        log = self.log
        if log is not None:
            log.append(("turn", p, self.turn))
        self._dealt = False
        if p == self.city or p == self.bay:
            rules = self.rules
            if rules.start_tokyo_stars:
                self._gain_stars(p, rules.start_tokyo_stars, "start in tokyo")
            if rules.start_tokyo_energy:
                self._gain_energy(p, rules.start_tokyo_energy)
        if self._slow:
            self._flags = _NO_FLAGS
            self._revealed = []
            for card, fn in self._mine[p][START_TURN]:
                fn(self, p, card)
            if self.alive[p]:
                offers = self._offers(p, START_CARDS)
                if offers:
                    self.dice = []  # nothing rolled yet this turn
                    self.rolls_left = 0
                    legal = (PASS_ACTION, *offers)
                    self._decide(p, START_CARDS, (legal, frozenset(legal)))
                    return
        self._first_roll()

    def _first_roll(self) -> None:
        p = self.active
        rules = self.rules
        count = rules.dice
        if self._slow and (self._mine[p][DICE_COUNT_MOMENT] or self.shrink[p]):
            count = self._dice_count(p)
        if self._script is None:
            self._draw_turn_dice()
            self._roll_no = 1
            self.dice = list(_faces(self._turn_dice[0], rules.die_slots)[:count])
        else:
            self.dice = self._script.roll(count)
        if self.log is not None:
            self.log.append(("roll", p, tuple(self.dice), ()))
        self.rolls_left = rules.rerolls
        self._decide(p, ROLL, _reroll_legal(count))

    def _dice_count(self, p: int) -> int:
        """Dice rolled this turn: six, more with Extra Head, fewer per shrink token."""
        count = self.rules.dice
        for card, fn in self._mine[p][DICE_COUNT_MOMENT]:
            count = fn(self, p, card, count)
        return max(0, min(self.rules.die_slots, count - self.shrink[p]))

    def _reroll(self, positions: tuple[int, ...]) -> None:
        dice = self.dice
        roll_no = self._roll_no
        if self._script is None and roll_no < len(self._turn_dice):
            # The usual rerolls take their faces straight from the turn's draw.
            self._roll_no = roll_no + 1
            faces = _faces(self._turn_dice[roll_no], self.rules.die_slots)
            for position in positions:
                dice[position - 1] = faces[position - 1]
        else:
            for position, face in zip(positions, self._roll(positions)):
                dice[position - 1] = face
        if self.log is not None:
            self.log.append(("roll", self.active, tuple(dice), positions))
        self.rolls_left -= 1
        if self.rolls_left == 0:
            if self._slow and self._mine[self.active][BONUS_REROLL] and self._bonus_reroll():
                return
            self._resolve()

    def _bonus_reroll(self) -> bool:
        """A card's extra reroll (Giant Brain) once the usual ones ran out."""
        p = self.active
        for card, fn in self._mine[p][BONUS_REROLL]:
            key = ("reroll", card)
            if key not in self._flags and fn(self, p, card):
                self._flags = self._flags | {key}
                self._grant_reroll()
                return True
        return False

    def _grant_reroll(self) -> None:
        """Give the active monster one more reroll: a roll decision with one reroll left."""
        self.rolls_left = 1
        self._decide(self.active, ROLL, _reroll_legal(len(self.dice)))

    def _resolve(self) -> None:
        """The roll is over: other monsters' cards, then the roller's, may act on the dice."""
        if self._slow:
            p = self.active
            n = self.n
            for step in range(1, n if PROBE in self._offer_hooks else 1):
                q = (p + step) % n
                if self.alive[q]:
                    offers = self._offers(q, PROBE)
                    if offers:
                        legal = (PASS_ACTION, *offers)
                        self._decide(q, PROBE, (legal, frozenset(legal)))
                        return
            offers = self._offers(p, DICE_CARDS)
            if offers:
                legal = (PASS_ACTION, *offers)
                self._decide(p, DICE_CARDS, (legal, frozenset(legal)))
                return
        self._resolve_dice()

    def _resolve_dice(self) -> None:
        """Resolve the dice: numbers, energy, hearts, then claws (see docs/rules.md)."""
        p = self.active
        dice = self.dice
        stars = 0
        for face in (0, 1, 2):
            count = dice.count(face)
            if count >= 3:
                stars += face + count - 2
        if self._slow:
            for card, fn in self._mine[p][SCORE]:
                stars += fn(self, p, card, dice)
        if stars:
            self._gain_stars(p, stars, "dice")
        count = dice.count(ENERGY)
        if count:
            if self._slow:
                self._gain_energy(p, count)
            else:
                self.energy[p] += count
                if self.log is not None:
                    self.log.append(("energy", p, count))
        count = dice.count(HEART)
        if count:
            if self._slow and (HEARTS in self._offer_hooks or self.poison[p] or self.shrink[p]):
                self._hearts_left = count
                table = self._hearts_table(p)
                if len(table[0]) > 1:
                    self._decide(p, HEARTS, table)
                    return
                self._hearts_left = 0
            if p != self.city and p != self.bay:
                self._heal(p, count)
        if self._slow:
            self._resolve_claws()
            return
        count = dice.count(CLAW)
        if count:
            self._claws(p, count)
        else:
            self._buy_step()

    def _hearts_table(self, p: int) -> tuple[tuple[Action, ...], frozenset[Action]]:
        """Hearts left to spend: on tokens (outside Tokyo), on cards (Healing Ray), or healing."""
        hearts = self._hearts_left
        legal = [PASS_ACTION]
        if p != self.city and p != self.bay:
            for poison in range(min(hearts, self.poison[p]) + 1):
                for shrink in range(min(hearts - poison, self.shrink[p]) + 1):
                    if poison or shrink:
                        legal.append(Action.of(CURE, poison, shrink))
        legal.extend(self._offers(p, HEARTS))
        return tuple(legal), frozenset(legal)

    def _cure(self, p: int, poison: int, shrink: int) -> None:
        """Hearts spent on tokens; the other hearts heal."""
        self.poison[p] -= poison
        self.shrink[p] -= shrink
        if self.log is not None:
            self.log.append(("cure", p, poison, shrink))
        self._hearts_left -= poison + shrink
        self._end_hearts(p)

    def _end_hearts(self, p: int) -> None:
        """The hearts not spent otherwise heal (outside Tokyo); then the claws."""
        hearts, self._hearts_left = self._hearts_left, 0
        if p != self.city and p != self.bay:
            self._heal(p, hearts)
        self._resolve_claws()

    def _resolve_claws(self) -> None:
        p = self.active
        count = self.dice.count(CLAW)
        if self._slow:
            mine = self._mine[p]
            for card, fn in mine[CLAWS]:
                count = fn(self, p, card, self.dice, count)
            if not count:
                damage = 0
                for card, fn in mine[CARD_DAMAGE]:
                    damage += fn(self, p, card)
                if damage:
                    # Damage without claws is not an attack: no yielding, no moving in.
                    self._batch += 1
                    for q in self._claw_targets(p):
                        self._queue.append((q, damage, p, False))
                    self._then = _THEN_BUY
                    self._drain()
                    return
        if count:
            self._claws(p, count)
        else:
            self._buy_step()

    def _claw_targets(self, p: int) -> list[int]:
        """Who claws from ``p`` would hit now (nobody if Tokyo is empty and ``p`` outside)."""
        city, bay = self.city, self.bay
        alive = self.alive
        if p == city or p == bay:
            return [q for q in range(self.n) if alive[q] and q != city and q != bay]
        return [q for q in (city, bay) if q >= 0]

    def _claws(self, p: int, count: int) -> None:
        city, bay = self.city, self.bay
        slow = self._slow
        if slow and self._mine[p][TARGETS]:
            # Nova Breath: every other monster. An empty Tokyo is taken first, so the
            # attack comes from Tokyo and nobody yields to it.
            if city < 0 and bay < 0:
                self._enter(p, CITY)
            alive = self.alive
            targets = [q for q in range(self.n) if alive[q] and q != p]
        elif p == city or p == bay:
            alive = self.alive
            targets = [q for q in range(self.n) if alive[q] and q != city and q != bay]
        elif city < 0 and bay < 0:
            # An empty Tokyo is taken without dealing damage.
            self._enter(p, CITY)
            self._buy_step()
            return
        else:
            targets = [q for q in (city, bay) if q >= 0]
        self._batch += 1
        if not slow:
            # _land for every target, inlined: no card can change or follow this damage.
            self._hit = hit = []
            health = self.health
            log = self.log
            for q in targets:
                health[q] -= count
                if log is not None:
                    log.append(("damage", q, count, p))
                if health[q] <= 0:
                    health[q] = 0
                    self._dropped.append(q)
                hit.append(q)
            self._dealt = True
            if self._dropped:
                self._settle()
            self._after_attack()
            return
        queue = self._queue
        from_tokyo = p == self.city or p == self.bay
        bonuses = self._mine[p][ATTACK_BONUS]
        for q in targets:
            amount = count
            for card, fn in bonuses:
                amount += fn(self, p, card, q, from_tokyo)
            queue.append((q, amount, p, True))
        self._hit = []
        self._then = _THEN_ATTACK
        self._drain()

    # ------------------------------------------------------- the damage pipeline

    def _queue_damage(self, target: int, amount: int, source: int) -> None:
        """Queue card damage (not an attack) for ``target``; the engine applies it next."""
        if amount > 0:
            self._queue.append((target, amount, source, False))

    def _drain(self) -> None:
        """Apply the queued damage one entry at a time, then eliminate, then go on.

        All damage of one queue (every target of one attack) lands before anybody is
        eliminated, so Tokyo Bay cannot close between two targets of the same claws.
        """
        queue = self._queue
        health = self.health
        alive = self.alive
        if not self._slow:
            while queue:
                q, amount, source, attack = queue.pop(0)
                if alive[q] and health[q] > 0:
                    self._land(q, amount, source, attack)
        else:
            # Cards judge every entry first (guards, then the target's choices), so no
            # monster is at 0 health, uneliminated, while somebody decides; then it all lands.
            ready = self._ready
            while queue:
                q, amount, source, attack = queue.pop(0)
                if not alive[q]:
                    continue
                for card, fn in self._mine[q][GUARD]:
                    if amount > 0:
                        amount = fn(self, q, card, amount, source, attack)
                if amount <= 0:
                    continue
                self._pending_hit = (q, amount, source, attack)
                if self._ask_damage():
                    return
                self._pending_hit = None
                ready.append((q, amount, source, attack))
            while ready:
                q, amount, source, attack = ready.pop(0)
                if alive[q] and health[q] > 0:
                    self._land(q, amount, source, attack)
        self._settle()
        then = self._then
        self._then = _THEN_NOTHING
        if then == _THEN_ATTACK:
            self._after_attack()
        elif then == _THEN_BUY:
            self._after_card_damage()
        elif then == _THEN_END:
            self._finish_turn()

    def _ask_damage(self) -> bool:
        """Offer the monster about to take ``_pending_hit`` its cards (Wings, Jets...)."""
        q = self._pending_hit[0]
        offers = self._offers(q, DAMAGE)
        if not offers:
            return False
        legal = (PASS_ACTION, *offers)
        self._decide(q, DAMAGE, (legal, frozenset(legal)))
        return True

    def _resume_damage(self) -> None:
        """Go on after a ``damage`` decision: keep the pending damage unless a card took it."""
        pending = self._pending_hit
        if pending is not None:
            if pending[1] > 0 and self.alive[pending[0]] and self._ask_damage():
                return
            self._pending_hit = None
            if pending[1] > 0:
                self._ready.append(pending)
        self._drain()

    def incoming(self, q: int) -> int:
        """Damage already judged and about to land on ``q`` (while a ``damage`` decision waits)."""
        return sum(entry[1] for entry in self._ready if entry[0] == q)

    def _land(self, q: int, amount: int, source: int, attack: bool) -> None:
        """``q`` loses ``amount`` health (it is eliminated later, with the others at 0)."""
        health = self.health
        health[q] -= amount
        if self.log is not None:
            self.log.append(("damage", q, amount, source))
        if health[q] <= 0:
            health[q] = 0
            self._dropped.append(q)
        if attack:
            self._hit.append(q)
        if source == self.active and q != source:
            self._dealt = True
        if self._slow:
            for card, fn in self._mine[q][HURT]:
                fn(self, q, card, amount)

    def _settle(self) -> None:
        """Eliminate every monster the damage left at 0 health, together."""
        dropped = self._dropped
        if not dropped:
            return
        self._dropped = []
        if self._slow:
            for q in dropped:
                for owner, card, fn in self._hooks[ZERO]:
                    fn(self, owner, card, q)
        for q in dropped:
            if self._slow and any(fn(self, q, card) for card, fn in self._mine[q][RESCUE]):
                continue
            self._eliminate(q)
        self._close_bay()

    def _after_attack(self) -> None:
        p = self.active
        if self.alive_count <= 1:
            self._finish_last_standing()
            return
        hit = self._hit
        # A monster that escaped with Jets was attacked too: it yielded to this attack.
        escaped = self._slow and self._flags and any(flag[0] == "yielded" for flag in self._flags)
        if (hit or escaped) and self._slow:
            for card, fn in self._mine[p][ATTACKED]:
                fn(self, p, card, hit)
        if not (hit or escaped) or p == self.city or p == self.bay:
            self._buy_step()
            return
        self._attacker = p
        self._yielders = [q for q in hit if self.alive[q] and (q == self.city or q == self.bay)]
        self._ask_yield()

    def _after_card_damage(self) -> None:
        if self.alive_count <= 1:
            self._finish_last_standing()
        elif not self.alive[self.active]:
            self._finish_turn()  # a monster eliminated on its own turn takes no further step
        else:
            self._buy_step()

    def _ask_yield(self) -> None:
        """Offer the next damaged monster still in Tokyo the choice to yield."""
        yielders = self._yielders
        while yielders:
            q = yielders.pop(0)
            if q == self.city or q == self.bay:
                self._decide(q, YIELD_TOKYO, _YIELD_LEGAL)
                return
        self._attacker_moves_in()

    def _yield(self, player: int) -> None:
        if self._slow:
            self._give_way(player)
        else:
            self._leave(player, "yield")
        self._ask_yield()

    def _give_way(self, player: int) -> None:
        """``player`` leaves Tokyo to the attacker (a yield, or Jets before the damage)."""
        place = self.place_of(player)
        self._leave(player, "yield")
        if self._slow:
            self._flags = self._flags | {("yielded", place, player)}
            for card, fn in self._mine[player][YIELDED]:
                fn(self, player, card, self.active)

    def _attacker_moves_in(self) -> None:
        """After an attack from outside, the attacker takes an empty place, City first."""
        p = self._attacker
        self._attacker = -1
        place = None
        if self.city < 0:
            place = CITY
        elif self.bay_open and self.bay < 0:
            place = BAY
        if place is not None:
            self._enter(p, place)
            if self._slow:
                for flag in self._flags:
                    if flag[0] == "yielded" and flag[1] == place:
                        owner = flag[2]
                        for card, fn in self._mine[owner][TAKEN]:
                            fn(self, owner, card, p)
        if self._queue:  # a card hurts the monster moving in (Burrowing)
            self._then = _THEN_BUY
            self._drain()
            return
        self._buy_step()

    def _buy_step(self) -> None:
        if self.deck_name is None:
            self._end_turn()
            return
        p = self.active
        if self._slow:
            if self._revealed and self._offer_reveal():
                return
            if self._mine[p][COST] or BUY_CARDS in self._my_offers[p]:
                table = self._card_buy_table()
                if len(table[0]) > 1:
                    self._decide(p, BUY_CARDS, table)
                    return
                self._end_turn()
                return
        table = self._buy_table()
        # Compared by its legal tuple: mypyc passes fixed-length tuples unboxed, so the pair itself is a new object.
        if table[0] is _NOTHING_TO_BUY[0]:
            # Nothing affordable and no sweep: ``done`` would be the only answer, so
            # nobody is asked and the buy step ends as if it had been given.
            self._end_turn()
            return
        self._decide(p, BUY_CARDS, table)

    def _offer_reveal(self) -> bool:
        """Offer each newly revealed card to the other monsters' cards (Opportunist),
        clockwise from the active monster; ``_revealed`` holds ``(slot, seats asked)``."""
        n = self.n
        revealed = self._revealed
        while revealed:
            slot, step = revealed[0]
            while self.market[slot] >= 0 and step < n - 1:
                step += 1
                q = (self.active + step) % n
                if self.alive[q]:
                    offers = self._offers(q, REVEAL)
                    if offers:
                        revealed[0] = (slot, step)
                        legal = (PASS_ACTION, *offers)
                        self._decide(q, REVEAL, (legal, frozenset(legal)))
                        return True
            revealed.pop(0)
        return False

    def _buy_table(self) -> tuple[tuple[Action, ...], frozenset[Action]]:
        energy = self.energy[self.active]
        market = self.market
        info = self.cards_info
        size = len(market)
        index = 0
        shown = False
        for slot in range(size):
            card = market[slot]
            if card >= 0:
                shown = True
                if info[card].cost <= energy:
                    index |= 1 << slot
        if shown and energy >= self.rules.sweep_cost:
            index |= 1 << size
        return _buy_legal(size)[index]

    def _card_buy_table(self) -> tuple[tuple[Action, ...], frozenset[Action]]:
        """The buy decision with cards in play: prices may change, cards add actions."""
        p = self.active
        energy = self.energy[p]
        market = self.market
        legal = [DONE_ACTION]
        shown = False
        for slot in range(len(market)):
            card = market[slot]
            if card >= 0:
                shown = True
                if self.cost(p, card) <= energy:
                    legal.append(BUY_ACTIONS[slot] if slot < 3 else Action.of(BUY, slot + 1))
        if shown and energy >= self.rules.sweep_cost:
            legal.append(SWEEP_ACTION)
        legal.extend(self._offers(p, BUY_CARDS))
        return tuple(legal), frozenset(legal)

    def cost(self, p: int, card: int) -> int:
        """What monster ``p`` pays for ``card`` (its printed cost, less discounts)."""
        cost = self.cards_info[card].cost
        for c, fn in self._mine[p][COST]:
            cost = fn(self, p, c, cost)
        return max(0, cost)

    def _restore_decision(self) -> None:
        """Recompute the legal list of the pending decision from ``kind`` and the table."""
        if self.kind == ROLL:
            table = _reroll_legal(len(self.dice))
        elif self.kind == YIELD_TOKYO:
            table = _YIELD_LEGAL
        elif self.kind == BUY_CARDS:
            table = self._card_buy_table() if self._slow else self._buy_table()
        elif self.kind == DICE_CARDS:
            legal = (PASS_ACTION, *self._offers(self.to_move, DICE_CARDS))
            table = (legal, frozenset(legal))
        elif self.kind == HEARTS:
            table = self._hearts_table(self.to_move)
        elif self.kind in (END_CARDS, DAMAGE, PROBE, REVEAL, START_CARDS):
            legal = (PASS_ACTION, *self._offers(self.to_move, self.kind))
            table = (legal, frozenset(legal))
        else:
            table = _NO_LEGAL
        self._decide(self.to_move, self.kind, table)

    def _buy(self, slot: int) -> None:
        p = self.active
        card = self.market[slot]
        info = self.cards_info[card]
        slow = self._slow
        cost = self.cost(p, card) if slow else info.cost
        self.energy[p] -= cost
        if self.log is not None:
            self.log.append(("buy", p, info.id, slot + 1, cost))
        # The gap is refilled before the card is kept or discarded, so a discard card
        # bought with the deck empty is not shuffled straight back into the market.
        self._reveal(slot)
        self._gain_card(p, card)
        if self._queue:
            self._then = _THEN_BUY
            self._drain()
            return
        self._buy_step()

    def _gain_card(self, p: int, card: int) -> None:
        """``p`` has just bought ``card`` (from anywhere): keep it or play it."""
        info = self.cards_info[card]
        self._batch += 1
        if self._slow:
            for c, fn in self._mine[p][BOUGHT]:
                fn(self, p, c, info)
        effect = self._effects[card]
        if info.type == KEEP:
            self._card_kept(p, card)
            effect.gained(self, p, card)
        else:
            self.discard.append(card)
            self._card_ids = None
        effect.on_buy(self, p, card)

    def _sweep(self) -> None:
        p = self.active
        self.energy[p] -= self.rules.sweep_cost
        if self.log is not None:
            self.log.append(("sweep", p))
        size = len(self.market)
        for slot in range(size):
            if self.market[slot] >= 0:
                self.discard.append(self.market[slot])
                self._card_ids = None
                self.market[slot] = -1
        for slot in range(size):
            self._reveal(slot)
        self._buy_step()

    def _reveal(self, slot: int) -> None:
        """Fill a market slot from the deck; an empty deck is the shuffled discard pile."""
        if not self.deck and self.discard:
            self.deck = self.discard
            self.discard = []
            self._card_ids = None
            self._reshuffles += 1
            stream = _random_module.Random(self.seed * 1_000_003 + self._reshuffles if self.seed else self._reshuffles)
            shuffle(self.deck, stream.random)
            if self.log is not None:
                self.log.append(("reshuffle", len(self.deck)))
        card = self.deck.pop() if self.deck else -1
        self.market[slot] = card
        self._card_ids = None
        if card >= 0 and self._hooks[REVEALED]:
            self._revealed.append((slot, 0))
        if card >= 0 and self.log is not None:
            self.log.append(("reveal", slot + 1, self.cards_info[card].id))

    def _end_turn(self) -> None:
        """The buy step is over: end-of-turn choices and cards, poison, then the next turn."""
        if self._slow:
            p = self.active
            offers = self._offers(p, END_CARDS)
            if offers:
                legal = (PASS_ACTION, *offers)
                self._decide(p, END_CARDS, (legal, frozenset(legal)))
                return
            self._end_turn_effects()
            return
        self._finish_turn()

    def _end_turn_effects(self) -> None:
        if self._slow:
            p = self.active
            for card, fn in self._mine[p][END_TURN]:
                fn(self, p, card)
            if self.poison[p] and self.alive[p]:
                self._batch += 1
                self._queue.append((p, self.poison[p], -1, False))
                self._then = _THEN_END
                self._drain()
                return
        self._finish_turn()

    def _finish_turn(self) -> None:
        if self.alive_count <= 1:
            # Eliminations outside the claws step (cards that hurt during the buy step,
            # the active monster included) end the game here at the latest.
            self._finish_last_standing()
            return
        alive = self.alive
        stars = self.stars
        n = self.n
        p = self.active
        goal = self.rules.stars_to_win
        if max(stars) >= goal:
            best = -1
            for step in range(n):
                q = (p + step) % n
                if alive[q] and stars[q] >= goal and stars[q] > (stars[best] if best >= 0 else -1):
                    best = q
            if best >= 0:
                self._finish(best, Termination.STARS)
                return
        if self._extra_turns and alive[p]:
            # Frenzy: the same monster plays again (stars and wins were checked first).
            self._extra_turns -= 1
            if self.log is not None:
                self.log.append(("extra turn", p))
            q = p
        else:
            self._extra_turns = 0
            q = (p + 1) % n
            while not alive[q]:
                q = (q + 1) % n
        self.active = q
        if self.pause_between_turns:
            self.between_turns = True
            self._decide(-1, None, _NO_LEGAL)
            return
        self._start_turn()

    # --------------------------------------------------------- card decisions

    def _offers(self, p: int, kind: str) -> tuple[Action, ...]:
        """The card actions ``p``'s cards offer at a decision of ``kind``."""
        hooks = self._my_offers[p].get(kind)
        if hooks is None:
            return ()
        offers: tuple[Action, ...] = ()
        for card, fn in hooks:
            offers += fn(self, p, card, kind)
        return offers

    def owned_card(self, p: int, card_id: str) -> int:
        """The index of the card ``card_id`` that ``p`` owns (-1 if none)."""
        info = self.cards_info
        for card in self.owned[p]:
            if info[card].id == card_id:
                return card
        return -1

    def mimic_card(self) -> int:
        """The Mimic card in play while its token is on a card (-1 otherwise)."""
        if self.mimic < 0:
            return -1
        effects = self._effects
        for cards in self.owned:
            for card in cards:
                if effects[card].copies_cards:
                    return card
        return -1

    def _user(self, p: int, card_id: str):
        """The card of ``p`` that acts as ``card_id`` (a Mimic copying it, if ``p`` has no such card)."""
        card = self.owned_card(p, card_id)
        if card >= 0:
            return card, self._effects[card]
        mimic = self.mimic_card()
        return mimic, self._effects[self.mimic]

    def _card_choice(self, player: int, action: Action) -> None:
        """Carry out ``pass``, ``use ...`` or ``cure ...`` and go on from the decision."""
        kind = self.kind
        if action.kind == CURE:
            self._cure(player, *action.args)
            return
        if kind == PROBE or kind == REVEAL:
            if action is PASS_ACTION:
                for card, fn in self._my_offers[player].get(kind, ()):
                    fn.__self__.declined(self, player, card, kind)
            else:
                self._batch += 1
                card, effect = self._user(player, action.args[0])
                effect.use(self, player, card, action)
            if kind == PROBE:
                self._resolve()
            elif self._queue:
                self._then = _THEN_BUY
                self._drain()
            else:
                self._buy_step()
            return
        if kind == DAMAGE:
            if action is not PASS_ACTION:
                card, effect = self._user(player, action.args[0])
                effect.use(self, player, card, action)
                self._resume_damage()
            else:
                self._ready.append(self._pending_hit)
                self._pending_hit = None
                self._drain()
            return
        if kind == START_CARDS:
            if action is not PASS_ACTION:
                card, effect = self._user(player, action.args[0])
                effect.use(self, player, card, action)
            self._first_roll()
            return
        if action is not PASS_ACTION:
            self._batch += 1
            card, effect = self._user(player, action.args[0])
            effect.use(self, player, card, action)
            if self.outcome is not None or self.kind != kind or self.to_move != player:
                return  # the card led to another decision (a reroll) or ended the game
            if self._queue:
                self._then = _THEN_BUY if kind == BUY_CARDS else _THEN_NOTHING
                self._drain()
                if kind == BUY_CARDS:
                    return
        if kind == DICE_CARDS:
            if action is PASS_ACTION:
                self._resolve_dice()
            else:
                self._resolve()
        elif kind == HEARTS:
            if action is PASS_ACTION or not self._hearts_left:
                self._end_hearts(player)
            else:
                table = self._hearts_table(player)
                if len(table[0]) > 1:
                    self._decide(player, HEARTS, table)
                else:
                    self._end_hearts(player)
        elif kind == BUY_CARDS:
            self._buy_step()
        elif kind == END_CARDS:
            if action is PASS_ACTION:
                self._end_turn_effects()
            else:
                self._end_turn()

    # --------------------------------------------------------- effects

    def _gain_stars(self, p: int, amount: int, reason: str) -> None:
        self.stars[p] += amount
        if self.log is not None:
            self.log.append(("stars", p, amount, reason))

    def _lose_stars(self, p: int, amount: int, reason: str) -> None:
        amount = min(amount, self.stars[p])
        if amount > 0:
            self.stars[p] -= amount
            if self.log is not None:
                self.log.append(("lose stars", p, amount, reason))

    def _gain_energy(self, p: int, amount: int) -> None:
        if self._slow:
            for card, fn in self._mine[p][ENERGY_BONUS]:
                amount += fn(self, p, card, amount)
        self.energy[p] += amount
        if self.log is not None:
            self.log.append(("energy", p, amount))

    def _lose_energy(self, p: int, amount: int, reason: str) -> None:
        amount = min(amount, self.energy[p])
        if amount > 0:
            self.energy[p] -= amount
            if self.log is not None:
                self.log.append(("lose energy", p, amount, reason))

    def _heal(self, p: int, amount: int) -> None:
        if amount > 0 and self._slow:
            for card, fn in self._mine[p][HEAL_BONUS]:
                amount += fn(self, p, card, amount)
        gained = min(amount, self.max_health[p] - self.health[p])
        if gained > 0:
            self.health[p] += gained
            if self.log is not None:
                self.log.append(("heal", p, gained))

    def _add_tokens(self, q: int, kind: str, count: int) -> None:
        """Give ``q`` poison or shrink tokens (they outlive the card that gave them)."""
        tokens = self.poison if kind == "poison" else self.shrink
        tokens[q] += count
        self._slow = True
        if self.log is not None:
            self.log.append(("tokens", q, kind, tokens[q]))

    def _damage(self, q: int, amount: int, source: int) -> int:
        """Deal card damage to ``q`` now, eliminating it at 0; returns the damage dealt.

        Inside the engine damage goes through the queue (``_queue_damage``); this is
        the one-shot form for effects applied outside a turn step.
        """
        before = self.health[q]
        self._queue_damage(q, amount, source)
        then, self._then = self._then, _THEN_NOTHING
        self._drain()
        self._then = then
        return before - self.health[q]

    def _eliminate(self, q: int) -> None:
        """Take ``q`` out of the game (the caller closes the Bay if needed)."""
        self.alive[q] = False
        self.alive_count -= 1
        self.eliminated_at[q] = (self.turn, self._batch)
        if self.log is not None:
            self.log.append(("eliminated", q))
        if q == self.city or q == self.bay:
            self._leave(q, "eliminated")
        self.poison[q] = self.shrink[q] = 0
        if self.owned[q]:
            self._discard_all(q)

    def _discard_all(self, q: int) -> None:
        cards = self.owned[q]
        self.owned[q] = []
        self.discard.extend(cards)
        for card in cards:
            self.counters.pop(card, None)
            self._effects[card].lost(self, q, card)
        self._cards_changed()

    def _discard_owned(self, q: int, card: int) -> None:
        """``q``'s keep card ``card`` goes to the discard pile (used up, sold...)."""
        self.owned[q].remove(card)
        self.discard.append(card)
        self.counters.pop(card, None)
        if self.log is not None:
            self.log.append(("discard", q, self.cards_info[card].id))
        self._effects[card].lost(self, q, card)
        self._cards_changed()

    def _close_bay(self) -> None:
        if self.bay_open and self.alive_count < self.rules.bay_min_players:
            self.bay_open = False
            if self.log is not None:
                self.log.append(("bay closed",))
            if self.bay >= 0:
                self._leave(self.bay, "bay closed")

    def _cards_changed(self) -> None:
        """Owned cards changed: forget cached ids and rebuild the per-moment hooks."""
        self._card_ids = None
        effects = self._effects
        acting = []  # (owner, card, effect) of every card with hooks, in seat order
        for p, cards in enumerate(self.owned):
            for card in cards:
                effect = effects[card]
                if effect.moment_ids:
                    acting.append((p, card, effect))
        if self.mimic >= 0:
            copy = self._mimic_copy()
            if copy is not None:
                acting.append(copy)
        n = self.n
        if not acting:
            self._hooks = _NO_HOOKS
            self._offer_hooks = _NO_OFFERS
            self._mine = (_NO_HOOKS,) * n
            self._my_offers = (_NO_OFFERS,) * n
        else:
            every = list(_NO_HOOKS)
            # The same hooks by owner: most moments ask only one monster's cards.
            mine: list = [_NO_HOOKS] * n
            offer_hooks: dict = {}
            my_offers: list = [_NO_OFFERS] * n
            for owner, card, effect in acting:
                slots = mine[owner]
                if slots is _NO_HOOKS:
                    slots = mine[owner] = list(_NO_HOOKS)
                for moment, fn in effect.bound_hooks:
                    every[moment] += ((owner, card, fn),)
                    slots[moment] += ((card, fn),)
                    if moment == OFFERS:
                        offers = my_offers[owner]
                        if offers is _NO_OFFERS:
                            offers = my_offers[owner] = {}
                        for kind in effect.offer_kinds:
                            offer_hooks[kind] = (*offer_hooks.get(kind, ()), (owner, card, fn))
                            offers[kind] = (*offers.get(kind, ()), (card, fn))
            self._hooks = tuple(every)
            self._mine = tuple([slots if slots is _NO_HOOKS else tuple(slots) for slots in mine])
            self._offer_hooks = offer_hooks or _NO_OFFERS
            self._my_offers = tuple(my_offers)
        self._set_slow(bool(acting))

    def _set_slow(self, cards_act: bool) -> None:
        """Whether turns take the card path: some card has hooks or a token is out."""
        self._slow = cards_act or any(self.poison) or any(self.shrink)
        if not self._slow:
            # Turn flags are reset only on turns where cards act: drop them here.
            self._flags = _NO_FLAGS
            self._revealed = []

    def _card_kept(self, p: int, card: int) -> None:
        """``p`` keeps ``card`` as its newest card: the tables :meth:`_cards_changed`
        would build, with the card's hooks added instead of everything rebuilt.

        Cards are kept many times a game, and a rebuild goes over every card in play.
        In the rebuilt tables the new card's hooks come after its owner's other
        cards and before the next seats' cards; with a Mimic token in play the copied
        card's hooks are always last, so then the tables are rebuilt.
        """
        self.owned[p].append(card)
        effect = self._effects[card]
        if self.mimic >= 0:
            self._cards_changed()
            return
        self._card_ids = None
        if not effect.moment_ids:
            self._set_slow(self._hooks is not _NO_HOOKS)
            return
        every = list(self._hooks)
        slots = list(self._mine[p])
        offer_hooks: dict[str, tuple[Any, ...]] = {}
        offers: dict[str, tuple[Any, ...]] | None = None
        for moment, fn in effect.bound_hooks:
            every[moment] = _after_seat(every[moment], p, (p, card, fn))
            slots[moment] += ((card, fn),)
            if moment == OFFERS:
                if offers is None:  # the tables are shared with clones: never changed in place
                    offer_hooks, offers = dict(self._offer_hooks), dict(self._my_offers[p])
                for kind in effect.offer_kinds:
                    offer_hooks[kind] = _after_seat(offer_hooks.get(kind, ()), p, (p, card, fn))
                    offers[kind] = (*offers.get(kind, ()), (card, fn))
        self._hooks = tuple(every)
        self._mine = (*self._mine[:p], tuple(slots), *self._mine[p + 1:])
        if offers is not None:
            self._offer_hooks = offer_hooks
            self._my_offers = (*self._my_offers[:p], offers, *self._my_offers[p + 1:])
        self._slow = True

    def _mimic_copy(self) -> tuple | None:
        """``(owner, mimic card, copied effect)``: the copied card's hooks act for the
        Mimic's owner, as the Mimic card.

        If the copied card has left play, the token comes back first (``None``).
        """
        target = self.mimic
        mimic = self.mimic_card()
        holder = next((p for p, cards in enumerate(self.owned) if target in cards), -1)
        if mimic < 0 or holder < 0:
            self.mimic = -1
            if mimic >= 0:
                owner = next(p for p, cards in enumerate(self.owned) if mimic in cards)
                self._effects[target].lost(self, owner, mimic)
                self.counters.pop(mimic, None)
                if self.log is not None:
                    self.log.append(("mimic", owner, None))
            return None
        owner = next(p for p, cards in enumerate(self.owned) if mimic in cards)
        effect = self._effects[target]
        return (owner, mimic, effect) if effect.moment_ids else None

    def _roll_card_dice(self, count: int) -> list[int]:
        """Dice a card rolls (Camouflage): scripted, or from their own stream per roll."""
        if self._script is not None:
            return self._script.roll(count)
        self._card_rolls += 1
        stream = _random_module.Random((self.seed or 0) * 7_000_003 + self._card_rolls)
        return [int(stream.random() * 6) for _ in range(count)]

    def _enter(self, p: int, place: str) -> None:
        if place == CITY:
            self.city = p
        else:
            self.bay = p
        if self.log is not None:
            self.log.append(("enter", p, place))
        rules = self.rules
        if rules.take_tokyo_stars:
            self._gain_stars(p, rules.take_tokyo_stars, "take tokyo")
        if rules.take_tokyo_energy:
            self._gain_energy(p, rules.take_tokyo_energy)

    def _leave(self, p: int, reason: str) -> None:
        if p == self.city:
            self.city = -1
            place = CITY
        else:
            self.bay = -1
            place = BAY
        if self.log is not None:
            self.log.append(("leave", p, place, reason))

    # --------------------------------------------------------- game end

    def _finish_last_standing(self) -> None:
        if self.alive_count == 1:
            self._finish(self.alive.index(True), Termination.LAST_STANDING)
        else:
            self._finish(None, Termination.ALL_ELIMINATED)

    def _finish(self, winner: int | None, termination: Termination) -> None:
        self.outcome = Outcome(winner, termination, self._ranks(winner), self.turn)
        self._decide(-1, None, _NO_LEGAL)
        if self.log is not None:
            self.log.append(("over", winner, termination.value))

    def _ranks(self, winner: int | None) -> tuple[int, ...]:
        # Sort keys: winner first, then survivors by stars, then the eliminated,
        # later eliminations first. Equal keys are ties.
        def key(p: int) -> tuple:
            if p == winner:
                return (0,)
            if self.alive[p]:
                return (1, -self.stars[p])
            turn, batch = self.eliminated_at[p]
            return (2, -turn, -batch)

        keys = [key(p) for p in range(self.n)]
        # Competition ranking ("1224"): a place counts the players strictly ahead.
        return tuple(sum(1 for k in keys if k < mine) for mine in keys)

    # --------------------------------------------------------- copies

    def clone(self, *, record: bool = False) -> State:
        """A deep, independent copy, cheap enough for search (by default without the
        event log and the action history; ``record=True`` copies both).

        The copy draws its dice from a copy of this game's random generator, so it
        rolls exactly what this game would roll. Use :meth:`reseed` on a copy to make
        its future differ.

        The copy is :meth:`__init__` given this state: the declaration of each field
        says how it is copied.
        """
        return State(source=self, rng=_copy_random(self._rng), record=record)

    def reseed(self, seed: int) -> None:
        """Draw future dice and shuffles from a new seed (and drop scripted dice)."""
        self._rng = _random_module.Random(seed)
        self._random = self._rng.random
        self._script = None
        self.seed = seed
        # The rest of this turn's dice are redrawn too: a reseeded copy must not
        # know what the original will roll.
        if self._turn_dice:
            roll_no = self._roll_no
            self._draw_turn_dice()
            self._roll_no = roll_no

    def child(self, action: Action | str) -> State:
        """A copy with ``action`` applied; this state is unchanged."""
        copy = self.clone()
        copy.apply(action)
        return copy


def _after_seat(hooks: tuple, p: int, entry: tuple) -> tuple:
    """``hooks`` (``(owner, card, fn)`` in seat order) with ``entry`` after seat ``p``'s."""
    for at, hook in enumerate(hooks):
        if hook[0] > p:
            return (*hooks[:at], entry, *hooks[at:])
    return (*hooks, entry)


def _field_names() -> tuple[str, ...]:
    """Every field of a state, in the order :meth:`State.__init__` declares them."""
    compiled = getattr(State, "__mypyc_attrs__", None)  # the compiled class keeps no annotations
    return tuple(compiled) if compiled is not None else tuple(vars(State(rng=_random_module.Random(0))))


#: Every field of a state, in the order :meth:`State.__init__` declares them.
FIELDS: Final = _field_names()


def _copy_random(rng: _random_module.Random) -> _random_module.Random:
    """A generator in the same state as ``rng``.

    Made without ``Random()``'s own seeding from the operating system (a fixed seed
    costs less), since ``setstate`` replaces it at once.
    """
    copy: _random_module.Random = cast(Any, _random_module.Random).__new__(_random_module.Random, 0)
    copy.setstate(rng.getstate())
    return copy
