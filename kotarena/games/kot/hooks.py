"""Which cards answer which moment: the state's hook tables, and the card offers they hold.

The state keeps, per moment (:mod:`kotarena.games.kot.cards.moments`), the
``(owner, card, method)`` of every card in play that acts there, and the same by
owner; a moment where no card acts costs one empty-tuple test. The tables are tuples
(and dicts never changed in place) shared with every copy of the state, rebuilt only
when cards change hands (:func:`cards_changed`) or added to when a card is kept
(:func:`card_kept`). ``_slow`` tells the turn machine whether to take the card path
at all: some card acts, or a poison or shrink token is out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from kotarena.engine.actions import Action
from kotarena.games.kot.cards.moments import MOMENTS, OFFERS
from kotarena.games.kot.tables import with_pass

if TYPE_CHECKING:
    from kotarena.games.kot.state import State

#: The hooks of a table where no card acts: one empty tuple per moment, shared.
NO_HOOKS: Final[tuple[tuple[Any, ...], ...]] = ((),) * len(MOMENTS)
NO_FLAGS: Final[frozenset[tuple[Any, ...]]] = frozenset()
NO_OFFERS: Final[dict[str, tuple[Any, ...]]] = {}


def offers(s: State, p: int, kind: str) -> tuple[Action, ...]:
    """The card actions ``p``'s cards offer at a decision of ``kind``."""
    hooks = s._my_offers[p].get(kind)
    if hooks is None:
        return ()
    found: tuple[Action, ...] = ()
    for card, fn in hooks:
        found += fn(s, p, card, kind)
    if len(hooks) > 1 and s.mimic >= 0:
        # Mimic copying its owner's own card offers the card's actions again: once each.
        found = tuple(dict.fromkeys(found))
    return found


def ask(s: State, p: int, kind: str) -> bool:
    """Ask ``p`` a card decision of ``kind`` if its cards offer something there (``pass``
    first); whether it was asked."""
    found = offers(s, p, kind)
    if not found:
        return False
    s._decide(p, kind, with_pass(found))
    return True


def cards_changed(s: State) -> None:
    """Owned cards changed: forget cached ids and rebuild the per-moment hooks."""
    s._card_ids = None
    effects = s._effects
    acting = []  # (owner, card, effect) of every card with hooks, in seat order
    for p, cards in enumerate(s.owned):
        for card in cards:
            effect = effects[card]
            if effect.moment_ids:
                acting.append((p, card, effect))
    if s.mimic >= 0:
        copy = _mimic_copy(s)
        if copy is not None:
            acting.append(copy)
    n = s.n
    if not acting:
        s._hooks = NO_HOOKS
        s._offer_hooks = NO_OFFERS
        s._mine = (NO_HOOKS,) * n
        s._my_offers = (NO_OFFERS,) * n
    else:
        every = list(NO_HOOKS)
        # The same hooks by owner: most moments ask only one monster's cards.
        mine: list = [NO_HOOKS] * n
        offer_hooks: dict = {}
        my_offers: list = [NO_OFFERS] * n
        for owner, card, effect in acting:
            slots = mine[owner]
            if slots is NO_HOOKS:
                slots = mine[owner] = list(NO_HOOKS)
            for moment, fn in effect.bound_hooks:
                every[moment] += ((owner, card, fn),)
                slots[moment] += ((card, fn),)
                if moment == OFFERS:
                    table = my_offers[owner]
                    if table is NO_OFFERS:
                        table = my_offers[owner] = {}
                    for kind in effect.offer_kinds:
                        offer_hooks[kind] = (*offer_hooks.get(kind, ()), (owner, card, fn))
                        table[kind] = (*table.get(kind, ()), (card, fn))
        s._hooks = tuple(every)
        s._mine = tuple([slots if slots is NO_HOOKS else tuple(slots) for slots in mine])
        s._offer_hooks = offer_hooks or NO_OFFERS
        s._my_offers = tuple(my_offers)
    set_slow(s, bool(acting))


def set_slow(s: State, cards_act: bool) -> None:
    """Whether turns take the card path: some card has hooks or a token is out."""
    s._slow = cards_act or any(s.poison) or any(s.shrink)
    if not s._slow:
        # Turn flags are reset only on turns where cards act: drop them here.
        s._flags = NO_FLAGS
        s._revealed = []


def card_kept(s: State, p: int, card: int) -> None:
    """``p`` keeps ``card`` as its newest card: the tables :func:`cards_changed` would
    build, with the card's hooks added instead of everything rebuilt.

    Cards are kept many times a game, and a rebuild goes over every card in play. In the
    rebuilt tables the new card's hooks come after its owner's other cards and before
    the next seats' cards; with a Mimic token in play the copied card's hooks are always
    last, so then the tables are rebuilt.
    """
    s.owned[p].append(card)
    effect = s._effects[card]
    if s.mimic >= 0:
        cards_changed(s)
        return
    s._card_ids = None
    if not effect.moment_ids:
        set_slow(s, s._hooks is not NO_HOOKS)
        return
    every = list(s._hooks)
    slots = list(s._mine[p])
    offer_hooks: dict[str, tuple[Any, ...]] = {}
    table: dict[str, tuple[Any, ...]] | None = None
    for moment, fn in effect.bound_hooks:
        every[moment] = _after_seat(every[moment], p, (p, card, fn))
        slots[moment] += ((card, fn),)
        if moment == OFFERS:
            if table is None:  # the tables are shared with clones: never changed in place
                offer_hooks, table = dict(s._offer_hooks), dict(s._my_offers[p])
            for kind in effect.offer_kinds:
                offer_hooks[kind] = _after_seat(offer_hooks.get(kind, ()), p, (p, card, fn))
                table[kind] = (*table.get(kind, ()), (card, fn))
    s._hooks = tuple(every)
    s._mine = (*s._mine[:p], tuple(slots), *s._mine[p + 1:])
    if table is not None:
        s._offer_hooks = offer_hooks
        s._my_offers = (*s._my_offers[:p], table, *s._my_offers[p + 1:])
    s._slow = True


def _mimic_copy(s: State) -> tuple | None:
    """``(owner, mimic card, copied effect)``: the copied card's hooks act for the
    Mimic's owner, as the Mimic card.

    If the copied card has left play, the token comes back first (``None``).
    """
    target = s.mimic
    mimic = s.mimic_card()
    holder = next((p for p, cards in enumerate(s.owned) if target in cards), -1)
    if mimic < 0 or holder < 0:
        s.mimic = -1
        if mimic >= 0:
            owner = next(p for p, cards in enumerate(s.owned) if mimic in cards)
            s._effects[target].lost(s, owner, mimic)
            s.counters.pop(mimic, None)
            if s.log is not None:
                s.log.append(("mimic", owner, None))
        return None
    owner = next(p for p, cards in enumerate(s.owned) if mimic in cards)
    effect = s._effects[target]
    return (owner, mimic, effect) if effect.moment_ids else None


def _after_seat(hooks: tuple, p: int, entry: tuple) -> tuple:
    """``hooks`` (``(owner, card, fn)`` in seat order) with ``entry`` after seat ``p``'s."""
    for at, hook in enumerate(hooks):
        if hook[0] > p:
            return (*hooks[:at], entry, *hooks[at:])
    return (*hooks, entry)
