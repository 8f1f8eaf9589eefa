"""Fit TrueSkill's beta (per-game luck) to measured King of Tokyo games.

Plays several short, seeded nights of 4-player games between bots of known, different
strength. For each candidate beta, every night is rated from scratch with TrueSkill,
and each game is scored before it is rated: the log-probability, under TrueSkill's own
model, of the finishing order that happened, given the ratings from the games before
it. Every game is thus held out from the ratings that predict it. The beta with the
highest total is the fit; resampling the nights shows how firm it is. The share of
tied neighbouring places gives the draw probability.

The strength ladder is defined here so the benchmark needs nothing but kotarena:
``greedy`` (a simple rule player), ``greedy-e33`` and ``greedy-e67`` (the same player
taking a uniformly random action a third / two thirds of the time), ``random`` and
``timid`` (keeps its first roll, always leaves Tokyo, never buys). Installed bots named
``heuristic`` or ``mcts`` join with ``--with-installed``.

    python benchmarks/tune_beta.py                      # 24 nights of 50 games
    python benchmarks/tune_beta.py --nights 12 --games 100 --seed 40 --json
    python benchmarks/tune_beta.py --seat-bias 4000     # win share by seat, identical bots
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence

import numpy as np

from kotarena import ratings
from kotarena.bots.base import Bot
from kotarena.games import new_game
from kotarena.games.kot.view import View
from kotarena.match import bot_seed, play
from kotarena.tournament.ladder import Entrant, Ladder
from kotarena.tournament.schedule import build_schedule

CLAW, HEART, ENERGY = 5, 4, 3


class GreedyBot(Bot):
    """Keeps claws, energy, hearts when hurt outside Tokyo and its best set of numbers;
    leaves Tokyo at 5 health or less; buys the first card it can afford.

    ``epsilon``: the chance of a uniformly random legal action instead.
    """

    name = "greedy"

    def choose(self, view: View):
        legal = view.legal
        epsilon = float(self.params.get("epsilon", 0.0))
        if epsilon and self.random() < epsilon:
            return self.pick(legal)
        me = view.player
        if view.kind == "yield":
            return _find(legal, "yield" if view.health[me] <= 5 else "stay")
        if view.kind == "buy":
            buys = [a for a in legal if a.kind == "buy"]
            return buys[0] if buys else _find(legal, "done")
        if view.kind != "roll":
            return legal[0]  # card decisions: pass
        return _find(legal, _reroll_text(view))


class TimidBot(Bot):
    """Keeps its first roll, always leaves Tokyo, never buys: a weak, passive player."""

    name = "timid"

    def choose(self, view: View):
        # Card decisions (dice, hearts, damage...) get the first legal action: pass.
        wanted = {"roll": "stop", "yield": "yield", "buy": "done"}.get(view.kind, "")
        return _find(view.legal, wanted)


class RandomStrengthBot(Bot):
    """The built-in random bot's policy (kept here so the ladder is self-contained)."""

    name = "random"

    def choose(self, view: View):
        return self.pick(view.legal)


def _find(legal, text: str):
    for action in legal:
        if action.text == text:
            return action
    return legal[0]


def _reroll_text(view: View) -> str:
    me = view.player
    dice = view.dice
    keep = set()
    counts = Counter(f for f in dice if f <= 2)
    best = max((n for n, c in counts.items() if c >= 2), key=lambda n: (counts[n], n), default=None)
    hurt = view.health[me] < 6 and not view.in_tokyo(me)
    for position, face in enumerate(dice):
        if face in (CLAW, ENERGY) or (face == HEART and hurt) or face == best:
            keep.add(position)
    rerolls = [str(p + 1) for p in range(len(dice)) if p not in keep]
    return "reroll " + " ".join(rerolls) if rerolls else "stop"


#: label -> factory(seed) of the strength ladder, strongest first.
STRENGTH_LADDER: dict[str, Callable[[int], Bot]] = {
    "greedy": lambda seed: GreedyBot(seed=seed),
    "greedy-e33": lambda seed: GreedyBot(seed=seed, epsilon=1 / 3),
    "greedy-e67": lambda seed: GreedyBot(seed=seed, epsilon=2 / 3),
    "random": lambda seed: RandomStrengthBot(seed=seed),
    "timid": lambda seed: TimidBot(seed=seed),
}


