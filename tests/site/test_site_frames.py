"""The replay viewer's frames: one per turn, each showing the table as its turn ended,
built through the game seam alone."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from kotarena.engine.game import Game
from kotarena.engine.outcome import Outcome
from kotarena.games import get_game, new_game
from kotarena.games.kot.end import ALL_ELIMINATED
from kotarena.replay import Replay
from kotarena.site.frames import game_frames, viewer_data


def played(game: str, players: int, seed: int) -> Replay:
    """A finished game of random moves, as the league stores it (actions only)."""
    state = new_game(game, players, seed=seed, record=False)
    choose = random.Random(seed)
    while not state.is_over:
        state.apply(choose.choice(state.legal))
    return Replay.actions_only(state, first_player=None)


def health_after_each_turn(replay: Replay) -> list[list[int]]:
    """Every monster's health as each turn ends, read from the state itself."""
    state = new_game(replay.game, list(replay.players), seed=replay.seed, deck=replay.deck, record=True)
    state.pause_between_turns = True
    seen = []
    for _, action in replay.actions:
        if state.between_turns:
            seen.append(list(state.health))
            state.next_turn()
        state.apply(action)
    seen.append(list(state.health))
    return seen


@pytest.mark.parametrize(("game", "players", "seed"), [("kot", 4, 11), ("kot", 6, 12), ("origins", 2, 13), ("duel", 2, 14), ("duel:monsters=choice", 2, 15)])
def test_each_turn_is_a_frame_showing_the_health_left_as_it_ended(game, players, seed):
    replay = played(game, players, seed)
    frames, _, problem = game_frames(replay)
    assert problem is None
    assert frames[0]["title"] == "Setup"
    assert [frame["title"] for frame in frames[1:]] == [f"Turn {turn}" for turn in range(1, replay.outcome.turns + 1)]
    shown = [[seat["health"] for seat in frame["state"]["seats"]] for frame in frames[1:]]
    assert shown == health_after_each_turn(replay)


def test_a_frame_narrates_its_turn_in_words_and_names_whose_turn_it_was():
    replay = played("kot", 3, 21)
    frames, _, _ = game_frames(replay)
    first = frames[1]
    assert "1" in first["lines"][0] and replay.players[first["player"]] in first["lines"][0]
    assert any(" rolls " in line for line in first["lines"])
    assert not any(line.startswith("turn ") for frame in frames for line in frame["lines"])  # no raw events


def test_the_last_frame_shows_the_game_over_and_who_is_out():
    replay = played("kot", 4, 31)
    frames, _, _ = game_frames(replay)
    last = frames[-1]
    assert any(line.startswith("Game over") for line in last["lines"])
    out = last["state"]["out"]
    assert out == [seat for seat, facts in enumerate(last["state"]["seats"]) if facts["health"] == 0]


def test_what_was_bought_is_each_buy_in_the_game_by_card_name():
    state = new_game("kot", 4, seed=41, record=True)
    choose = random.Random(41)
    while not state.is_over:  # buy whenever possible
        buys = [action for action in state.legal if action.text.startswith("buy")]
        state.apply(buys[0] if buys else choose.choice(state.legal))
    replay = Replay.actions_only(state, first_player=None)
    _, bought, _ = game_frames(replay)
    buy_events = [event for event in state.log if event[0] == "buy"]
    assert len(bought) == len(buy_events) > 0
    names = {card.id: card.name for card in state.cards_info}
    assert bought == [(event[1], names[event[2]]) for event in buy_events]


def test_any_game_is_shown_by_its_seat_facts_when_it_draws_no_table_of_its_own():
    state = new_game("kot", 3, seed=51, record=True)
    game = get_game("kot")
    picture = Game.snapshot(game, state)  # the seam's default, which every game has
    assert picture["seats"] == [game.seat_facts(state, seat) for seat in range(3)]
    assert picture["table"] == {} and picture["active"] == state.to_move
    assert Game.purchases(game, state.log) == []


def test_a_replay_that_does_not_end_as_stored_is_shown_as_far_as_it_goes_with_why():
    replay = played("kot", 4, 61)
    wrong = replace(replay, outcome=Outcome(None, ALL_ELIMINATED, (0, 0, 0, 0), 1))
    frames, _, problem = game_frames(wrong)
    assert len(frames) == replay.outcome.turns + 1
    assert problem == "the replay does not play out: the game ends otherwise than stored"


def test_a_replay_of_newer_rules_is_not_played():
    replay = played("kot", 2, 71)
    newer = replace(replay, rules_version=get_game("kot").spec.rules_version + 1)
    frames, bought, problem = game_frames(newer)
    assert frames == [] and bought == [] and "newer than this kotarena's" in problem


def test_a_stored_text_that_is_no_replay_is_reported_not_raised():
    data, bought = viewer_data(7, "not a replay", ["a", "b"])
    assert data["frames"] == [] and bought == [] and "not a kotarena replay" in data["error"]


def test_a_game_the_site_knows_nothing_about_is_shown_turn_by_turn_through_the_seam(monkeypatch):
    """The toy game Pig (a plugin of the test fixtures) defines no snapshot: the viewer
    shows it by the facts its seats keep."""
    import kotarena.games as registry

    monkeypatch.syspath_prepend(str(Path(__file__).parent.parent / "fixtures" / "plugins" / "kotarena-pig"))
    from kotarena_pig import Pig

    monkeypatch.setattr(registry, "_GAMES", {**registry.games(), "pig": Pig()})
    replay = played("pig", 3, 81)
    frames, bought, problem = game_frames(replay)
    assert problem is None and bought == []
    assert len(frames) == replay.outcome.turns + 1
    game = get_game("pig")
    assert [set(seat) for seat in frames[-1]["state"]["seats"]] == [set(game.seat_fact_names)] * 3
