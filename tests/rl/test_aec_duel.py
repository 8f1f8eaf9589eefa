"""King of Tokyo: Duel in the PettingZoo environment: its fixed action table holds every
legal action, its observation is taken from the observer's end of the tracks, and it
passes PettingZoo's own checks with drawn and chosen monsters."""

from __future__ import annotations

import random
import re
import warnings
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from kotarena.games import get_game, new_game
from kotarena.games.duel.cards import CARDS, KEEP
from kotarena.games.duel.monsters import MONSTERS
from kotarena.pettingzoo import encoder_for, env
from kotarena.pettingzoo.duel import CARD_ARGUMENTS, MAX_PULL, MAX_SPACES

DUEL_DOCS = Path(__file__).parents[2] / "docs" / "duel.md"
GAMES = ("duel", "duel:monsters=choice")


def unindexed(encoder, legal):
    """The legal actions without an index, but for In Shape's pulls longer than any track."""
    return [a for a in legal if a not in encoder.index
            and not (a.args[:1] == ("in_shape",) and a.args[1] > MAX_PULL)]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("deck", ["default", None])
def test_random_duels_never_meet_a_legal_action_without_an_index(game, deck):
    encoder = encoder_for(get_game(game), 2, deck)
    low, high = encoder.layout.bounds()
    for seed in range(12):
        state = get_game(game).new_state(2, seed=seed, deck=deck, record=False)
        rng = random.Random(seed)
        while state.outcome is None:
            assert not unindexed(encoder, state.legal), (seed, state.kind, unindexed(encoder, state.legal))
            view = state.view(state.to_move)
            observation = encoder.encode(view)
            assert ((observation >= low) & (observation <= high)).all()
            assert [encoder.actions[i] for i in np.flatnonzero(encoder.mask(view.legal))] == sorted(
                view.legal, key=encoder.index.__getitem__)
            state.apply(rng.choice(state.legal))


def test_the_table_is_the_same_whatever_the_monsters_option_and_offers_every_pick():
    drawn, choice = encoder_for(get_game("duel"), 2), encoder_for(get_game("duel:monsters=choice"), 2)
    assert drawn.actions == choice.actions
    state = get_game("duel:monsters=choice").new_state(2, seed=3)
    assert state.kind == "monster" and len(state.legal) == len(MONSTERS)
    assert all(action in choice.index for action in state.legal)


def test_duels_action_table_runs_in_its_documented_order():
    texts = [action.text for action in encoder_for(get_game("duel"), 2).actions]
    assert texts[:2] == ["stop", "reroll 1"] and texts[255] == "reroll 1 2 3 4 5 6 7 8"
    assert texts[256:265] == ["spend 0", "spend 1", "spend 2", "pass", "done", "sweep", "buy 1", "buy 2", "buy 3"]
    assert texts[265:269] == ["power fame", "power destruction", "power claw", "power heart"]
    assert texts[274] == "power destruction destruction"
    assert texts.index("block 1 fame -7") == 275 and texts.index("block 2 destruction 7") == 334
    assert texts.index("hype fame -7") == 335 and texts.index("hype destruction 7 5") == 472
    assert "hype fame 3 4" in texts and "hype fame 4 3" in texts and "hype fame 3 5" in texts
    assert texts[473:479] == [f"pick {monster.id}" for monster in MONSTERS]
    assert texts[479:491] == ["resolve power", "resolve cards", "resolve fame", "resolve destruction",
                              "resolve energy", "resolve heart", "resolve claw", "resolve electrical_aura",
                              "resolve in_shape", "power token", "power token token", "power multiply"]
    assert f"use in_shape {MAX_PULL}" in texts and f"use in_shape {MAX_PULL + 1}" not in texts
    keeps = [card.id for card in CARDS if card.type == KEEP]
    assert all(f"use tesla_impulse {card}" in texts for card in keeps)
    assert "use titanic_batteries claw claw" in texts and "use titanic_batteries heart claw" not in texts


def test_no_marker_can_move_further_than_the_longest_pull():
    # 15 printed spaces and the two extension tokens on one track: 17 spaces, 16 steps end to end.
    assert (MAX_SPACES, MAX_PULL) == (17, 16)


