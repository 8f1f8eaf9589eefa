"""The search bot: every decision weighed by Monte Carlo rollouts from its own view.

For each decision with more than one real choice the bot

1. lists the candidates: the legal actions up to equivalence
   (:mod:`kotarena_mcts.candidates`; rerolls that keep the same faces are one choice),
   the heuristic bot's own answer first;
2. samples games consistent with its view (``view.sample_game(seed)``: the deck order
   it cannot see and all future dice drawn from a seed of its own RNG);
3. tries every candidate in the same samples and plays on with every seat following
   the heuristic bot's rules until its own next turn is about to start
   (:mod:`kotarena_mcts.rollout`), where a fitted model says how likely it is to win
   from there (:mod:`kotarena_mcts.value`); a game that ends sooner scores 1 for a win,
   0 otherwise;
4. keeps the better half of the candidates, round after round, until one is left
   (sequential halving, :mod:`kotarena_mcts.search`).

It is a flat (one-ply) Monte Carlo search over sampled determinizations, not a tree
search: the decisions after the candidate are the heuristic's.

Parameters (a ladder file gives them in its ``[params.mcts]`` table):

``playouts``  rollouts per decision, shared among the candidates (default 1000: about
              0.1 s for a decision in a 4-player game);
``horizon``   how many times the bot's turn comes round before a rollout is scored by
              the model (default 1; 0 plays every rollout to the end of the game);
``time_ms``   optional wall-clock cap per decision; when it runs out the bot answers
              with the best candidate so far. Off by default, because a cap makes
              the bot's play depend on the machine's speed: with ``playouts`` alone the
              same seed always plays the same game.
"""

from __future__ import annotations

import time

from kotarena_heuristic import HeuristicBot

from kotarena.bots.base import Bot
from kotarena.engine.actions import Action
from kotarena.games.kot.view import View
from kotarena.hookspecs import hookimpl
from kotarena_mcts.candidates import distinct_actions
from kotarena_mcts.search import SearchResult, sequential_halving

__all__ = ["SearchBot", "register_bots"]

DEFAULT_PLAYOUTS = 1000
DEFAULT_HORIZON = 1


class SearchBot(Bot):
    """Weighs each choice by short rollouts of sampled games, scored by a fitted win model."""

    name = "mcts"
    games = frozenset({"kot", "origins", "duel"})  #: King of Tokyo, Origins and Duel
    parameters = {"playouts": int, "horizon": int, "time_ms": float}

    def __init__(self, *, seed: int | None = None, **params: object) -> None:
        super().__init__(seed=seed, **params)
        self.playouts = int(params.get("playouts", DEFAULT_PLAYOUTS))
        self.horizon = int(params.get("horizon", DEFAULT_HORIZON))
        time_ms = params.get("time_ms")
        self.time_ms = float(time_ms) if time_ms is not None else None
        if self.playouts < 1:
            raise ValueError(f"playouts must be at least 1, not {self.playouts}")
        if self.horizon < 0:
            raise ValueError(f"horizon must be 0 (the end of the game) or more, not {self.horizon}")
        if self.time_ms is not None and self.time_ms <= 0:
            raise ValueError(f"time_ms must be positive, not {self.time_ms}")
        # The heuristic's answer is the default the search must beat.
        self.fallback = HeuristicBot(seed=seed)
        self.last_search: SearchResult | None = None

    def choose(self, view: View) -> Action:
        start = time.perf_counter()
        legal = view.legal
        self.last_search = None
        default = self.fallback.choose(view)
        if len(legal) == 1:
            return default
        candidates = distinct_actions(view.kind, view.dice, legal, first=default)
        if len(candidates) == 1:
            return default
        deadline = start + self.time_ms / 1000 if self.time_ms is not None else None
        seed = int(self.random() * 2**62)
        self.last_search = sequential_halving(view, candidates, playouts=self.playouts, seed=seed,
                                              horizon=self.horizon, deadline=deadline)
        return self.last_search.action


@hookimpl
def register_bots(register) -> None:
    """Tell kotarena about the search bot."""
    register(SearchBot)
