"""``kotarena bench`` and :mod:`kotarena.bench` run and report (timings are never asserted)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kotarena.bench import bench_engine, time_games
from kotarena.cli import cli
from kotarena.testing import missing


def invoke(args):
    return CliRunner().invoke(cli, args, catch_exceptions=False)


def test_bench_engine_runs_a_few_games_and_prints_a_table():
    result = invoke(["bench", "engine", "--games", "5", "--warmup", "0"])
    assert result.exit_code == 0, result.output
    header = result.stdout.splitlines()[0].split()
    assert header[:5] == ["players", "cards", "games", "games/s", "turns/s"]
    rows = [line.split() for line in result.stdout.splitlines()[2:]]
    assert [(row[0], row[1]) for row in rows] == [("2", "no"), ("2", "yes"), ("4", "no"), ("4", "yes"),
                                                 ("6", "no"), ("6", "yes")]
    assert "seed: 0" in result.stderr


def test_bench_says_which_build_of_the_engine_it_timed():
    from kotarena.engine import NATIVE

    result = invoke(["bench", "engine", "--games", "1", "--warmup", "0", "--players", "2", "--no-deck", "--json"])
    assert json.loads(result.stdout)["engine"] == ("native" if NATIVE else "pure")
    text = invoke(["bench", "engine", "--games", "1", "--warmup", "0", "--players", "2", "--no-deck"])
    assert ("engine: native" if NATIVE else "engine: pure Python") in text.stderr


def test_bench_alone_runs_engine_and_speaks_json():
    result = invoke(["bench", "--games", "2", "--warmup", "1", "--players", "4", "--no-deck", "--json"])
    assert result.exit_code == 0, result.output
    (run,) = json.loads(result.stdout)["results"]
    assert run["players"] == 4 and run["deck"] is False and run["games"] == 2
    assert run["turns"] > 0 and run["decisions"] >= run["turns"]


def test_bench_rejects_impossible_player_counts():
    result = invoke(["bench", "engine", "--players", "1,4"])
    assert result.exit_code != 0
    assert result.stderr.strip() == "Error: bad --players: King of Tokyo is for 2 to 6 players, not 1"


def test_timed_games_count_turns_and_decisions_the_same_every_run():
    first = time_games(3, 4, deck=True, record=True, seed=10, warmup=0)
    second = time_games(3, 4, deck=True, record=True, seed=10, warmup=1)
    assert (first.games, first.turns, first.decisions) == (second.games, second.turns, second.decisions)
    assert first.mean_turns == first.turns / 4
    assert first.to_json()["games"] == 4


def test_bench_engine_covers_every_setting():
    results = bench_engine((2, 5), 2, decks=(False,), warmup=0)
    assert [(r.players, r.deck) for r in results] == [(2, False), (5, False)]


def test_bench_engine_with_the_reference_loop_scales_its_figures():
    result = invoke(["bench", "engine", "--games", "3", "--warmup", "0", "--players", "4", "--deck", "--buyers",
                     "--reference", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["reference"]["games_per_s"] > 0
    (run,) = data["results"]
    assert run["scaled_games_per_s"] == pytest.approx(run["games_per_s"] * data["reference"]["scale"], rel=0.01)


def test_the_reference_loop_plays_whole_games_of_about_fifty_turns():
    import random

    from kotarena.bench import reference_game

    rng = random.Random(5)
    turns = [reference_game(rng.random) for _ in range(300)]
    assert 40 < sum(turns) / len(turns) < 62


def test_bench_league_times_nights_between_runs_of_the_raw_engine_on_the_same_games():
    result = invoke(["bench", "league", "--games", "8", "--workers", "1", "--rounds", "3", "--json"])
    assert result.exit_code == 0, result.output
    (run,) = json.loads(result.stdout)["results"]
    assert run["games"] == 8 and run["workers"] == 1
    assert run["engine_games_per_s"] > 0 and run["league_games_per_s"] > 0
    assert len(run["rounds"]) == 3
    for measured in run["rounds"]:
        assert measured["overhead"] == pytest.approx(
            1 - measured["league_games_per_s"] / measured["engine_games_per_s"], abs=0.002)
    # The median round is the one reported, with the range it likely lies in: with three
    # rounds, the lowest and highest, which enclose the median 75% of the time.
    overheads = sorted(measured["overhead"] for measured in run["rounds"])
    assert run["overhead"] == overheads[1]
    assert run["overhead_range"] == {"low": overheads[0], "high": overheads[2], "coverage": 0.75}
    # Where the time went: CPU per game of the raw engine, the night's workers and its coordinator.
    for measured in run["rounds"]:
        assert measured["raw_cpu_ms_per_game"] > 0 and measured["worker_cpu_ms_per_game"] > 0
        assert measured["coordinator_cpu_ms_per_game"] > 0
    assert run["worker_cpu_ratio"] > 0 and run["coordinator_cpu_ms_per_game"] > 0


def test_the_medians_range_is_the_widest_pair_of_order_statistics_that_enclose_it_often_enough():
    from kotarena.tournament.throughput import median_range

    # k-th smallest to k-th largest of n covers the median with 1 - 2 P(Binomial(n, 1/2) < k).
    assert median_range([0.3, 0.1, 0.2]) == (0.1, 0.3, 0.75)  # too few rounds for 90%: all of them
    assert median_range([5, 1, 4, 2, 3]) == (1, 5, 1 - 2 / 32)
    assert median_range(list(range(9))) == (1, 7, 1 - 2 * 10 / 512)  # the 2nd and 8th of nine
    assert median_range(list(range(15)), confidence=0.5) == (5, 9, pytest.approx(0.6982, abs=1e-4))
    assert median_range([0.2]) == (0.2, 0.2, 0.0)
    with pytest.raises(ValueError):
        median_range([])


def test_bench_league_refuses_bad_worker_counts():
    result = invoke(["bench", "league", "--workers", "0"])
    assert result.exit_code != 0
    assert "bad --workers" in result.stderr


def test_bench_league_untrusted_measures_the_night_sandboxed_against_trusted(sandbox):
    result = invoke(["bench", "league", "--untrusted", "--games", "4", "--workers", "1", "--rounds", "2", "--json"])
    assert result.exit_code == 0, result.output
    (run,) = json.loads(result.stdout)["results"]
    assert run["games"] == 4 and run["workers"] == 1
    assert len(run["trusted_games_per_s"]) == len(run["sandboxed_games_per_s"]) == 2
    assert run["ratios"] == pytest.approx([s / t for t, s in zip(run["trusted_games_per_s"],
                                                               run["sandboxed_games_per_s"])])


def test_bench_duel_times_duel_and_classic_side_by_side_with_the_search_bot():
    try:
        import kotarena_mcts  # noqa: F401 - the example search bot the command times
    except ImportError:
        missing("the example bot kotarena-mcts")
    result = invoke(["bench", "duel", "--rounds", "2", "--games", "2", "--search-games", "1", "--playouts", "8",
                     "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert len(data["rounds"]) == 2
    for round_ in data["rounds"]:
        assert set(round_["turns_per_cpu_s"]) == set(round_["playouts_per_cpu_s"]) == {"kot", "duel"}
        assert round_["turns_ratio"] > 0 and round_["playouts_ratio"] > 0
    text = invoke(["bench", "duel", "--rounds", "1", "--games", "2", "--search-games", "0"])
    assert text.stdout.splitlines()[0].split()[:4] == ["round", "classic", "turns/CPU-s", "Duel"]
    assert text.stdout.splitlines()[-1].startswith("median ratios: turns ")
