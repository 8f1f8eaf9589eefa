"""Teach a tiny policy to beat a random player at two-player King of Tokyo, with NumPy.

The agent is a linear softmax policy over a handful of features of each legal action
(read from the observation vector and the action table), trained by REINFORCE on the
environment's own reward (+1 for a win, -1 for a loss) against a player that picks
legal actions uniformly at random. With every weight at 0 it *is* that random player,
so the win rate it reaches is what it learned.

    python docs/examples/pettingzoo_reinforce.py --games 400

kotarena's test suite trains it for a few thousand steps and checks that it wins more
often than it did before training (docs/pettingzoo.md).
"""

from __future__ import annotations

import argparse

import numpy as np

from kotarena.pettingzoo import env as make_env

#: The dice faces in the observation's ``dice`` field, in order.
FACES = ("1", "2", "3", "energy", "heart", "claw")
FEATURES = (
    *(f"reroll a {face}" for face in FACES),   # roll: dice of each face an action rerolls
    "reroll a heart while hurt",                # ... a heart, with 6 health or less
    "reroll a claw in Tokyo",                   # ... a claw, while in Tokyo
    "yield", "yield while hurt",                # attacked in Tokyo: leave
    "buy", "sweep",                             # the buy step
    "use a card or cure",                       # any card decision: act rather than pass
)


class Features:
    """Turns one observation into a feature row per action of the fixed table."""

    def __init__(self, environment) -> None:
        raw = environment.unwrapped
        layout = raw.encoder.layout
        self.dice = layout.slot("dice")
        self.kind = layout.slot("kind")
        self.health = layout.slot("seat_health").start  # relative seat 0: this agent
        self.city = layout.slot("seat_city").start
        self.bay = layout.slot("seat_bay").start
        actions = raw.actions
        size = len(actions)
        # Each reroll as a 0/1 row over dice positions, so a roll's features are a product.
        slots = (self.dice.stop - self.dice.start) // len(FACES)
        self.rerolls = np.zeros((size, slots), dtype=np.float32)
        self.word = {kind: np.zeros(size, dtype=np.float32) for kind in ("yield", "buy", "sweep", "use")}
        for i, action in enumerate(actions):
            if action.kind == "reroll":
                self.rerolls[i, [position - 1 for position in action.args]] = 1
            elif action.kind in ("yield", "buy", "sweep"):
                self.word[action.kind][i] = 1
            elif action.kind in ("use", "cure"):
                self.word["use"][i] = 1

    def __call__(self, observation: np.ndarray) -> np.ndarray:
        rows = np.zeros((len(self.word["use"]), len(FEATURES)), dtype=np.float32)
        dice = observation[self.dice].reshape(-1, len(FACES))  # positions x faces, one-hot
        per_face = self.rerolls @ dice                          # actions x faces rerolled
        rows[:, :6] = per_face
        hurt = float(observation[self.health] <= 6)
        in_tokyo = float(observation[self.city] or observation[self.bay])
        rows[:, 6] = per_face[:, 4] * hurt
        rows[:, 7] = per_face[:, 5] * in_tokyo
        rows[:, 8] = self.word["yield"]
        rows[:, 9] = self.word["yield"] * hurt
        rows[:, 10] = self.word["buy"]
        rows[:, 11] = self.word["sweep"]
        rows[:, 12] = self.word["use"]
        return rows


def policy(weights: np.ndarray, rows: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The softmax over the legal actions of the features' scores."""
    legal = np.flatnonzero(mask)
    scores = rows[legal] @ weights
    chances = np.exp(scores - scores.max())
    full = np.zeros(len(mask))
    full[legal] = chances / chances.sum()
    return full


def play(environment, features: Features, weights: np.ndarray, learner: str, seed: int,
         rng: np.random.Generator, trace: list | None = None) -> float:
    """One game of the learner against a uniformly random player; the learner's reward.
    With ``trace``, the learner's gradient terms (chosen row minus expected row) go there."""
    environment.reset(seed=seed)
    result = 0.0
    for agent in environment.agent_iter():
        observation, reward, termination, truncation, _ = environment.last()
        if termination or truncation:
            if agent == learner:
                result = reward
            environment.step(None)
            continue
        mask = observation["action_mask"]
        if agent == learner:
            rows = features(observation["observation"])
            chances = policy(weights, rows, mask)
            action = int(rng.choice(len(mask), p=chances))
            if trace is not None:
                trace.append(rows[action] - chances @ rows)
        else:
            action = int(rng.choice(np.flatnonzero(mask)))
        environment.step(action)
    return result


def train(games: int, seed: int = 0, rate: float = 0.05) -> tuple[np.ndarray, int]:
    """REINFORCE for ``games`` games (the learner takes seat 0 and seat 1 in turn);
    returns the weights and the learner's number of decisions (its training steps)."""
    environment = make_env("kot", players=2)
    features = Features(environment)
    weights = np.zeros(len(FEATURES))
    rng = np.random.default_rng(seed)
    baseline, steps = 0.0, 0
    for game in range(games):
        trace: list[np.ndarray] = []
        reward = play(environment, features, weights, f"player_{game % 2}", seed * 1_000_003 + game, rng, trace)
        steps += len(trace)
        weights += rate * (reward - baseline) * np.sum(trace, axis=0)
        baseline += 0.05 * (reward - baseline)
    return weights, steps


def win_rate(weights: np.ndarray, games: int, seed: int = 10_000) -> float:
    """The share of ``games`` the policy wins against the random player (seats alternate,
    deals fixed by ``seed``, so two policies meet the same games)."""
    environment = make_env("kot", players=2)
    features = Features(environment)
    rng = np.random.default_rng(seed)
    wins = sum(play(environment, features, weights, f"player_{game % 2}", seed + game, rng) > 0
               for game in range(games))
    return wins / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="training games")
    parser.add_argument("--eval", type=int, default=400, help="evaluation games before and after")
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args()
    before = win_rate(np.zeros(len(FEATURES)), options.eval)
    weights, steps = train(options.games, options.seed)
    after = win_rate(weights, options.eval)
    print(f"trained on {options.games} games ({steps} decisions)")
    for name, weight in zip(FEATURES, weights):
        print(f"  {weight:+6.2f}  {name}")
    print(f"wins against random: {before:.0%} before training, {after:.0%} after")


if __name__ == "__main__":
    main()
