"""The PettingZoo environment: PettingZoo's own checks, seeds, rewards, steps and rendering."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from kotarena.engine.outcome import IllegalActionError
from kotarena.games import new_game
from kotarena.pettingzoo import env, place_rewards, raw_env


def random_actions(environment, seed: int = 0):
    """Play the game to its end with uniformly random legal actions; the actions taken."""
    rng = np.random.default_rng(seed)
    taken = []
    for _agent in environment.agent_iter():
        observation, _reward, termination, truncation, _info = environment.last()
        if termination or truncation:
            environment.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        taken.append(action)
        environment.step(action)
    return taken


@pytest.mark.parametrize(("game", "players", "deck"), [
    ("kot", 2, "default"), ("kot", 4, None), ("kot", 6, "kot-2e+origins"),
    ("origins", 2, "default"), ("origins:two-player-variant=off", 2, "default"), ("origins", 4, "kot"),
])
def test_every_game_passes_pettingzoos_api_test(game, players, deck):
    with warnings.catch_warnings():
        # Dict observations with an action mask are PettingZoo's own convention for
        # board games; its checker still warns about them for any env not its own.
        warnings.filterwarnings("ignore", "Observation is not a NumPy array")
        warnings.filterwarnings("ignore", "Observation space for each agent probably should be")
        api_test(env(game, players=players, deck=deck), num_cycles=1000)


@pytest.mark.parametrize(("game", "players"), [("kot", 4), ("origins", 2)])
def test_every_game_passes_pettingzoos_seed_test(game, players):
    seed_test(lambda: env(game, players=players), num_cycles=500)


def test_a_seed_deals_the_engines_game_of_that_seed():
    environment = env("kot", players=3)
    environment.reset(seed=11)
    taken = random_actions(environment, seed=5)

    engine = new_game("kot", 3, seed=11)
    actions = environment.unwrapped.actions
    for index in taken:
        engine.apply(actions[index])
    final = environment.unwrapped.state
    assert engine.outcome == final.outcome and engine.history == final.history


def test_resets_without_a_seed_follow_from_the_last_seed():
    first, second = env("kot", players=2), env("kot", players=2)
    first.reset(seed=3)
    second.reset(seed=3)
    first.reset()
    second.reset()
    assert first.unwrapped.state.seed == second.unwrapped.state.seed != 3
    assert random_actions(first) == random_actions(second)


def test_the_finishing_places_are_the_rewards_and_every_agent_terminates_at_the_end():
    environment = env("kot", players=4)
    environment.reset(seed=2)
    final = {}
    for agent in environment.agent_iter():
        observation, reward, termination, truncation, info = environment.last()
        if termination:
            final[agent] = (reward, info["view"].outcome)
            environment.step(None)
            continue
        assert reward == 0 and not truncation
        environment.step(int(np.flatnonzero(observation["action_mask"])[0]))
    outcome = environment.unwrapped.state.outcome
    assert set(final) == {"player_0", "player_1", "player_2", "player_3"}
    assert [final[f"player_{seat}"][0] for seat in range(4)] == place_rewards(outcome.ranks)
    assert final[f"player_{outcome.winner}"][0] == 1.0
    assert all(seen is outcome for _, seen in final.values())
    assert environment.agents == []


def test_place_rewards_give_the_first_1_the_last_minus_1_and_ties_the_same():
    assert place_rewards((1, 0)) == [-1.0, 1.0]
    assert place_rewards((0, 1, 1, 3)) == [1.0, 0.0, 0.0, -1.0]
    assert place_rewards((0, 0, 2)) == [0.5, 0.5, -1.0]
    assert sum(place_rewards((2, 0, 1, 3, 3))) == 0


def test_the_mask_marks_exactly_the_legal_actions_of_the_agent_to_move():
    environment = env("kot", players=4)
    environment.reset(seed=9)
    raw = environment.unwrapped
    mover = environment.agent_selection
    observation = environment.observe(mover)
    assert [raw.actions[i] for i in np.flatnonzero(observation["action_mask"])] == list(raw.state.legal)
    others = [agent for agent in environment.agents if agent != mover]
    assert all(not environment.observe(agent)["action_mask"].any() for agent in others)


def test_an_illegal_index_is_refused_and_leaves_the_game_as_it_was():
    environment = env("kot", players=2)
    environment.reset(seed=1)
    raw = environment.unwrapped
    assert raw.state.kind == "roll"
    before = list(raw.state.history)
    with pytest.raises(IllegalActionError, match="'done' is not legal for player_"):
        environment.step(raw.action_index("done"))
    with pytest.raises(IllegalActionError, match="not an index of the action table"):
        environment.step(len(raw.actions))
    assert raw.state.history == before


def test_an_action_may_be_given_as_its_text():
    environment = env("kot", players=2)
    environment.reset(seed=1)
    mover = environment.agent_selection
    environment.step("reroll 4 1")
    assert environment.unwrapped.state.history == [(int(mover[-1]), environment.unwrapped.actions[
        environment.unwrapped.action_index("reroll 1 4")])]


def test_the_agent_to_move_gets_its_raw_view_in_its_info():
    environment = env("origins", players=3)
    environment.reset(seed=4)
    *_, info = environment.last()
    view = info["view"]
    assert view.player == int(environment.agent_selection[-1])
    assert view.legal == environment.unwrapped.state.legal
    assert view == environment.unwrapped.view(environment.agent_selection)


def test_render_draws_the_table_with_the_terminal_renderer(capsys):
    environment = env("kot", players=2, render_mode="ansi")
    environment.reset(seed=1)
    text = environment.render()
    assert "King of Tokyo, turn 1" in text and "Alienoid" in text and "Cyber Bunny" in text
    random_actions(environment)
    assert "wins" in environment.render()

    human = env("origins", players=2, render_mode="human")
    human.reset(seed=1)
    assert human.render() is None
    assert "King of Tokyo: Origins, turn 1" in capsys.readouterr().out


def test_a_render_mode_the_environment_lacks_is_refused():
    with pytest.raises(ValueError, match="render_mode is one of human, ansi"):
        raw_env("kot", players=2, render_mode="rgb_array")
