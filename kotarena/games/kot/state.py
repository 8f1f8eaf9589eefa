"""The state of a King of Tokyo game: its fields, declared once, and what the rest of
kotarena and the cards may ask of it.

A :class:`State` holds the whole table. It always either waits for one player's
decision (``to_move``, ``kind``, ``legal``) or is over (``outcome``). ``apply(action)``
checks the action against the legal list, carries it out and runs the game forward to
the next decision, so between two calls the state is always at a decision point.

The turn is played by the step modules of this package (``roll``, ``resolve``,
``damage``, ``tokyo``, ``market``, ``end``, ``choices``, ``hooks``): functions of the
state, whose private fields (``_queue``, ``_hooks``...) belong to them. Card effects
use the public methods below, the effect API (``docs/games.md``), so that other cards
see every change and damage goes through the damage queue.

Why it looks like this: :meth:`State.__init__` declares every field once, with its
starting value and what a copy takes (:meth:`State.clone` and the sampled copy follow
from it); per-player facts live in parallel lists indexed by seat, so a copy is a
handful of list copies and the hot path touches no per-monster objects; legal action
lists are tables shared by every game (:mod:`~kotarena.games.kot.tables`); chance comes
from a seeded ``random.Random`` (only ``random()``, the same on every platform) or from
:class:`~kotarena.engine.dice.ScriptedDice` (:mod:`~kotarena.games.kot.roll`); the
numbers and the named steps are the game's rules (``state.rules``); the event log is a
list of small tuples, put in words only when read (:mod:`~kotarena.games.kot.events`).
"""

from __future__ import annotations

import random as _random_module
from collections.abc import Callable
from typing import Any, Final, cast

from kotarena.engine.actions import Action
from kotarena.engine.decisions import Decision
from kotarena.engine.dice import ScriptedDice
from kotarena.engine.outcome import GameOverError, IllegalActionError, Outcome, PositionError
from kotarena.games.kot import choices, damage, end, hooks, market, roll, tokyo
from kotarena.games.kot.cards.info import CardInfo
from kotarena.games.kot.cards.moments import COST, ENERGY_BONUS, ENTERED, HEAL_BONUS, MOMENTS
from kotarena.games.kot.faces import FACE_NAMES
from kotarena.games.kot.hooks import NO_FLAGS, NO_HOOKS, NO_OFFERS
from kotarena.games.kot.kinds import BAY, CITY, THEN_NOTHING
from kotarena.games.kot.rules import CLASSIC, Rules
from kotarena.games.kot.tables import Table
from kotarena.games.kot.view import View, build_view
from kotarena.games.vocabulary import BUY, REROLL, STAY, STOP, SWEEP, YIELD, read_action


