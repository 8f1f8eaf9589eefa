"""Choosing among candidate actions by Monte Carlo rollouts: sequential halving.

Each *sample* is one determinization of the bot's view (``view.sample_game(seed)``:
the hidden deck order and every future die drawn from ``seed``). All candidates are
tried on the same samples, so two candidates are compared under exactly the same luck
(common random numbers): the engine draws each turn's dice by die position, whatever
the players keep, so a sample's future rolls do not depend on the candidate tried.
That pairing removes most of the dice noise from the comparison, which is what lets a
few hundred rollouts tell good keeps from slightly worse ones.

The budget is spent in rounds of sequential halving (Karnin, Koren and Somekh 2013):
every surviving candidate gets the same fresh samples, then the worse half is dropped,
until one candidate is left. Its mean over all its samples decides ties, and earlier
candidates win exact ties, so the caller lists its preferred default first.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from kotarena.engine.actions import Action
from kotarena.games.kot.view import View
from kotarena_mcts.rollout import rollout


@dataclass
class Tally:
    """Rollouts of one candidate: how many, and the sum of their rewards."""

    action: Action
    playouts: int = 0
    total: float = 0.0

    @property
    def mean(self) -> float:
        return self.total / self.playouts if self.playouts else 0.0


@dataclass
class SearchResult:
    """What a search found: the chosen action and every candidate's tally."""

    action: Action
    tallies: list[Tally] = field(default_factory=list)
    playouts: int = 0
    stopped_by_time: bool = False


def sequential_halving(
    view: View,
    candidates: Sequence[Action],
    *,
    playouts: int,
    seed: int,
    horizon: int = 1,
    deadline: float | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> SearchResult:
    """Spend about ``playouts`` rollouts choosing among ``candidates`` (at least two).

    :param seed: sample ``i`` is ``view.sample_game(seed + i)``, so a seed fixes the search.
    :param horizon: rollouts stop when our turn has come round this many times (0: at
        the end of the game); see :func:`~kotarena_mcts.rollout.rollout`.
    :param deadline: a ``clock()`` time after which no new sample is started (the
        search then answers with the best candidate so far).
    """
    me = view.player
    tallies = [Tally(action) for action in candidates]
    survivors = list(range(len(tallies)))
    halvings = max(1, math.ceil(math.log2(len(tallies))))
    next_sample = 0
    used = 0
    stopped = False
    while len(survivors) > 1:
        per_candidate = max(1, playouts // (halvings * len(survivors)))
        for _ in range(per_candidate):
            sample = view.sample_game(seed + next_sample)
            next_sample += 1
            for c in survivors:
                tally = tallies[c]
                state = sample.clone()
                state.apply(tally.action)
                tally.playouts += 1
                tally.total += rollout(state, me, horizon)
                used += 1
            if deadline is not None and clock() > deadline:
                stopped = True
                break
        if stopped:
            break
        # Stable sort: on equal means the earlier candidate stays ahead.
        survivors.sort(key=lambda c: -tallies[c].mean)
        survivors = survivors[: max(1, len(survivors) // 2)]
    best = max(survivors, key=lambda c: (tallies[c].mean, -c))
    return SearchResult(tallies[best].action, tallies, used, stopped)
