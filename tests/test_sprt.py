"""The sequential test behind ``kotarena compare``: its formulas, and its error rates
measured by simulation on a synthetic model of paired results (no engine).

The simulation bar: with both sides of equal strength (true Elo = elo0) the share of
tests that accept H1 is at most alpha plus sampling error, and with a clear advantage
nearly every test accepts H1. "Sampling error" is bounded as three binomial standard
deviations: with ``n`` tests whose true rate is alpha, the count accepting H1 exceeds
``n * alpha + 3 * sqrt(n * alpha * (1 - alpha))`` with a probability near 0.1%. The
generator is seeded, so each run draws the same results.
"""

from __future__ import annotations

import math
import random
import re

import pytest

from kotarena.sprt import (
    H0,
    H1,
    PENTANOMIAL,
    SPRT,
    TRINOMIAL,
    elo_to_score,
    estimate,
    likeliest_with_mean,
    llr,
    score_to_elo,
)

# ------------------------------------------------------------------ formulas


def test_bounds_are_log_beta_over_one_minus_alpha_and_log_one_minus_beta_over_alpha():
    assert SPRT().lower == pytest.approx(-2.944439, abs=1e-6)  # log(0.05 / 0.95)
    assert SPRT().upper == pytest.approx(2.944439, abs=1e-6)  # log(0.95 / 0.05)
    assert SPRT(alpha=0.05, beta=0.1).lower == pytest.approx(-2.251292, abs=1e-6)  # log(0.1 / 0.95)
    assert SPRT(alpha=0.05, beta=0.1).upper == pytest.approx(2.890372, abs=1e-6)  # log(0.9 / 0.05)


def test_logistic_elo_and_score_are_inverse():
    assert elo_to_score(0) == 0.5
    assert elo_to_score(400) == pytest.approx(10 / 11)
    assert score_to_elo(0.75) == pytest.approx(400 * math.log10(3))
    assert score_to_elo(elo_to_score(-37.5)) == pytest.approx(-37.5)
    assert score_to_elo(1.0) == 1200 and score_to_elo(0.0) == -1200  # clamped, never infinite


def test_with_only_wins_and_losses_the_llr_is_walds_for_a_coin():
    # Two outcomes leave no freedom: the distribution with mean s is (1 - s, s), so the
    # LLR is W log(s1 / s0) + L log((1 - s1) / (1 - s0)). By hand, s1 = score(20 Elo) =
    # 0.528751 and 60 log(1.057501) + 40 log(0.942499) = 3.355138 - 2.369438.
    assert llr([40, 60], (0.0, 1.0), 0, 20) == pytest.approx(0.985700, abs=1e-6)


def test_the_likeliest_distribution_with_a_mean_is_found_by_hand_in_a_symmetric_case():
    # Losses, draws, wins 1/6, 1/3, 1/2 and mean 1/2: the draw term vanishes and
    # (1/6)/(1 - t/2) = (1/2)/(1 + t/2) gives t = 1, so every result gets 1/3.
    assert likeliest_with_mean([1 / 6, 1 / 3, 1 / 2], TRINOMIAL, 0.5) == pytest.approx([1 / 3] * 3)


def brute_force_trinomial_llr(counts: list[int], s0: float, s1: float) -> float:
    """The trinomial LLR from its definition: the likelihood maximized over the one free
    parameter (the draw share d, with wins s - d/2 and losses 1 - s - d/2), by bisection
    on the derivative of the log-likelihood."""

    def best(s: float) -> list[float]:
        low, high = 1e-12, min(2 * s, 2 * (1 - s)) - 1e-12
        for _ in range(200):
            d = (low + high) / 2
            slope = -counts[0] / 2 / (1 - s - d / 2) + counts[1] / d - counts[2] / 2 / (s - d / 2)
            low, high = (d, high) if slope > 0 else (low, d)
        return [1 - s - low / 2, low, s - low / 2]

    p0, p1 = best(s0), best(s1)
    return sum(n * math.log(b / a) for n, a, b in zip(counts, p0, p1))


@pytest.mark.parametrize("counts", [[10, 20, 30], [31, 40, 29], [5, 90, 7], [120, 3, 150]])
def test_the_trinomial_llr_is_the_ratio_of_maximized_likelihoods(counts):
    expected = brute_force_trinomial_llr(counts, elo_to_score(0), elo_to_score(30))

    assert llr(counts, TRINOMIAL, 0, 30) == pytest.approx(expected, abs=1e-7)


def test_the_pentanomial_llr_favours_the_hypothesis_nearer_the_observed_score():
    even = [10, 5, 70, 5, 10]
    ahead = [5, 5, 60, 10, 20]

    assert llr(even, PENTANOMIAL, 0, 10) < 0
    assert llr(ahead, PENTANOMIAL, 0, 10) > 0
    # Mirroring the results and the hypotheses mirrors the evidence.
    assert llr(ahead[::-1], PENTANOMIAL, -10, 0) == pytest.approx(-llr(ahead, PENTANOMIAL, 0, 10))


