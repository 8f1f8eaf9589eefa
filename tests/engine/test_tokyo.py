"""Tokyo (City only, 2 to 4 players): taking it, its stars, claws, yielding."""

from __future__ import annotations

import pytest

from kotarena.engine import IllegalActionError
from kotarena.games.kot.position import MonsterSetup


def test_nobody_is_in_tokyo_at_the_start(table):
    state = table("Alienoid", "Kraken", "Meka Dragon", dice=["1 2 3 1 2 3"])
    assert state.city == -1 and state.bay == -1


def test_first_claw_takes_empty_tokyo_city_without_damage(table, act, events):
    state = table("Alienoid", "Kraken", "Meka Dragon", dice=["claw claw claw 1 2 3"])
    act(state, "stop")
    assert state.city == 0
    assert state.health == [10, 10, 10]
    assert events(state, "damage") == []
    assert events(state, "enter") == [("enter", 0, "city")]


def test_taking_tokyo_gives_one_star(table, act, events):
    state = table("Alienoid", "Kraken", dice=["claw 1 2 3 1 2"])
    act(state, "stop")
    assert state.stars[0] == 1
    assert events(state, "stars") == [("stars", 0, 1, "take tokyo")]


def test_a_monster_without_claws_does_not_take_empty_tokyo(table, act):
    state = table("Alienoid", "Kraken", dice=["heart energy 1 2 3 1"])
    act(state, "stop")
    assert state.city == -1 and state.stars[0] == 0


def test_empty_tokyo_is_taken_at_the_end_of_the_resolve_step(table, act):
    # The claw only takes Tokyo: three 1s still score, the energy still counts.
    state = table("Alienoid", "Kraken", dice=["claw 1 1 1 energy 2"])
    act(state, "stop")
    assert state.stars[0] == 1 + 1 and state.energy[0] == 1 and state.city == 0


def test_starting_a_turn_in_tokyo_gives_two_stars(table, events):
    state = table(MonsterSetup("Alienoid", stars=4, tokyo="city"), "Kraken", dice=["1 2 3 1 2 heart"])
    assert state.stars[0] == 6
    assert events(state, "stars") == [("stars", 0, 2, "start in tokyo")]


def test_starting_a_turn_outside_tokyo_gives_no_stars(table):
    state = table(MonsterSetup("Alienoid", stars=4), MonsterSetup("Kraken", tokyo="city"), dice=["1 2 3 1 2 heart"])
    assert state.stars == [4, 0]


def test_the_monster_in_tokyo_gains_two_stars_at_each_of_its_turns(table, act):
    state = table(MonsterSetup("Alienoid", tokyo="city"), "Kraken",
                  dice=["1 2 3 1 2 heart", "1 2 3 1 2 heart", "1 2 3 1 2 heart"])
    act(state, "stop")
    state.next_turn()
    act(state, "stop")
    state.next_turn()
    assert state.stars == [4, 0]


def test_claws_from_outside_hit_the_monster_in_tokyo(table, act, events):
    state = table("Alienoid", MonsterSetup("Kraken", tokyo="city"), dice=["claw claw claw 1 2 3"])
    act(state, "stop")
    assert state.health == [10, 7]
    assert events(state, "damage") == [("damage", 1, 3, 0)]


def test_claws_from_tokyo_hit_every_monster_outside(table, act):
    state = table(MonsterSetup("Alienoid", tokyo="city"), "Cyber Bunny", "Kraken", "Meka Dragon",
                  dice=["claw claw 1 2 3 heart"])
    act(state, "stop")
    assert state.health == [10, 8, 8, 8]


def test_monsters_outside_tokyo_never_hurt_each_other(table, act):
    state = table("Alienoid", "Cyber Bunny", MonsterSetup("Kraken", tokyo="city"), "Meka Dragon",
                  dice=["claw claw 1 2 3 heart"])
    act(state, "stop", "stay")
    assert state.health == [10, 10, 8, 10]


