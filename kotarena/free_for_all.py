"""TrueSkill's update for a free-for-all (one player per team), step for step as the
``trueskill`` package computes it, at about a seventh of its cost.

``trueskill.TrueSkill.rate`` builds a factor graph of Python objects for every match and
passes Gaussian objects between them; rating a 4-player match takes about 1 ms, as
long as a whole random-bot game. A league night rates every match on its coordinator,
so that cost would cap a night at about a thousand games a second however many
workers play them. This module runs the same message schedule on plain floats for
the only shape kotarena rates (every team a single seat): the same layers, the same
sweeps up and down the chain of rank differences, the same stopping rule, and the
package's own ``v``/``w`` functions (``v_win`` and the default backend's ``cdf``/``pdf``
written out), draw margin and ``Rating``. The arithmetic is done in the same order,
so the results are the package's to the last bit;
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
    pi_inv = 0.0
    mu = 0.0
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
    pi_inv = 0.0
    mu = 0.0
    mu += 1 * (pi_in and tau_in / pi_in)
    try:
        pi_inv += 1 ** 2 / float(pi_in)
    except ZeroDivisionError:
        pi_inv = _INF
    pi = 1. / pi_inv
    return pi, pi * mu


def _sum_pair(a_pi: float, a_tau: float, b_pi: float, b_tau: float, sign: int) -> tuple[float, float]:
    """What the sum factor ``a + sign * b`` (``sign`` 1 or -1) sends: ``_sum2(a, b, 1,
    sign)``, written out for the usual case where both values are known. The same
    operations in the same order (``sign * q`` is ``q`` or exactly ``-q``), so the same bits.
    """
    if a_pi and b_pi:
        pi = 1. / (0 + 1 / a_pi + 1 / b_pi)
        return pi, pi * (0 + a_tau / a_pi + sign * (b_tau / b_pi))
    return _sum2(a_pi, a_tau, b_pi, b_tau, 1, sign)


_MARGINS: dict[tuple, float] = {}


def _draw_margin(env: trueskill.TrueSkill) -> float:
    """The draw margin between two teams of one (the package's ``calc_draw_margin``),
    worked out once per environment: it inverts the normal distribution each time."""
    key = (env.ppf, env.draw_probability, env.beta)
    margin = _MARGINS.get(key)
    if margin is None:
        margin = _MARGINS[key] = calc_draw_margin(env.draw_probability, 2, env)
    return margin


_SQRT2 = math.sqrt(2)
_PDF_SCALE = 1 / math.sqrt(2 * math.pi) * abs(1)


def _v_win_default(diff: float, margin: float) -> float:
    """``env.v_win`` for an environment on the package's own ``cdf``/``pdf``, with the
    backend's ``erfc`` and ``pdf`` written out (the same operations in the same order)."""
    x = diff - margin
    z0 = -x / _SQRT2
    z = abs(z0)
    t = 1. / (1. + z / 2.)
    r = t * math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (
        0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (
            0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (
                -0.82215223 + t * 0.17087277
            )))
        )))
    )))
    denom = 0.5 * (2. - r if z0 < 0 else r)
    return (_PDF_SCALE * math.exp(-(x ** 2 / 2)) / denom) if denom else -x


