"""The sampled copy: a playable state consistent with what one seat sees.

Search bots rebuild a game from a view (``view.sample_game(seed)``), dealing the cards
the seat cannot see in a random order (a "determinization") and drawing future dice
from a seed of the bot's choosing. The copy starts from a blank state
(:meth:`State.__init__`, the one declaration of the fields) and sets what the view
knows, so a field the view does not know keeps its starting value:
:data:`NOT_FROM_VIEW` lists those, each with its reason, and
``tests/engine/test_state_fields.py`` checks that every other field is the real game's.
"""

from __future__ import annotations

import random as _random_module
from typing import Any

from kotarena.games.kot.cards.info import CardInfo
from kotarena.games.kot.choices import restore_decision
from kotarena.games.kot.hooks import cards_changed
from kotarena.games.kot.market import shuffle
from kotarena.games.kot.roll import draw_turn_dice
from kotarena.games.kot.rules import Rules
from kotarena.games.kot.state import State
from kotarena.games.kot.view import View

#: The fields of a state the sampled copy does not take from the view, and why: each
#: keeps the starting value :meth:`State.__init__` gives it, or is set from the bot's
#: seed.
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


def sample_state(view: View, seed: int | None, rules: Rules, cards: tuple[CardInfo, ...],
                 effects: tuple[Any, ...]) -> State:
    """A state of a game played by ``rules`` with the deck ``cards`` (and their
    ``effects``) at the decision ``view`` shows, its hidden parts drawn from ``seed``
    (``View.sample_game``: the game object hands in its rules and deck)."""
    rng = _random_module.Random(seed)
    s = State(rules, view.names, game=view.game, seed=seed, deck=view.deck, cards=cards, effects=effects, rng=rng)
    # Physical card indices by id, so copies of a card stay distinct.
    unseen: dict[str, list[int]] = {}
    for index, info in enumerate(s.cards_info):
        unseen.setdefault(info.id, []).append(index)

    def take(card_id: str) -> int:
        return unseen[card_id].pop()

    s.owned = [[take(c) for c in ids] for ids in view.cards]
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
        for owned, counts in zip(s.owned, view.counters)
        for card, count in zip(owned, counts)
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
    draw_turn_dice(s)
    s._roll_no = 1 + (s.rules.rerolls - view.rolls_left)
    s._attacker = view.attacker
    s._yielders = list(view.yielders)
    s._batch = max((e[1] for e in view.eliminated_at if e), default=0)
    s.eliminated_at = list(view.eliminated_at)
    s.mimic = s.owned_card(view.mimic[0], view.mimic[1]) if view.mimic else -1
    cards_changed(s)
    s.to_move = view.to_move
    s.kind = view.kind
    restore_decision(s)
    return s


def _flag_from_view(s: State, item: tuple) -> tuple:
    """A state's turn flag from its view form (card ids back to card indices)."""
    what, where, who = item
    if what == "yielded":
        return item
    card_id = who
    return (what, s.owned_card(where, card_id))