def installed_factories() -> dict[str, Callable[[int], Bot]]:
    from kotarena.bots.registry import get_bots

    found = {}
    for name in ("heuristic", "mcts"):
        info = get_bots().get(name)
        if info is not None:
            found[name] = lambda seed, info=info: info.make(seed=seed)
    return found


def play_night(
    factories: dict[str, Callable[[int], Bot]],
    games: int,
    seed: int,
    *,
    players: int = 4,
    duplicate: bool = False,
) -> list[tuple[tuple[str, ...], tuple[int, ...]]]:
    """Play a scheduled night; returns each match's ``(seats, ranks)`` in play order."""
    ladder = Ladder(
        name="tune", entrants=[Entrant(label, label) for label in factories], players=(players,),
        games=games, seed=seed, duplicate=duplicate,
    )
    results = []
    for spec in build_schedule(ladder, list(factories)):
        state = new_game("kot", players=spec.players, seed=spec.seed, first_player=spec.first_player, record=False)
        bots = [factories[label](bot_seed(spec.seed, seat)) for seat, label in enumerate(spec.seats)]
        play(state, bots)
        results.append((spec.seats, state.outcome.ranks))
    return results


# ------------------------------------------------------------------ scoring


class OrderLikelihood:
    """Probability of a finishing order under TrueSkill's model, by Monte Carlo.

    Each seat's performance is normal with mean mu and variance sigma^2 + beta^2; a
    finishing order's probability is the chance that performances fall in that order
    (players who tied may fall in any order among themselves). The same standard
    normal draws serve every candidate beta, so the comparison between betas is not
    blurred by sampling noise.
    """

    def __init__(self, players: int, samples: int = 20000, seed: int = 0) -> None:
        self.z = np.random.default_rng(seed).standard_normal((samples, players))

    def log_probability(self, mus: Sequence[float], sds: Sequence[float], ranks: Sequence[int]) -> float:
        k = len(ranks)
        performance = np.asarray(mus) + np.asarray(sds) * self.z[:, :k]
        ok = np.ones(len(performance), dtype=bool)
        for a in range(k):
            for b in range(k):
                if ranks[a] < ranks[b]:
                    ok &= performance[:, a] > performance[:, b]
        hits = int(ok.sum())
        # Half a hit for an order never sampled keeps the logarithm finite.
        return math.log(max(hits, 0.5) / len(performance))


def night_scores(
    results: Sequence[tuple[Sequence[str], Sequence[int]]],
    beta: float,
    likelihood: OrderLikelihood,
) -> float:
    """Sum over a night of log P(game t's finishing order | ratings after games 0..t-1).

    Every game is held out from the ratings that predict it, and the night starts from
    scratch, so the prior (mu 25, sigma 25/3) matters as it does on a real ladder. That
    is what pins beta down: once ratings have converged, TrueSkill scales its means
    with beta and predictions hardly depend on it (see docs/ratings.md).
    """
    env = ratings.make_env(beta=beta)
    rated: dict[str, ratings.Rating] = {}
    total = 0.0
    for seats, ranks in results:
        now = [rated[label] if label in rated else env.create_rating() for label in seats]
        total += likelihood.log_probability(
            [r.mu for r in now], [math.sqrt(r.sigma ** 2 + beta ** 2) for r in now], ranks,
        )
        rated.update(ratings.rate_match(rated, seats, ranks, env))
    return total


def draw_rate(results: Sequence[tuple[Sequence[str], Sequence[int]]]) -> float:
    """Share of neighbouring places (1st-2nd, 2nd-3rd, ...) that were ties."""
    ties = pairs = 0
    for _, ranks in results:
        ordered = sorted(ranks)
        for a, b in zip(ordered, ordered[1:]):
            pairs += 1
            ties += a == b
    return ties / pairs


BETAS = (2.0, 3.0, 25 / 6, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 12.5, 13.0, 14.0, 15.0, 16.0, 18.0, 20.0,
         23.0, 26.0, 30.0)