def _run_chain(env: trueskill.TrueSkill, t_pi: list[float], t_tau: list[float], ties: list[bool],
               min_delta: float) -> None:
    """The lower layers of the graph, updated in place in ``t_pi``/``t_tau``: the team
    performances ``t`` and the differences ``d`` between neighbours in rank order, with
    the truncation that says who finished ahead. The chain is swept down and up until
    no truncation moves more than ``min_delta`` (at most 10 times), as the package does.

    The package's factors (the sum factor of each difference, the truncation, and the
    sum factors back up to the teams) are plain arithmetic on lists here, with no
    objects per message: on a league night this loop is most of the coordinator's work.
    """
    n = len(t_pi)
    links = n - 1
    # Messages each team variable got from the difference to its left and right.
    left_pi, left_tau = [0.0] * n, [0.0] * n
    right_pi, right_tau = [0.0] * n, [0.0] * n
    d_pi, d_tau = [0.0] * links, [0.0] * links
    sum_pi, sum_tau = [0.0] * links, [0.0] * links      # from the difference factor
    trunc_pi, trunc_tau = [0.0] * links, [0.0] * links  # from the truncation
    margin = _draw_margin(env)
    sqrt = math.sqrt
    if env.cdf is trueskill.backends.cdf and env.pdf is trueskill.backends.pdf:
        v_win = _v_win_default
    else:
        v_win = env.v_win

    # The sweep: down the chain (each difference from its teams, its truncation, then
    # the next team from it), then back up. One difference alone is just truncated.
    if links == 1:
        steps = [(0, 0)]
    else:
        steps = [(j, 1) for j in range(links - 1)] + [(j, -1) for j in range(links - 1, 0, -1)]
    for _ in range(10):
        delta = 0.0
        for j, way in steps:
            # The difference t[j] - t[j+1] from the two teams.
            k = j + 1
            pi, tau = _sum_pair(t_pi[j] - right_pi[j], t_tau[j] - right_tau[j],
                                t_pi[k] - left_pi[k], t_tau[k] - left_tau[k], -1)
            value_pi = d_pi[j] - sum_pi[j] + pi
            value_tau = d_tau[j] - sum_tau[j] + tau
            sum_pi[j], sum_tau[j] = pi, tau
            # The truncation: the result (a win or a tie) moves the difference.
            div_pi, div_tau = value_pi - trunc_pi[j], value_tau - trunc_tau[j]
            sqrt_pi = sqrt(div_pi)
            diff, draw_margin = div_tau / sqrt_pi, margin * sqrt_pi
            if ties[j]:
                v = env.v_draw(diff, draw_margin)
                w = env.w_draw(diff, draw_margin)
            else:
                v = v_win(diff, draw_margin)
                # env.w_win(diff, margin), without computing v a second time.
                w = v * (v + (diff - draw_margin))
                if not 0 < w < 1:
                    env.w_win(diff, draw_margin)  # raises the package's FloatingPointError
            denom = (1. - w)
            pi, tau = div_pi / denom, (div_tau + sqrt_pi * v) / denom
            trunc_pi[j], trunc_tau[j] = pi + trunc_pi[j] - value_pi, tau + trunc_tau[j] - value_tau
            d_pi[j], d_tau[j] = pi, tau
            pi_delta = abs(value_pi - pi)
            moved = 0. if pi_delta == _INF else max(abs(value_tau - tau), sqrt(pi_delta))
            delta = max(delta, moved) if way else moved
            if way > 0:
                _up_right(j, t_pi, t_tau, left_pi, left_tau, right_pi, right_tau, d_pi, d_tau, sum_pi, sum_tau)
            elif way < 0:
                _up_left(j, t_pi, t_tau, left_pi, left_tau, right_pi, right_tau, d_pi, d_tau, sum_pi, sum_tau)
        if delta <= min_delta:
            break
    _up_left(0, t_pi, t_tau, left_pi, left_tau, right_pi, right_tau, d_pi, d_tau, sum_pi, sum_tau)
    _up_right(links - 1, t_pi, t_tau, left_pi, left_tau, right_pi, right_tau, d_pi, d_tau, sum_pi, sum_tau)


def _up_right(j: int, t_pi: list, t_tau: list, left_pi: list, left_tau: list, right_pi: list, right_tau: list,
              d_pi: list, d_tau: list, sum_pi: list, sum_tau: list) -> None:
    """Team ``j+1`` from team ``j`` and their difference."""
    pi, tau = _sum_pair(t_pi[j] - right_pi[j], t_tau[j] - right_tau[j], d_pi[j] - sum_pi[j], d_tau[j] - sum_tau[j], -1)
    k = j + 1
    t_pi[k] = t_pi[k] - left_pi[k] + pi
    t_tau[k] = t_tau[k] - left_tau[k] + tau
    left_pi[k], left_tau[k] = pi, tau


def _up_left(j: int, t_pi: list, t_tau: list, left_pi: list, left_tau: list, right_pi: list, right_tau: list,
             d_pi: list, d_tau: list, sum_pi: list, sum_tau: list) -> None:
    """Team ``j`` from their difference and team ``j+1``."""
    pi, tau = _sum_pair(d_pi[j] - sum_pi[j], d_tau[j] - sum_tau[j],
                        t_pi[j + 1] - left_pi[j + 1], t_tau[j + 1] - left_tau[j + 1], 1)
    t_pi[j] = t_pi[j] - right_pi[j] + pi
    t_tau[j] = t_tau[j] - right_tau[j] + tau
    right_pi[j], right_tau[j] = pi, tau


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
    _run_chain(env, team_pi, team_tau, ties, min_delta)
    result: list[Rating] = [None] * n  # type: ignore[list-item]
    for k, i in enumerate(order):
        # Back up: team to performance, performance to skill.
        pi, tau = _sum1(team_pi[k] - team_msg[k][0], team_tau[k] - team_msg[k][1])
        p_pi, p_tau = perf_pi[k] - 0 + pi, perf_tau[k] - 0 + tau
        m_pi, m_tau = p_pi - like_pi[k], p_tau - like_tau[k]
        a = 1. / (1. + beta2 * m_pi)
        pi, tau = prior[k][0] - 0 + a * m_pi, prior[k][1] - 0 + a * m_tau
        mu = pi and tau / pi
        sigma = math.sqrt(1 / pi) if pi else _INF
        result[i] = Rating(float(mu), float(sigma))
    return result
