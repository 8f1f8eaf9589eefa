"""The buy step and the market: buying, sweeping, revealing, and gaining a card.

The deck is a list of physical card indices whose top is its end; an empty deck is the
discard pile, shuffled from a stream of its own (so taking a card or not leaves every
later shuffle as it was).
"""

from __future__ import annotations

import random as _random_module
from typing import TYPE_CHECKING

from kotarena.engine.actions import Action
from kotarena.games.kot.cards.info import KEEP
from kotarena.games.kot.cards.moments import BOUGHT, COST, REVEALED
from kotarena.games.kot.damage import drain
from kotarena.games.kot.end import end_turn, finish_last_standing, finish_turn
from kotarena.games.kot.hooks import ask, card_kept, offers
from kotarena.games.kot.kinds import BUY_CARDS, REVEAL, THEN_BUY
from kotarena.games.kot.rulings import (
    CARDS_SEE_THEIR_OWN_PURCHASE,
    REFILL_BEFORE_THE_BOUGHT_CARD_IS_PLAYED,
    RESHUFFLE_DISCARD_WHEN_THE_DECK_RUNS_OUT,
    SWEPT_CARDS_DISCARDED_BEFORE_REVEALING,
)
from kotarena.games.kot.tables import NOTHING_TO_BUY, Table, buy_action, buy_legal
from kotarena.games.vocabulary import DONE_ACTION, SWEEP_ACTION

if TYPE_CHECKING:
    from kotarena.games.kot.state import State


def shuffle(items: list, random) -> None:
    """Fisher-Yates with ``random()`` only, so a seed shuffles alike everywhere."""
    for i in range(len(items) - 1, 0, -1):
        j = int(random() * (i + 1))
        items[i], items[j] = items[j], items[i]


def buy_step(s: State) -> None:
    """Ask the active monster to buy, sweep or be done (nobody is asked when only ``done``
    is legal); a game without cards has no buy step."""
    if s.deck_name is None:
        end_turn(s)
        return
    p = s.active
    if s._slow:
        if s._revealed and offer_reveal(s):
            return
        if s._mine[p][COST] or BUY_CARDS in s._my_offers[p]:
            table = card_buy_table(s)
            if len(table[0]) > 1:
                s._decide(p, BUY_CARDS, table)
                return
            end_turn(s)
            return
    table = buy_table(s)
    # Compared by its legal tuple: mypyc passes fixed-length tuples unboxed, so the pair itself is a new object.
    if table[0] is NOTHING_TO_BUY[0]:
        # Nothing affordable and no sweep: ``done`` would be the only answer, so
        # nobody is asked and the buy step ends as if it had been given.
        end_turn(s)
        return
    s._decide(p, BUY_CARDS, table)


def after_card_damage(s: State) -> None:
    """Card damage outside an attack has landed (a step of the rules' table): back to the
    buy step, unless it ended the game or the active monster's turn."""
    if s.alive_count <= 1:
        finish_last_standing(s)
    elif not s.alive[s.active]:
        finish_turn(s)  # a monster eliminated on its own turn takes no further step
    else:
        buy_step(s)


def offer_reveal(s: State) -> bool:
    """Offer each newly revealed card to the other monsters' cards (Opportunist),
    clockwise from the active monster; ``_revealed`` holds ``(slot, seats asked)``."""
    n = s.n
    revealed = s._revealed
    while revealed:
        slot, step = revealed[0]
        while s.market[slot] >= 0 and step < n - 1:
            step += 1
            q = (s.active + step) % n
            if s.alive[q] and ask(s, q, REVEAL):
                revealed[0] = (slot, step)
                return True
        revealed.pop(0)
    return False


def buy_table(s: State) -> Table:
    """The buy decision without cards in play: one of the shared tables."""
    energy = s.energy[s.active]
    market = s.market
    info = s.cards_info
    size = len(market)
    index = 0
    shown = False
    for slot in range(size):
        card = market[slot]
        if card >= 0:
            shown = True
            if info[card].cost <= energy:
                index |= 1 << slot
    if shown and energy >= s.rules.sweep_cost:
        index |= 1 << size
    return buy_legal(size)[index]


