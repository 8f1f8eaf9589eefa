"""The damage queue and eliminations.

Damage of every kind goes through one queue (``State._queue``): the claws of an attack
queue one entry per target, card effects queue theirs (``state.queue_damage``). Draining
the queue lets the cards judge each entry first (guards, then the target's own choices:
the ``damage`` decision), lands it all, then eliminates every monster left at 0 health
together, so monsters hit by the same damage tie and Tokyo Bay cannot close between two
targets of the same claws.

Once the queue is empty the turn goes on with the step ``State._then`` names, looked up
in the rules' step table (``Rules.steps``): the steps that follow damage (the rest of a
roll, of an attack, the buy step, the end of the turn) live in modules above this one, which this
module does not import.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kotarena.games.kot.cards.moments import GUARD, HURT, RESCUE, ZERO
from kotarena.games.kot.hooks import ask, cards_changed
from kotarena.games.kot.kinds import DAMAGE, THEN_ATTACK, THEN_BUY, THEN_DICE, THEN_END, THEN_NOTHING, THEN_REROLL

if TYPE_CHECKING:
    from kotarena.games.kot.state import State


def drain(s: State) -> None:
    """Apply the queued damage one entry at a time, then eliminate, then go on.

    All damage of one queue (every target of one attack) lands before anybody is
    eliminated, so Tokyo Bay cannot close between two targets of the same claws.
    """
    queue = s._queue
    health = s.health
    alive = s.alive
    if not s._slow:
        while queue:
            q, amount, source, attack = queue.pop(0)
            if alive[q] and health[q] > 0:
                land(s, q, amount, source, attack)
    else:
        # Cards judge every entry first (guards, then the target's choices), so no
        # monster is at 0 health, uneliminated, while somebody decides; then it all lands.
        ready = s._ready
        while queue:
            q, amount, source, attack = queue.pop(0)
            if not alive[q]:
                continue
            for card, fn in s._mine[q][GUARD]:
                if amount > 0:
                    amount = fn(s, q, card, amount, source, attack)
            if amount <= 0:
                continue
            s._pending_hit = (q, amount, source, attack)
            if ask_damage(s):
                return
            s._pending_hit = None
            ready.append((q, amount, source, attack))
        while ready:
            q, amount, source, attack = ready.pop(0)
            if alive[q] and health[q] > 0:
                land(s, q, amount, source, attack)
    settle(s)
    then = s._then
    s._then = THEN_NOTHING
    if then == THEN_ATTACK:
        s.rules.steps.after_attack(s)
    elif then == THEN_BUY:
        s.rules.steps.after_card_damage(s)
    elif then == THEN_END:
        s.rules.steps.finish_turn(s)
    elif then == THEN_DICE:
        s.rules.steps.after_dice_damage(s)
    elif then == THEN_REROLL:
        s.rules.steps.after_reroll_damage(s)


def ask_damage(s: State) -> bool:
    """Offer the monster about to take ``_pending_hit`` its cards (Wings, Jets...)."""
    return ask(s, s._pending_hit[0], DAMAGE)


def resume(s: State) -> None:
    """Go on after a ``damage`` decision: keep the pending damage unless a card took it."""
    pending = s._pending_hit
    if pending is not None:
        if pending[1] > 0 and s.alive[pending[0]] and ask_damage(s):
            return
        s._pending_hit = None
        if pending[1] > 0:
            s._ready.append(pending)
    drain(s)


def land(s: State, q: int, amount: int, source: int, attack: bool) -> None:
    """``q`` loses ``amount`` health (it is eliminated later, with the others at 0)."""
    health = s.health
    health[q] -= amount
    if s.log is not None:
        s.log.append(("damage", q, amount, source))
    if health[q] <= 0:
        health[q] = 0
        s._dropped.append(q)
    if attack:
        s._hit.append(q)
    if source == s.active and q != source:
        s._dealt = True
    if s._slow:
        for card, fn in s._mine[q][HURT]:
            fn(s, q, card, amount)


def settle(s: State) -> None:
    """Eliminate every monster the damage left at 0 health, together.

    An elimination can drop another monster to 0 (a Mimic copying the eliminated
    monster's Even Bigger takes back its 2 health): it is eliminated with them.
    """
    if not s._dropped:
        return
    eliminate = s.rules.steps.eliminate
    while s._dropped:
        dropped = s._dropped
        s._dropped = []
        if s._slow:
            for q in dropped:
                for owner, card, fn in s._hooks[ZERO]:
                    fn(s, owner, card, q)
        for q in dropped:
            if s._slow and any(fn(s, q, card) for card, fn in s._mine[q][RESCUE]):
                continue
            eliminate(s, q)
    close_bay(s)


def lose_health(s: State, q: int, amount: int, reason: str) -> None:
    """``q`` loses ``amount`` health that is not damage: a card takes back the health it
    gave (Even Bigger lost). No card guards against it (Armor Plating, Camouflage,
    Wings), nobody dealt it (Herbivore), but it is health lost (the ``hurt`` moment:
    We're Only Making It Stronger). A monster it leaves at 0 is eliminated as damage
    would eliminate it (ruling in docs/cards.md): after the card decision whose card
    was lost (``choices``), or with the monsters being eliminated when an elimination
    took the card away (:func:`settle`).

    A monster already at 0 (being eliminated, or saved by It Has a Child, which then
    heals it to its new maximum) loses nothing more.
    """
    health = s.health
    if not s.alive[q] or health[q] <= 0 or amount <= 0:
        return
    amount = min(amount, health[q])
    health[q] -= amount
    if s.log is not None:
        s.log.append(("lose health", q, amount, reason))
    if health[q] == 0:
        s._dropped.append(q)
    if s._slow:
        for card, fn in s._mine[q][HURT]:
            fn(s, q, card, amount)


def damage_now(s: State, q: int, amount: int, source: int) -> int:
    """Deal card damage to ``q`` now, eliminating it at 0; returns the damage dealt.

    Inside a turn step damage goes through the queue (``state.queue_damage``); this is
    the one-shot form for effects applied outside one.
    """
    before = s.health[q]
    s.queue_damage(q, amount, source)
    then, s._then = s._then, THEN_NOTHING
    drain(s)
    s._then = then
    return before - s.health[q]


def eliminate(s: State, q: int) -> None:
    """The classic elimination (a step of the rules' table): ``q`` is out of the game,
    leaves Tokyo, loses its tokens and discards its cards (the caller closes the Bay)."""
    s.alive[q] = False
    s.alive_count -= 1
    s.eliminated_at[q] = (s.turn, s._batch)
    if s.log is not None:
        s.log.append(("eliminated", q))
    if q == s.city or q == s.bay:
        s.leave_tokyo(q, "eliminated")
    s.poison[q] = s.shrink[q] = 0
    if s.owned[q]:
        discard_all(s, q)


def eliminate_losing_energy(s: State, q: int) -> None:
    """The Origins elimination (a step of the rules' table): as the classic one, and
    the monster's energy goes back to the bank too ("all its cards and energy are
    discarded", seed 001)."""
    eliminate(s, q)
    s.lose_energy(q, s.energy[q], "eliminated")


def discard_all(s: State, q: int) -> None:
    """Every card ``q`` owns goes to the discard pile."""
    cards = s.owned[q]
    s.owned[q] = []
    s.discard.extend(cards)
    for card in cards:
        s.counters.pop(card, None)
        s._effects[card].lost(s, q, card)
    cards_changed(s)


def close_bay(s: State) -> None:
    """Tokyo Bay closes once fewer monsters than the rules' threshold are alive; its
    monster leaves Tokyo."""
    if s.bay_open and s.alive_count < s.rules.bay_min_players:
        s.bay_open = False
        if s.log is not None:
            s.log.append(("bay closed",))
        if s.bay >= 0:
            s.leave_tokyo(s.bay, "bay closed")


def cancel_pending(s: State, amount: int) -> int:
    """Prevent ``amount`` (``-1``: all) of the damage a ``damage`` decision is about;
    returns how much was prevented."""
    q, pending, source, attack = s._pending_hit
    prevented = pending if amount < 0 else min(amount, pending)
    s._pending_hit = (q, pending - prevented, source, attack)
    return prevented
