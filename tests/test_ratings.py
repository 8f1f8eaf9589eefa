"""Ratings: finishing places in, TrueSkill ratings out, the same every time."""

from __future__ import annotations

import pytest
import trueskill

from kotarena import ratings
from kotarena.ratings import conservative, make_env, rank_key, ranks_for, rate_match, recompute


@pytest.fixture
def env():
    return make_env()


# ------------------------------------------------------------------ places


def test_without_forfeits_the_engine_places_stand():
    assert ranks_for((2, 0, 3, 1), [None] * 4) == (2, 0, 3, 1)
    assert ranks_for((0, 1, 1, 3), [None] * 4) == (0, 1, 1, 3)  # a tie for second


def test_a_forfeited_seat_is_last_even_if_its_autopilot_won():
    assert ranks_for((0, 1, 2, 3), ["timeout", None, None, None]) == (3, 0, 1, 2)


def test_several_forfeits_tie_for_last_and_ties_survive():
    assert ranks_for((3, 0, 1, 1, 4), [None, "crash", None, None, "illegal"]) == (2, 3, 0, 0, 3)
    assert ranks_for((0, 1), [True, True]) == (0, 0)


def test_places_and_forfeit_flags_must_match():
    with pytest.raises(ValueError, match="3 ranks but 2 forfeit flags"):
        ranks_for((0, 1, 2), [None, None])


# ------------------------------------------------------------------ environment


def test_the_environment_is_explicit_and_tuned():
    before = trueskill.global_env()
    env = make_env()
    assert env.beta == ratings.BETA and env.draw_probability == ratings.DRAW_PROBABILITY
    assert env.mu == 25.0 and env.sigma == pytest.approx(25 / 3)
    assert trueskill.global_env() is before  # no global setup()
    assert make_env(beta=4.0, draw_probability=0.1).beta == 4.0


@pytest.mark.parametrize("options", [{"beta": 0}, {"draw_probability": 0}, {"draw_probability": 1.0}])
def test_impossible_settings_are_refused(options):
    with pytest.raises(ValueError):
        make_env(**options)


def test_the_conservative_score_is_mu_minus_three_sigma():
    rating = trueskill.Rating(mu=30.0, sigma=2.0)
    assert conservative(rating) == 24.0
    better, riskier = trueskill.Rating(26.0, 1.0), trueskill.Rating(30.0, 3.0)
    assert sorted([riskier, better], key=rank_key) == [better, riskier]


# ------------------------------------------------------------------ one match


def test_the_winner_gains_and_the_last_loses(env):
    new = rate_match({}, ["a", "b", "c", "d"], [0, 1, 2, 3], env)
    assert set(new) == {"a", "b", "c", "d"}
    assert new["a"].mu > new["b"].mu > new["c"].mu > new["d"].mu
    assert new["a"].mu > env.mu > new["d"].mu
    assert all(r.sigma < env.sigma for r in new.values())


def test_only_the_seated_entrants_are_returned_and_nothing_is_mutated(env):
    current = {"a": env.create_rating(30, 2), "z": env.create_rating(10, 1)}
    snapshot = dict(current)
    new = rate_match(current, ["a", "b"], [1, 0], env)
    assert set(new) == {"a", "b"}
    assert new["a"].mu < 30 and new["b"].mu > env.mu  # an upset
    assert current == snapshot


def test_equal_entrants_who_tie_stay_equal(env):
    new = rate_match({}, ["a", "b"], [0, 0], env)
    assert new["a"].mu == pytest.approx(new["b"].mu) == pytest.approx(env.mu)


def test_it_is_trueskill_free_for_all(env):
    seats, ranks = ["a", "b", "c"], [1, 0, 2]
    expected = env.rate([(env.create_rating(),)] * 3, ranks=ranks)
    new = rate_match({}, seats, ranks, env)
    for label, (rating,) in zip(seats, expected):
        assert (new[label].mu, new[label].sigma) == (rating.mu, rating.sigma)