def test_every_card_choice_the_rules_describe_has_its_arguments():
    described = set(re.findall(r"`use ([a-z_]+)", DUEL_DOCS.read_text(encoding="utf-8")))
    assert described == set(CARD_ARGUMENTS)


def test_the_tracks_are_seen_from_the_observers_victory_space():
    encoder = encoder_for(get_game("duel"), 2)
    state = new_game("duel", ["Gigazaur", "The King"], seed=1)
    view = state.view(0)._replace(markers=(("", -4), ("", 0)), hype=(("cat_smash", 0, 5, False),))
    layout = encoder.layout
    for seat, to_me, smash_at in ((0, 3, 12), (1, 11, 2)):
        observation = encoder.encode(view._replace(player=seat))
        assert observation[layout.slot("fame_to_me")][0] == to_me
        assert observation[layout.slot("fame_to_rival")][0] == 14 - to_me
        spaces = observation[layout.slot("fame_spaces")].reshape(MAX_SPACES, -1)
        assert list(spaces[:15, 0]) == [1] * 15 and not spaces[15:].any()
        assert int(np.flatnonzero(spaces[:, 1])[0]) == to_me
        assert int(np.flatnonzero(spaces[:, 4])[0]) == smash_at  # the smash bonus
        assert observation[layout.slot("hype_at")][0] == smash_at + 1
        # Seat 1's spotlight zone is -5..-3: the marker on -4 is in it, whichever side looks.
        assert spaces[to_me, 2] == (seat == 0) and spaces[to_me, 3] == (seat == 1)
        assert list(observation[layout.slot("seat_max_health")]) == ([14, 15] if seat == 0 else [15, 14])


def test_the_second_seat_to_pick_sees_the_first_seats_monster():
    environment = env("duel:monsters=choice", players=2)
    environment.reset(seed=4)
    environment.step("pick the_king")
    assert environment.agent_selection == "player_1"
    observation, *_ = environment.last()
    layout = environment.unwrapped.encoder.layout
    monsters = observation["observation"][layout.slot("seat_monster")].reshape(2, -1)
    assert MONSTERS[int(np.flatnonzero(monsters[1])[0])].id == "the_king"
    picks = [environment.unwrapped.actions[i].text for i in np.flatnonzero(observation["action_mask"])]
    assert len(picks) == 5 and "pick the_king" not in picks


@pytest.mark.parametrize("game", GAMES)
def test_duel_passes_pettingzoos_api_test(game):
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Observation is not a NumPy array")
        warnings.filterwarnings("ignore", "Observation space for each agent probably should be")
        api_test(env(game, players=2), num_cycles=1000)


@pytest.mark.parametrize("game", GAMES)
def test_duel_passes_pettingzoos_seed_test(game):
    seed_test(lambda: env(game, players=2), num_cycles=500)


def test_a_seed_deals_the_engines_duel_of_that_seed():
    environment = env("duel", players=2, render_mode="ansi")
    environment.reset(seed=11)
    rng = np.random.default_rng(5)
    taken = []
    for _agent in environment.agent_iter():
        observation, _reward, termination, _truncation, _info = environment.last()
        action = None if termination else int(rng.choice(np.flatnonzero(observation["action_mask"])))
        if action is not None:
            taken.append(action)
        environment.step(action)
    engine = new_game("duel", 2, seed=11)
    for index in taken:
        engine.apply(environment.unwrapped.actions[index])
    assert engine.outcome == environment.unwrapped.state.outcome and engine.history == environment.unwrapped.state.history
    assert "wins" in environment.render() or "nobody wins" in environment.render()


def test_duels_page_gives_the_sizes_of_its_environment():
    cards, bare = encoder_for(get_game("duel"), 2), encoder_for(get_game("duel"), 2, None)
    page = " ".join(DUEL_DOCS.read_text(encoding="utf-8").split())
    assert (f"table of {len(cards.actions)} actions ({len(bare.actions)} without cards) and a "
            f"{cards.layout.size}-entry observation") in page
