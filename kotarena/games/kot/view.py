"""What one player may see: public facts plus that player's own secrets.

A :class:`View` is an immutable snapshot (a named tuple of tuples), so a bot may keep
it, change nothing through it, pickle it to another process or turn it into JSON. It
never holds the order of the deck, the game's seed or its random generator.

Search bots rebuild a playable game from a view with :meth:`View.sample_game`, which
deals the cards the player cannot see in a random order (a "determinization") and
draws future dice from a seed of the bot's choosing.
"""

from __future__ import annotations

import random as _random_module
from typing import TYPE_CHECKING, NamedTuple

from kotarena.engine.actions import Action
from kotarena.engine.outcome import Outcome

if TYPE_CHECKING:
    from kotarena.games.kot.state import State


class View(NamedTuple):
    """One seat's view of the table at a decision point.

    Per-player tuples are indexed by seat. ``cards`` holds each monster's keep cards
    by card id; ``market`` the face-up cards by id (``None`` for an empty slot).
    ``legal`` is non-empty only in the view of the player who must decide.

    Card state: ``poison`` and ``shrink`` are each monster's tokens; ``counters`` holds,
    per monster and aligned with ``cards``, the counters on each card (Smoke Cloud's
    charges, the energy on Monster Batteries; 0 for others); ``extra_turns`` counts the
    extra turns the active monster has coming (Frenzy); ``dealt`` says whether the
    active monster has made another monster lose health this turn (Herbivore);
    ``used`` lists this turn's once-a-turn card facts as ``(what, seat, card_id)`` and
    places yielded as ``("yielded", place, seat)``. ``private`` is this player's own
    secrets: ``(("made_in_a_lab", card_id),)`` while its Made in a Lab shows it the top
    of the deck. ``pending`` describes damage being dealt while a monster decides
    whether to use a card against it (the ``damage`` decision): ``(entry, queue, ready,
    then)`` where ``entry`` is the ``(target, amount, source, attack)`` being decided,
    ``queue`` the entries still to judge, ``ready`` those judged, which land together
    once all are judged, and ``then`` the step that follows.
    ``reveals`` lists market cards revealed this buy step that other monsters' cards
    (Opportunist) may still buy, as ``(slot from 0, seats already asked)``. ``hearts``
    is the number of heart results still to spend during a ``hearts`` decision.
    ``mimic`` is ``(seat, card_id)`` of the card the mimic token is on, or ``()``.
    """

    player: int
    game: str
    deck: str | None
    names: tuple[str, ...]
    health: tuple[int, ...]
    max_health: tuple[int, ...]
    stars: tuple[int, ...]
    energy: tuple[int, ...]
    alive: tuple[bool, ...]
    cards: tuple[tuple[str, ...], ...]
    city: int
    bay: int
    bay_open: bool
    active: int
    turn: int
    dice: tuple[int, ...]
    rolls_left: int
    market: tuple[str | None, ...]
    deck_size: int
    discard: tuple[str, ...]
    to_move: int
    kind: str | None
    legal: tuple[Action, ...]
    attacker: int
    yielders: tuple[int, ...]
    eliminated_at: tuple
    between_turns: bool
    outcome: Outcome | None
    private: tuple = ()
    poison: tuple = ()
    shrink: tuple = ()
    counters: tuple = ()
    extra_turns: int = 0
    dealt: bool = False
    used: tuple = ()
    pending: tuple = ()
    reveals: tuple = ()
    hearts: int = 0
    mimic: tuple = ()

    @property
    def me(self) -> int:
        """The seat this view belongs to (same as ``player``)."""
        return self.player

    def in_tokyo(self, player: int) -> bool:
        return player == self.city or player == self.bay

    def to_json(self) -> dict:
        """A JSON-ready dict; actions appear in their text form."""
        data = self._asdict()
        data["legal"] = [a.text for a in self.legal]
        data["outcome"] = self.outcome.to_json() if self.outcome is not None else None
        data["eliminated_at"] = [list(e) if e else None for e in self.eliminated_at]
        for key in ("names", "health", "max_health", "stars", "energy", "alive", "dice",
                    "market", "discard", "yielders", "poison", "shrink"):
            data[key] = list(data[key])
        data["cards"] = [list(c) for c in self.cards]
        data["counters"] = [list(c) for c in self.counters]
        data["private"] = [list(item) for item in self.private]
        data["used"] = [list(item) for item in self.used]
        data["mimic"] = list(self.mimic)
        data["reveals"] = [list(item) for item in self.reveals]
        data["pending"] = [list(item) if isinstance(item, tuple) else item for item in self.pending]
        return data

    def sample_game(self, seed: int | None = None) -> State:
        """A playable game consistent with this view; hidden parts are sampled.

        The deck is dealt in a random order from the cards this player cannot see,
        and dice are drawn from ``seed``. The result is an ordinary :class:`State`
        (without an event log) at the same decision point as the view.
        """
        return _sample_game(self, seed)


