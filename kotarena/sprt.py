"""The sequential probability ratio test behind ``kotarena compare``: pure statistics.

Chess engine testers (cutechess-cli, fastchess, fishtest, OpenBench) decide "is the
new version better?" with Wald's sequential probability ratio test: play on until the
log-likelihood ratio (LLR) of two hypotheses leaves the interval between
``log(beta / (1 - alpha))`` and ``log((1 - beta) / alpha)``. This module is that test
for paired results, the form fastchess calls the ``logistic`` model and fishtest
``LLR_logistic``:

* a result is the score of one pair of games, a number from 0 to 1 out of a fixed
  set: ``0, 1/4, 1/2, 3/4, 1`` for a two-player deal played from both seats (the
  *pentanomial* model) or ``0, 1/2, 1`` for a comparison of two places (worse, equal,
  better: the *trinomial* model);
* the hypotheses are on the expected pair score ``s``, written as a logistic Elo
  difference: ``H0: s = score(elo0)`` against ``H1: s = score(elo1)`` with
  ``score(elo) = 1 / (1 + 10 ** (-elo / 400))``;
* nothing else about the distribution of results is assumed (a *generalized* SPRT):
  under each hypothesis the LLR uses the distribution that is most likely given the
  results seen, among those whose mean is that hypothesis's score (Michel Van den
  Bergh, "Comments on Normalized Elo", proposition 1.1). That is what makes pairs
  count right: their results are what they are, correlated games included, instead of
  being split into games assumed independent.

Everything here is a function of counts; nothing plays games (see
:mod:`kotarena.compare`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

#: The pair scores of a two-player deal played from both seats: B's two game scores
#: (1 for a win, 1/2 for a tie, 0 for a loss), averaged.
PENTANOMIAL: tuple[float, ...] = (0.0, 0.25, 0.5, 0.75, 1.0)
#: The pair scores of a comparison of places: B placed worse than A, the same, better.
TRINOMIAL: tuple[float, ...] = (0.0, 0.5, 1.0)

#: What an empty category counts as in the LLR (fastchess's regularization): the
#: likeliest distribution with a given mean must be able to put weight on every score,
#: or a run of pairs all on one side of the mean would have no such distribution.
EMPTY = 1e-3

#: The Elo shown for a score of 0 or 1 (whose Elo is infinite): that of a 0.1% score.
ELO_LIMIT = 1200.0

#: The hypotheses accepted, as the test names them.
H0 = "H0"
H1 = "H1"


def elo_to_score(elo: float) -> float:
    """The expected score of a side ``elo`` logistic Elo points stronger (0.5 at 0)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def score_to_elo(score: float) -> float:
    """The logistic Elo difference whose expected score is ``score`` (within +-:data:`ELO_LIMIT`)."""
    if not 0.0 < score < 1.0:
        return ELO_LIMIT if score >= 1.0 else -ELO_LIMIT
    # Written as a difference from 0.0 so that a score of 1/2 gives 0.0, not -0.0.
    return min(max(0.0 - 400.0 * math.log10(1.0 / score - 1.0), -ELO_LIMIT), ELO_LIMIT)


def likeliest_with_mean(probs: Sequence[float], scores: Sequence[float], mean: float) -> list[float]:
    """The distribution over ``scores`` with expectation ``mean`` that is closest to the
    observed ``probs`` (the maximum-likelihood one: it maximizes ``sum(probs[i] * log(p[i]))``).

    It is ``p[i] = probs[i] / (1 + theta * (scores[i] - mean))`` for the one ``theta``
    that gives it the mean ``mean`` (and so a total of 1). ``mean`` must lie strictly
    between the smallest and largest score with a positive ``probs``.
    """
    shifted = [a - mean for a in scores]
    weighted = [(p, d) for p, d in zip(probs, shifted, strict=True) if p > 0]
    low_shift = min(d for _, d in weighted)
    high_shift = max(d for _, d in weighted)
    if not low_shift < 0 < high_shift:
        raise ValueError(f"no distribution of these results has the mean {mean}")

    def gap(theta: float) -> tuple[float, float]:
        """The distribution's mean minus ``mean`` at ``theta``, and its slope (negative)."""
        value = slope = 0.0
        for p, d in weighted:
            q = d / (1.0 + theta * d)
            value += p * q
            slope -= p * q * q
        return value, slope

    # The gap falls from +inf to -inf between the thetas where a denominator reaches 0:
    # Newton's method from 0, bisecting whenever a step would leave the bracket.
    low, high = -1.0 / high_shift, -1.0 / low_shift
    theta = 0.0
    for _ in range(200):
        value, slope = gap(theta)
        if value > 0:
            low = theta
        else:
            high = theta
        step = theta - value / slope
        if value == 0 or abs(step - theta) < 1e-14:
            break
        theta = step if low < step < high else (low + high) / 2.0
        if high - low < 1e-15:
            break
    return [p / (1.0 + theta * d) for p, d in zip(probs, shifted, strict=True)]


