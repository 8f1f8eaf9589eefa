"""The start of a turn and the dice: the roll-off, the first roll, rerolls, and the
dice that cards roll.

Dice do not depend on decisions: at the start of each turn the engine draws one number
per roll a turn normally has, which fixes the face of every die position in that roll
(:func:`faces`), and a roll takes the faces of the positions it rolls. Whatever a player
keeps, the die at position 3 of the second roll of turn 12 shows the same face, so
replaying a seed with the seats rotated ("duplicate" play) hands every seat the same
luck. Rolls beyond the usual ones (cards) and the dice cards roll come from streams of
their own, so taking them or not leaves every later turn's dice as they were.
"""

from __future__ import annotations

import random as _random_module
from typing import TYPE_CHECKING, Final

from kotarena.games.kot.cards.moments import BONUS_REROLL, REROLLED, START_TURN
from kotarena.games.kot.cards.moments import DICE_COUNT as DICE_COUNT_MOMENT
from kotarena.games.kot.damage import drain
from kotarena.games.kot.end import finish_last_standing
from kotarena.games.kot.faces import CLAW
from kotarena.games.kot.hooks import NO_FLAGS, ask
from kotarena.games.kot.kinds import ROLL, START_CARDS, THEN_REROLL
from kotarena.games.kot.resolve import resolve
from kotarena.games.kot.rulings import ROLL_OFF_ONLY_THE_TIED_ROLL_AGAIN
from kotarena.games.kot.tables import reroll_legal

if TYPE_CHECKING:
    from kotarena.games.kot.state import State

#: The faces of four dice for each number below 6**4, the first die slowest.
_FOUR_FACES: Final = tuple((a, b, c, d) for a in range(6) for b in range(6) for c in range(6) for d in range(6))
_EIGHT_DICE: Final = 6**8


def faces(key: float, slots: int) -> tuple[int, ...]:
    """The faces of the ``slots`` die positions of one roll (``Rules.die_slots``, eight
    in the classic game), from one ``random()`` number: its first 6**slots outcomes in
    base 6, one digit per die, the first die slowest.

    One draw per roll instead of one per die keeps the dice as fair as before (a 53-bit
    number spread over 6**8 outcomes favours some by less than one part in a billion)
    at an eighth of the calls.
    """
    if slots == 8:
        high, low = divmod(int(key * _EIGHT_DICE), 1296)
        return _FOUR_FACES[high] + _FOUR_FACES[low]
    number = int(key * 6**slots)
    found = [0] * slots
    for i in range(slots - 1, -1, -1):
        number, found[i] = divmod(number, 6)
    return tuple(found)


def roll_off(s: State) -> int:
    """The classic roll-off (a step of the rules' table): everyone rolls the dice; most
    claws starts, ties roll again (among themselves: ``ROLL_OFF_ONLY_THE_TIED_ROLL_AGAIN``)."""
    contenders = [p for p in range(s.n) if s.alive[p]]
    while len(contenders) > 1:
        claws = {p: roll_off_dice(s).count(CLAW) for p in contenders}
        best = max(claws.values())
        if s.log is not None:
            s.log.append(("rolloff", tuple(sorted(claws.items()))))
        if ROLL_OFF_ONLY_THE_TIED_ROLL_AGAIN or list(claws.values()).count(best) == 1:
            contenders = [p for p in contenders if claws[p] == best]
    return contenders[0]


def roll_off_dice(s: State) -> list[int]:
    """One monster's dice in the roll-off."""
    if s._script is not None:
        return s._script.roll(s.rules.dice)
    random = s._random
    return [int(random() * 6) for _ in range(s.rules.dice)]


def draw_turn_dice(s: State) -> None:
    """Draw this turn's dice: one number per roll a turn normally has, each standing for
    the faces of all ``Rules.die_slots`` die positions of that roll (see :func:`faces`)."""
    random = s._random
    s._turn_dice = [random() for _ in range(s.rules.rerolls + 1)]
    s._roll_no = 0


def roll_faces(s: State, positions: tuple[int, ...]) -> list[int]:
    """Faces for the dice at ``positions`` (from 1) in the turn's next roll."""
    if s._script is not None:
        return s._script.roll(len(positions))
    roll_no = s._roll_no
    s._roll_no = roll_no + 1
    keys = s._turn_dice
    if roll_no >= len(keys):
        # A roll beyond the usual three (cards): its faces come from a stream of
        # their own for this turn and roll, so taking it or not leaves every later
        # turn's dice as they were (duplicate play relies on that).
        stream = _random_module.Random(((s.seed or 0) * 1_000_003 + s.turn) * 1_009 + roll_no + 1)
        keys.append(stream.random())
    rolled = faces(keys[roll_no], s.rules.die_slots)
    return [rolled[i - 1] for i in positions]