#: The fields of a state the sampled copy does not take from the view, and why: each
#: keeps the starting value :meth:`State.__init__` gives it, or is set from the bot's
#: seed. ``tests/engine/test_state_fields.py`` checks that every other field is the
#: real game's.
NOT_FROM_VIEW = frozenset((
    # Chance: the bot's seed, its generator, the deck order it shuffles, the dice it
    # draws for the rest of the turn, and the streams' counters (reshuffles, card rolls).
    "seed", "_rng", "_random", "_script", "deck", "_turn_dice", "_roll_no", "_reshuffles", "_card_rolls",
    # What happened before: the log and the actions are not part of a position.
    "log", "history",
    # The card Made in a Lab shows the active monster: a secret unless the view is its own.
    "peek",
    # Caches and flags derived from the rest: the views' card ids, whether cards act
    # (recomputed), the damage batch number (only its order counts: the copy counts on
    # from the last elimination).
    "_card_ids", "_slow", "_batch",
    # Spent before any decision is asked: who the last attack hit, monsters at 0
    # health not yet eliminated.
    "_hit", "_dropped",
    # How the caller plays the copy.
    "pause_between_turns",
))


def _sample_game(view: View, seed: int | None) -> State:
    """:meth:`View.sample_game` (a module function: mypyc cannot compile a closure,
    ``take``, inside a method of a ``NamedTuple``).

    The copy starts from a blank state of the view's game (:meth:`State.__init__`, the
    one declaration of the fields) and sets what the view knows, so a field the view
    does not know keeps its starting value.
    """
    from kotarena.games import get_game
    from kotarena.games.kot.cards import deck_cards, deck_effects
    from kotarena.games.kot.state import State, shuffle

    rules = get_game(view.game).rules  # type: ignore[attr-defined]
    rng = _random_module.Random(seed)
    if view.deck:
        s = State(rules, view.names, game=view.game, seed=seed, deck=view.deck, cards=deck_cards(view.deck),
                  effects=deck_effects(view.deck), rng=rng)
    else:
        s = State(rules, view.names, game=view.game, seed=seed, rng=rng)
    # Physical card indices by id, so copies of a card stay distinct.
    unseen: dict[str, list[int]] = {}
    for index, info in enumerate(s.cards_info):
        unseen.setdefault(info.id, []).append(index)

    def take(card_id: str) -> int:
        return unseen[card_id].pop()

    s.owned = [[take(c) for c in cards] for cards in view.cards]
    s.market = [take(c) if c is not None else -1 for c in view.market]
    s.discard = [take(c) for c in view.discard]
    peeked = [take(c) for what, c in view.private if what == "made_in_a_lab"]
    s.deck = [i for indices in unseen.values() for i in indices]
    s.deck.sort()
    shuffle(s.deck, rng.random)
    del s.deck[view.deck_size - len(peeked):]
    s.deck.extend(peeked)  # the card this player has seen stays on top
    s.peek = peeked[0] if peeked else -1
    s.counters = {
        card: count
        for cards, counts in zip(s.owned, view.counters)
        for card, count in zip(cards, counts)
        if count or s._effects[card].initial_counters is not None
    }
    if view.poison:
        s.poison = list(view.poison)
    if view.shrink:
        s.shrink = list(view.shrink)
    s._extra_turns = view.extra_turns
    s._dealt = view.dealt
    s._flags = frozenset(_flag_from_view(s, item) for item in view.used)
    if view.pending:
        entry, queue, ready, then = view.pending
        s._pending_hit, s._queue, s._ready, s._then = entry, list(queue), list(ready), then
    s._revealed = list(view.reveals)
    s._hearts_left = view.hearts
    s.health = list(view.health)
    s.max_health = list(view.max_health)
    s.stars = list(view.stars)
    s.energy = list(view.energy)
    s.alive = list(view.alive)
    s.alive_count = sum(view.alive)
    s.city = view.city
    s.bay = view.bay
    s.bay_open = view.bay_open
    s.active = view.active
    s.turn = view.turn
    s.dice = list(view.dice)
    s.rolls_left = view.rolls_left
    s.outcome = view.outcome
    s.between_turns = view.between_turns
    # Future rolls of this turn come from the bot's seed, not the real game.
    s._draw_turn_dice()
    s._roll_no = 1 + (s.rules.rerolls - view.rolls_left)
    s._attacker = view.attacker
    s._yielders = list(view.yielders)
    s._batch = max((e[1] for e in view.eliminated_at if e), default=0)
    s.eliminated_at = list(view.eliminated_at)
    s.mimic = s.owned_card(view.mimic[0], view.mimic[1]) if view.mimic else -1
    s._cards_changed()
    s.to_move = view.to_move
    s.kind = view.kind
    s._restore_decision()
    return s


