"""Tokyo Bay (5 and 6 players): the second place in Tokyo, and when it closes."""

from __future__ import annotations

import random

import pytest

from kotarena.engine import PositionError
from kotarena.games import new_game
from kotarena.games.kot.position import MonsterSetup, build_position

FIVE = ("Alienoid", "Cyber Bunny", "Giga Zaur", "Kraken", "Meka Dragon")


def five(*changes: MonsterSetup) -> list[MonsterSetup]:
    """Five fresh monsters, with some replaced by the given setups (matched by name)."""
    by_name = {m.name: m for m in changes}
    return [by_name.get(name, MonsterSetup(name)) for name in FIVE]


@pytest.mark.parametrize(("players", "bay"), [(2, False), (3, False), (4, False), (5, True), (6, True)])
def test_tokyo_bay_is_used_only_with_5_or_6_players(players, bay):
    assert new_game("kot", players, seed=1, deck=None).bay_open is bay


def test_a_monster_cannot_be_put_in_the_bay_of_a_4_player_game():
    with pytest.raises(PositionError, match="Tokyo Bay is used only while 5 or more"):
        build_position([MonsterSetup("A", tokyo="bay"), MonsterSetup("B"), MonsterSetup("C"), MonsterSetup("D")],
                       first="A", deck=None)


def test_first_claw_takes_tokyo_city_when_both_places_are_empty(table, act, events):
    state = table(*five(), dice=["claw claw 1 2 3 1"])
    act(state, "stop")
    assert state.city == 0 and state.bay == -1
    assert events(state, "damage") == []
    assert state.stars[0] == 1


def test_attacker_damages_tokyo_city_then_takes_the_empty_bay(table, act):
    state = table(*five(MonsterSetup("Kraken", tokyo="city")), dice=["claw claw 1 2 3 1"])
    act(state, "stop")
    assert state.health[3] == 8
    act(state, "stay")
    assert state.city == 3 and state.bay == 0
    assert state.stars[0] == 1


def test_attacker_takes_tokyo_city_when_its_monster_yields_and_the_bay_is_empty(table, act):
    state = table(*five(MonsterSetup("Kraken", tokyo="city")), dice=["claw claw 1 2 3 1"])
    act(state, "stop", "yield")
    assert state.city == 0 and state.bay == -1


def test_claws_from_outside_hit_both_tokyo_city_and_tokyo_bay(table, act):
    state = table(*five(MonsterSetup("Kraken", tokyo="city"), MonsterSetup("Meka Dragon", tokyo="bay")),
                  dice=["claw claw 1 2 3 1"])
    act(state, "stop", "stay", "stay")
    assert state.health == [10, 10, 10, 8, 8]
    assert state.city == 3 and state.bay == 4  # no place is free: the attacker stays out


def test_claws_from_the_bay_hit_everyone_outside_but_not_tokyo_city(table, act):
    state = table(*five(MonsterSetup("Kraken", tokyo="city"), MonsterSetup("Meka Dragon", tokyo="bay")),
                  first="Meka Dragon", dice=["claw claw 1 2 3 1"])
    act(state, "stop")
    assert state.health == [8, 8, 8, 10, 10]
    assert state.between_turns  # nobody in Tokyo was attacked, so nobody is asked to yield


def test_monsters_in_city_and_bay_never_hurt_each_other(table, act):
    state = table(*five(MonsterSetup("Kraken", tokyo="city"), MonsterSetup("Meka Dragon", tokyo="bay")),
                  first="Kraken", dice=["claw claw claw 1 2 3"])
    act(state, "stop")
    assert state.health[4] == 10
    assert state.health[:3] == [7, 7, 7]


def test_monster_in_the_bay_gains_two_stars_at_the_start_of_its_turn(table):
    state = table(*five(MonsterSetup("Meka Dragon", tokyo="bay")), first="Meka Dragon", dice=["1 2 3 1 2 heart"])
    assert state.stars[4] == 2


def test_attacker_takes_the_bay_when_only_its_monster_yields(table, act, events):
    state = table(*five(MonsterSetup("Kraken", tokyo="city"), MonsterSetup("Meka Dragon", tokyo="bay")),
                  dice=["claw 1 2 3 1 2"])
    act(state, "stop", "stay", "yield")
    assert state.city == 3 and state.bay == 0
    assert events(state, "enter") == [("enter", 0, "bay")]


def test_attacker_takes_tokyo_city_when_only_its_monster_yields(table, act):
    state = table(*five(MonsterSetup("Kraken", tokyo="city"), MonsterSetup("Meka Dragon", tokyo="bay")),
                  dice=["claw 1 2 3 1 2"])
    act(state, "stop", "yield", "stay")
    assert state.city == 0 and state.bay == 4