def card_dice(s: State, count: int) -> list[int]:
    """Dice a card rolls (Camouflage): scripted, or from their own stream per roll."""
    if s._script is not None:
        return s._script.roll(count)
    s._card_rolls += 1
    stream = _random_module.Random((s.seed or 0) * 7_000_003 + s._card_rolls)
    return [int(stream.random() * 6) for _ in range(count)]


def start_turn(s: State) -> None:
    """The active monster's turn starts (a step of the rules' table): what Tokyo gives,
    start-of-turn cards and choices, then the first roll."""
    p = s.active
    s.turn += 1
    log = s.log
    if log is not None:
        log.append(("turn", p, s.turn))
    s._dealt = False
    if p == s.city or p == s.bay:
        rules = s.rules
        if rules.start_tokyo_stars:
            s.gain_stars(p, rules.start_tokyo_stars, "start in tokyo")
        if rules.start_tokyo_energy:
            s.gain_energy(p, rules.start_tokyo_energy)
    if s._slow:
        s._flags = NO_FLAGS
        s._revealed = []
        for card, fn in s._mine[p][START_TURN]:
            fn(s, p, card)
        if s.alive[p] and ask(s, p, START_CARDS):
            s.dice = []  # nothing rolled yet this turn
            s.rolls_left = 0
            return
    first_roll(s)


def first_roll(s: State) -> None:
    """The turn's first roll, then the roll decision."""
    p = s.active
    rules = s.rules
    count = rules.dice
    if s._slow and (s._mine[p][DICE_COUNT_MOMENT] or s.shrink[p]):
        count = dice_count(s, p)
    if s._script is None:
        draw_turn_dice(s)
        s._roll_no = 1
        s.dice = list(faces(s._turn_dice[0], rules.die_slots)[:count])
    else:
        s.dice = s._script.roll(count)
    if s.log is not None:
        s.log.append(("roll", p, tuple(s.dice), ()))
    s.rolls_left = rules.rerolls
    s._decide(p, ROLL, reroll_legal(count))


def dice_count(s: State, p: int) -> int:
    """Dice rolled this turn: six, more with Extra Head, fewer per shrink token."""
    count = s.rules.dice
    for card, fn in s._mine[p][DICE_COUNT_MOMENT]:
        count = fn(s, p, card, count)
    return max(0, min(s.rules.die_slots, count - s.shrink[p]))


def reroll(s: State, positions: tuple[int, ...]) -> None:
    """Reroll the dice at ``positions``; once the rerolls run out the dice resolve."""
    dice = s.dice
    roll_no = s._roll_no
    if s._script is None and roll_no < len(s._turn_dice):
        # The usual rerolls take their faces straight from the turn's draw.
        s._roll_no = roll_no + 1
        rolled = faces(s._turn_dice[roll_no], s.rules.die_slots)
        for position in positions:
            dice[position - 1] = rolled[position - 1]
    else:
        for position, face in zip(positions, roll_faces(s, positions)):
            dice[position - 1] = face
    if s.log is not None:
        s.log.append(("roll", s.active, tuple(dice), positions))
    s.rolls_left -= 1
    if s._slow and s._hooks[REROLLED]:
        p = s.active
        for owner, card, fn in s._hooks[REROLLED]:
            if owner != p:
                fn(s, owner, card, p)
        if s._queue:
            # Orb of Doom: the roller loses the health at the reroll itself, so a roller
            # it eliminates is out before its dice resolve (seed 001: a monster that
            # loses its last health is out of the game).
            s._batch += 1
            s._then = THEN_REROLL
            drain(s)
            return
    if s.rolls_left == 0:
        rerolls_over(s)


def after_reroll_damage(s: State) -> None:
    """The health a reroll cost has been lost (a step of the rules' table): the game
    ends if one monster or none is left; a roller it eliminated takes no further step
    (its dice never resolve: no stars, energy, hearts or claws); otherwise the roll goes
    on, with the roll decision again if rerolls are left (a ``damage`` decision may
    have come between)."""
    p = s.active
    if s.alive_count <= 1:
        finish_last_standing(s)
    elif not s.alive[p]:
        s.rules.steps.finish_turn(s)
    elif s.rolls_left:
        s._decide(p, ROLL, reroll_legal(len(s.dice)))
    else:
        rerolls_over(s)


def rerolls_over(s: State) -> None:
    """The rerolls have run out: a card's extra reroll (Giant Brain), or the dice resolve."""
    if s._slow and s._mine[s.active][BONUS_REROLL] and bonus_reroll(s):
        return
    resolve(s)


def bonus_reroll(s: State) -> bool:
    """A card's extra reroll (Giant Brain) once the usual ones ran out."""
    p = s.active
    for card, fn in s._mine[p][BONUS_REROLL]:
        key = ("reroll", card)
        if key not in s._flags and fn(s, p, card):
            s._flags = s._flags | {key}
            grant_reroll(s)
            return True
    return False


def grant_reroll(s: State) -> None:
    """Give the active monster one more reroll: a roll decision with one reroll left."""
    s.rolls_left = 1
    s._decide(s.active, ROLL, reroll_legal(len(s.dice)))