def _flag_from_view(s: State, item: tuple) -> tuple:
    """A state's turn flag from its view form (card ids back to card indices)."""
    what, where, who = item
    if what == "yielded":
        return item
    card_id = who
    return (what, s.owned_card(where, card_id))


def _owner(s: State, card: int) -> int:
    for p, owned in enumerate(s.owned):
        if card in owned:
            return p
    return -1


def _flag_to_view(s: State, flag: tuple) -> tuple:
    if flag[0] == "yielded":
        return flag
    card = flag[1]
    return (flag[0], _owner(s, card), s.cards_info[card].id)


def build_view(state: State, player: int) -> View:
    """Snapshot what seat ``player`` may see of ``state``."""
    s = state
    info = s.cards_info
    if info:
        # Owned cards, the discard pile and the market change rarely; their ids are
        # cached on the state until they do (the engine clears ``_card_ids`` then).
        ids = s._card_ids
        if ids is None:
            ids = s._card_ids = (
                tuple([tuple([info[c].id for c in owned]) for owned in s.owned]),
                tuple([info[c].id for c in s.discard]),
                tuple([info[c].id if c >= 0 else None for c in s.market]),
                [None, ()],  # the counters' view form, with the counters it was made from
            )
        cards, discard, market, _ = ids
    else:
        cards = ((),) * s.n
        market = _EMPTY_MARKETS[len(s.market)]
        discard = ()
    # The tuple is built directly: View.__new__ would spend a third of the view's time
    # on the card fields' defaults. Without cards or tokens those fields stay empty.
    return _new_view(View, (
        player, s.game, s.deck_name, s.names,
        tuple(s.health), tuple(s.max_health), tuple(s.stars), tuple(s.energy), tuple(s.alive),
        cards, s.city, s.bay, s.bay_open, s.active, s.turn, tuple(s.dice), s.rolls_left,
        market, len(s.deck), discard,
        s.to_move, s.kind, s.legal if s.to_move == player else (),
        s._attacker, tuple(s._yielders), tuple(s.eliminated_at), s.between_turns, s.outcome,
    ) + (_card_facts(s, player) if s._slow or s._extra_turns else _NO_CARD_FACTS_DEALT if s._dealt else _NO_CARD_FACTS))


_new_view = tuple.__new__
#: The market of a game without cards, by its number of slots.
_EMPTY_MARKETS = tuple((None,) * size for size in range(9))
#: The card fields of a view (``private`` onwards) on a table where no card acts.
_NO_CARD_FACTS = tuple(View._field_defaults[name] for name in View._fields[View._fields.index("private"):])
#: The same after the active monster hurt another monster this turn (a card bought later
#: this turn reads it: Herbivore).
_NO_CARD_FACTS_DEALT = tuple(True if name == "dealt" else value for name, value in zip(
    View._fields[View._fields.index("private"):], _NO_CARD_FACTS))


def _card_facts(s: State, player: int) -> tuple:
    """The view's card fields (only built while cards or tokens are in play)."""
    counters = s.counters
    private: tuple = ()
    if s.peek >= 0 and player == s.active:
        private = (("made_in_a_lab", s.cards_info[s.peek].id),)
    return (
        private,
        tuple(s.poison),
        tuple(s.shrink),
        _counters_view(s, counters) if counters else (),
        s._extra_turns,
        s._dealt,
        tuple(sorted(_flag_to_view(s, f) for f in s._flags if f[0] == "yielded" or _owner(s, f[1]) >= 0))
        if s._flags else (),
        () if s._pending_hit is None else (s._pending_hit, tuple(s._queue), tuple(s._ready), s._then),
        tuple(s._revealed),
        s._hearts_left,
        () if s.mimic < 0 else (_owner(s, s.mimic), s.cards_info[s.mimic].id),
    )


def _counters_view(s: State, counters: dict[int, int]) -> tuple:
    """Each monster's card counters, aligned with its cards.

    Counters change far less often than views are taken, so the last result is kept
    with the owned cards' cached ids (dropped whenever a card changes hands) and reused
    while the counters are the same.
    """
    cache = s._card_ids[3]
    items = tuple(counters.items())
    if cache[0] != items:
        get = counters.get
        cache[1] = tuple([tuple([get(c, 0) for c in owned]) for owned in s.owned])
        cache[0] = items
    return cache[1]
