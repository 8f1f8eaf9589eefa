"""Which dice to keep: goals chosen from the monster's situation, one die at a time.

Every roll decision answers one question: which dice to reroll. The rules here decide,
face by face, how many dice of that face serve a goal worth having *now*:

* **claws** when they hurt: in Tokyo every claw hits every monster outside. Outside,
  one claw takes an empty Tokyo (when healthy enough to sit there), and claws hit the
  monsters in Tokyo when they eliminate one, when one is close to winning, or when we
  are healthy enough to take Tokyo over (an attacker must move in if they yield).
* **hearts** when hurt and outside Tokyo (dice cannot heal a monster in Tokyo), never
  more than the health missing.
* **numbers**: a triple always scores; a pair of 2s or 3s is kept while rerolls are
  left, unless the monster is so hurt that every die should look for hearts.
* **energy**: as many dice as the buy rules ask for (see :mod:`kotarena_heuristic.cards`).

Dice that serve no goal are rerolled; when every die serves one, the bot stops. Dice
that already win the game (20 stars, or claws that eliminate everyone left) stop at
once.

The functions read only fields that a :class:`~kotarena.games.kot.view.View` and a
:class:`~kotarena.games.kot.state.State` share (``health``, ``stars``, ``city``, ``dice``
...), so a search bot can run them on its simulated games without building views.
"""

from __future__ import annotations

from kotarena.engine.actions import Action

ONE, TWO, THREE, ENERGY, HEART, CLAW = range(6)
WINNING_STARS = 20

#: A monster outside with at least this much health goes for an empty Tokyo.
ENTER_HEALTH = 6
#: A monster outside with at least this much health attacks the monsters in Tokyo
#: even though it must move in if they yield.
ATTACK_HEALTH = 8
#: An opponent with this many stars is close enough to winning that hurting it
#: matters more than our own safety.
THREAT_STARS = 15
#: At this health or less outside Tokyo, every die looks for hearts: no pairs held.
DESPERATE_HEALTH = 3
#: With this many stars a pair of 1s is worth holding too.
CLOSE_TO_WINNING = WINNING_STARS - 4

STOP = Action.of("stop")

# Legal lists are shared tables (one per dice count), so their sets are worth caching;
# a scan of a 64-action tuple costs more than the rest of a decision. Each entry keeps
# its tuple alive, so an id is never reused while cached.
_LEGAL_SETS: dict[int, tuple[tuple, frozenset]] = {}


def is_legal(action: Action, legal) -> bool:
    """``action in legal``, fast for the engine's shared legal tables."""
    entry = _LEGAL_SETS.get(id(legal))
    if entry is None or entry[0] is not legal:
        if len(_LEGAL_SETS) > 256:
            _LEGAL_SETS.clear()
        entry = _LEGAL_SETS[id(legal)] = (legal, frozenset(legal))
    return action in entry[1]


def number_stars(counts: list[int]) -> int:
    """Stars the number faces score: ``n`` for three ``n``, +1 per extra die."""
    stars = 0
    for face in (ONE, TWO, THREE):
        if counts[face] >= 3:
            stars += face + counts[face] - 2
    return stars


def face_counts(dice) -> list[int]:
    counts = [0] * 6
    for face in dice:
        counts[face] += 1
    return counts


def targets_of(t, me: int) -> list[int]:
    """The monsters our claws would hit now: outside Tokyo if we are in, else those in Tokyo."""
    city, bay = t.city, t.bay
    if me == city or me == bay:
        alive = t.alive
        return [q for q in range(len(alive)) if alive[q] and q != city and q != bay]
    return [q for q in (city, bay) if q >= 0]


def wins_now(t, me: int, counts: list[int]) -> bool:
    """Do these dice, resolved as they are, win the game?"""
    stars = t.stars[me] + number_stars(counts)
    in_tokyo = me == t.city or me == t.bay
    targets = targets_of(t, me)
    claws = counts[CLAW]
    if claws and not in_tokyo and not targets:
        stars += 1  # taking the empty Tokyo
    if stars >= WINNING_STARS:
        return True
    if not claws or not targets:
        return False
    # Last monster standing: the claws eliminate every other living monster.
    alive = t.alive
    others = [q for q in range(len(alive)) if alive[q] and q != me]
    return all(q in targets and t.health[q] <= claws for q in others)


def keep_counts(t, me: int, counts: list[int], energy_wanted: int = 0) -> list[int]:
    """How many dice of each face to keep (the rest are rerolled)."""
    keep = [0] * 6
    health = t.health[me]
    stars = t.stars
    in_tokyo = me == t.city or me == t.bay
    targets = targets_of(t, me)
    claws = counts[CLAW]

    if in_tokyo:
        keep[CLAW] = claws  # every claw hits every monster outside
    elif not targets:
        # An empty Tokyo: one claw takes it (+1 star, +2 each turn started there);
        # more claws deal no damage.
        if health >= ENTER_HEALTH or stars[me] >= WINNING_STARS - 3:
            keep[CLAW] = min(1, claws)
    else:
        weakest = min(t.health[q] for q in targets)
        threat = max(stars[q] for q in targets)
        if claws >= weakest or health >= ATTACK_HEALTH or threat >= THREAT_STARS:
            keep[CLAW] = claws

    desperate = False
    if not in_tokyo:
        missing = t.max_health[me] - health
        keep[HEART] = min(counts[HEART], missing)
        desperate = health <= DESPERATE_HEALTH

    for face in (ONE, TWO, THREE):
        if counts[face] >= 3:
            keep[face] = counts[face]
    if not desperate and t.rolls_left > 0:
        for face in (THREE, TWO, ONE):  # hold the best pair only
            if counts[face] == 2 and (face != ONE or stars[me] >= CLOSE_TO_WINNING):
                keep[face] = 2
                break

    keep[ENERGY] = min(counts[ENERGY], energy_wanted)
    return keep


def reroll_positions(dice, keep: list[int]) -> tuple[int, ...]:
    """The positions (from 1) of the dice not kept, keeping the first dice of each face."""
    left = keep[:]
    positions = []
    for position, face in enumerate(dice, 1):
        if left[face] > 0:
            left[face] -= 1
        else:
            positions.append(position)
    return tuple(positions)


def roll_action(t, me: int, legal, energy_wanted: int = 0) -> Action:
    """The roll decision: ``stop``, or ``reroll`` the dice that serve no goal."""
    dice = t.dice
    counts = face_counts(dice)
    if wins_now(t, me, counts):
        return STOP if is_legal(STOP, legal) else legal[0]
    positions = reroll_positions(dice, keep_counts(t, me, counts, energy_wanted))
    action = Action.of("reroll", *positions) if positions else STOP
    return action if is_legal(action, legal) else legal[0]
