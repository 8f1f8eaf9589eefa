"""The heuristic bot: whole games through the engine, and its choices in built positions.

Positions are built with :func:`~kotarena.games.kot.position.build_position` and scripted
dice, played up to the decision under test, and the bot is asked with the deciding
seat's view, exactly as a match would ask it.
"""

from __future__ import annotations

import pytest
from kotarena_heuristic import HeuristicBot
from kotarena_heuristic.rolls import ATTACK_HEALTH

from kotarena import plugins
from kotarena.bots.random_bot import RandomBot
from kotarena.bots.registry import get_bot
from kotarena.conformance import check_bot
from kotarena.engine.actions import Action
from kotarena.games import new_game
from kotarena.games.kot.faces import scripted_dice
from kotarena.games.kot.position import MonsterSetup, build_position
from kotarena.match import bot_seed, play

NOTHING = "1 2 3 heart 1 2"  # a roll that scores nothing, hurts nobody, heals nobody at full health


def position(*monsters: MonsterSetup, dice: list[str], first: str | None = None, **options):
    return build_position(list(monsters), first=first or monsters[0].name, dice=scripted_dice(dice),
                          deck=options.pop("deck", None), **options)


def answer(state, seat: int | None = None) -> str:
    seat = state.to_move if seat is None else seat
    return HeuristicBot(seed=0).choose(state.view(seat)).text


def kept(state, text: str) -> list[str]:
    """The faces a roll answer keeps, by name."""
    from kotarena.games.kot.faces import FACE_NAMES

    rerolled = {int(word) for word in text.split()[1:]}
    return sorted(FACE_NAMES[f] for p, f in enumerate(state.dice, 1) if p not in rerolled)


# ------------------------------------------------------------------ whole games


def test_is_registered_through_its_entry_point(monkeypatch):
    monkeypatch.setenv("KOTARENA_TRUST", "kotarena-heuristic")  # (else kotarena never imports it)
    plugins.reset()
    assert get_bot("heuristic").cls is HeuristicBot


@pytest.mark.slow
def test_passes_the_conformance_check():
    report = check_bot(HeuristicBot)
    assert report.ok, report.text()
    # Every decision kind of every game it plays, Duel's monster choice (an option's) too.
    kinds = report.check("decision kinds").detail
    assert "duel" not in kinds.partition("never arose")[2]
    assert "duel roll" in kinds and "duel hype" in kinds and "duel:monsters=choice monster" in kinds


@pytest.mark.parametrize("deck", ["default", None])
def test_wins_most_four_player_games_against_random_bots(deck):
    games, wins = 40, 0
    for seed in range(games):
        seat = seed % 4
        state = new_game("kot", players=4, seed=seed, deck=deck, record=False)
        bots = [HeuristicBot(seed=bot_seed(seed, s)) if s == seat else RandomBot(seed=bot_seed(seed, s))
                for s in range(4)]
        play(state, bots)
        wins += state.outcome.winner == seat
    assert wins >= 28  # a fair share would be 10


# ------------------------------------------------------------------ Tokyo


def attacked_in_tokyo(health: int, tokyo_seat: int):
    """The King (seat 1) claws twice at the monster in Tokyo City, at seat ``tokyo_seat``."""
    names = ["Alienoid", "The King", "Kraken", "Meka Dragon"]
    monsters = [MonsterSetup(name, health=health if seat == tokyo_seat else 10,
                             tokyo="city" if seat == tokyo_seat else None)
                for seat, name in enumerate(names)]
    state = position(*monsters, first="The King", dice=["claw claw 1 2 3 energy"])
    state.apply("stop")
    assert state.kind == "yield" and state.to_move == tokyo_seat
    return state


def test_with_2_health_in_tokyo_after_an_attack_it_yields():
    # Kraken and Meka Dragon roll before Alienoid's next turn.
    state = attacked_in_tokyo(health=4, tokyo_seat=0)
    assert state.health[0] == 2
    assert answer(state) == "yield"


def test_it_stays_in_tokyo_when_nobody_rolls_before_its_next_turn():
    # Kraken plays right after The King: the 2 stars of its turn cannot be taken away.
    state = attacked_in_tokyo(health=3, tokyo_seat=2)
    assert state.health[2] == 1
    assert answer(state) == "stay"


def test_with_full_health_it_stays_in_tokyo():
    state = attacked_in_tokyo(health=10, tokyo_seat=0)
    assert answer(state) == "stay"


# ------------------------------------------------------------------ dice


def test_in_tokyo_it_keeps_claws_and_rerolls_hearts():
    state = position(MonsterSetup("Alienoid", health=5, tokyo="city"), MonsterSetup("Kraken"),
                     dice=["claw heart heart claw 1 2"])
    text = answer(state)
    assert kept(state, text) == ["claw", "claw"]


def test_hurt_outside_tokyo_it_keeps_hearts():
    state = position(MonsterSetup("Alienoid", health=4), MonsterSetup("Kraken", tokyo="city"),
                     dice=["heart heart 1 2 energy 3"])
    assert kept(state, answer(state)) == ["heart", "heart"]


def test_it_keeps_no_more_hearts_than_the_health_it_misses():
    state = position(MonsterSetup("Alienoid", health=9), MonsterSetup("Kraken", tokyo="city"),
                     dice=["heart heart heart 1 2 energy"])
    assert kept(state, answer(state)) == ["heart"]


