"""TrueSkill's update for a free-for-all (one player per team), step for step as the
``trueskill`` package computes it, at a fifth of its cost.

``trueskill.TrueSkill.rate`` builds a factor graph of Python objects for every match and
passes Gaussian objects between them; rating a 4-player match takes about 1 ms, as
long as a whole random-bot game. A league night rates every match on its coordinator,
so that cost would cap a night at about a thousand games a second however many
workers play them. This module runs the same message schedule on plain floats for
the only shape kotarena rates (every team a single seat): the same layers, the same
sweeps up and down the chain of rank differences, the same stopping rule, and the
package's own ``v``/``w`` functions, draw margin and ``Rating``. The arithmetic is done
in the same order, so the results are the package's to the last bit;
``tests/test_ratings.py`` checks that on thousands of random matches (2-6 seats,
ties, extreme ratings) and several environments. Teams of several players and
partial-play weights, which kotarena never rates, are left to ``env.rate``.

Notation: a Gaussian is ``(pi, tau)`` (precision, precision times mean). A variable's
value is the product of the messages its factors sent it; a factor that sends a new
message divides its old one out (``value - old + new`` in this form).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import trueskill
from trueskill import Rating, calc_draw_margin

__all__ = ["rate_free_for_all"]

_INF = float("inf")
#: The package's default stopping rule for the chain of rank differences.
MIN_DELTA = trueskill.DELTA


def _sum2(a_pi: float, a_tau: float, b_pi: float, b_tau: float, c0: float, c1: float) -> tuple[float, float]:
    """What a sum factor ``c0*a + c1*b`` sends, from the two other variables' values
    with this factor's messages divided out (``trueskill.factorgraph.SumFactor.update``)."""
    pi_inv = 0
    mu = 0
    mu += c0 * (a_pi and a_tau / a_pi)
    try:
        pi_inv += c0 ** 2 / float(a_pi)
    except ZeroDivisionError:
        pi_inv = _INF
    mu += c1 * (b_pi and b_tau / b_pi)
    if pi_inv != _INF:
        try:
            pi_inv += c1 ** 2 / float(b_pi)
        except ZeroDivisionError:
            pi_inv = _INF
    pi = 1. / pi_inv
    return pi, pi * mu


def _sum1(pi_in: float, tau_in: float) -> tuple[float, float]:
    """What a one-term sum factor with weight 1 sends (a team of one: its performance)."""
    pi_inv = 0
    mu = 0
    mu += 1 * (pi_in and tau_in / pi_in)
    try:
        pi_inv += 1 ** 2 / float(pi_in)
    except ZeroDivisionError:
        pi_inv = _INF
    pi = 1. / pi_inv
    return pi, pi * mu