class State:
    """The whole table of one King of Tokyo game (see the module docstring); a new
    field needs only its line in :meth:`__init__`."""

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
        deck (the physical ``cards`` of ``deck`` and their ``effects``) in table order,
        the market empty (the game's ``blank`` deals, :meth:`begin` starts). With
        ``source``, a copy of it (:meth:`clone`): its generator is ``rng``, and its log
        and history are copied with ``record``.

        Every field is declared here, once, with its type, its starting value and, after
        ``if c is None else``, what a copy takes: a list is copied (a list of lists list
        by list), a dict too, anything else (tuples, numbers, strings) is shared.
        ``tests/engine/test_state_fields.py`` checks every field against both copies.
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
        self._hooks: tuple[tuple[Any, ...], ...] = NO_HOOKS if c is None else c._hooks
        self._offer_hooks: dict[str, tuple[Any, ...]] = NO_OFFERS if c is None else dict(c._offer_hooks)
        self._mine: tuple[tuple[tuple[Any, ...], ...], ...] = (NO_HOOKS,) * n if c is None else c._mine
        self._my_offers: tuple[dict[str, tuple[Any, ...]], ...] = (NO_OFFERS,) * n if c is None else c._my_offers
        #: Whether turns take the card path (some card acts, or a token is out).
        self._slow: bool = False if c is None else c._slow
        # The damage queue: entries still to judge, judged ones about to land, the one
        # a ``damage`` decision waits on, monsters at 0 health not yet eliminated, and
        # the step that follows once it is empty.
        self._queue: list[tuple[int, int, int, bool]] = [] if c is None else c._queue[:]
        self._ready: list[tuple[int, int, int, bool]] = [] if c is None else c._ready[:]
        self._pending_hit: Any = None if c is None else c._pending_hit
        self._dropped: list[int] = [] if c is None else c._dropped[:]
        self._then: int = THEN_NOTHING if c is None else c._then
        # Turn facts cards read: extra turns to come, once-a-turn flags, whether the
        # active monster has hurt another, revealed cards still offered, hearts to spend.
        self._extra_turns: int = 0 if c is None else c._extra_turns
        self._flags: frozenset[tuple[Any, ...]] = NO_FLAGS if c is None else c._flags
        self._dealt: bool = False if c is None else c._dealt
        self._revealed: list[tuple[int, int]] = [] if c is None else c._revealed[:]
        self._hearts_left: int = 0 if c is None else c._hearts_left

    # ------------------------------------------------------------------ setup

    def roll_off(self) -> int:
        """Who takes the first turn (``Rules.steps.roll_off``: the classic roll-off,
        most claws starts and ties roll again among themselves)."""
        return self.rules.steps.roll_off(self)

    def begin(self, first: int) -> None:
        """Start the first turn with monster ``first``."""
        if not (0 <= first < self.n and self.alive[first]):
            raise PositionError(f"monster #{first} cannot take the first turn")
        self.active = first
        self.rules.steps.start_turn(self)

    # ----------------------------------------------------------- the game seam

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def decision(self) -> Decision | None:
        """The pending :class:`~kotarena.engine.decisions.Decision`, or ``None``."""
        if self.to_move < 0:
            return None
        return Decision(self.to_move, cast(str, self.kind), self.legal)

    def apply(self, action: Action | str) -> None:
        """Carry out the deciding player's action and run on to the next decision.

        Raises :class:`IllegalActionError` if the action is not legal now; the state is
        then unchanged.
        """
        if action.__class__ is not Action:
            action = read_action(cast(str, action))
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
            roll.reroll(self, action.args)
        elif kind == "done":
            if self._slow:
                end.end_turn(self)
            else:
                end.finish_turn(self)
        elif kind == STAY:
            tokyo.stay(self, player)
        elif kind == YIELD:
            tokyo.yield_tokyo(self, player)
        elif kind == STOP:
            roll.resolve(self)
        elif kind == BUY:
            market.buy(self, action.args[0] - 1)
        elif kind == SWEEP:
            market.sweep(self)
        else:  # pass, use, cure: a card decision
            choices.card_choice(self, player, action)

    def next_turn(self) -> None:
        """Start the next turn of a game paused between turns (see ``pause_between_turns``)."""
        if not self.between_turns:
            raise IllegalActionError("the game is not paused between turns")
        self.between_turns = False
        self.rules.steps.start_turn(self)

    def view(self, player: int) -> View:
        """What seat ``player`` may see now (see :mod:`kotarena.games.kot.view`)."""
        return build_view(self, player)

    def clone(self, *, record: bool = False) -> State:
        """A deep, independent copy, cheap enough for search (by default without the
        event log and the action history; ``record=True`` copies both).

        The copy draws its dice from a copy of this game's random generator, so it
        rolls exactly what this game would roll. Use :meth:`reseed` on a copy to make
        its future differ. The copy is :meth:`__init__` given this state: the
        declaration of each field says how it is copied.
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
            roll.draw_turn_dice(self)
            self._roll_no = roll_no

    def child(self, action: Action | str) -> State:
        """A copy with ``action`` applied; this state is unchanged."""
        copy = self.clone()
        copy.apply(action)
        return copy

    def _decide(self, player: int, kind: str | None, table: Table) -> None:
        """Wait on ``player``'s decision of ``kind`` (the step modules ask through this)."""
        self.to_move = player
        self.kind = kind
        self.legal, self._legal_set = table

    # ----------------------------------------------------------- questions

    def in_tokyo(self, player: int) -> bool:
        """Whether ``player`` is in Tokyo (City or Bay)."""
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

    def effect_of(self, card: int) -> Any:
        """The :class:`~kotarena.games.kot.cards.effects.Effect` of a physical card."""
        return self._effects[card]

    def cost(self, p: int, card: int) -> int:
        """What monster ``p`` pays for ``card`` (its printed cost, less discounts)."""
        cost = self.cards_info[card].cost
        for c, fn in self._mine[p][COST]:
            cost = fn(self, p, c, cost)
        return max(0, cost)

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

    @property
    def cards_act(self) -> bool:
        """Whether turns take the card path: some card in play acts at some moment, or a
        poison or shrink token is out (otherwise no card is asked anything)."""
        return self._slow

    def acting(self, moment: str) -> tuple[int, ...]:
        """The physical cards in play that act at ``moment`` (a name of
        :data:`~kotarena.games.kot.cards.moments.MOMENTS`), in seat order."""
        return tuple(card for _, card, _ in self._hooks[MOMENTS.index(moment)])

    @property
    def pending_damage(self) -> tuple[int, int, int, bool] | None:
        """During a ``damage`` decision, the damage about to land: ``(target, amount, source, attack)``."""
        return self._pending_hit

    def incoming(self, q: int) -> int:
        """Damage already judged and about to land on ``q`` (while a ``damage`` decision waits)."""
        return sum(entry[1] for entry in self._ready if entry[0] == q)

    @property
    def dealt(self) -> bool:
        """Whether the active monster has made another monster lose health this turn."""
        return self._dealt

    @property
    def hearts_left(self) -> int:
        """During a ``hearts`` decision, the heart results still to spend."""
        return self._hearts_left

    @property
    def revealed_slot(self) -> int:
        """During a ``reveal`` decision, the market slot (from 0) of the card on offer."""
        return self._revealed[0][0]

    def has_flag(self, key: tuple) -> bool:
        """Whether this turn's flag ``key`` is set (once-a-turn card facts, such as
        ``("used", card)``; flags are cleared when a turn where cards act starts)."""
        return key in self._flags

    # ------------------------------------------- the effect API: what cards change

    def log_event(self, event: tuple) -> None:
        """Add ``event`` to the event log, if the game keeps one."""
        if self.log is not None:
            self.log.append(event)

    def set_flag(self, key: tuple) -> None:
        """Set this turn's flag ``key`` (see :meth:`has_flag`)."""
        self._flags = self._flags | {key}

    def clear_flag(self, key: tuple) -> None:
        """Clear this turn's flag ``key``."""
        self._flags = self._flags - {key}

    def gain_stars(self, p: int, amount: int, reason: str) -> None:
        """``p`` gains stars (``reason`` is logged: a card id, ``"dice"``...)."""
        self.stars[p] += amount
        if self.log is not None:
            self.log.append(("stars", p, amount, reason))

    def lose_stars(self, p: int, amount: int, reason: str) -> None:
        """``p`` loses stars, never below 0."""
        self._lose(self.stars, "lose stars", p, amount, reason)

    def gain_energy(self, p: int, amount: int) -> None:
        """``p`` gains energy (its cards may add some: Friend of Children)."""
        if self._slow:
            for card, fn in self._mine[p][ENERGY_BONUS]:
                amount += fn(self, p, card, amount)
        self.energy[p] += amount
        if self.log is not None:
            self.log.append(("energy", p, amount))

    def lose_energy(self, p: int, amount: int, reason: str) -> None:
        """``p`` loses energy, never below 0."""
        self._lose(self.energy, "lose energy", p, amount, reason)

    def _lose(self, track: list[int], event: str, p: int, amount: int, reason: str) -> None:
        amount = min(amount, track[p])
        if amount > 0:
            track[p] -= amount
            if self.log is not None:
                self.log.append((event, p, amount, reason))

    def pay(self, p: int, amount: int) -> None:
        """``p`` spends energy on a card's ability: not a loss (nothing reacts, nothing
        is logged; the action that paid is)."""
        self.energy[p] -= amount

    def receive(self, p: int, amount: int) -> None:
        """``p`` takes energy that is not gained (a sale, energy stored on a card, a
        payment from another monster): no card adds to it, nothing is logged."""
        self.energy[p] += amount

    def heal(self, p: int, amount: int) -> None:
        """``p`` heals, never above its maximum health (its cards may add: Regeneration)."""
        if amount > 0 and self._slow:
            for card, fn in self._mine[p][HEAL_BONUS]:
                amount += fn(self, p, card, amount)
        gained = min(amount, self.max_health[p] - self.health[p])
        if gained > 0:
            self.health[p] += gained
            if self.log is not None:
                self.log.append(("heal", p, gained))

    def add_max_health(self, p: int, amount: int) -> None:
        """``p``'s maximum health changes by ``amount``; health above it is lost."""
        self.max_health[p] += amount
        self.health[p] = min(self.health[p], self.max_health[p])
        if self.log is not None:
            self.log.append(("max health", p, self.max_health[p]))

    def lose_health(self, p: int, amount: int, reason: str) -> None:
        """``p`` loses health that is not damage (nothing guards it); at 0 it is eliminated (see damage.lose_health)."""
        damage.lose_health(self, p, amount, reason)

    def add_tokens(self, q: int, kind: str, count: int) -> None:
        """Give ``q`` poison or shrink tokens (they outlive the card that gave them)."""
        tokens = self.poison if kind == "poison" else self.shrink
        tokens[q] += count
        self._slow = True
        if self.log is not None:
            self.log.append(("tokens", q, kind, tokens[q]))

    def queue_damage(self, target: int, amount: int, source: int) -> None:
        """Queue card damage (not an attack) for ``target``; the turn applies it next, through the cards that guard it."""
        if amount > 0:
            self._queue.append((target, amount, source, False))

    def damage(self, q: int, amount: int, source: int) -> int:
        """Deal card damage to ``q`` now, eliminating it at 0; returns the damage dealt
        (the one-shot form of :meth:`queue_damage`, for effects outside a turn step)."""
        return damage.damage_now(self, q, amount, source)

    def cancel_pending_damage(self, amount: int = -1) -> int:
        """During a ``damage`` decision, ``amount`` of the damage about to land (default: all) is prevented."""
        return damage.cancel_pending(self, amount)

    def take_tokyo(self, p: int, place: str) -> None:
        """``p`` takes ``place`` (``"city"`` or ``"bay"``), with what taking Tokyo gives."""
        if place == CITY:
            self.city = p
        else:
            self.bay = p
        if self.log is not None:
            self.log.append(("enter", p, place))
        rules = self.rules
        if rules.take_tokyo_stars:
            self.gain_stars(p, rules.take_tokyo_stars, "take tokyo")
        if rules.take_tokyo_energy:
            self.gain_energy(p, rules.take_tokyo_energy)
        if self._slow:
            for card, fn in self._mine[p][ENTERED]:
                fn(self, p, card)

    def leave_tokyo(self, p: int, reason: str) -> None:
        """``p`` leaves its place in Tokyo (``reason`` is logged)."""
        if p == self.city:
            self.city = -1
            place = CITY
        else:
            self.bay = -1
            place = BAY
        if self.log is not None:
            self.log.append(("leave", p, place, reason))

    def give_way(self, p: int) -> None:
        """``p`` leaves Tokyo to the attacker, as a yield does (Jets, before the damage)."""
        tokyo.give_way(self, p)

    def gain_card(self, p: int, card: int) -> None:
        """``p`` has just bought ``card`` from anywhere (paid by the caller): it keeps
        it, or plays it and discards it."""
        market.gain_card(self, p, card)

    def discard_card(self, q: int, card: int) -> None:
        """``q``'s keep card goes to the discard pile (used up, sold...)."""
        self.owned[q].remove(card)
        self.discard.append(card)
        self.counters.pop(card, None)
        if self.log is not None:
            self.log.append(("discard", q, self.cards_info[card].id))
        self._effects[card].lost(self, q, card)
        hooks.cards_changed(self)

    def remove_card(self, q: int, card: int) -> None:
        """``q``'s keep card leaves its play to go elsewhere (taken by another monster,
        who then gains it: :meth:`gain_card`)."""
        self.owned[q].remove(card)
        self._effects[card].lost(self, q, card)
        hooks.cards_changed(self)

    def cards_changed(self) -> None:
        """Cards in play changed in a way only a card knows (the mimic token moved):
        the per-moment tables are rebuilt."""
        hooks.cards_changed(self)

    def reveal(self, slot: int) -> None:
        """Fill market ``slot`` (from 0) from the deck; an empty deck is the shuffled
        discard pile."""
        market.reveal(self, slot)

    def bought_revealed(self, slot: int) -> None:
        """During a ``reveal`` decision, the card on offer in ``slot`` was bought (paid
        by the caller): it is no longer offered and the slot is refilled."""
        self._revealed.pop(0)
        market.reveal(self, slot)

    def spend_heart(self) -> None:
        """During a ``hearts`` decision, one heart result is spent on a card."""
        self._hearts_left -= 1

    def set_die(self, p: int, position: int, face: int, why: str) -> None:
        """Die ``position`` (from 1) of the roll now shows ``face``; ``p`` changed it."""
        self.dice[position - 1] = face
        if self.log is not None:
            self.log.append(("change die", p, position, FACE_NAMES[face], why))

    def reroll_die(self, position: int) -> int:
        """The active monster rerolls die ``position`` (from 1), with the faces of the
        turn's next roll; returns the new face."""
        self.dice[position - 1] = roll.roll_faces(self, (position,))[0]
        if self.log is not None:
            self.log.append(("roll", self.active, tuple(self.dice), (position,)))
        return self.dice[position - 1]

    def roll_card_dice(self, count: int) -> list[int]:
        """Dice a card rolls (Camouflage), from a stream of their own."""
        return roll.card_dice(self, count)

    def grant_reroll(self) -> None:
        """The active monster gets one more reroll: a roll decision with one reroll left."""
        roll.grant_reroll(self)

    def add_extra_turn(self) -> None:
        """The active monster plays another turn after this one (Frenzy)."""
        self._extra_turns += 1


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