def seat_bias(games: int, seed: int) -> None:
    """Win share by seat with the same bot in every seat, seat 1 starting."""
    from kotarena.tournament.schedule import derive_seed

    makers = {"random": STRENGTH_LADDER["random"], "greedy": STRENGTH_LADDER["greedy"]}
    makers.update(installed_factories())
    makers.pop("mcts", None)  # far too slow for thousands of games
    for players in (2, 4, 6):
        for name, make in makers.items():
            wins: Counter = Counter()
            for n in range(games):
                game_seed = derive_seed(seed, "seatbias", n)
                state = new_game("kot", players=players, seed=game_seed, first_player=0, record=False)
                play(state, [make(bot_seed(game_seed, s)) for s in range(players)])
                wins[state.outcome.winner] += 1
            shares = "  ".join(f"{wins[s] / games:.3f}" for s in range(players))
            print(f"{players} players  {name:10} {shares}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seat-bias", type=int, metavar="GAMES",
                        help="instead: win share by seat over GAMES games per row, identical bots")
    parser.add_argument("--nights", type=int, default=24, help="independent nights (default 24)")
    parser.add_argument("--games", type=int, default=50, help="games per night (default 50)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first night (the others follow)")
    parser.add_argument("--samples", type=int, default=20000, help="Monte Carlo draws per order probability")
    parser.add_argument("--with-installed", action="store_true", help="add installed heuristic/mcts bots")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.seat_bias:
        seat_bias(args.seat_bias, args.seed)
        return 0

    factories = dict(STRENGTH_LADDER)
    if args.with_installed:
        factories.update(installed_factories())
    started = time.perf_counter()
    nights = [play_night(factories, args.games, args.seed + n) for n in range(args.nights)]
    played = time.perf_counter() - started
    results = [r for night in nights for r in night]

    likelihood = OrderLikelihood(4, samples=args.samples)
    # scores[n, b]: night n's predictive log-likelihood with BETAS[b].
    scores = np.array([[night_scores(night, beta, likelihood) for beta in BETAS] for night in nights])
    per_game = scores.sum(axis=0) / len(results)
    best = BETAS[int(per_game.argmax())]
    # Which beta wins when the nights are resampled: how firm the fit is.
    rng = np.random.default_rng(args.seed)
    picks = [BETAS[int(scores[rng.integers(0, len(nights), len(nights))].sum(axis=0).argmax())] for _ in range(1000)]
    low, high = np.percentile(picks, [10, 90])

    wins = Counter(seats[ranks.index(0)] for seats, ranks in results if ranks.count(0) == 1)
    games_of = Counter(label for seats, _ in results for label in set(seats))
    uniform = math.log(1 / 24)
    report = {
        "nights": args.nights, "games_per_night": args.games, "games": len(results), "seed": args.seed,
        "seconds_playing": round(played, 1),
        "win_share": {label: round(wins[label] / games_of[label], 3) for label in factories},
        "predictive_loglik_per_game": {f"{beta:.2f}": round(float(s), 4) for beta, s in zip(BETAS, per_game)},
        "uniform_loglik_per_game": round(uniform, 4),
        "best_beta": round(best, 2),
        "best_beta_bootstrap_10_90": [round(float(low), 2), round(float(high), 2)],
        "draw_rate_neighbours": round(draw_rate(results), 4),
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"{len(results)} games ({args.nights} nights of {args.games}) played in {played:.1f}s, "
          f"first seed {args.seed}", file=sys.stderr)
    print("win share:", ", ".join(f"{k} {v:.3f}" for k, v in report["win_share"].items()))
    print(f"predictive log-likelihood per game (a uniform guess scores {uniform:.4f}):")
    for beta, score in zip(BETAS, per_game):
        print(f"  beta {beta:6.2f}  {score:.4f}{'   <- best' if beta == best else ''}")
    print(f"best beta {best:.2f} (10-90% over resampled nights: {low:.2f} to {high:.2f}); "
          f"neighbouring places tied {report['draw_rate_neighbours']:.2%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
