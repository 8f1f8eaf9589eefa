"""A turn: roll, resolve numbers, energy, hearts and claws, buy, pass the dice left."""

from __future__ import annotations

import pytest

from kotarena.engine import GameOverError, IllegalActionError
from kotarena.games.kot.faces import format_faces
from kotarena.games.kot.position import MonsterSetup


@pytest.mark.parametrize(("dice", "stars"), [
    ("1 1 1 energy heart claw", 1),
    ("2 2 2 energy heart claw", 2),
    ("3 3 3 energy heart claw", 3),
])
def test_three_of_a_kind_scores_its_number_in_stars(table, act, dice, stars):
    state = table("Alienoid", "Kraken", dice=[dice.replace("claw", "heart")])
    act(state, "stop")
    assert state.stars[0] == stars


@pytest.mark.parametrize(("dice", "stars"), [
    ("2 2 2 2 energy heart", 3),   # the rulebook's example: 2 + 1
    ("3 3 3 3 3 heart", 5),
    ("1 1 1 1 1 1", 4),
])
def test_each_extra_die_of_a_triple_scores_one_more_star(table, act, dice, stars):
    state = table("Alienoid", "Kraken", dice=[dice])
    act(state, "stop")
    assert state.stars[0] == stars


def test_two_different_triples_both_score(table, act):
    state = table("Alienoid", "Kraken", dice=["1 1 1 3 3 3"])
    act(state, "stop")
    assert state.stars[0] == 1 + 3


def test_pairs_of_numbers_score_nothing(table, act):
    state = table("Alienoid", "Kraken", dice=["1 1 2 2 3 3"])
    act(state, "stop")
    assert state.stars[0] == 0


def test_each_energy_die_gives_one_energy_cube(table, act):
    state = table(MonsterSetup("Alienoid", energy=4), "Kraken", dice=["energy energy energy 1 2 heart"])
    act(state, "stop")
    assert state.energy[0] == 4 + 3


def test_energy_carries_over_between_turns(table, act):
    state = table("Alienoid", "Kraken", dice=["energy energy 1 2 3 heart", "1 2 3 1 2 heart", "energy 1 2 3 1 2"])
    act(state, "stop")
    state.next_turn()
    act(state, "stop")
    state.next_turn()
    act(state, "stop")
    assert state.energy == [3, 0]


def test_each_heart_heals_one_health(table, act):
    state = table(MonsterSetup("Alienoid", health=5), "Kraken", dice=["heart heart heart 1 2 3"])
    act(state, "stop")
    assert state.health[0] == 8


def test_hearts_never_heal_above_max_health(table, act, events):
    state = table(MonsterSetup("Alienoid", health=9), "Kraken", dice=["heart heart heart 1 2 3"])
    act(state, "stop")
    assert state.health[0] == 10
    assert events(state, "heal") == [("heal", 0, 1)]


def test_hearts_heal_up_to_a_raised_max_health(table, act):
    state = table(MonsterSetup("Alienoid", health=10, max_health=12), "Kraken", dice=["heart heart heart 1 2 3"])
    act(state, "stop")
    assert state.health[0] == 12


@pytest.mark.parametrize("place", ["city", "bay"])
def test_monster_in_tokyo_cannot_heal_with_dice(table, act, events, place):
    state = table(
        MonsterSetup("Alienoid", health=5, tokyo=place), "Cyber Bunny", "Giga Zaur", "Kraken", "Meka Dragon",
        dice=["heart heart heart heart 1 2"],
    )
    act(state, "stop")
    assert state.health[0] == 5
    assert events(state, "heal") == []


def test_monster_heals_with_dice_on_the_turn_it_takes_tokyo(table, act):
    # Tokyo is taken at the end of the resolve step, so the hearts count first.
    state = table(MonsterSetup("Alienoid", health=5), "Kraken", dice=["heart heart claw 1 2 3"])
    act(state, "stop")
    assert state.city == 0
    assert state.health[0] == 7


def test_dice_resolve_numbers_then_energy_then_hearts_then_claws(table, act, events):
    state = table(
        MonsterSetup("Alienoid", health=9), MonsterSetup("Kraken", tokyo="city"),
        dice=["claw heart energy 2 2 2"],
    )
    act(state, "stop")
    kinds = [e[0] for e in events(state, "stars", "energy", "heal", "damage")]
    assert kinds == ["stars", "energy", "heal", "damage"]


