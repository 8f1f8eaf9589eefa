"""Card decisions: carrying out ``pass``, ``use ...`` and ``cure ...``, and rebuilding a
pending decision's legal list (the sampled copy restores its decision this way).

Every kind of card decision goes on from where it was asked: this module sits above
the steps that ask them and calls each directly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kotarena.engine.actions import Action
from kotarena.games.kot.damage import drain, resume, settle
from kotarena.games.kot.end import end_turn, end_turn_effects, finish_last_standing, finish_turn
from kotarena.games.kot.hooks import offers
from kotarena.games.kot.kinds import (
    BUY_CARDS,
    DAMAGE,
    DICE_CARDS,
    END_CARDS,
    HEARTS,
    PROBE,
    REVEAL,
    ROLL,
    START_CARDS,
    THEN_BUY,
    THEN_NOTHING,
    YIELD_TOKYO,
)
from kotarena.games.kot.market import buy_step, buy_table, card_buy_table
from kotarena.games.kot.resolve import cure, end_hearts, hearts_table, resolve, resolve_dice
from kotarena.games.kot.roll import first_roll
from kotarena.games.kot.tables import NO_LEGAL, YIELD_LEGAL, reroll_legal, with_pass
from kotarena.games.vocabulary import CURE, PASS_ACTION

if TYPE_CHECKING:
    from kotarena.games.kot.state import State


def user(s: State, p: int, action: Action) -> tuple[int, Any]:
    """The card of ``p`` that carries out ``action`` (``use <card_id> ...``) and the
    effect it acts with: ``p``'s card ``card_id``, or the Mimic copying it.

    When ``p`` has both (Mimic copies its owner's own card), they offer the same
    actions: the card acts while it offers the action, then the copy.
    """
    card_id = action.args[0]
    card = s.owned_card(p, card_id)
    mimic = s.mimic_card()
    if mimic < 0 or mimic not in s.owned[p] or s.cards_info[s.mimic].id != card_id:
        return card, s._effects[card]
    if card >= 0 and action in s._effects[card].offers(s, p, card, s.kind):
        return card, s._effects[card]
    return mimic, s._effects[s.mimic]


def use_card(s: State, player: int, action: Action) -> None:
    """Carry out a card's ``use`` action (through the Mimic copying the card, if need be)."""
    card, effect = user(s, player, action)
    effect.use(s, player, card, action)


def card_choice(s: State, player: int, action: Action) -> None:
    """Carry out ``pass``, ``use ...`` or ``cure ...`` and go on from the decision."""
    kind = s.kind
    if action.kind == CURE:
        cure(s, player, *action.args)
        return
    if kind == PROBE or kind == REVEAL:
        if action is PASS_ACTION:
            for card, fn in s._my_offers[player].get(kind, ()):
                fn.__self__.declined(s, player, card, kind)
        else:
            s._batch += 1
            use_card(s, player, action)
        if kind == PROBE:
            resolve(s)
        elif s._queue:
            s._then = THEN_BUY
            drain(s)
        else:
            buy_step(s)
        return
    if kind == DAMAGE:
        if action is not PASS_ACTION:
            use_card(s, player, action)
            resume(s)
        else:
            s._ready.append(s._pending_hit)
            s._pending_hit = None
            drain(s)
        return
    if kind == START_CARDS:
        if action is not PASS_ACTION:
            use_card(s, player, action)
            if s._dropped:  # moving the mimic token off Even Bigger can eliminate its owner
                settle(s)
                if s.alive_count <= 1:
                    finish_last_standing(s)
                    return
                if not s.alive[player]:
                    finish_turn(s)
                    return
        first_roll(s)
        return
    if action is not PASS_ACTION:
        s._batch += 1
        use_card(s, player, action)
        if s.outcome is not None or s.kind != kind or s.to_move != player:
            return  # the card led to another decision (a reroll) or ended the game
        # Damage queued as the dice resolve (Flaming Aura's, before the hearts) lands with
        # the claws; health lost with a card (Even Bigger) is settled at once.
        if (s._queue and kind != HEARTS) or s._dropped:
            s._then = THEN_BUY if kind == BUY_CARDS else THEN_NOTHING
            drain(s)
            if kind == BUY_CARDS:
                return
            if s.alive_count <= 1 and s.outcome is None:
                finish_last_standing(s)
                return
    if kind == DICE_CARDS:
        if action is PASS_ACTION:
            resolve_dice(s)
        else:
            resolve(s)
    elif kind == HEARTS:
        if action is PASS_ACTION or not s._hearts_left:
            end_hearts(s, player)
        else:
            table = hearts_table(s, player)
            if len(table[0]) > 1:
                s._decide(player, HEARTS, table)
            else:
                end_hearts(s, player)
    elif kind == BUY_CARDS:
        buy_step(s)
    elif kind == END_CARDS:
        if action is PASS_ACTION:
            end_turn_effects(s)
        else:
            end_turn(s)


def restore_decision(s: State) -> None:
    """Recompute the legal list of the pending decision from ``kind`` and the table."""
    kind = s.kind
    if kind == ROLL:
        table = reroll_legal(len(s.dice))
    elif kind == YIELD_TOKYO:
        table = YIELD_LEGAL
    elif kind == BUY_CARDS:
        table = card_buy_table(s) if s._slow else buy_table(s)
    elif kind == DICE_CARDS:
        table = with_pass(offers(s, s.to_move, DICE_CARDS))
    elif kind == HEARTS:
        table = hearts_table(s, s.to_move)
    elif kind in (END_CARDS, DAMAGE, PROBE, REVEAL, START_CARDS):
        table = with_pass(offers(s, s.to_move, kind))
    else:
        table = NO_LEGAL
    s._decide(s.to_move, kind, table)
