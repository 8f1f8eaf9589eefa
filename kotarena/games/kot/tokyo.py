"""Tokyo after an attack: yielding, the attacker moving in, and the Enter Tokyo step.

Entering and leaving a place are the state's own (``state.take_tokyo``,
``state.leave_tokyo``), since cards do both; this module holds the steps of the turn
around them. The Enter Tokyo step is a step of the rules' table
(``Rules.steps.enter_tokyo``) that every path from the resolved dice to the buy step
goes through: in the classic game it moves the attacker in after an attack from outside
(:func:`attacker_moves_in`); in Origins whoever ends the resolve step with Tokyo empty
enters (:func:`enter_when_empty`), and card damage dealt while the dice resolve goes on
to that step (:func:`after_dice_damage`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kotarena.games.kot.cards.moments import ATTACKED, STAYED, TAKEN, YIELDED
from kotarena.games.kot.damage import drain
from kotarena.games.kot.end import finish_last_standing, finish_turn
from kotarena.games.kot.kinds import BAY, CITY, THEN_BUY, YIELD_TOKYO
from kotarena.games.kot.market import buy_step
from kotarena.games.kot.tables import YIELD_LEGAL

if TYPE_CHECKING:
    from kotarena.games.kot.state import State


def after_attack(s: State) -> None:
    """The claws have landed (a step of the rules' table): attack effects, then the
    monsters in Tokyo that were hit may yield, then the Enter Tokyo step."""
    p = s.active
    if s.alive_count <= 1:
        finish_last_standing(s)
        return
    if not s.alive[p]:  # an elimination took its Mimic copy of Even Bigger, and its last 2 health
        s.rules.steps.finish_turn(s)
        return
    hit = s._hit
    # A monster that escaped with Jets was attacked too: it yielded to this attack.
    escaped = s._slow and s._flags and any(flag[0] == "yielded" for flag in s._flags)
    if (hit or escaped) and s._slow:
        for card, fn in s._mine[p][ATTACKED]:
            fn(s, p, card, hit)
    if not (hit or escaped) or p == s.city or p == s.bay:
        s.rules.steps.enter_tokyo(s)
        return
    s._attacker = p
    s._yielders = [q for q in hit if s.alive[q] and (q == s.city or q == s.bay)]
    ask_yield(s)


def ask_yield(s: State) -> None:
    """Offer the next damaged monster still in Tokyo the choice to yield."""
    yielders = s._yielders
    while yielders:
        q = yielders.pop(0)
        if q == s.city or q == s.bay:
            s._decide(q, YIELD_TOKYO, YIELD_LEGAL)
            return
    s.rules.steps.enter_tokyo(s)


def stay(s: State, player: int) -> None:
    """``player``, hurt by claws in Tokyo, stays (its cards may reward that); the next
    damaged monster in Tokyo is asked."""
    if s._slow:
        for card, fn in s._mine[player][STAYED]:
            fn(s, player, card)
    ask_yield(s)


def yield_tokyo(s: State, player: int) -> None:
    """``player`` yields its place; the next damaged monster in Tokyo is asked."""
    if s._slow:
        give_way(s, player)
    else:
        s.leave_tokyo(player, "yield")
    ask_yield(s)


def give_way(s: State, player: int) -> None:
    """``player`` leaves Tokyo to the attacker (a yield, or Jets before the damage)."""
    place = s.place_of(player)
    s.leave_tokyo(player, "yield")
    if s._slow:
        s._flags = s._flags | {("yielded", place, player)}
        for card, fn in s._mine[player][YIELDED]:
            fn(s, player, card, s.active)


def attacker_moves_in(s: State) -> None:
    """The classic Enter Tokyo step (``Rules.steps.enter_tokyo``): after an attack from
    outside, once the yields are answered, the attacker takes an empty place, City
    first; then the buy step. (Claws that find Tokyo empty took it already.)"""
    p = s._attacker
    if p >= 0:
        s._attacker = -1
        place = None
        if s.city < 0:
            place = CITY
        elif s.bay_open and s.bay < 0:
            place = BAY
        if place is not None:
            s.take_tokyo(p, place)
            if s._slow:
                for flag in s._flags:
                    if flag[0] == "yielded" and flag[1] == place:
                        owner = flag[2]
                        for card, fn in s._mine[owner][TAKEN]:
                            fn(s, owner, card, p)
    if s._queue:
        # Card damage waits here for the buy step: a card hurt the monster moving in
        # (Burrowing), or cards hurt as the dice resolved or Tokyo was taken (Flaming
        # Aura, Gamma Blast).
        s._then = THEN_BUY
        drain(s)
        return
    buy_step(s)


def enter_when_empty(s: State) -> None:
    """The Origins Enter Tokyo step (``Rules.steps.enter_tokyo``): the active monster,
    alive and outside, enters Tokyo City if the resolved dice left it empty, claws or
    not (so the game's first player always enters); then the buy step. An attacker
    whose target yielded or fell enters the same way."""
    p = s.active
    if s.city < 0 and s.alive[p] and p != s.bay:
        s._attacker = p
    attacker_moves_in(s)


def after_dice_damage(s: State) -> None:
    """Card damage dealt while the dice resolve has landed (Origins: a step of the
    rules' table): unless it ended the game or the active monster, the Enter Tokyo step
    (the damage may have emptied Tokyo). Nobody yields to it: it was not an attack."""
    if s.alive_count <= 1:
        finish_last_standing(s)
    elif not s.alive[s.active]:
        finish_turn(s)  # a monster eliminated on its own turn takes no further step
    else:
        s.rules.steps.enter_tokyo(s)
