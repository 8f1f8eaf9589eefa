"""How likely each monster is to win from a position: a fitted look-up model.

Each living monster gets a score, the sum of

* ``STARS[stars]``: stars are the main road to victory, and the last ones count most;
* ``HEALTH[health]``: health keeps a monster in the game;
* ``TOKYO_BY_HEALTH[health]`` while in Tokyo: 2 stars a turn, but no healing and
  every other monster's claws;
* ``ENERGY`` per energy (up to ``ENERGY_CAP``) and ``CARD`` per keep card (up to
  ``CARDS_CAP``): what cards bought and to be bought are worth, on average;
* ``NEXT_TO_PLAY`` for the monster whose turn comes next, and ``TURN_ORDER`` times its
  distance in turns from it (as a fraction of the table);

and wins with probability ``exp(score) / sum of exp(score)`` over the living. The
tables were fitted by ``tools/fit_value.py`` (maximum likelihood on the turn
boundaries of 8000 heuristic self-play games, 2 to 6 players, half of them with
cards); rerun it and paste its output here when the rules or the heuristic change.
"""

from __future__ import annotations

import math

STARS_CAP = 19   #: stars beyond this share its entry (20 has already won)
HEALTH_CAP = 10  #: health beyond this shares its entry (only Even Bigger goes past 10)
ENERGY_CAP = 15  #: energy beyond this adds nothing more to the score
CARDS_CAP = 5    #: keep cards beyond this add nothing more to the score

# Fitted by tools/fit_value.py; see the module docstring.
# 228217 positions from 8000 games (seed 10000); held-out log-loss 1.1704 (uniform guess 1.3869)
STARS = (0.0, 0.154, 0.436, 0.658, 0.842, 1.044, 1.198, 1.469, 1.66, 1.922, 2.21, 2.433, 2.761, 3.063, 3.407,
         3.715, 4.201, 4.775, 5.377, 5.85)
HEALTH = (0.0, -1.412, -0.988, -0.724, -0.3, -0.024, 0.231, 0.465, 0.728, 0.886, 1.139)
TOKYO_BY_HEALTH = (0.0, -0.845, -0.587, -0.25, -0.027, 0.19, 0.246, 0.395, 0.334, 0.429, 0.208)
ENERGY, CARD = -0.0106, 0.4401
NEXT_TO_PLAY, TURN_ORDER = -0.059, -1.225


def features_of(state, p: int) -> list[float]:
    """Monster ``p``'s features, in the order the fitting script expects."""
    f = [0.0] * (STARS_CAP + 1 + 2 * HEALTH_CAP + 4)
    health = min(state.health[p], HEALTH_CAP)
    f[min(state.stars[p], STARS_CAP)] = 1.0
    f[STARS_CAP + health] = 1.0
    if p == state.city or p == state.bay:
        f[STARS_CAP + HEALTH_CAP + health] = 1.0
    f[-4] = min(state.energy[p], ENERGY_CAP)
    f[-3] = min(len(state.owned[p]), CARDS_CAP)
    n = len(state.alive)
    f[-2] = 1.0 if p == state.active else 0.0
    f[-1] = ((p - state.active) % n) / n
    return f


def score(state, p: int) -> float:
    """Monster ``p``'s score: higher is likelier to win."""
    health = min(state.health[p], HEALTH_CAP)
    total = STARS[min(state.stars[p], STARS_CAP)] + HEALTH[health]
    if p == state.city or p == state.bay:
        total += TOKYO_BY_HEALTH[health]
    total += ENERGY * min(state.energy[p], ENERGY_CAP) + CARD * min(len(state.owned[p]), CARDS_CAP)
    n = len(state.alive)
    distance = (p - state.active) % n
    if distance == 0:
        total += NEXT_TO_PLAY
    return total + TURN_ORDER * distance / n


def win_probability(state, me: int) -> float:
    """The model's chance that ``me`` wins from ``state`` (0 if ``me`` is eliminated)."""
    alive = state.alive
    if not alive[me]:
        return 0.0
    mine = score(state, me)
    total = 0.0
    for p in range(len(alive)):
        if alive[p]:
            total += math.exp(score(state, p) - mine)
    return 1.0 / total


def duel_win_probability(state, me: int) -> float:
    """King of Tokyo: Duel: a hand-set logistic guess from health and the tracks (not
    fitted): each point of health ahead, each space a marker stands toward our end,
    and the farther marker's lead, push the chance up."""
    from kotarena_heuristic.duel import progress

    rival = 1 - me
    health = state.health[me] / state.monsters[me].health - state.health[rival] / state.monsters[rival].health
    pulls = [progress(state, me, track) for track in (0, 1)]
    x = 3.0 * health + 0.35 * sum(pulls) + 0.25 * max(pulls, key=abs)
    return 1.0 / (1.0 + math.exp(-x))
