"""The end of a turn and of the game: end-of-turn cards and poison, whose turn is next,
and the outcome with every seat's rank.

The next turn starts through the rules' step table (``Rules.steps.start_turn``): the
start of a turn lives in a module above this one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from kotarena.engine.outcome import Outcome, Termination
from kotarena.games.kot.cards.moments import END_TURN
from kotarena.games.kot.damage import drain
from kotarena.games.kot.hooks import ask
from kotarena.games.kot.kinds import END_CARDS, THEN_END
from kotarena.games.kot.tables import NO_LEGAL

if TYPE_CHECKING:
    from kotarena.games.kot.state import State

#: How a game of the family ends (its ``Game.endings`` say each in words): a monster
#: reaches the stars to win at the end of a turn, or is the last one standing, or the
#: last monsters fall together and nobody wins.
STARS: Final = Termination("stars")
LAST_STANDING: Final = Termination("last_standing")
ALL_ELIMINATED: Final = Termination("all_eliminated")


def end_turn(s: State) -> None:
    """The buy step is over: end-of-turn choices and cards, poison, then the next turn."""
    if s._slow:
        if ask(s, s.active, END_CARDS):
            return
        end_turn_effects(s)
        return
    finish_turn(s)


def end_turn_effects(s: State) -> None:
    """The active monster's end-of-turn cards, then its poison."""
    if s._slow:
        p = s.active
        for card, fn in s._mine[p][END_TURN]:
            fn(s, p, card)
        if s.poison[p] and s.alive[p]:
            s._batch += 1
            s._queue.append((p, s.poison[p], -1, False))
            s._then = THEN_END
            drain(s)
            return
    finish_turn(s)


def finish_turn(s: State) -> None:
    """The turn is over: a win on stars, or the next monster's turn (the same monster's
    again for an extra turn)."""
    if s.alive_count <= 1:
        # Eliminations outside the claws step (cards that hurt during the buy step,
        # the active monster included) end the game here at the latest.
        finish_last_standing(s)
        return
    alive = s.alive
    stars = s.stars
    n = s.n
    p = s.active
    goal = s.rules.stars_to_win
    if max(stars) >= goal:
        best = -1
        for step in range(n):
            q = (p + step) % n
            if alive[q] and stars[q] >= goal and stars[q] > (stars[best] if best >= 0 else -1):
                best = q
        if best >= 0:
            finish(s, best, STARS)
            return
    if s._extra_turns and alive[p]:
        # Frenzy: the same monster plays again (stars and wins were checked first).
        s._extra_turns -= 1
        if s.log is not None:
            s.log.append(("extra turn", p))
        q = p
    else:
        s._extra_turns = 0
        q = (p + 1) % n
        while not alive[q]:
            q = (q + 1) % n
    s.active = q
    if s.pause_between_turns:
        s.between_turns = True
        s._decide(-1, None, NO_LEGAL)
        return
    s.rules.steps.start_turn(s)


def finish_last_standing(s: State) -> None:
    """One monster is left (it wins), or none (nobody wins)."""
    if s.alive_count == 1:
        finish(s, s.alive.index(True), LAST_STANDING)
    else:
        finish(s, None, ALL_ELIMINATED)


def finish(s: State, winner: int | None, termination: Termination) -> None:
    """The game is over."""
    s.outcome = Outcome(winner, termination, ranks(s, winner), s.turn)
    s._decide(-1, None, NO_LEGAL)
    if s.log is not None:
        s.log.append(("over", winner, termination.value))


def ranks(s: State, winner: int | None) -> tuple[int, ...]:
    """Every seat's place, 0 for the best (see :class:`~kotarena.engine.outcome.Outcome`)."""
    # Sort keys: winner first, then survivors by stars, then the eliminated,
    # later eliminations first. Equal keys are ties.
    def key(p: int) -> tuple:
        if p == winner:
            return (0,)
        if s.alive[p]:
            return (1, -s.stars[p])
        turn, batch = s.eliminated_at[p]
        return (2, -turn, -batch)

    keys = [key(p) for p in range(s.n)]
    # Competition ranking ("1224"): a place counts the players strictly ahead.
    return tuple(sum(1 for k in keys if k < mine) for mine in keys)
