"""Every registered game keeps the game seam's promises (kotarena.testing.check_game,
in the style of PettingZoo's api_test): the same harness for every game, built in or
from a plugin (the Pig fixture game's run is in tests/bots/test_plugins.py)."""

from __future__ import annotations

import pytest

from kotarena.engine.game import Game, GameState
from kotarena.games import games, get_game, new_game
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
