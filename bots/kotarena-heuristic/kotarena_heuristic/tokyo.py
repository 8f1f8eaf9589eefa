"""Stay in Tokyo or yield it, by our health and the attacks still to come.

Staying pays 2 stars at the start of our next turn, if we live to see it. Before
then, every monster outside Tokyo whose turn comes between the attacker's and ours
can claw us, and we cannot yield again before taking that damage. So we stay while
our health comfortably exceeds what those turns are likely to deal, and always when
nobody rolls before us.
"""

from __future__ import annotations

from kotarena.engine.actions import Action

STAY = Action.of("stay")
YIELD = Action.of("yield")

#: We yield at this health or less, plus ``YIELD_PER_ROLLER`` for each monster that
#: rolls before our next turn.
YIELD_BASE = 3.0
YIELD_PER_ROLLER = 2.0
#: With this many stars, the 2 stars of our next turn win the game: worth a risk.
NEARLY_WON = 18
#: An attacker this close to winning must not be let in cheaply (+1 star for entering,
#: +2 at its next turn).
ATTACKER_THREAT = 16


def rollers_before_me(t, me: int) -> int:
    """Living monsters outside Tokyo whose turns come after the attacker's and before ours."""
    alive = t.alive
    n = len(alive)
    count = 0
    seat = (t.active + 1) % n
    while seat != me:
        if alive[seat] and seat != t.city and seat != t.bay:
            count += 1
        seat = (seat + 1) % n
    return count


def yield_threshold(t, me: int) -> float:
    """Yield at this health or less."""
    rollers = rollers_before_me(t, me)
    if rollers == 0:
        return 0.0  # nobody can attack before our turn: the stars are free
    threshold = YIELD_BASE + YIELD_PER_ROLLER * rollers
    if t.stars[me] >= NEARLY_WON or t.stars[t.active] >= ATTACKER_THREAT:
        threshold -= 2
    return threshold


def should_yield(t, me: int) -> bool:
    """Leave Tokyo to the attacker?"""
    return t.health[me] <= yield_threshold(t, me)


def yield_action(t, me: int, legal) -> Action:
    """The yield decision: ``stay`` or ``yield``."""
    action = YIELD if should_yield(t, me) else STAY
    return action if action in legal else legal[0]
