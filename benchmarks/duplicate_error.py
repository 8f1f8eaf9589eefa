"""How much do duplicate sets narrow a night's rating error?

Plays many simulated league nights of the same length between the bots of the
strength ladder in ``tune_beta.py`` (``--pool wide``) or five bots of nearly equal
strength (``--pool close``), at 4-player tables, once as plain nights and once
with duplicate sets (4 games per dice seed, seats rotated by one each game). Every
night gives three estimates per entrant:

* ``win share``: games won / games played;
* ``mean score``: the mean of 1 - place / (players - 1) (1 for first, 0 for last);
* ``mu``: the final TrueSkill mean, relative to the night's average mean.

The error of an estimate is its standard deviation from night to night (the nights
differ only in their seed). The benchmark reports it per entrant and for the
difference between entrants of neighbouring strength (what decides their order on
the leaderboard), and the ratio of the two modes' variances: how many plain games
one duplicate game is worth for that estimate, with a 90% interval from resampling
the nights.

It needs NumPy: ``pip install -e '.[bench]'``.

    python benchmarks/duplicate_error.py                    # 200 nights of 40 games per mode
    python benchmarks/duplicate_error.py --pool close
    python benchmarks/duplicate_error.py --nights 20 --games 40 --json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

try:
    import numpy as np
except ImportError:  # pragma: no cover - a message instead of a traceback
    sys.exit("benchmarks/duplicate_error.py needs NumPy: pip install -e '.[bench]'")

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tune_beta import STRENGTH_LADDER, GreedyBot, installed_factories, play_night  # noqa: E402

from kotarena import ratings  # noqa: E402

ESTIMATES = ("win share", "mean score", "mu")

#: Five bots close in strength (the greedy player with 0% to 40% random actions), where
#: luck decides more of each game than in the wide strength ladder.
CLOSE_LADDER = {
    f"greedy-e{round(100 * epsilon):02d}": (lambda seed, epsilon=epsilon: GreedyBot(seed=seed, epsilon=epsilon))
    for epsilon in (0.0, 0.1, 0.2, 0.3, 0.4)
}


def night_estimates(results, labels: Sequence[str], env) -> dict[str, list[float]]:
    """Each estimate for each entrant (in ``labels`` order) from one night's results."""
    wins: Counter[str] = Counter()
    score: Counter[str] = Counter()
    games: Counter[str] = Counter()
    for seats, ranks in results:
        if list(ranks).count(0) == 1:
            wins[seats[list(ranks).index(0)]] += 1
        for label, rank in zip(seats, ranks):
            games[label] += 1
            score[label] += 1 - rank / (len(seats) - 1)
    rated = ratings.recompute(results, env)
    mean_mu = statistics.fmean(rated[label].mu for label in labels)
    return {
        "win share": [wins[label] / games[label] for label in labels],
        "mean score": [score[label] / games[label] for label in labels],
        "mu": [rated[label].mu - mean_mu for label in labels],
    }


def errors(values: np.ndarray, neighbours: Sequence[tuple[int, int]]) -> tuple[float, float]:
    """Mean s.d. across nights of each entrant's estimate and of neighbours' differences.

    ``values[n, e]``: night n's estimate for entrant e.
    """
    single = float(values.std(axis=0, ddof=1).mean())
    difference = float(np.mean([np.std(values[:, a] - values[:, b], ddof=1) for a, b in neighbours]))
    return single, difference


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nights", type=int, default=200, help="nights per mode (default 200)")
    parser.add_argument("--games", type=int, default=40, help="games per night, a multiple of 4 (default 40)")
    parser.add_argument("--seed", type=int, default=1000, help="seed of the first night (the others follow)")
    parser.add_argument("--pool", choices=("wide", "close"), default="wide",
                        help="the strength ladder of tune_beta.py (wide) or five near-equal bots (close)")
    parser.add_argument("--with-installed", action="store_true", help="add installed heuristic/mcts bots")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.games % 4:
        parser.error("--games must be a multiple of 4 (whole duplicate sets)")

    factories = dict(STRENGTH_LADDER if args.pool == "wide" else CLOSE_LADDER)
    if args.with_installed:
        factories.update(installed_factories())
    labels = list(factories)
    env = ratings.make_env()
    started = time.perf_counter()
    estimates = {}
    for mode in ("plain", "duplicate"):
        nights = [night_estimates(play_night(factories, args.games, args.seed + n, duplicate=mode == "duplicate"),
                                  labels, env)
                  for n in range(args.nights)]
        estimates[mode] = {name: np.array([night[name] for night in nights]) for name in ESTIMATES}
    played = time.perf_counter() - started

    pooled = {name: np.concatenate([estimates[m][name] for m in estimates]).mean(axis=0) for name in ESTIMATES}
    by_strength = sorted(range(len(labels)), key=lambda e: -pooled["win share"][e])
    neighbours = list(zip(by_strength, by_strength[1:]))
    rng = np.random.default_rng(args.seed)
    report: dict = {
        "pool": args.pool, "nights_per_mode": args.nights, "games_per_night": args.games, "seed": args.seed,
        "seconds_playing": round(played, 1),
        "pooled": {name: dict(zip(labels, np.round(pooled[name], 4).tolist())) for name in ESTIMATES},
        "neighbours": [f"{labels[a]} - {labels[b]}" for a, b in neighbours],
        "estimates": {},
    }
    for name in ESTIMATES:
        plain = errors(estimates["plain"][name], neighbours)
        dup = errors(estimates["duplicate"][name], neighbours)
        ratios = []
        for _ in range(500):
            pick = rng.integers(0, args.nights, args.nights)
            p = errors(estimates["plain"][name][pick], neighbours)[1]
            d = errors(estimates["duplicate"][name][pick], neighbours)[1]
            ratios.append((p / d) ** 2)
        low, high = np.percentile(ratios, [5, 95])
        report["estimates"][name] = {
            "sd_plain": round(plain[0], 4), "sd_duplicate": round(dup[0], 4),
            "variance_ratio": round((plain[0] / dup[0]) ** 2, 2),
            "difference_sd_plain": round(plain[1], 4), "difference_sd_duplicate": round(dup[1], 4),
            "difference_variance_ratio": round((plain[1] / dup[1]) ** 2, 2),
            "difference_variance_ratio_90": [round(float(low), 2), round(float(high), 2)],
        }

    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"{args.nights} nights of {args.games} games per mode, played in {played:.1f}s", file=sys.stderr)
    print("pooled win share:", ", ".join(f"{k} {v:.3f}" for k, v in report["pooled"]["win share"].items()))
    print("neighbours:", ", ".join(report["neighbours"]))
    print(f"{'estimate':12}{'s.d. plain':>12}{'duplicate':>11}{'ratio':>7}"
          f"{'diff s.d. plain':>17}{'duplicate':>11}{'ratio':>7}  90% interval")
    for name, row in report["estimates"].items():
        low, high = row["difference_variance_ratio_90"]
        print(f"{name:12}{row['sd_plain']:12.4f}{row['sd_duplicate']:11.4f}{row['variance_ratio']:7.2f}"
              f"{row['difference_sd_plain']:17.4f}{row['difference_sd_duplicate']:11.4f}"
              f"{row['difference_variance_ratio']:7.2f}  {low:.2f}-{high:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