def test_when_both_yield_the_attacker_takes_tokyo_city(table, act):
    state = table(*five(MonsterSetup("Kraken", tokyo="city"), MonsterSetup("Meka Dragon", tokyo="bay")),
                  dice=["claw 1 2 3 1 2"])
    act(state, "stop", "yield", "yield")
    assert state.city == 0 and state.bay == -1
    assert state.stars[0] == 1  # one place taken, one star


def test_yield_offers_go_to_tokyo_city_first_then_tokyo_bay(table, act):
    # Ruling: the City monster answers first, then the Bay monster (seeing the answer).
    state = table(*five(MonsterSetup("Kraken", tokyo="bay"), MonsterSetup("Meka Dragon", tokyo="city")),
                  dice=["claw 1 2 3 1 2"])
    act(state, "stop")
    assert (state.kind, state.to_move) == ("yield", 4)
    act(state, "yield")
    assert (state.kind, state.to_move) == ("yield", 3)
    assert state.city == -1  # the Bay monster decides knowing the City is empty


def test_attacker_damages_the_bay_then_takes_the_empty_city(table, act, events):
    # Ruling: with Tokyo City empty and Tokyo Bay held, Tokyo is not empty, so the
    # claws hit the Bay monster; the attacker must then take the free place, City.
    state = table(*five(MonsterSetup("Kraken", tokyo="bay")), dice=["claw claw 1 2 3 1"])
    act(state, "stop")
    assert events(state, "damage") == [("damage", 3, 2, 0)]
    act(state, "stay")
    assert state.city == 0 and state.bay == 3


def test_attacker_takes_the_city_when_the_bay_monster_yields_and_the_city_is_empty(table, act):
    state = table(*five(MonsterSetup("Kraken", tokyo="bay")), dice=["claw claw 1 2 3 1"])
    act(state, "stop", "yield")
    assert state.city == 0 and state.bay == -1


def test_attacker_takes_the_bay_of_a_monster_it_eliminates_while_5_remain(table, act):
    state = table("Alienoid", "Cyber Bunny", "Giga Zaur", MonsterSetup("Kraken", tokyo="city"),
                  MonsterSetup("Meka Dragon", health=1, tokyo="bay"), "The King", dice=["claw 1 2 3 1 2"])
    act(state, "stop")
    assert not state.alive[4] and state.bay_open
    act(state, "stay")
    assert state.city == 3 and state.bay == 0


def test_bay_closes_when_fewer_than_5_monsters_remain(table, act, events):
    state = table(*five(MonsterSetup("Kraken", tokyo="city"), MonsterSetup("Meka Dragon", health=1)),
                  first="Kraken", dice=["claw 1 2 3 1 2"])
    act(state, "stop")
    assert not state.alive[4]
    assert not state.bay_open
    assert events(state, "bay closed") == [("bay closed",)]


def test_monster_in_the_bay_leaves_tokyo_at_once_when_the_bay_closes(table, act, events):
    state = table(*five(MonsterSetup("Kraken", tokyo="city"), MonsterSetup("Meka Dragon", tokyo="bay"),
                        MonsterSetup("Alienoid", health=2)),
                  first="Kraken", dice=["claw claw 1 2 3 1"])
    act(state, "stop")
    assert state.bay == -1 and state.city == 3
    assert events(state, "leave") == [("leave", 4, "bay", "bay closed")]


def test_active_monster_in_the_bay_leaves_tokyo_when_its_own_attack_closes_the_bay(table, act, events):
    state = table(*five(MonsterSetup("Kraken", tokyo="city"), MonsterSetup("Meka Dragon", tokyo="bay"),
                        MonsterSetup("Alienoid", health=1)),
                  first="Meka Dragon", dice=["claw 1 2 3 1 2"])
    assert state.stars[4] == 2
    act(state, "stop")
    assert not state.alive[0]
    assert state.bay == -1 and state.city == 3
    assert events(state, "leave") == [("leave", 4, "bay", "bay closed")]


def test_closed_bay_is_never_taken_again(table, act):
    # Four monsters left: City held and staying, so the attacker stays outside.
    state = table(*five(MonsterSetup("Kraken", tokyo="city"), MonsterSetup("Meka Dragon", alive=False, health=0)),
                  dice=["claw 1 2 3 1 2"])
    assert not state.bay_open
    act(state, "stop", "stay")
    assert state.city == 3 and state.bay == -1


def test_bay_closes_before_the_attacker_moves_in(table, act):
    # Ruling: eliminating the Bay monster when 5 become 4 closes the Bay at once, so an
    # attacker whose City target stays has no place to take.
    state = table(*five(MonsterSetup("Kraken", tokyo="city"), MonsterSetup("Meka Dragon", health=1, tokyo="bay")),
                  dice=["claw 1 2 3 1 2"])
    act(state, "stop")
    assert not state.alive[4] and not state.bay_open
    act(state, "stay")
    assert state.city == 3 and state.bay == -1
    assert state.stars[0] == 0


