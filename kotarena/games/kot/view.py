"""What one player may see: public facts plus that player's own secrets.

A :class:`View` is an immutable snapshot (a named tuple of tuples), so a bot may keep
it, change nothing through it, pickle it to another process or turn it into JSON. It
never holds the order of the deck, the game's seed or its random generator.

Search bots rebuild a playable game from a view with :meth:`View.sample_game`, which
deals the cards the player cannot see in a random order (a "determinization") and
draws future dice from a seed of the bot's choosing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple, cast

from kotarena.engine.actions import Action
from kotarena.engine.outcome import Outcome
from kotarena.games import get_game

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
        (without an event log) at the same decision point as the view, made by the
        view's game (:meth:`~kotarena.games.kot.game.KingOfTokyo.sample`), which knows
        the rules and the deck.
        """
        return cast("State", get_game(self.game).sample(self, seed))  # type: ignore[attr-defined]


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
