"""TrueSkill's update for a free-for-all (one player per team), step for step as the
``trueskill`` package computes it, without its factor graph.

``trueskill.TrueSkill.rate`` builds a factor graph of Python objects for every match and
passes Gaussian objects between them, which costs as much as playing a fast game; a
league night rates every match. This module runs the same message schedule on plain
floats for the only shape kotarena rates (every team a single seat): the same layers,
the same sweeps up and down the chain of rank differences, the same stopping rule, and
the package's own ``v``/``w`` functions (with the default backend, ``v_win``, ``v_draw``
and ``w_draw`` and the backend's ``cdf``/``pdf`` written out), draw margin and
``Rating`` (its ``mu``/``sigma`` and constructor written out too). The arithmetic is
done in the same order, so the results are the package's to the last bit;
``tests/test_ratings.py`` checks that on thousands of random matches (2-6 seats,
ties, extreme ratings) and several environments. Teams of several players and
partial-play weights, which kotarena never rates, are left to ``env.rate``.

Notation: a Gaussian is ``(pi, tau)`` (precision, precision times mean). A variable's
value is the product of the messages its factors sent it; a factor that sends a new
message divides its old one out (``value - old + new`` in this form).

This module is compiled with the engine (``NATIVE_MODULES`` in ``setup.py``): the state
lives in float attributes of two small classes, which mypyc keeps unboxed, and squares
are ``math.pow`` (a C call) rather than ``**``: both compute ``pow(x, 2.)``, as
Python's ``x ** 2`` does, so the same bits.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from math import exp, pow, sqrt  # math.pow, not the builtin: a C call when compiled
from typing import Final, cast

import trueskill
from trueskill import Rating, calc_draw_margin

__all__ = ["mu_sigma", "rate_free_for_all"]

_INF: Final = float("inf")
#: The package's default stopping rule for the chain of rank differences.
MIN_DELTA: Final[float] = trueskill.DELTA


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


_MARGINS: Final[dict[tuple, float]] = {}


def _draw_margin(env: trueskill.TrueSkill) -> float:
    """The draw margin between two teams of one (the package's ``calc_draw_margin``),
    worked out once per environment: it inverts the normal distribution each time."""
    key = (env.ppf, env.draw_probability, env.beta)
    margin = _MARGINS.get(key)
    if margin is None:
        margin = _MARGINS[key] = calc_draw_margin(env.draw_probability, 2, env)
    return margin


#: The default backend's functions, which ``_cdf`` and ``_pdf`` write out (and ``_v_win_default`` uses).
_CDF: Final = trueskill.backends.cdf
_PDF: Final = trueskill.backends.pdf
_SQRT2: Final = math.sqrt(2)
_PDF_SCALE: Final = 1 / math.sqrt(2 * math.pi) * abs(1)


def _cdf(x: float) -> float:
    """The default backend's ``cdf(x)`` (``mu=0``, ``sigma=1``), its ``erfc`` written out:
    ``-(x - 0) / (1 * sqrt(2))`` is exactly ``-x / _SQRT2``."""
    z0 = -x / _SQRT2
    z = abs(z0)
    t = 1. / (1. + z / 2.)
    r = t * exp(-z * z - 1.26551223 + t * (1.00002368 + t * (
        0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (
            0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (
                -0.82215223 + t * 0.17087277
            )))
        )))
    )))
    return 0.5 * (2. - r if z0 < 0 else r)


def _pdf(x: float) -> float:
    """The default backend's ``pdf(x)`` (``mu=0``, ``sigma=1``): ``x ** 2`` is ``pow(x, 2.)``."""
    return _PDF_SCALE * exp(-(pow(x, 2.) / 2))


def _v_win_default(diff: float, margin: float) -> float:
    """``env.v_win`` for an environment on the package's own ``cdf``/``pdf``."""
    x = diff - margin
    denom = _cdf(x)
    return (_pdf(x) / denom) if denom else -x


class _Team:
    """One seat's team, in rank order: the messages that came down to its performance
    ``t`` (the prior ``prior``, the likelihood ``like`` from skill to performance, the
    performance ``perf`` and what the team's sum factor sent, ``msg``), the value of
    ``t`` (``pi``, ``tau``), and the messages the differences to its left and right
    last sent ``t``."""

    __slots__ = ("prior_pi", "prior_tau", "like_pi", "like_tau", "perf_pi", "perf_tau", "msg_pi", "msg_tau",
                 "pi", "tau", "left_pi", "left_tau", "right_pi", "right_tau")

    prior_pi: float
    prior_tau: float
    like_pi: float
    like_tau: float
    perf_pi: float
    perf_tau: float
    msg_pi: float
    msg_tau: float
    pi: float
    tau: float
    left_pi: float
    left_tau: float
    right_pi: float
    right_tau: float

    def __init__(self, prior_pi: float, prior_tau: float, like_pi: float, like_tau: float) -> None:
        self.prior_pi = prior_pi
        self.prior_tau = prior_tau
        self.like_pi = like_pi
        self.like_tau = like_tau
        self.perf_pi = perf_pi = 0 - 0 + like_pi
        self.perf_tau = perf_tau = 0 - 0 + like_tau
        # A team of one performs as its player.
        msg_pi, msg_tau = _sum1(perf_pi - 0, perf_tau - 0)
        self.msg_pi = msg_pi
        self.msg_tau = msg_tau
        self.pi = 0 - 0 + msg_pi
        self.tau = 0 - 0 + msg_tau
        self.left_pi = self.left_tau = self.right_pi = self.right_tau = 0.0


class _Link:
    """The difference ``d`` between two neighbours in rank order (``upper`` finished
    ahead of or tied with ``lower``), the message its sum factor last sent it, and the
    one its truncation (the result: a win or a tie) last sent it."""

    __slots__ = ("upper", "lower", "tie", "d_pi", "d_tau", "sum_pi", "sum_tau", "trunc_pi", "trunc_tau")

    upper: _Team
    lower: _Team
    tie: bool
    d_pi: float
    d_tau: float
    sum_pi: float
    sum_tau: float
    trunc_pi: float
    trunc_tau: float

    def __init__(self, upper: _Team, lower: _Team, tie: bool) -> None:
        self.upper = upper
        self.lower = lower
        self.tie = tie
        self.d_pi = self.d_tau = self.sum_pi = self.sum_tau = self.trunc_pi = self.trunc_tau = 0.0


def _truncate(env: trueskill.TrueSkill, link: _Link, margin: float, default: bool) -> float:
    """One visit of a difference: its value from its two teams, then the truncation
    (the package's ``TruncateFactor.update``); returns how far the truncation moved it.
    ``default`` says the environment is on the package's own ``cdf``/``pdf``."""
    upper, lower = link.upper, link.lower
    pi, tau = _sum_pair(upper.pi - upper.right_pi, upper.tau - upper.right_tau,
                        lower.pi - lower.left_pi, lower.tau - lower.left_tau, -1)
    value_pi = link.d_pi - link.sum_pi + pi
    value_tau = link.d_tau - link.sum_tau + tau
    link.sum_pi = pi
    link.sum_tau = tau
    div_pi = value_pi - link.trunc_pi
    div_tau = value_tau - link.trunc_tau
    sqrt_pi = sqrt(div_pi)
    diff = div_tau / sqrt_pi
    draw_margin = margin * sqrt_pi
    if link.tie:
        if default:
            # env.v_draw, then env.w_draw, sharing their cdf and pdf values.
            abs_diff = abs(diff)
            a = draw_margin - abs_diff
            b = -draw_margin - abs_diff
            denom = _cdf(a) - _cdf(b)
            pdf_a = _pdf(a)
            pdf_b = _pdf(b)
            numer = pdf_b - pdf_a
            v = ((numer / denom) if denom else a) * (-1. if diff < 0 else 1.)
            if denom:
                # w_draw's v is v_draw(abs_diff), whose sign is +1.
                w = pow(numer / denom, 2.) + (a * pdf_a - b * pdf_b) / denom
            else:
                w = cast(float, env.w_draw(diff, draw_margin))  # raises the package's FloatingPointError
        else:
            v = cast(float, env.v_draw(diff, draw_margin))
            w = cast(float, env.w_draw(diff, draw_margin))
    else:
        v = _v_win_default(diff, draw_margin) if default else cast(float, env.v_win(diff, draw_margin))
        # env.w_win(diff, margin), without computing v a second time.
        w = v * (v + (diff - draw_margin))
        if not 0 < w < 1:
            env.w_win(diff, draw_margin)  # raises the package's FloatingPointError
    denom = (1. - w)
    pi = div_pi / denom
    tau = (div_tau + sqrt_pi * v) / denom
    link.trunc_pi = pi + link.trunc_pi - value_pi
    link.trunc_tau = tau + link.trunc_tau - value_tau
    link.d_pi = pi
    link.d_tau = tau
    pi_delta = abs(value_pi - pi)
    if pi_delta == _INF:
        return 0.
    # max(abs(value_tau - tau), sqrt(pi_delta)), as the builtin picks
    moved = abs(value_tau - tau)
    root = sqrt(pi_delta)
    return root if root > moved else moved


def _up_right(link: _Link) -> None:
    """The lower team from the upper one and their difference."""
    upper, lower = link.upper, link.lower
    pi, tau = _sum_pair(upper.pi - upper.right_pi, upper.tau - upper.right_tau,
                        link.d_pi - link.sum_pi, link.d_tau - link.sum_tau, -1)
    lower.pi = lower.pi - lower.left_pi + pi
    lower.tau = lower.tau - lower.left_tau + tau
    lower.left_pi = pi
    lower.left_tau = tau


def _up_left(link: _Link) -> None:
    """The upper team from their difference and the lower team."""
    upper, lower = link.upper, link.lower
    pi, tau = _sum_pair(link.d_pi - link.sum_pi, link.d_tau - link.sum_tau,
                        lower.pi - lower.left_pi, lower.tau - lower.left_tau, 1)
    upper.pi = upper.pi - upper.right_pi + pi
    upper.tau = upper.tau - upper.right_tau + tau
    upper.right_pi = pi
    upper.right_tau = tau


def _run_chain(env: trueskill.TrueSkill, chain: list[_Link], min_delta: float) -> None:
    """The lower layers of the graph, updated in place in the teams: the team
    performances ``t`` and the differences ``d`` between neighbours in rank order, with
    the truncation that says who finished ahead. The chain is swept down and up until
    no truncation moves more than ``min_delta`` (at most 10 times), as the package does:
    down the chain (each difference from its teams, its truncation, then the next team
    from it), then back up. One difference alone is just truncated.
    """
    margin = _draw_margin(env)
    default = env.cdf is _CDF and env.pdf is _PDF
    last = len(chain) - 1
    for _ in range(10):
        if last == 0:
            delta = _truncate(env, chain[0], margin, default)
        else:
            delta = 0.0
            for j in range(last):
                link = chain[j]
                moved = _truncate(env, link, margin, default)
                if moved > delta:  # max(delta, moved), as the builtin picks
                    delta = moved
                _up_right(link)
            for j in range(last, 0, -1):
                link = chain[j]
                moved = _truncate(env, link, margin, default)
                if moved > delta:
                    delta = moved
                _up_left(link)
        if delta <= min_delta:
            break
    _up_left(chain[0])
    _up_right(chain[last])


_NEW: Final = object.__new__


def _rating(mu: float, sigma: float) -> Rating:
    """``Rating(mu, sigma)`` without its Python constructor: ``Gaussian.__init__``'s
    ``pi = sigma ** -2`` and ``tau = pi * mu``, stored as it stores them."""
    if not sigma:
        return Rating(mu, sigma)  # raises the package's ValueError
    rating = _NEW(Rating)
    pi = pow(sigma, -2.)
    rating.pi = pi
    rating.tau = pi * mu
    return rating


def mu_sigma(rating: Rating) -> tuple[float, float]:
    """``(rating.mu, rating.sigma)``; for the package's own ``Rating``, worked out from
    what it stores as its properties do (they run as Python), to the same bits."""
    if type(rating) is Rating:
        pi = cast(float, rating.pi)
        tau = cast(float, rating.tau)
        return (pi and tau / pi, sqrt(1 / pi) if pi else _INF)
    return (cast(float, rating.mu), cast(float, rating.sigma))


def rate_free_for_all(env: trueskill.TrueSkill, ratings: Sequence[Rating], ranks: Sequence[int],
                      min_delta: float = MIN_DELTA) -> list[Rating]:
    """New ratings after one free-for-all: ``ranks[i]`` is player ``i``'s place (0 best,
    equal places tie). The same as ``[g[0] for g in env.rate([(r,) for r in ratings],
    ranks=ranks)]``, bit for bit; raises ``FloatingPointError`` where that does."""
    n = len(ratings)
    if n < 2 or len(ranks) != n:
        raise ValueError(f"a free-for-all needs at least 2 players and a rank for each ({n} ratings, {len(ranks)} ranks)")
    # The seats in rank order, tied ones in seat order: the package's stable sort,
    # as an insertion sort (a handful of seats; no key calls when compiled).
    places = list(ranks)
    order: list[int] = []
    for i in range(n):
        rank = places[i]
        k = i
        while k and rank < places[order[k - 1]]:
            k -= 1
        order.insert(k, i)
    # env.beta ** 2 and env.tau ** 2 (the same libm pow; an int setting gives the same float).
    beta2 = pow(cast(float, env.beta), 2.)
    dynamic2 = pow(cast(float, env.tau), 2.)
    teams: list[_Team] = []
    for i in order:
        mu, sigma = mu_sigma(ratings[i])
        # The prior: the rating, widened by the skill drift before the game.
        sigma = sqrt(pow(sigma, 2.) + dynamic2)
        pi = pow(sigma, -2.)
        tau = pi * mu
        # The performance: the skill plus the game's noise (beta).
        a = 1. / (1. + beta2 * pi)
        teams.append(_Team(pi, tau, a * pi, a * tau))
    chain = [_Link(teams[k], teams[k + 1], places[order[k]] == places[order[k + 1]]) for k in range(n - 1)]
    _run_chain(env, chain, min_delta)
    result: list[Rating] = [None] * n  # type: ignore[list-item]
    for k, i in enumerate(order):
        # Back up: team to performance, performance to skill.
        team = teams[k]
        pi, tau = _sum1(team.pi - team.msg_pi, team.tau - team.msg_tau)
        p_pi, p_tau = team.perf_pi - 0 + pi, team.perf_tau - 0 + tau
        m_pi, m_tau = p_pi - team.like_pi, p_tau - team.like_tau
        a = 1. / (1. + beta2 * m_pi)
        pi, tau = team.prior_pi - 0 + a * m_pi, team.prior_tau - 0 + a * m_tau
        mu = pi and tau / pi
        sigma = sqrt(1 / pi) if pi else _INF
        result[i] = _rating(float(mu), float(sigma))
    return result
