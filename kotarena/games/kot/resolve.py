"""Resolving the dice: cards that act on the finished roll, then numbers, energy,
hearts (healing, or curing tokens), and claws (the attack).

Without cards in play (``_slow`` false) the claws land inline, with no queue: nothing
can change or follow that damage. With cards they go through the damage queue
(:mod:`kotarena.games.kot.damage`), which goes on with the rest of the attack once it
is empty.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kotarena.engine.actions import Action
from kotarena.games.kot.cards.moments import ATTACK_BONUS, CARD_DAMAGE, CLAWS, SCORE, TARGETS
from kotarena.games.kot.damage import drain, settle
from kotarena.games.kot.faces import CLAW, ENERGY, HEART
from kotarena.games.kot.hooks import ask, offers
from kotarena.games.kot.kinds import CITY, DICE_CARDS, HEARTS, PROBE, THEN_ATTACK, THEN_DICE
from kotarena.games.kot.rulings import CURE_TOKENS_ONLY_OUTSIDE_TOKYO
from kotarena.games.kot.tables import Table
from kotarena.games.kot.tokyo import after_attack
from kotarena.games.vocabulary import CURE, PASS_ACTION

if TYPE_CHECKING:
    from kotarena.games.kot.state import State


def resolve(s: State) -> None:
    """The roll is over: other monsters' cards, then the roller's, may act on the dice."""
    if s._slow:
        p = s.active
        n = s.n
        for step in range(1, n if PROBE in s._offer_hooks else 1):
            q = (p + step) % n
            if s.alive[q] and ask(s, q, PROBE):
                return
        if ask(s, p, DICE_CARDS):
            return
    resolve_dice(s)


def resolve_dice(s: State) -> None:
    """Resolve the dice: numbers, energy, hearts, then claws (see docs/rules.md)."""
    p = s.active
    dice = s.dice
    stars = 0
    for face in (0, 1, 2):
        count = dice.count(face)
        if count >= 3:
            stars += face + count - 2
    if s._slow:
        for card, fn in s._mine[p][SCORE]:
            stars += fn(s, p, card, dice)
    if stars:
        s.gain_stars(p, stars, "dice")
    count = dice.count(ENERGY)
    if count:
        if s._slow:
            s.gain_energy(p, count)
        else:
            s.energy[p] += count
            if s.log is not None:
                s.log.append(("energy", p, count))
    count = dice.count(HEART)
    if count:
        if s._slow and (HEARTS in s._offer_hooks or s.poison[p] or s.shrink[p]):
            s._hearts_left = count
            table = hearts_table(s, p)
            if len(table[0]) > 1:
                s._decide(p, HEARTS, table)
                return
            s._hearts_left = 0
        if p != s.city and p != s.bay:
            s.heal(p, count)
    if s._slow:
        resolve_claws(s)
        return
    count = dice.count(CLAW)
    if count:
        claws(s, p, count)
    else:
        s.rules.steps.enter_tokyo(s)


def hearts_table(s: State, p: int) -> Table:
    """Hearts left to spend: on tokens (outside Tokyo), on cards (Healing Ray), or healing."""
    hearts = s._hearts_left
    legal: list[Action] = [PASS_ACTION]
    if not CURE_TOKENS_ONLY_OUTSIDE_TOKYO or (p != s.city and p != s.bay):
        for poison in range(min(hearts, s.poison[p]) + 1):
            for shrink in range(min(hearts - poison, s.shrink[p]) + 1):
                if poison or shrink:
                    legal.append(Action.of(CURE, poison, shrink))
    legal.extend(offers(s, p, HEARTS))
    return tuple(legal), frozenset(legal)


def cure(s: State, p: int, poison: int, shrink: int) -> None:
    """Hearts spent on tokens; the other hearts heal."""
    s.poison[p] -= poison
    s.shrink[p] -= shrink
    if s.log is not None:
        s.log.append(("cure", p, poison, shrink))
    s._hearts_left -= poison + shrink
    end_hearts(s, p)


def end_hearts(s: State, p: int) -> None:
    """The hearts not spent otherwise heal (outside Tokyo); then the claws."""
    hearts, s._hearts_left = s._hearts_left, 0
    if p != s.city and p != s.bay:
        s.heal(p, hearts)
    resolve_claws(s)


def resolve_claws(s: State) -> None:
    """Count the claws (cards may add some, or deal damage without them) and attack."""
    p = s.active
    count = s.dice.count(CLAW)
    if s._slow:
        mine = s._mine[p]
        for card, fn in mine[CLAWS]:
            count = fn(s, p, card, s.dice, count)
        if not count:
            damage = 0
            for card, fn in mine[CARD_DAMAGE]:
                damage += fn(s, p, card)
            if damage:
                # Damage without claws is not an attack: nobody yields to it. The
                # rules' step says what follows (classic: the buy step; Origins: the
                # Enter Tokyo step, which an elimination may have opened).
                s._batch += 1
                for q in claw_targets(s, p):
                    s._queue.append((q, damage, p, False))
                s._then = THEN_DICE
                drain(s)
                return
    if count:
        claws(s, p, count)
    else:
        s.rules.steps.enter_tokyo(s)


def claw_targets(s: State, p: int) -> list[int]:
    """Who claws from ``p`` would hit now (nobody if Tokyo is empty and ``p`` outside)."""
    city, bay = s.city, s.bay
    alive = s.alive
    if p == city or p == bay:
        return [q for q in range(s.n) if alive[q] and q != city and q != bay]
    return [q for q in (city, bay) if q >= 0]


def claws(s: State, p: int, count: int) -> None:
    """``p`` attacks with ``count`` claws: every monster in the other location (or, with
    the classic rules, an empty Tokyo is taken instead)."""
    city, bay = s.city, s.bay
    slow = s._slow
    if slow and s._mine[p][TARGETS]:
        # Nova Breath: every other monster. An empty Tokyo is taken first, so the
        # attack comes from Tokyo and nobody yields to it.
        if city < 0 and bay < 0 and s.rules.claws_take_tokyo:
            s.take_tokyo(p, CITY)
        alive = s.alive
        targets = [q for q in range(s.n) if alive[q] and q != p]
    elif p == city or p == bay:
        alive = s.alive
        targets = [q for q in range(s.n) if alive[q] and q != city and q != bay]
    elif city < 0 and bay < 0 and s.rules.claws_take_tokyo:
        # An empty Tokyo is taken without dealing damage.
        s.take_tokyo(p, CITY)
        s.rules.steps.enter_tokyo(s)
        return
    else:
        targets = [q for q in (city, bay) if q >= 0]
    s._batch += 1
    if not slow:
        # damage.land for every target, inlined: no card can change or follow this damage.
        s._hit = hit = []
        health = s.health
        log = s.log
        for q in targets:
            health[q] -= count
            if log is not None:
                log.append(("damage", q, count, p))
            if health[q] <= 0:
                health[q] = 0
                s._dropped.append(q)
            hit.append(q)
        s._dealt = True
        if s._dropped:
            settle(s)
        after_attack(s)
        return
    queue = s._queue
    from_tokyo = p == s.city or p == s.bay
    bonuses = s._mine[p][ATTACK_BONUS]
    for q in targets:
        amount = count
        for card, fn in bonuses:
            amount += fn(s, p, card, q, from_tokyo)
        queue.append((q, amount, p, True))
    s._hit = []
    s._then = THEN_ATTACK
    drain(s)
