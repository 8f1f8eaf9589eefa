"""Card effects: what a card does, attached to named moments of the turn.

A card's effect is an :class:`Effect` (one instance per card of a deck table, shared by
its copies; the deck names it after its card, ``effect.id``). It says at which
:data:`moments <MOMENTS>` it acts by listing them in ``moments``; for each moment the
engine calls the method of the same name. The engine keeps, per moment, the list of
``(owner, card, method)`` that act there, rebuilt only when cards change hands, so a
moment where no card acts costs one empty-tuple test. Most cards are made of the
shared blocks of :mod:`~kotarena.games.kot.cards.blocks`, several of them together
with :class:`Combined`.

Methods receive the state ``s``, the seat ``owner`` of the card and ``card``, the
physical card index. Effects change the game only through the state's public effect
API (``s.gain_stars``, ``s.gain_energy``, ``s.heal``, ``s.queue_damage``, ...; see
``docs/games.md``), so that other cards see every change (Friend of Children sees
energy gained by Energize) and damage goes through the damage queue.

Moments whose name says "your" are called for the active monster's cards only; the
others for every owner (``zero`` for every card when any monster drops to 0, ``guard``
and ``hurt`` for the damaged monster's cards).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kotarena.games.kot.state import State

from kotarena.engine.actions import Action
from kotarena.games.kot.cards.moments import MOMENTS


class Effect:
    """A card that does nothing at any moment; subclasses override what they need.

    What the card does in words is in the deck table (``CardInfo.text``).
    Counters a card carries (Smoke Cloud's charges, energy on Monster Batteries)
    live in ``s.counters[card]``; ``gained`` puts them there.
    """

    id: str = ""
    moments: tuple[str, ...] = ()
    #: The decision kinds where ``offers`` may offer actions (only those are asked).
    offer_kinds: frozenset[str] = frozenset()
    #: True for the card that carries the mimic token's copy (``s.mimic`` is the copied card).
    copies_cards: bool = False
    #: Counters the card carries when it comes into play (``None``: it has none).
    initial_counters: int | None = None
    #: ``moments`` as moment numbers (filled in for each subclass).
    moment_ids: tuple[int, ...] = ()

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        unknown = set(cls.moments) - set(MOMENTS)
        if unknown:
            raise TypeError(f"{cls.__name__}: unknown moments {sorted(unknown)}")
        cls.moment_ids = tuple(MOMENTS.index(name) for name in cls.moments)
        if "offers" in cls.moments and not cls.offer_kinds:
            raise TypeError(f"{cls.__name__}: an effect with offers must name its offer_kinds")

    def __init__(self) -> None:
        #: ``(moment, bound method)`` for each moment in ``moments``.
        self.bound_hooks: tuple[tuple[int, Any], ...] = tuple(
            (moment, getattr(self, MOMENTS[moment])) for moment in self.moment_ids)

    def claim(self, card_id: str) -> None:
        """This effect plays the card ``card_id`` (a deck table says so as it is built).

        One instance serves one card: a second deck that plays the same card makes its
        own (``Instant(stars=3)`` again), so no card's id changes under another's.
        """
        if self.id and self.id != card_id:
            raise ValueError(f"this {type(self).__name__} already plays {self.id!r}, not {card_id!r}")
        self.id = card_id

    # Card life: called for keep cards as they enter and leave a monster's hand, and
    # for every card when it is bought (discard cards act there).
    def gained(self, s: State, owner: int, card: int) -> None:
        """The card came into ``owner``'s play (bought or taken from another monster).

        The default puts ``initial_counters`` on a card that has none yet (a card taken
        from another monster keeps its counters).
        """
        if self.initial_counters is not None:
            s.counters.setdefault(card, self.initial_counters)

    def lost(self, s: State, owner: int, card: int) -> None:
        """The card left ``owner``'s play."""

    def on_buy(self, s: State, owner: int, card: int) -> None:
        """The card was just bought (discard cards do their whole effect here)."""

    def use(self, s: State, owner: int, card: int, action: Action) -> None:
        """Carry out one of the actions this card offered (see ``offers``)."""
        raise RuntimeError(f"card {self.id!r} offers no action, so none can be used")

    def offers(self, s: State, owner: int, card: int, kind: str) -> tuple[Action, ...]:
        return ()

    def declined(self, s: State, owner: int, card: int, kind: str) -> None:
        """``owner`` answered ``pass`` to a decision of ``kind`` where this card offered actions."""


class Combined(Effect):
    """Several effects acting as one card, each at its own moments (Acid Attack: an
    attack bonus and damage without claws). At most one of them offers actions."""

    def __init__(self, *parts: Effect) -> None:
        offering = [part for part in parts if part.offer_kinds]
        if len(offering) > 1:
            raise TypeError("at most one part of a combined effect offers actions")
        self.parts = parts
        self.moments = tuple(dict.fromkeys(name for part in parts for name in part.moments))
        self.moment_ids = tuple(MOMENTS.index(name) for name in self.moments)
        self.offer_kinds = offering[0].offer_kinds if offering else frozenset()
        self.copies_cards = any(part.copies_cards for part in parts)
        self.initial_counters = next((p.initial_counters for p in parts if p.initial_counters is not None), None)
        self.bound_hooks = tuple(hook for part in parts for hook in part.bound_hooks)
        self._offering = offering[0] if offering else None

    def claim(self, card_id: str) -> None:
        super().claim(card_id)
        for part in self.parts:
            part.claim(card_id)

    def gained(self, s: State, owner: int, card: int) -> None:
        for part in self.parts:
            part.gained(s, owner, card)

    def lost(self, s: State, owner: int, card: int) -> None:
        for part in self.parts:
            part.lost(s, owner, card)

    def on_buy(self, s: State, owner: int, card: int) -> None:
        for part in self.parts:
            part.on_buy(s, owner, card)

    def use(self, s: State, owner: int, card: int, action: Action) -> None:
        if self._offering is None:
            super().use(s, owner, card, action)
        else:
            self._offering.use(s, owner, card, action)


def use_action(card_id: str, *args: object) -> Action:
    """``use <card_id> <args...>``: the interned action for a card choice."""
    return Action.of("use", card_id, *args)
