"""Every registered game keeps the game seam's promises (kotarena.testing.check_game,
in the style of PettingZoo's api_test): the same harness for every game, built in or
from a plugin (the Pig fixture game's run is in tests/bots/test_plugins.py)."""

from __future__ import annotations

import pickle
import random

import pytest

from kotarena.engine.game import Game, GameState
from kotarena.engine.outcome import Outcome, Termination
from kotarena.engine.words import Words
from kotarena.games import games, get_game, new_game
from kotarena.games.kot.end import STARS
from kotarena.testing import check_game


@pytest.mark.parametrize("name", sorted(games()))
def test_every_registered_game_passes_the_api_check(name):
    assert check_game(name, games=2, seed=11) > 0


def test_a_game_is_found_by_name_and_alias_and_starts_at_a_decision():
    game = get_game("Classic ")
    assert isinstance(game, Game) and game.name == "kot"
    state: GameState = new_game("king-of-tokyo", players=3, seed=2)
    assert state.game == "kot" and state.decision is not None and state.decision.player == state.to_move


def test_check_game_names_the_broken_promise():
    class Leaky(type(get_game("kot"))):
        def seat_facts(self, state, seat):
            return {"monster": state.names[seat]}  # fewer facts than it says it keeps

    with pytest.raises(AssertionError, match=r"kot, 2 players, deck default, seed 0: seat facts \('monster',\)"):
        check_game(Leaky(), games=1)


# ------------------------------------------------------------- what a person reads


@pytest.mark.parametrize("name", sorted(games()))
def test_every_games_words_draw_explain_and_end_a_game(name):
    game = get_game(name)
    state = new_game(name, players=game.spec.min_players, seed=3)
    words = game.words
    helped = set()
    rng = random.Random(3)
    while state.outcome is None:
        view = state.view(state.to_move)
        table = words.table(view, me=state.to_move)
        assert all(seat_name in table for seat_name in state.names)
        # Every legal action's verb is declared: a person's answers and replays are read with them.
        assert {action.kind for action in view.legal} <= set(game.verbs), view.kind
        if view.kind not in helped:  # each decision kind's help lists what may be typed
            helped.add(view.kind)
            help_text = words.help(view)
            assert all(action.text in help_text or action.kind == "reroll" for action in view.legal), help_text
        state.apply(rng.choice(view.legal))
    outcome = state.outcome
    assert outcome.termination.value in game.endings  # every game declares its endings
    ending = words.ending(outcome, state.names)
    assert ending.endswith(f"after {outcome.turns} turns")
    assert outcome.winner is None or ending.startswith(f"{state.names[outcome.winner]} wins ")
    assert all(seat_name in words.standings(state) for seat_name in state.names)
    assert words.picture(state).startswith(words.table(state))


def test_the_default_words_draw_any_view_from_its_seat_facts():
    game = get_game("kot")
    state = new_game("kot", players=2, seed=5)
    plain = Words(game)  # the seam's default, not King of Tokyo's own
    table = plain.table(state.view(0), me=0).splitlines()
    assert table[0] == "King of Tokyo, turn 1"
    assert table[1].split()[:5] == ["#", "seat", "stars", "health", "alive"]  # seat_fact_names first
    assert "(you)" in table[3] and table[-1].startswith(f"{state.names[state.to_move]} to decide: ")
    assert plain.help(state.view(state.to_move)).splitlines()[1].split()[0] == "stop"
    assert plain.help(state.view(0), "reroll") == "reroll P ...: reroll the dice at positions P (the others are kept)"
    assert plain.help(state.view(0), "moon") == "Nothing in King of Tokyo is called 'moon'; '?' lists the legal actions."
    with pytest.raises(ValueError, match="played without cards"):
        plain.cards(None)


def test_a_termination_is_any_word_a_game_declares():
    assert Termination("checkmate") is Termination("checkmate") and Termination("checkmate") == "checkmate"
    assert Termination("checkmate").value == "checkmate" and STARS is Termination("stars")
    assert pickle.loads(pickle.dumps(Termination("checkmate"))) is Termination("checkmate")
    outcome = Outcome(1, Termination("checkmate"), (1, 0), 40)
    assert Outcome.from_json(outcome.to_json()) == outcome
    with pytest.raises(ValueError, match="'Check mate' is not a termination"):
        Termination("Check mate")
