"""The search bot: candidates, rollouts, the win model, the budget, and whole games.

Budgets here are small (tens of rollouts a decision) so the tests stay fast; the
strength figures at the default budget come from ``benchmarks/bot_strength.py``.
"""

from __future__ import annotations

import math

import pytest
from kotarena_mcts import SearchBot
from kotarena_mcts.candidates import distinct_actions, kept_faces
from kotarena_mcts.rollout import rollout
from kotarena_mcts.value import win_probability

from kotarena import plugins
from kotarena.bots.random_bot import RandomBot
from kotarena.bots.registry import get_bot
from kotarena.conformance import check_bot
from kotarena.games import new_game
from kotarena.games.kot.faces import parse_faces, scripted_dice
from kotarena.games.kot.position import MonsterSetup, build_position
from kotarena.games.vocabulary import reroll_table
from kotarena.match import bot_seed, play


class QuickSearchBot(SearchBot):
    """The search bot on a test budget."""

    def __init__(self, *, seed=None, **params):
        params.setdefault("playouts", 40)
        super().__init__(seed=seed, **params)


class TinySearchBot(SearchBot):
    """The search bot on the smallest budget that still searches: for the conformance check."""

    def __init__(self, *, seed=None, **params):
        params.setdefault("playouts", 8)
        super().__init__(seed=seed, **params)


def position(*monsters: MonsterSetup, dice: list[str], first: str | None = None, **options):
    return build_position(list(monsters), first=first or monsters[0].name, dice=scripted_dice(dice),
                          deck=options.pop("deck", None), **options)


# ------------------------------------------------------------------ registration and conformance


def test_is_registered_through_its_entry_point(monkeypatch):
    monkeypatch.setenv("KOTARENA_TRUST", "kotarena-mcts")  # (else kotarena never imports it)
    plugins.reset()
    assert get_bot("mcts").cls is SearchBot


@pytest.mark.slow
def test_passes_the_conformance_check_on_a_small_budget():
    report = check_bot(TinySearchBot, games=1)
    assert report.ok, report.text()
    # Every decision kind of every game it plays, Duel's monster choice (an option's) too.
    kinds = report.check("decision kinds").detail
    assert "duel" not in kinds.partition("never arose")[2]
    assert "duel roll" in kinds and "duel hype" in kinds and "duel:monsters=choice monster" in kinds


def test_bad_parameters_are_refused_with_a_message():
    for params, message in (({"playouts": 0}, "playouts"), ({"horizon": -1}, "horizon"),
                            ({"time_ms": 0}, "time_ms")):
        try:
            SearchBot(seed=1, **params)
        except ValueError as error:
            assert message in str(error)
        else:
            raise AssertionError(f"{params} was accepted")


# ------------------------------------------------------------------ candidates


def test_rerolls_that_keep_the_same_faces_are_one_candidate():
    dice = parse_faces("claw 3 claw 1 1 2")
    legal = reroll_table(6)
    distinct = distinct_actions("roll", dice, legal)
    # Keep 0-2 claws, 0-1 threes, 0-2 ones, 0-1 twos: 3 * 2 * 3 * 2 choices.
    assert len(distinct) == 36
    assert len({kept_faces(dice, a) for a in distinct}) == 36
    assert {kept_faces(dice, a) for a in legal} == {kept_faces(dice, a) for a in distinct}


def test_the_preferred_action_comes_first_and_stands_for_its_equivalents():
    dice = parse_faces("claw 3 claw 1 1 2")
    legal = reroll_table(6)
    preferred = next(a for a in legal if a.text == "reroll 2 3 4 5 6")  # keeps the first claw
    distinct = distinct_actions("roll", dice, legal, first=preferred)
    assert distinct[0] is preferred
    assert all(a.text != "reroll 1 2 4 5 6" for a in distinct)  # keeps the other claw: the same


def test_other_decisions_are_searched_as_listed():
    state = attacked_in_tokyo(health=4)
    assert distinct_actions(state.kind, state.dice, state.legal) == list(state.legal)


# ------------------------------------------------------------------ rollouts and the model


def test_a_rollout_without_horizon_plays_to_the_end_of_the_game():
    state = new_game("kot", players=4, seed=5, deck=None, record=False)
    me = state.to_move
    reward = rollout(state, me, horizon=0)
    assert state.outcome is not None
    assert reward == (1.0 if state.outcome.winner == me else 0.0)


def test_a_rollout_stops_when_our_turn_comes_round_and_asks_the_model():
    state = new_game("kot", players=4, seed=5, deck="default", record=False)
    me = state.to_move
    reward = rollout(state, me, horizon=1)
    assert state.outcome is None and state.between_turns and state.active == me
    assert 0.0 < reward < 1.0 and reward == win_probability(state, me)


def test_the_model_shares_out_the_win_among_the_living():
    state = position(MonsterSetup("Alienoid", stars=15), MonsterSetup("Kraken", stars=3),
                     MonsterSetup("Meka Dragon", stars=3, health=0, alive=False), dice=["1 2 3 1 2 3"])
    chances = [win_probability(state, p) for p in range(3)]
    assert math.isclose(sum(chances), 1.0)
    assert chances[2] == 0.0
    assert chances[0] > chances[1]


def test_the_model_fears_tokyo_at_low_health():
    def chance(tokyo):
        state = position(MonsterSetup("Alienoid", health=2, tokyo=tokyo), MonsterSetup("Kraken"),
                         MonsterSetup("Meka Dragon"), first="Kraken", dice=["1 2 3 1 2 3"])
        return win_probability(state, 0)

    assert chance("city") < chance(None)


