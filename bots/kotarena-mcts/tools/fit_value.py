#!/usr/bin/env python
"""Fit the search bot's value tables from heuristic self-play, and print them.

    python tools/fit_value.py                 # 8000 games, prints kotarena_mcts/value.py's tables
    python tools/fit_value.py --games 2000    # quicker, noisier

The model (see :mod:`kotarena_mcts.value`) gives each living monster a score from
look-up tables (stars, health, health in Tokyo) and a few weights (energy, cards, turn order) and says a monster wins with
probability ``exp(score) / sum(exp(scores))``. This script plays seeded games in which
every seat follows the heuristic bot's rules (2 to 6 players, half with the deck),
records every monster's features at every turn boundary, labels each position with
the game's winner, and fits the tables by maximum likelihood (a conditional logit).
One game in five is held out and its log-loss printed next to the uniform guess.

Needs numpy and scipy, which the bot itself does not.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
from kotarena_mcts.rollout import policy
from kotarena_mcts.value import HEALTH_CAP, STARS_CAP, features_of
from scipy.optimize import minimize

from kotarena.games import new_game

PLAYER_COUNTS = (2, 3, 4, 4, 4, 5, 6)
MAX_PLAYERS = 6


def positions(games: int, seed: int):
    """Feature arrays, living-monster masks, winners and game numbers of every turn boundary."""
    size = len(features_of(new_game("kot", players=2, seed=0, deck=None, record=False), 0))
    X, M, Y, G = [], [], [], []
    for g in range(games):
        players = PLAYER_COUNTS[g % len(PLAYER_COUNTS)]
        state = new_game("kot", players=players, seed=seed + g, deck="default" if g % 2 else None, record=False)
        state.pause_between_turns = True
        seen = []
        while state.outcome is None:
            if state.to_move < 0:
                f = np.zeros((MAX_PLAYERS, size))
                m = np.zeros(MAX_PLAYERS)
                for p in range(players):
                    if state.alive[p]:
                        f[p] = features_of(state, p)
                        m[p] = 1
                seen.append((f, m))
                state.next_turn()
                continue
            state.apply(policy(state))
        if state.outcome.winner is None:
            continue  # everybody lost: no label
        for f, m in seen:
            X.append(f)
            M.append(m)
            Y.append(state.outcome.winner)
            G.append(g)
    return np.array(X), np.array(M), np.array(Y), np.array(G)


def loss(w, X, M, Y, l2):
    """Mean negative log-likelihood of the winners (plus an L2 penalty) and its gradient."""
    z = np.where(M > 0, X @ w, -1e9)
    top = z.max(1, keepdims=True)
    e = np.exp(z - top) * M
    total = e.sum(1)
    rows = np.arange(len(Y))
    log_p = z[rows, Y] - top[:, 0] - np.log(total)
    p = e / total[:, None]
    won = np.zeros_like(p)
    won[rows, Y] = 1
    grad = -np.einsum("ni,nif->f", won - p, X) / len(Y) + 2 * l2 * w
    return -log_p.mean() + l2 * (w @ w), grad


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8000)
    parser.add_argument("--seed", type=int, default=10_000)
    parser.add_argument("--l2", type=float, default=1e-4)
    args = parser.parse_args(argv)
    X, M, Y, G = positions(args.games, args.seed)
    train = G % 5 != 0
    fit = minimize(loss, np.zeros(X.shape[2]), args=(X[train], M[train], Y[train], args.l2),
                   jac=True, method="L-BFGS-B")
    w = fit.x
    test = ~train
    uniform = -np.mean(np.log(1 / M[test].sum(1)))
    held_out = loss(w, X[test], M[test], Y[test], 0.0)[0]
    print(f"# {len(Y)} positions from {args.games} games (seed {args.seed}); "
          f"held-out log-loss {held_out:.4f} (uniform guess {uniform:.4f})")
    stars = w[:STARS_CAP + 1]
    health = w[STARS_CAP + 1: STARS_CAP + 1 + HEALTH_CAP]
    tokyo = w[STARS_CAP + 1 + HEALTH_CAP: STARS_CAP + 1 + 2 * HEALTH_CAP]
    rest = w[STARS_CAP + 1 + 2 * HEALTH_CAP:]
    # Scores are relative: shift the star table so a monster at 0 stars scores 0.
    print(f"STARS = {tuple(round(float(v - stars[0]), 3) for v in stars)}")
    print(f"HEALTH = {(0.0,) + tuple(round(float(v), 3) for v in health)}")
    print(f"TOKYO_BY_HEALTH = {(0.0,) + tuple(round(float(v), 3) for v in tokyo)}")
    print(f"ENERGY, CARD = {round(float(rest[0]), 4)}, {round(float(rest[1]), 4)}")
    print(f"NEXT_TO_PLAY, TURN_ORDER = {round(float(rest[2]), 3)}, {round(float(rest[3]), 3)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