class _Chain:
    """The lower layers of the graph: team performances ``t`` and the differences ``d``
    between neighbours in rank order, with the truncation that says who finished ahead."""

    def __init__(self, env: trueskill.TrueSkill, team_pi: list[float], team_tau: list[float],
                 ties: list[bool]) -> None:
        n = len(team_pi)
        self.t_pi, self.t_tau = list(team_pi), list(team_tau)
        # Messages each team variable got from the difference to its left and right.
        self.left_pi, self.left_tau = [0] * n, [0] * n
        self.right_pi, self.right_tau = [0] * n, [0] * n
        links = n - 1
        self.d_pi, self.d_tau = [0] * links, [0] * links
        self.sum_pi, self.sum_tau = [0] * links, [0] * links      # from the difference factor
        self.trunc_pi, self.trunc_tau = [0] * links, [0] * links  # from the truncation
        self.margin = calc_draw_margin(env.draw_probability, 2, env)
        self.env = env
        self.ties = ties

    def down(self, j: int) -> None:
        """The difference ``t[j] - t[j+1]`` from the two teams."""
        t_pi, t_tau, left_pi, left_tau = self.t_pi, self.t_tau, self.left_pi, self.left_tau
        a_pi, a_tau = t_pi[j] - self.right_pi[j], t_tau[j] - self.right_tau[j]
        b_pi, b_tau = t_pi[j + 1] - left_pi[j + 1], t_tau[j + 1] - left_tau[j + 1]
        if a_pi and b_pi:
            # _sum2(a, b, +1, -1), written out: the same operations in the same order.
            pi = 1. / (0 + 1 / a_pi + 1 / b_pi)
            tau = pi * (0 + a_tau / a_pi - b_tau / b_pi)
        else:
            pi, tau = _sum2(a_pi, a_tau, b_pi, b_tau, +1, -1)
        old_pi, old_tau = self.sum_pi[j], self.sum_tau[j]
        self.sum_pi[j], self.sum_tau[j] = pi, tau
        self.d_pi[j], self.d_tau[j] = self.d_pi[j] - old_pi + pi, self.d_tau[j] - old_tau + tau

    def truncate(self, j: int) -> float:
        """The result (a win or a tie) moves the difference; returns how far."""
        value_pi, value_tau = self.d_pi[j], self.d_tau[j]
        div_pi, div_tau = value_pi - self.trunc_pi[j], value_tau - self.trunc_tau[j]
        sqrt_pi = math.sqrt(div_pi)
        env = self.env
        diff, margin = div_tau / sqrt_pi, self.margin * sqrt_pi
        if self.ties[j]:
            v = env.v_draw(diff, margin)
            w = env.w_draw(diff, margin)
        else:
            v = env.v_win(diff, margin)
            # env.w_win(diff, margin), without computing v a second time.
            w = v * (v + (diff - margin))
            if not 0 < w < 1:
                env.w_win(diff, margin)  # raises the package's FloatingPointError
        denom = (1. - w)
        pi, tau = div_pi / denom, (div_tau + sqrt_pi * v) / denom
        self.trunc_pi[j], self.trunc_tau[j] = pi + self.trunc_pi[j] - value_pi, tau + self.trunc_tau[j] - value_tau
        self.d_pi[j], self.d_tau[j] = pi, tau
        pi_delta = abs(value_pi - pi)
        if pi_delta == _INF:
            return 0.
        return max(abs(value_tau - tau), math.sqrt(pi_delta))

    def up_right(self, j: int) -> None:
        """Team ``j+1`` from team ``j`` and their difference."""
        a_pi, a_tau = self.t_pi[j] - self.right_pi[j], self.t_tau[j] - self.right_tau[j]
        b_pi, b_tau = self.d_pi[j] - self.sum_pi[j], self.d_tau[j] - self.sum_tau[j]
        if a_pi and b_pi:
            # _sum2(a, b, 1.0, -1.0), written out.
            pi = 1. / (0 + 1 / a_pi + 1 / b_pi)
            tau = pi * (0 + a_tau / a_pi - b_tau / b_pi)
        else:
            pi, tau = _sum2(a_pi, a_tau, b_pi, b_tau, 1.0, -1.0)
        k = j + 1
        old_pi, old_tau = self.left_pi[k], self.left_tau[k]
        self.left_pi[k], self.left_tau[k] = pi, tau
        self.t_pi[k], self.t_tau[k] = self.t_pi[k] - old_pi + pi, self.t_tau[k] - old_tau + tau

    def up_left(self, j: int) -> None:
        """Team ``j`` from their difference and team ``j+1``."""
        a_pi, a_tau = self.d_pi[j] - self.sum_pi[j], self.d_tau[j] - self.sum_tau[j]
        b_pi, b_tau = self.t_pi[j + 1] - self.left_pi[j + 1], self.t_tau[j + 1] - self.left_tau[j + 1]
        if a_pi and b_pi:
            # _sum2(a, b, 1.0, 1.0), written out.
            pi = 1. / (0 + 1 / a_pi + 1 / b_pi)
            tau = pi * (0 + a_tau / a_pi + b_tau / b_pi)
        else:
            pi, tau = _sum2(a_pi, a_tau, b_pi, b_tau, 1.0, 1.0)
        old_pi, old_tau = self.right_pi[j], self.right_tau[j]
        self.right_pi[j], self.right_tau[j] = pi, tau
        self.t_pi[j], self.t_tau[j] = self.t_pi[j] - old_pi + pi, self.t_tau[j] - old_tau + tau

    def run(self, min_delta: float) -> None:
        """Sweep the chain until no truncation moves more than ``min_delta`` (at most 10 times)."""
        links = len(self.d_pi)
        for _ in range(10):
            if links == 1:
                self.down(0)
                delta = self.truncate(0)
            else:
                delta = 0
                for j in range(links - 1):
                    self.down(j)
                    delta = max(delta, self.truncate(j))
                    self.up_right(j)
                for j in range(links - 1, 0, -1):
                    self.down(j)
                    delta = max(delta, self.truncate(j))
                    self.up_left(j)
            if delta <= min_delta:
                break
        self.up_left(0)
        self.up_right(links - 1)


