"""The encoders: fixed action tables that hold every legal action, observations from the
observer's side, and the registry that lets any game through the game seam."""

from __future__ import annotations

import importlib.util
import random
import warnings
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test

from kotarena import plugins
from kotarena.engine.actions import Action
from kotarena.engine.game import GameSpec
from kotarena.games import get_game, reset
from kotarena.games.kot.cards import DECKS, get_deck
from kotarena.games.kot.game import KingOfTokyo
from kotarena.pettingzoo import ENCODERS, Encoder, EncoderError, Layout, encoder_for, env, register_encoder
from kotarena.pettingzoo.kot import CARD_ARGUMENTS, MAX_AMOUNT

PIG = Path(__file__).parents[1] / "fixtures" / "plugins" / "kotarena-pig" / "kotarena_pig.py"
KOT_GAMES = ("kot", "origins")


@pytest.mark.parametrize("game", KOT_GAMES)
def test_every_deck_at_every_player_count_has_an_action_table(game):
    spec = get_game(game).spec
    for deck in (*DECKS, None):
        for players in range(spec.min_players, spec.max_players + 1):
            encoder = encoder_for(get_game(game), players, deck)
            assert encoder.actions[0].text == "stop" and len(encoder.index) == len(encoder.actions)


def test_the_action_table_is_the_same_for_every_environment_of_a_game_count_and_deck():
    first, second = encoder_for(get_game("kot"), 4, "kot"), encoder_for(get_game("kot"), 4, "kot")
    assert first.actions == second.actions
    texts = [action.text for action in first.actions]
    assert texts[:3] == ["stop", "reroll 1", "reroll 2"] and texts[255] == "reroll 1 2 3 4 5 6 7 8"
    assert texts[256:264] == ["stay", "yield", "buy 1", "buy 2", "buy 3", "sweep", "done", "pass"]
    assert "use monster_batteries 20" in texts and "use monster_batteries 21" not in texts


def test_every_card_with_actions_in_the_encoder_is_a_card_of_some_deck_that_offers_them():
    offering = {info.id for name in DECKS for info, effect in
                zip(get_deck(name).cards, get_deck(name).card_effects) if effect.offer_kinds}
    assert set(CARD_ARGUMENTS) == offering


@pytest.mark.parametrize("game", KOT_GAMES)
def test_random_games_on_every_deck_never_meet_a_legal_action_without_an_index(game):
    spec = get_game(game).spec
    for deck in (*DECKS, None):
        encoder = encoder_for(get_game(game), spec.max_players, deck)
        for seed in range(2):
            state = get_game(game).new_state(spec.max_players, seed=seed, deck=deck, record=False)
            rng = random.Random(seed)
            while state.outcome is None:
                unindexed = [a for a in state.legal if a not in encoder.index
                             and not (a.args[:1] == ("monster_batteries",) and a.args[1] > MAX_AMOUNT)]
                assert not unindexed, (deck, seed, unindexed)
                view = state.view(state.to_move)
                observation = encoder.encode(view)
                low, high = encoder.layout.bounds()
                assert ((observation >= low) & (observation <= high)).all()
                assert encoder.mask(view.legal).any()
                state.apply(rng.choice(state.legal))


def test_the_observation_is_taken_from_the_observers_seat():
    encoder = encoder_for(get_game("kot"), 3, "kot")
    view = get_game("kot").new_state(3, seed=1).view(1)._replace(health=(10, 7, 4), stars=(0, 5, 9), city=2)
    observation = encoder.encode(view)
    layout = encoder.layout
    assert list(observation[layout.slot("seat_health")]) == [7, 4, 10]
    assert list(observation[layout.slot("seat_stars")]) == [5, 9, 0]
    assert list(observation[layout.slot("seat_city")]) == [0, 1, 0]


def test_the_dice_and_the_market_are_one_hot():
    encoder = encoder_for(get_game("kot"), 2, "kot")
    view = get_game("kot").new_state(2, seed=1).view(0)
    observation = encoder.encode(view)
    dice = observation[encoder.layout.slot("dice")].reshape(8, 6)
    assert [int(np.flatnonzero(row)[0]) for row in dice[:len(view.dice)]] == list(view.dice)
    assert not dice[len(view.dice):].any()
    market = observation[encoder.layout.slot("market")].reshape(3, -1)
    assert [encoder.card_ids[int(np.flatnonzero(row)[0])] for row in market] == list(view.market)


def test_the_layouts_fields_cover_the_vector_end_to_end():
    layout = encoder_for(get_game("origins"), 4, "origins").layout
    position = 0
    for field in layout.fields:
        assert field.start == position and field.size > 0 and field.help
        position += field.size
    assert position == layout.size


def test_a_game_without_an_encoder_is_refused_by_name():
    other = KingOfTokyo(GameSpec("chess", "Chess", 2, 2, None, rules_version=1))  # registered nowhere
    with pytest.raises(EncoderError, match="no PettingZoo encoder for the game 'chess' \\(encoded: duel, kot, origins\\)"):
        encoder_for(other, 2)


class PigEncoder(Encoder):
    """Pig's actions and view as numbers: the environment needs nothing else of a game."""

    def __init__(self, game, players, deck):
        fields = Layout()
        fields.add("banked", players, "points banked, by relative seat", np.inf)
        fields.add("turn_total", 1, "points gathered this turn", np.inf)
        super().__init__([Action.of("roll"), Action.of("hold")], fields)
        self.players = players

    def encode(self, view):
        order = [(view.player + offset) % self.players for offset in range(self.players)]
        return np.array([view.banked[seat] for seat in order] + [view.turn_total], dtype=np.float32)


@pytest.fixture
def pig():
    """The Pig plugin game (tests/fixtures/plugins) registered, and its encoder."""
    spec = importlib.util.spec_from_file_location("kotarena_pig", PIG)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    plugins.get_plugin_manager().register(module, name="kotarena-pig")
    reset()
    register_encoder("pig", PigEncoder)
    yield
    del ENCODERS["pig"]
    plugins.reset()


def test_another_game_plays_through_the_seam_once_its_encoder_is_registered(pig):
    environment = env("pig-dice", players=3, render_mode="ansi")
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Observation is not a NumPy array")
        warnings.filterwarnings("ignore", "Observation space for each agent probably should be")
        warnings.filterwarnings("ignore", "Observation numpy array is all zeros")  # a new game of Pig is all zeros
        api_test(environment, num_cycles=1000)
    environment.reset(seed=5)
    assert environment.unwrapped.actions == (Action.of("roll"), Action.of("hold"))
    # Rendered through the game's words (Game.words), as every game is: Pig draws nothing itself.
    assert environment.render() == get_game("pig").words.picture(environment.unwrapped.state)
    assert environment.render().splitlines()[1].split() == ["#", "seat", "banked"]


DOCS = Path(__file__).parents[2] / "docs" / "pettingzoo.md"


def test_the_docs_give_every_games_table_sizes_and_the_fields_they_print():
    page = DOCS.read_text(encoding="utf-8")
    for game in (*KOT_GAMES, "duel"):
        spec = get_game(game).spec
        for players in range(spec.min_players, spec.max_players + 1):
            cards, bare = encoder_for(get_game(game), players), encoder_for(get_game(game), players, None)
            row = (f"| `{game}` | {players} | {len(cards.actions)} | {cards.layout.size} | {len(bare.actions)} | "
                   f"{bare.layout.size} |")
            assert row in page
    for game, players in (("kot", 4), ("duel", 2)):
        for field in encoder_for(get_game(game), players).layout.fields:
            assert f"| `{field.name}` | {field.start} | {field.size} | {field.help} |" in page