def test_the_llr_is_defined_from_the_first_pair_with_empty_categories_counted_as_a_thousandth():
    assert 0 < llr([0, 0, 0, 0, 1], PENTANOMIAL, 0, 10) < math.log(elo_to_score(10) / 0.5) + 1e-3
    assert llr([0, 0, 0], TRINOMIAL, 0, 10) == pytest.approx(0, abs=1e-3)


def test_the_test_decides_only_at_its_bounds():
    sprt = SPRT()
    assert sprt.decide(2.95) == H1 and sprt.decide(-2.95) == H0
    assert sprt.decide(2.94) is None and sprt.decide(-2.94) is None


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"elo0": 5, "elo1": 5}, "elo0 (5) must be less than elo1 (5)"),
    ({"alpha": 0}, "alpha (0) must be between 0 and 1"),
    ({"beta": 1.5}, "beta (1.5) must be between 0 and 1"),
    ({"alpha": 0.5, "beta": 0.5}, "alpha + beta (1) must be less than 1"),
])
def test_a_test_with_impossible_settings_is_refused(kwargs, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        SPRT(**kwargs)


def test_the_estimate_is_the_mean_pair_score_with_a_normal_interval_from_the_pairs_spread():
    # Pair scores 0, 1/2, 1/2, 1: mean 1/2, variance 1/8, standard error sqrt(1/32).
    e = estimate([1, 0, 2, 0, 1], PENTANOMIAL)

    assert e.score == 0.5 and e.pairs == 4
    assert e.high - e.score == pytest.approx(1.959964 * math.sqrt(1 / 32), abs=1e-6)
    assert e.score - e.low == pytest.approx(e.high - e.score)
    assert e.elo == 0 and e.elo_high == pytest.approx(-e.elo_low)
    assert estimate([0, 0, 0, 3, 0], PENTANOMIAL).elo == pytest.approx(400 * math.log10(3))


def test_the_estimate_before_any_pair_is_even():
    e = estimate([0, 0, 0], TRINOMIAL)
    assert (e.score, e.low, e.high, e.pairs) == (0.5, 0.5, 0.5, 0)


# ------------------------------------------------------------------ simulation

#: Wide bounds keep a simulated test to a few dozen pairs, so hundreds run in a second.
SIMULATED = SPRT(elo0=0, elo1=60, alpha=0.05, beta=0.05)
TESTS = 300
PAIR_CAP = 5_000  # far beyond any test's length here: none ends at the cap

#: Synthetic pair results: (scores, probabilities at equal strength, with a clear advantage).
#: Two players: mostly split pairs (each bot wins from the same seat), few ties.
#: More players: B's place against A's in the same seat, often the same.
MODELS = {
    "pentanomial": (PENTANOMIAL, (0.15, 0.01, 0.68, 0.01, 0.15), (0.04, 0.01, 0.55, 0.02, 0.38)),
    "trinomial": (TRINOMIAL, (0.3, 0.4, 0.3), (0.12, 0.4, 0.48)),
}


def simulated_decision(sprt: SPRT, scores: tuple[float, ...], probs: tuple[float, ...], rng: random.Random) -> str:
    counts = [0] * len(scores)
    outcomes = range(len(scores))
    for _ in range(PAIR_CAP):
        counts[rng.choices(outcomes, probs)[0]] += 1
        decision = sprt.decide(sprt.llr(counts, scores))
        if decision is not None:
            return decision
    return "cap"


def decisions(model: str, which: int) -> list[str]:
    scores, *probabilities = MODELS[model]
    rng = random.Random(f"kotarena-sprt-{model}-{which}")
    return [simulated_decision(SIMULATED, scores, probabilities[which], rng) for _ in range(TESTS)]


def alpha_bound(tests: int, alpha: float) -> float:
    """Three binomial standard deviations above the expected count of false H1s."""
    return tests * alpha + 3 * math.sqrt(tests * alpha * (1 - alpha))


@pytest.mark.parametrize("model", sorted(MODELS))
def test_the_models_are_what_they_claim(model):
    scores, even, ahead = MODELS[model]
    assert sum(even) == pytest.approx(1) and sum(ahead) == pytest.approx(1)
    assert sum(p * a for p, a in zip(even, scores)) == pytest.approx(0.5)
    assert score_to_elo(sum(p * a for p, a in zip(ahead, scores))) > 2 * SIMULATED.elo1


@pytest.mark.parametrize("model", sorted(MODELS))
def test_with_equal_strength_h1_is_accepted_at_most_at_the_nominal_alpha(model):
    found = decisions(model, 0)

    assert found.count("cap") == 0
    assert found.count(H1) <= alpha_bound(TESTS, SIMULATED.alpha)  # 26 of 300 at alpha 0.05


@pytest.mark.parametrize("model", sorted(MODELS))
def test_with_a_clear_advantage_h1_is_accepted_almost_always(model):
    found = decisions(model, 1)

    assert found.count(H1) >= 0.98 * TESTS