def test_known_and_new_entrants_get_the_packages_ratings_in_seat_order(env):
    start = {"a": env.create_rating(30, 2), "b": env.create_rating(22, 1.5), "z": env.create_rating(10, 1)}
    seats, ranks = ["c", "a", "b", "d"], (2, 0, 2, 1)  # a tie, ranks as ranks_for gives them
    expected = env.rate([(start.get(label, env.create_rating()),) for label in seats], ranks=list(ranks))
    new = rate_match(start, seats, ranks, env)
    assert list(new) == seats
    assert [(type(new[label]), new[label].pi, new[label].tau) for label in seats] == [
        (type(rating), rating.pi, rating.tau) for (rating,) in expected]


def test_an_entrant_in_two_seats_gets_the_mean_and_the_smallest_deviation(env):
    start = {"a": env.create_rating(25, 5), "b": env.create_rating(27, 4), "c": env.create_rating(22, 6)}
    seats, ranks = ["a", "b", "a", "c"], [0, 1, 3, 2]
    per_seat = env.rate([(start[label],) for label in seats], ranks=ranks)
    first, second = per_seat[0][0], per_seat[2][0]
    new = rate_match(start, seats, ranks, env)
    assert new["a"].mu == pytest.approx((first.mu + second.mu) / 2)
    assert new["a"].sigma == min(first.sigma, second.sigma)
    assert new["b"] == per_seat[1][0] and new["c"] == per_seat[3][0]


def test_a_match_against_itself_changes_nothing(env):
    before = env.create_rating(28, 3)
    assert rate_match({"a": before}, ["a"] * 4, [0, 1, 2, 3], env) == {"a": before}
    assert rate_match({}, ["a"] * 4, [0, 1, 2, 3], env)["a"] == env.create_rating()


def test_seats_and_places_must_match(env):
    with pytest.raises(ValueError, match="2 seats but 3 ranks"):
        rate_match({}, ["a", "b"], [0, 1, 2], env)


def test_a_forfeit_costs_the_forfeiter(env):
    new = rate_match({}, ["a", "b", "c"], ranks_for((0, 1, 2), ["crash", None, None]), env)
    assert new["a"].mu < env.mu < new["b"].mu


# ------------------------------------------------------------------ many matches


MATCHES = [
    (["a", "b", "c", "d"], [0, 1, 2, 3]),
    (["b", "c", "d", "e"], [2, 0, 1, 3]),
    (["a", "c", "e", "a"], [1, 0, 3, 2]),
    (["d", "e"], [0, 0]),
] * 5


def test_recompute_replays_the_matches_in_order(env):
    expected = {}
    for seats, ranks in MATCHES:
        expected.update(rate_match(expected, seats, ranks, env))
    assert recompute(MATCHES, env) == expected


def test_the_same_results_give_the_same_ratings(env):
    one = recompute(MATCHES, env)
    two = recompute(list(MATCHES), make_env())
    assert {k: (r.mu, r.sigma) for k, r in one.items()} == {k: (r.mu, r.sigma) for k, r in two.items()}


def test_the_order_of_matches_matters_and_is_kept(env):
    assert recompute(MATCHES, env) != recompute(MATCHES[::-1], env)


def test_a_consistent_winner_ends_on_top(env):
    games = [(["a", "b", "c", "d"][i % 4:] + ["a", "b", "c", "d"][:i % 4], None) for i in range(40)]
    order = {"a": 0, "b": 1, "c": 2, "d": 3}
    results = [(seats, [order[label] for label in seats]) for seats, _ in games]
    rated = recompute(results, env)
    assert sorted(rated, key=lambda label: rank_key(rated[label])) == ["a", "b", "c", "d"]


# ------------------------------------------------------------------ the free-for-all update


def _other_backend(env):
    """``env`` on wrappers of its own ``cdf``/``pdf``: the same numbers, but not the
    functions the update writes out, so it calls the package's ``v``/``w`` functions."""
    cdf, pdf = env.cdf, env.pdf
    env.cdf = lambda x, mu=0, sigma=1: cdf(x, mu, sigma)
    env.pdf = lambda x, mu=0, sigma=1: pdf(x, mu, sigma)
    return env