def test_attacked_monster_in_tokyo_is_asked_whether_to_yield(table, act):
    state = table("Alienoid", MonsterSetup("Kraken", tokyo="city"), dice=["claw 1 2 3 1 2"])
    act(state, "stop")
    assert state.kind == "yield" and state.to_move == 1
    assert {a.text for a in state.legal} == {"stay", "yield"}


def test_monster_in_tokyo_may_stay_after_being_attacked(table, act):
    state = table("Alienoid", MonsterSetup("Kraken", tokyo="city"), dice=["claw 1 2 3 1 2"])
    act(state, "stop", "stay")
    assert state.city == 1 and state.stars == [0, 0]


def test_monster_that_yields_still_takes_the_damage(table, act):
    state = table("Alienoid", MonsterSetup("Kraken", tokyo="city"), dice=["claw claw 1 2 3 1"])
    act(state, "stop", "yield")
    assert state.health[1] == 8


def test_attacker_must_take_the_place_of_a_monster_that_yields(table, act, events):
    state = table("Alienoid", MonsterSetup("Kraken", tokyo="city"), dice=["claw claw 1 2 3 1"])
    act(state, "stop", "yield")
    assert state.city == 0
    assert state.stars == [1, 0]
    assert events(state, "leave", "enter") == [("leave", 1, "city", "yield"), ("enter", 0, "city")]


def test_monster_in_tokyo_cannot_yield_without_being_attacked(table, act):
    # Alienoid ends with 2 energy (a sweep), so its buy step is asked.
    state = table(MonsterSetup("Alienoid", energy=1), MonsterSetup("Kraken", tokyo="city"), deck="default",
                  dice=["heart energy 1 2 3 1"])
    act(state, "stop")
    assert state.kind == "buy" and state.to_move == 0
    with pytest.raises(IllegalActionError):
        state.apply("yield")
    assert state.city == 1


def test_monster_in_tokyo_may_yield_only_right_after_the_attack(table, act):
    # Attacked and staying on Alienoid's turn, Kraken has no way to leave on its own turn.
    state = table("Alienoid", MonsterSetup("Kraken", tokyo="city"), dice=["claw 1 2 3 1 2", "1 2 3 1 2 heart"])
    act(state, "stop", "stay")
    state.next_turn()
    assert state.kind == "roll"
    assert "yield" not in {a.text for a in state.legal}


def test_monsters_attacked_from_tokyo_are_not_asked_to_yield(table, act):
    state = table(MonsterSetup("Alienoid", tokyo="city"), "Kraken", "Meka Dragon", dice=["claw 1 2 3 1 2"])
    act(state, "stop")
    assert state.between_turns  # no yield question: they are not in Tokyo
    assert state.city == 0


def test_attacker_takes_tokyo_when_it_eliminates_the_monster_there(table, act, events):
    state = table("Alienoid", MonsterSetup("Kraken", health=2, tokyo="city"), "Meka Dragon",
                  dice=["claw claw 1 2 3 1"])
    act(state, "stop")
    assert not state.alive[1]
    assert state.city == 0 and state.stars[0] == 1
    assert events(state, "leave") == [("leave", 1, "city", "eliminated")]


def test_eliminated_monster_leaves_tokyo_and_never_plays_again(table, act, events):
    state = table(MonsterSetup("Alienoid", health=3, tokyo="city"), "Kraken", "Meka Dragon",
                  dice=["claw claw claw 1 2 3", "claw 1 2 3 1 2", "1 2 3 1 2 heart"], first="Meka Dragon")
    act(state, "stop")
    assert not state.alive[0] and state.city == 2
    state.next_turn()  # Alienoid's seat is skipped: Kraken plays
    assert state.active == 1
    act(state, "stop", "stay")
    state.next_turn()
    assert [e[1] for e in events(state, "turn")] == [2, 1, 2]


def test_monster_that_yielded_may_take_tokyo_back_later(table, act):
    state = table("Alienoid", MonsterSetup("Kraken", tokyo="city"),
                  dice=["claw 1 2 3 1 2", "claw 1 2 3 1 2"])
    act(state, "stop", "yield")
    state.next_turn()
    act(state, "stop", "yield")
    assert state.city == 1 and state.stars == [1, 1]