def test_attacker_takes_the_city_of_a_monster_it_eliminates_as_the_bay_closes(table, act, events):
    # The City monster dies (5 become 4); the Bay monster, hit by the same claws, must
    # leave the closed Bay and is not asked to yield; the attacker takes the City.
    state = table(*five(MonsterSetup("Kraken", health=2, tokyo="city"), MonsterSetup("Meka Dragon", tokyo="bay")),
                  dice=["claw claw 1 2 3 1"])
    act(state, "stop")
    assert not state.alive[3]
    assert state.health[4] == 8  # the claws hit Tokyo as it was when they were rolled
    assert state.city == 0 and state.bay == -1
    assert state.between_turns  # no yield question for the monster that had to leave
    assert events(state, "leave") == [("leave", 3, "city", "eliminated"), ("leave", 4, "bay", "bay closed")]


def test_five_player_example_from_the_rulebook(table, act, events):
    # Seeds 003 and 004. Giga Zaur holds Tokyo City, Kraken Tokyo Bay; The King, Cyber
    # Bunny and Meka Dragon are outside. Seats follow the turn order of the example.
    meka, giga, kraken, king, bunny = range(5)
    state = table(
        "Meka Dragon", MonsterSetup("Giga Zaur", health=8, tokyo="city"), MonsterSetup("Kraken", tokyo="bay"),
        "The King", "Cyber Bunny",
        dice=[
            "claw claw claw claw 1 2",  # Meka Dragon
            "claw 1 2 3 1 2",           # Giga Zaur
            "claw 1 2 3 1 2",           # Kraken
            "1 2 3 1 2 heart",          # The King
            "1 2 3 1 2 heart",          # Cyber Bunny
            "claw claw claw 1 2 3",     # Meka Dragon
        ],
    )
    # Meka Dragon rolls 4 claws: both take 4 damage and both yield; Meka Dragon takes
    # Tokyo City and 1 star, Tokyo Bay stays empty.
    act(state, "stop")
    assert state.health[giga] == 4 and state.health[kraken] == 6
    act(state, "yield", "yield")
    assert state.city == meka and state.bay == -1 and state.stars[meka] == 1

    # Giga Zaur rolls 1 claw: only Meka Dragon is hurt (nobody is in the Bay) and
    # stays; Giga Zaur must take the free Bay and gains 1 star.
    state.next_turn()
    act(state, "stop")
    assert state.health[meka] == 9
    act(state, "stay")
    assert state.city == meka and state.bay == giga and state.stars[giga] == 1

    # Kraken rolls 1 claw: Giga Zaur and Meka Dragon are hurt; Giga Zaur yields the Bay,
    # Meka Dragon stays in the City; Kraken must take the Bay and gains 1 star.
    state.next_turn()
    act(state, "stop")
    assert state.health[meka] == 8 and state.health[giga] == 3
    act(state, "stay", "yield")
    assert state.city == meka and state.bay == kraken and state.stars[kraken] == 1

    # The King and Cyber Bunny roll no claw.
    state.next_turn()
    act(state, "stop")
    state.next_turn()
    act(state, "stop")

    # Meka Dragon starts its turn in Tokyo (+2 stars) and rolls 3 claws: Giga Zaur, The
    # King and Cyber Bunny take 3 damage, Kraken (in Tokyo Bay) none. Giga Zaur is
    # eliminated; with four monsters left the Bay closes and Kraken leaves Tokyo.
    state.next_turn()
    assert state.stars[meka] == 1 + 2
    act(state, "stop")
    assert not state.alive[giga]
    assert state.health == [8, 0, 6, 7, 7]
    assert not state.bay_open
    assert state.city == meka and state.bay == -1
    assert events(state, "leave")[-1] == ("leave", kraken, "bay", "bay closed")


def test_random_games_never_break_the_tokyo_rules():
    # Whatever the players choose: a monster is never in both places, the eliminated
    # are never in Tokyo, and the Bay is held only while 5 or more monsters are alive.
    chooser = random.Random(7)
    for seed in range(40):
        game = new_game("kot", 5 + seed % 2, seed=seed, record=False)
        while not game.is_over:
            game.apply(game.legal[int(chooser.random() * len(game.legal))])
            assert game.city < 0 or game.city != game.bay
            assert all(game.alive[p] for p in (game.city, game.bay) if p >= 0)
            assert game.bay_open == (sum(game.alive) >= 5)
            assert game.bay < 0 or game.bay_open