def test_gigazaur_rolls_the_rulebook_example(table, act, events):
    # Seed 003: Cyber Bunny is King of Tokyo. Giga Zaur rolls 1 2 3 3 heart energy,
    # keeps the 3s, rerolls four dice (3 3 2 2 2 claw), keeps the 2s, rerolls three
    # (2 2 2 2 claw energy): 3 stars, 1 energy, 1 damage to Cyber Bunny, who stays.
    state = table(
        MonsterSetup("Cyber Bunny", tokyo="city"), "Giga Zaur", first="Giga Zaur",
        dice=["1 2 3 3 heart energy", "2 2 2 claw", "2 claw energy"],
    )
    act(state, "reroll 1 2 5 6")
    assert sorted(format_faces(state.dice).split()) == sorted("3 3 2 2 2 claw".split())
    act(state, "reroll 3 4 6")
    assert sorted(format_faces(state.dice).split()) == sorted("2 2 2 2 claw energy".split())
    assert state.kind == "yield" and state.to_move == 0
    act(state, "stay")
    assert state.stars == [0, 3]
    assert state.energy == [0, 1]
    assert state.health == [9, 10]  # Giga Zaur rolled no heart and had nothing to heal
    assert state.city == 0
    assert events(state, "damage") == [("damage", 0, 1, 1)]


def test_turn_goes_to_the_monster_on_the_left(table, act, events):
    state = table("Alienoid", "Cyber Bunny", "Giga Zaur", first="Cyber Bunny",
                  dice=["1 2 3 1 2 heart", "1 2 3 1 2 heart", "1 2 3 1 2 heart"],
                  pause_between_turns=False)
    act(state, "stop", "stop")  # two turns played; the third has rolled
    assert [e[1] for e in events(state, "turn")] == [1, 2, 0]


def test_eliminated_monsters_never_take_a_turn(table, act, events):
    state = table(
        MonsterSetup("Alienoid", tokyo="city"), "Cyber Bunny", MonsterSetup("Giga Zaur", health=2), "Kraken",
        dice=["claw claw 1 2 3 1", "1 2 3 1 2 heart", "1 2 3 1 2 heart"],
    )
    act(state, "stop")
    assert not state.alive[2]
    state.next_turn()
    act(state, "stop")
    state.next_turn()
    assert [e[1] for e in events(state, "turn")] == [0, 1, 3]


def test_without_cards_the_turn_ends_after_the_dice(table, act):
    state = table("Alienoid", "Kraken", dice=["1 2 3 1 2 heart"])
    act(state, "stop")
    assert state.between_turns and state.active == 1


def test_with_cards_the_buy_step_follows_the_dice(table, act):
    state = table(MonsterSetup("Alienoid", energy=5), "Kraken", deck="default", dice=["1 2 3 1 2 heart"])
    act(state, "stop")
    assert state.kind == "buy" and state.to_move == 0
    act(state, "done")
    assert state.between_turns and state.active == 1


@pytest.mark.parametrize("action", ["yield", "stay", "buy 1", "sweep", "done", "reroll 7"])
def test_illegal_action_during_the_roll_is_rejected_and_changes_nothing(table, snapshot, action):
    state = table(MonsterSetup("Alienoid", energy=9), MonsterSetup("Kraken", tokyo="city"), deck="default",
                  dice=["claw claw 1 2 3 heart"])
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match="not legal for Alienoid now"):
        state.apply(action)
    assert snapshot(state) == before


@pytest.mark.parametrize("action", ["stop", "reroll 1", "buy 1", "done"])
def test_illegal_action_during_the_yield_question_is_rejected_and_changes_nothing(table, act, snapshot, action):
    state = table("Alienoid", MonsterSetup("Kraken", tokyo="city", energy=9), deck="default",
                  dice=["claw claw 1 2 3 heart"])
    act(state, "stop")
    assert state.kind == "yield"
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match="not legal for Kraken now"):
        state.apply(action)
    assert snapshot(state) == before


def test_a_legal_action_from_the_wrong_moment_still_needs_the_right_question(table, act):
    # "stop" is an action, but not an answer to the buy step (2 energy: a sweep, so it is asked).
    state = table(MonsterSetup("Alienoid", energy=2), "Kraken", deck="default", dice=["1 2 3 1 2 heart"])
    act(state, "stop")
    with pytest.raises(IllegalActionError):
        state.apply("stop")
    assert state.kind == "buy"


def test_paused_game_takes_no_action_until_the_next_turn_starts(table, act, snapshot):
    state = table("Alienoid", "Kraken", dice=["1 2 3 1 2 heart", "1 2 3 1 2 heart"])
    act(state, "stop")
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match="paused between turns"):
        state.apply("stop")
    assert snapshot(state) == before
    state.next_turn()
    assert state.to_move == 1 and state.kind == "roll"


def test_finished_game_takes_no_action(table, act):
    state = table("Alienoid", MonsterSetup("Kraken", health=1, tokyo="city"), dice=["claw 1 2 3 1 2"])
    act(state, "stop")
    assert state.is_over
    with pytest.raises(GameOverError):
        state.apply("stop")