# ------------------------------------------------------------------ decisions


def attacked_in_tokyo(health: int):
    """The King claws twice at Alienoid in Tokyo; Kraken and Meka Dragon roll before Alienoid."""
    state = position(MonsterSetup("Alienoid", health=health, tokyo="city"), MonsterSetup("The King"),
                     MonsterSetup("Kraken"), MonsterSetup("Meka Dragon"),
                     first="The King", dice=["claw claw 1 2 3 heart"])
    state.apply("stop")
    assert state.kind == "yield" and state.to_move == 0
    return state


def test_with_1_health_in_tokyo_it_yields():
    state = attacked_in_tokyo(health=3)
    bot = QuickSearchBot(seed=3)
    assert bot.choose(state.view(0)).text == "yield"
    tallies = {t.action.text: t for t in bot.last_search.tallies}
    assert tallies["yield"].mean > tallies["stay"].mean


def test_it_takes_the_win_its_dice_offer():
    # 17 stars and three 3s showing: stopping wins now.
    state = position(MonsterSetup("Alienoid", stars=17), MonsterSetup("Kraken", tokyo="city"),
                     dice=["3 3 3 heart claw 1"])
    assert QuickSearchBot(seed=3).choose(state.view(0)).text == "stop"


def test_the_search_spends_about_its_budget_and_answers_with_its_best_candidate():
    state = position(MonsterSetup("Alienoid", health=6), MonsterSetup("Kraken", tokyo="city"),
                     MonsterSetup("Meka Dragon"), dice=["claw heart 3 3 1 energy"])
    bot = QuickSearchBot(seed=7, playouts=200)
    action = bot.choose(state.view(0))
    search = bot.last_search
    assert action in state.legal
    assert len(search.tallies) == 2 * 2 * 3 * 2 * 2  # distinct keeps of claw heart 3 3 1 energy
    assert search.playouts <= 200 + len(search.tallies)
    assert not search.stopped_by_time


def test_the_same_seed_makes_the_same_choice():
    state = position(MonsterSetup("Alienoid", health=6), MonsterSetup("Kraken", tokyo="city"),
                     MonsterSetup("Meka Dragon"), dice=["claw heart 3 3 1 energy"])
    first, second = QuickSearchBot(seed=11), QuickSearchBot(seed=11)
    assert first.choose(state.view(0)) is second.choose(state.view(0))
    assert [t.total for t in first.last_search.tallies] == [t.total for t in second.last_search.tallies]


def test_a_time_cap_cuts_the_search_short():
    state = position(MonsterSetup("Alienoid", health=6), MonsterSetup("Kraken", tokyo="city"),
                     MonsterSetup("Meka Dragon"), dice=["claw heart 3 3 1 energy"])
    bot = SearchBot(seed=1, playouts=10**7, time_ms=20)
    assert bot.choose(state.view(0)) in state.legal
    assert bot.last_search.stopped_by_time and bot.last_search.playouts < 10**5


def test_a_decision_with_one_legal_action_is_not_searched():
    # Six shrink tokens: Alienoid rolls no dice, so "stop" is all its roll decision allows.
    state = position(MonsterSetup("Alienoid", shrink=6), MonsterSetup("Kraken"), dice=[""], deck="default")
    assert state.kind == "roll" and state.to_move == 0 and state.dice == []
    assert [a.text for a in state.legal] == ["stop"]
    bot = QuickSearchBot(seed=1)
    assert bot.choose(state.view(0)).text == "stop" and bot.last_search is None


# ------------------------------------------------------------------ whole games


@pytest.mark.slow
def test_wins_most_four_player_games_against_random_bots():
    games, wins = 6, 0
    for seed in range(games):
        seat = seed % 4
        state = new_game("kot", players=4, seed=seed, deck="default" if seed % 2 else None, record=False)
        bots = [QuickSearchBot(seed=bot_seed(seed, s)) if s == seat else RandomBot(seed=bot_seed(seed, s))
                for s in range(4)]
        play(state, bots)
        wins += state.outcome.winner == seat
    assert wins >= 4  # a fair share would be 1.5


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4])
def test_plays_origins_and_wins_most_games_against_random_bots(players):
    assert QuickSearchBot.games >= {"kot", "origins"}
    games, wins = 6, 0
    for seed in range(games):
        seat = seed % players
        state = new_game("origins", players=players, seed=seed, deck="kot" if seed % 2 else None, record=False)
        bots = [QuickSearchBot(seed=bot_seed(seed, s)) if s == seat else RandomBot(seed=bot_seed(seed, s))
                for s in range(players)]
        play(state, bots)
        wins += state.outcome.winner == seat
    assert wins >= 4  # a fair share would be 3 (two players) or 1.5


@pytest.mark.slow
def test_search_bot_plays_duel_through_the_shared_determinization_and_beats_random():
    wins = 0
    for seed in range(4):
        for hero in (0, 1):
            state = new_game("duel", 2, seed=seed, record=False)
            bots = [SearchBot(seed=bot_seed(seed, s), playouts=40) if s == hero else RandomBot(seed=bot_seed(seed, s))
                    for s in (0, 1)]
            play(state, bots)
            wins += state.outcome.winner == hero
    assert wins >= 7, f"the search bot won {wins} of 8 Duel games against random"