def _same_as_the_package(env, rng, matches, spread):
    from kotarena.free_for_all import rate_free_for_all

    for _ in range(matches):
        players = rng.randint(2, 6)
        before = [env.create_rating(*spread(rng)) for _ in range(players)]
        places = [rng.randint(0, players - 1) for _ in range(players)]  # ties included
        try:
            expected = [group[0] for group in env.rate([(rating,) for rating in before], ranks=places)]
        except FloatingPointError:
            with pytest.raises(FloatingPointError):
                rate_free_for_all(env, before, places)
            continue
        got = rate_free_for_all(env, before, places)
        # What the package stores (pi, tau), not only what it shows, and its own class.
        assert [(type(r), r.pi, r.tau) for r in got] == [(type(r), r.pi, r.tau) for r in expected]


@pytest.mark.parametrize(("beta", "draw_probability"), [(ratings.BETA, ratings.DRAW_PROBABILITY), (25 / 6, 0.1),
                                                        (30.0, 0.0001)])
def test_the_free_for_all_update_is_the_trueskill_packages_to_the_last_bit(beta, draw_probability):
    import random

    env = make_env(beta=beta, draw_probability=draw_probability)
    rng = random.Random(int(beta * 1000))
    _same_as_the_package(env, rng, 400, lambda rng: (rng.uniform(-20, 70), rng.uniform(0.2, 9)))


@pytest.mark.parametrize("env", [
    make_env(beta=4, draw_probability=0.25, mu=25, sigma=8, tau=0),  # int settings
    _other_backend(make_env()),
    _other_backend(make_env(beta=3.0, draw_probability=0.3)),
], ids=["int-settings", "other-backend", "other-backend-many-ties"])
def test_the_free_for_all_update_is_the_packages_in_other_environments(env):
    import random

    rng = random.Random(7)
    _same_as_the_package(env, rng, 300, lambda rng: (rng.uniform(-20, 70), rng.uniform(0.2, 9)))


def test_the_free_for_all_update_is_the_packages_for_settled_and_extreme_ratings(env):
    import random

    rng = random.Random(11)
    # A league's settled ratings (the chain runs to its stopping rule), and ratings so far
    # apart that the package's maths fails on some results (a tie between them, say).
    _same_as_the_package(env, rng, 300, lambda rng: (rng.gauss(25, 2), rng.uniform(0.8, 1.6)))
    _same_as_the_package(env, rng, 300, lambda rng: (rng.uniform(-500, 500), 10 ** rng.uniform(-3, 3)))


def test_the_free_for_all_update_fails_where_the_trueskill_package_fails(env):
    from kotarena.free_for_all import rate_free_for_all

    # A hopeless favourite losing: the package's built-in maths cannot represent it.
    before = [env.create_rating(-400, 0.5), env.create_rating(400, 0.5)]
    with pytest.raises(FloatingPointError):
        env.rate([(r,) for r in before], ranks=[0, 1])
    with pytest.raises(FloatingPointError):
        rate_free_for_all(env, before, [0, 1])
    # A tie between them too, where the draw's own maths fails.
    with pytest.raises(FloatingPointError):
        env.rate([(r,) for r in before], ranks=[0, 0])
    with pytest.raises(FloatingPointError):
        rate_free_for_all(env, before, [0, 0])


def test_a_free_for_all_needs_two_players_with_a_place_each(env):
    from kotarena.free_for_all import rate_free_for_all

    with pytest.raises(ValueError, match="at least 2 players"):
        rate_free_for_all(env, [env.create_rating()], [0])
    with pytest.raises(ValueError, match="a rank for each"):
        rate_free_for_all(env, [env.create_rating()] * 3, [0, 1])


def test_the_update_reads_a_ratings_mu_and_sigma_as_its_properties_give_them(env):
    """The update works mu and sigma out from what a rating stores; they are the
    package's own values, to the last bit."""
    import random

    from kotarena.free_for_all import mu_sigma

    rng = random.Random(5)
    seen = [env.create_rating(), trueskill.Rating(0.0, 1e-9), trueskill.Rating(-40.0, 123.4)]
    seen += [env.create_rating(rng.uniform(-50, 80), rng.uniform(0.01, 30)) for _ in range(500)]
    a, b = env.create_rating(), env.create_rating()
    for _ in range(200):  # and ratings as the update leaves them
        updated = rate_match({"a": a, "b": b}, ["a", "b"], [0, 1], env)
        a, b = updated["a"], updated["b"]
        seen += [a, b]
    assert len(seen) == 903
    for rating in seen:
        assert mu_sigma(rating) == (rating.mu, rating.sigma)