def rate_free_for_all(env: trueskill.TrueSkill, ratings: Sequence[Rating], ranks: Sequence[int],
                      min_delta: float = MIN_DELTA) -> list[Rating]:
    """New ratings after one free-for-all: ``ranks[i]`` is player ``i``'s place (0 best,
    equal places tie). The same as ``[g[0] for g in env.rate([(r,) for r in ratings],
    ranks=ranks)]``, bit for bit; raises ``FloatingPointError`` where that does."""
    n = len(ratings)
    if n < 2 or len(ranks) != n:
        raise ValueError(f"a free-for-all needs at least 2 players and a rank for each ({n} ratings, {len(ranks)} ranks)")
    order = sorted(range(n), key=ranks.__getitem__)  # stable, as the package sorts
    beta2 = env.beta ** 2
    dynamic2 = env.tau ** 2
    prior = []
    like_pi, like_tau = [0.0] * n, [0.0] * n
    perf_pi, perf_tau = [0.0] * n, [0.0] * n
    team_msg = []
    team_pi, team_tau = [0.0] * n, [0.0] * n
    for k, i in enumerate(order):
        rating = ratings[i]
        # The prior: the rating, widened by the skill drift before the game.
        sigma = math.sqrt(rating.sigma ** 2 + dynamic2)
        pi = sigma ** -2
        tau = pi * rating.mu
        prior.append((pi, tau))
        # The performance: the skill plus the game's noise (beta).
        a = 1. / (1. + beta2 * pi)
        like_pi[k], like_tau[k] = a * pi, a * tau
        perf_pi[k], perf_tau[k] = 0 - 0 + like_pi[k], 0 - 0 + like_tau[k]
        # A team of one performs as its player.
        sent = _sum1(perf_pi[k] - 0, perf_tau[k] - 0)
        team_msg.append(sent)
        team_pi[k], team_tau[k] = 0 - 0 + sent[0], 0 - 0 + sent[1]
    ties = [ranks[order[k]] == ranks[order[k + 1]] for k in range(n - 1)]
    chain = _Chain(env, team_pi, team_tau, ties)
    chain.run(min_delta)
    result: list[Rating] = [None] * n  # type: ignore[list-item]
    for k, i in enumerate(order):
        # Back up: team to performance, performance to skill.
        pi, tau = _sum1(chain.t_pi[k] - team_msg[k][0], chain.t_tau[k] - team_msg[k][1])
        p_pi, p_tau = perf_pi[k] - 0 + pi, perf_tau[k] - 0 + tau
        m_pi, m_tau = p_pi - like_pi[k], p_tau - like_tau[k]
        a = 1. / (1. + beta2 * m_pi)
        pi, tau = prior[k][0] - 0 + a * m_pi, prior[k][1] - 0 + a * m_tau
        mu = pi and tau / pi
        sigma = math.sqrt(1 / pi) if pi else _INF
        result[i] = Rating(float(mu), float(sigma))
    return result