def test_hurt_outside_it_keeps_claws_that_eliminate_the_monster_in_tokyo():
    assert 3 < ATTACK_HEALTH  # too hurt to attack for its own sake
    state = position(MonsterSetup("Alienoid", health=3), MonsterSetup("Kraken", health=2, tokyo="city"),
                     MonsterSetup("Meka Dragon"), dice=["claw claw heart 1 2 3"])
    assert kept(state, answer(state)) == ["claw", "claw", "heart"]


def test_hurt_outside_it_does_not_attack_a_healthy_monster_in_tokyo():
    state = position(MonsterSetup("Alienoid", health=5), MonsterSetup("Kraken", tokyo="city"),
                     MonsterSetup("Meka Dragon"), dice=["claw claw heart 1 2 3"])
    assert kept(state, answer(state)) == ["heart"]


def test_healthy_it_keeps_one_claw_to_take_an_empty_tokyo():
    state = position(MonsterSetup("Alienoid"), MonsterSetup("Kraken"), dice=["claw claw claw 1 2 energy"])
    assert kept(state, answer(state)) == ["claw"]


def test_it_keeps_a_triple_and_the_best_pair():
    state = position(MonsterSetup("Alienoid"), MonsterSetup("Kraken", tokyo="city"),
                     dice=["2 2 2 3 3 1"])
    assert kept(state, answer(state)) == ["2", "2", "2", "3", "3"]


def test_it_stops_when_the_dice_already_win():
    # 17 stars and three 3s: 20 stars; rerolling the rest could only waste time.
    state = position(MonsterSetup("Alienoid", stars=17), MonsterSetup("Kraken", tokyo="city"),
                     dice=["3 3 3 heart energy 1"])
    assert answer(state) == "stop"


def test_it_stops_when_its_claws_eliminate_the_last_opponent():
    state = position(MonsterSetup("Alienoid", tokyo="city"), MonsterSetup("Kraken", health=2),
                     dice=["claw claw 1 1 2 3"])
    assert answer(state) == "stop"


# ------------------------------------------------------------------ cards


def at_buy_step(energy: int, market: list[str], *, health: int = 10, stars: int = 0, leader_stars: int = 0,
                deck_top: tuple[str, ...] = ()):
    state = position(MonsterSetup("Alienoid", health=health, stars=stars, energy=energy),
                     MonsterSetup("Kraken", stars=leader_stars),
                     dice=[NOTHING], deck="default", market=market, deck_top=deck_top)
    state.apply("stop")
    assert state.kind == "buy"
    return state


def test_it_buys_the_affordable_card_that_gains_most_over_its_cost():
    # Skyscraper: 4 stars for 6 energy. Corner Store's 1 star is not worth 3 energy;
    # Extra Head costs more than Alienoid has.
    state = at_buy_step(6, ["corner_store", "skyscraper", "extra_head"])
    assert answer(state) == "buy 2"


def test_it_buys_the_stars_that_win_the_game_whatever_they_cost():
    state = at_buy_step(4, ["corner_store", "commuter_train", "wings"], stars=18)
    assert answer(state) == "buy 2"


def test_it_never_buys_a_card_that_would_eliminate_it():
    # Jet Fighters: 5 stars, but 4 damage to a monster with 4 health (3, +1 from its heart).
    state = at_buy_step(5, ["jet_fighters", "corner_store", "wings"], health=3)
    assert answer(state) == "done"
    healthy = at_buy_step(5, ["jet_fighters", "corner_store", "wings"], health=10)
    assert answer(healthy) == "buy 1"


def test_near_the_end_it_buys_no_keep_card_for_its_lasting_effect():
    early = at_buy_step(7, ["extra_head", "wings", "telepath"])
    late = at_buy_step(7, ["extra_head", "wings", "telepath"], leader_stars=17)
    # Late, nothing on offer is worth its cost, and 7 energy leaves 5 after a sweep.
    assert (answer(early), answer(late)) == ("buy 1", "sweep")


def test_it_does_not_sweep_without_energy_to_spare():
    state = at_buy_step(5, ["wings", "telepath", "plot_twist"])
    assert answer(state) == "done"


def test_with_energy_to_spare_and_nothing_worth_buying_it_sweeps_once_a_turn():
    state = at_buy_step(12, ["wings", "telepath", "plot_twist"], deck_top=("stretchy", "smoke_cloud", "psychic_probe"))
    bot = HeuristicBot(seed=0)
    assert bot.choose(state.view(0)).text == "sweep"
    state.apply("sweep")
    assert state.energy[0] == 10 and "sweep" in [a.text for a in state.legal]
    assert bot.choose(state.view(0)).text == "done"


# ------------------------------------------------------------------ unknown decisions


def test_a_decision_kind_it_does_not_know_gets_the_first_legal_action():
    state = position(MonsterSetup("Alienoid"), MonsterSetup("Kraken"), dice=[NOTHING])
    options = (Action.of("skip"), Action.of("target", 2))
    view = state.view(0)._replace(kind="choose target", legal=options)
    assert HeuristicBot(seed=0).choose(view) is options[0]


@pytest.mark.parametrize(("players", "games", "at_least"), [(2, 30, 21), (4, 40, 22)])
def test_plays_origins_and_wins_most_games_against_random_bots(players, games, at_least):
    assert HeuristicBot.games >= {"kot", "origins"}
    wins = 0
    for seed in range(games):
        seat = seed % players
        state = new_game("origins", players=players, seed=seed, record=False)  # its own deck
        bots = [HeuristicBot(seed=bot_seed(seed, s)) if s == seat else RandomBot(seed=bot_seed(seed, s))
                for s in range(players)]
        play(state, bots)
        wins += state.outcome.winner == seat
    assert wins >= at_least  # a fair share would be games / players