def card_buy_table(s: State) -> Table:
    """The buy decision with cards in play: prices may change, cards add actions."""
    p = s.active
    energy = s.energy[p]
    market = s.market
    legal: list[Action] = [DONE_ACTION]
    shown = False
    for slot in range(len(market)):
        card = market[slot]
        if card >= 0:
            shown = True
            if s.cost(p, card) <= energy:
                legal.append(buy_action(slot))
    if shown and energy >= s.rules.sweep_cost:
        legal.append(SWEEP_ACTION)
    legal.extend(offers(s, p, BUY_CARDS))
    return tuple(legal), frozenset(legal)


def buy(s: State, slot: int) -> None:
    """The active monster buys the card in ``slot`` (from 0)."""
    p = s.active
    card = s.market[slot]
    info = s.cards_info[card]
    cost = s.cost(p, card) if s._slow else info.cost
    s.energy[p] -= cost
    if s.log is not None:
        s.log.append(("buy", p, info.id, slot + 1, cost))
    if REFILL_BEFORE_THE_BOUGHT_CARD_IS_PLAYED:
        reveal(s, slot)
        gain_card(s, p, card)
    else:
        s.market[slot] = -1
        gain_card(s, p, card)
        reveal(s, slot)
    if s._queue:
        s._then = THEN_BUY
        drain(s)
        return
    buy_step(s)


def gain_card(s: State, p: int, card: int) -> None:
    """``p`` has just bought ``card`` (from anywhere): keep it or play it."""
    info = s.cards_info[card]
    s._batch += 1
    if s._slow and not CARDS_SEE_THEIR_OWN_PURCHASE:
        for c, fn in s._mine[p][BOUGHT]:
            fn(s, p, c, info)
    effect = s._effects[card]
    if info.type == KEEP:
        card_kept(s, p, card)
        effect.gained(s, p, card)
    else:
        s.discard.append(card)
        s._card_ids = None
    if s._slow and CARDS_SEE_THEIR_OWN_PURCHASE:
        for c, fn in s._mine[p][BOUGHT]:
            fn(s, p, c, info)
    effect.on_buy(s, p, card)


def sweep(s: State) -> None:
    """The active monster pays to discard the market and reveal new cards."""
    p = s.active
    s.energy[p] -= s.rules.sweep_cost
    if s.log is not None:
        s.log.append(("sweep", p))
    size = len(s.market)
    swept = [card for card in s.market if card >= 0]
    for slot in range(size):
        s.market[slot] = -1
    if SWEPT_CARDS_DISCARDED_BEFORE_REVEALING:
        s.discard.extend(swept)
    for slot in range(size):
        reveal(s, slot)
    if not SWEPT_CARDS_DISCARDED_BEFORE_REVEALING:
        s.discard.extend(swept)
    s._card_ids = None
    buy_step(s)


def reveal(s: State, slot: int) -> None:
    """Fill a market slot from the deck; an empty deck is the shuffled discard pile."""
    if not s.deck and s.discard and RESHUFFLE_DISCARD_WHEN_THE_DECK_RUNS_OUT:
        s.deck = s.discard
        s.discard = []
        s._card_ids = None
        s._reshuffles += 1
        stream = _random_module.Random(s.seed * 1_000_003 + s._reshuffles if s.seed else s._reshuffles)
        shuffle(s.deck, stream.random)
        if s.log is not None:
            s.log.append(("reshuffle", len(s.deck)))
    card = s.deck.pop() if s.deck else -1
    if card >= 0 and card == s.peek:
        s.peek = -1  # the card Made in a Lab showed is face up now: no longer a secret
    s.market[slot] = card
    s._card_ids = None
    if card >= 0 and s._hooks[REVEALED]:
        s._revealed.append((slot, 0))
    if card >= 0 and s.log is not None:
        s.log.append(("reveal", slot + 1, s.cards_info[card].id))
