"""The example agent (docs/examples/pettingzoo_reinforce.py) learns to beat a random player."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

EXAMPLE = Path(__file__).parents[2] / "docs" / "examples" / "pettingzoo_reinforce.py"


def load_example():
    spec = importlib.util.spec_from_file_location("pettingzoo_reinforce", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_a_few_thousand_steps_of_reinforce_beat_the_random_player_it_started_as():
    example = load_example()
    weights, steps = example.train(games=100, seed=0)
    untrained = np.zeros(len(example.FEATURES))

    before, after = example.win_rate(untrained, games=100), example.win_rate(weights, games=100)

    assert steps > 2000
    assert after >= before + 0.15 and after > 0.65, (before, after)
    # What it learned reads like advice: keep claws, reroll ones.
    named = dict(zip(example.FEATURES, weights))
    assert named["reroll a claw"] < 0 < named["reroll a 1"]