def llr(counts: Sequence[float], scores: Sequence[float], elo0: float, elo1: float) -> float:
    """The log-likelihood ratio of ``H1: elo1`` against ``H0: elo0`` given ``counts[i]``
    pairs that scored ``scores[i]`` (the generalized SPRT's; see the module docstring).

    Empty categories count as :data:`EMPTY`, so the LLR is defined from the first pair.
    """
    regular = [float(c) if c > 0 else EMPTY for c in counts]
    total = sum(regular)
    probs = [c / total for c in regular]
    p0 = likeliest_with_mean(probs, scores, elo_to_score(elo0))
    p1 = likeliest_with_mean(probs, scores, elo_to_score(elo1))
    return sum(c * math.log(b / a) for c, a, b in zip(regular, p0, p1, strict=True))


@dataclass(frozen=True)
class SPRT:
    """A sequential test of ``H0: elo0`` against ``H1: elo1`` with error rates
    ``alpha`` (accepting H1 when H0 holds) and ``beta`` (accepting H0 when H1 holds)."""

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError(f"elo0 ({self.elo0:g}) must be less than elo1 ({self.elo1:g})")
        for name, value in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0 < value < 1:
                raise ValueError(f"{name} ({value:g}) must be between 0 and 1")
        if self.alpha + self.beta >= 1:
            raise ValueError(f"alpha + beta ({self.alpha + self.beta:g}) must be less than 1")

    @property
    def lower(self) -> float:
        """The LLR at or below which H0 is accepted: ``log(beta / (1 - alpha))``."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        """The LLR at or above which H1 is accepted: ``log((1 - beta) / alpha)``."""
        return math.log((1.0 - self.beta) / self.alpha)

    def llr(self, counts: Sequence[float], scores: Sequence[float]) -> float:
        """The LLR of this test's hypotheses given ``counts`` pairs per score (see :func:`llr`)."""
        return llr(counts, scores, self.elo0, self.elo1)

    def decide(self, llr: float) -> str | None:
        """:data:`H1` or :data:`H0` once ``llr`` has reached a bound, ``None`` before."""
        if llr >= self.upper:
            return H1
        if llr <= self.lower:
            return H0
        return None


@dataclass(frozen=True)
class Estimate:
    """B's mean pair score with a confidence interval, and the same as Elo differences.

    The interval is the normal approximation ``score +- z * sd / sqrt(pairs)``, where
    ``sd`` is the standard deviation of the pair scores themselves (so the pairing's
    correlation is in it) and ``z`` the normal quantile of the confidence. It is a
    fixed-sample interval: a test that stopped because the results looked good leans
    that way, as in every SPRT tester.
    """

    score: float
    low: float
    high: float
    confidence: float
    pairs: int

    @property
    def elo(self) -> float:
        return score_to_elo(self.score)

    @property
    def elo_low(self) -> float:
        return score_to_elo(self.low)

    @property
    def elo_high(self) -> float:
        return score_to_elo(self.high)


def estimate(counts: Sequence[int], scores: Sequence[float], confidence: float = 0.95) -> Estimate:
    """The mean pair score of ``counts[i]`` pairs scoring ``scores[i]``, with its interval
    (a score of 0.5 and an empty interval at 0.5 before the first pair)."""
    pairs = sum(counts)
    if pairs == 0:
        return Estimate(0.5, 0.5, 0.5, confidence, 0)
    mean = sum(c * a for c, a in zip(counts, scores, strict=True)) / pairs
    variance = sum(c * (a - mean) ** 2 for c, a in zip(counts, scores, strict=True)) / pairs
    half = NormalDist().inv_cdf(0.5 + confidence / 2.0) * math.sqrt(variance / pairs)
    return Estimate(mean, max(0.0, mean - half), min(1.0, mean + half), confidence, pairs)
