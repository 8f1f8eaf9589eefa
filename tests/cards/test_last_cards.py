"""Alien Metabolism, Shrink Ray and Freeze Time, played through the engine."""

from __future__ import annotations

from kotarena.games.kot.position import MonsterSetup

QUIET = "1 2 3 1 2 heart"


def test_alien_metabolism_makes_every_card_cost_1_less(table):
    state = table(MonsterSetup("Alienoid", energy=2, cards=["alien_metabolism"]), "Kraken", deck="default",
                  market=["heal", "energize", "tanks"], dice=[QUIET])
    state.apply("stop")
    assert state.cost(0, state.market[0]) == 2  # Heal: printed 3
    assert "buy 1" in [a.text for a in state.legal]
    state.apply("buy 1")
    assert state.energy[0] == 0
    assert state.health[0] == 10  # Heal still heals (already at full health)


def test_alien_metabolism_is_no_discount_for_other_monsters(table):
    state = table(MonsterSetup("Kraken", energy=2), MonsterSetup("Alienoid", cards=["alien_metabolism"]),
                  deck="default", market=["heal", "energize", "tanks"], dice=[QUIET])
    state.apply("stop")
    assert "buy 1" not in [a.text for a in state.legal]


def test_shrink_ray_gives_a_shrink_token_to_each_monster_it_damages(table):
    state = table(MonsterSetup("Alienoid", tokyo="city", cards=["shrink_ray"]), "Kraken", "Meka Dragon",
                  deck="default", dice=["claw 1 2 3 heart heart", "1 2 3 1 2"])
    state.apply("stop")
    assert state.shrink == [0, 1, 1]
    assert state.between_turns  # nothing to buy
    state.next_turn()  # Kraken rolls one die fewer per token
    assert len(state.dice) == 5


def test_shrink_ray_gives_no_token_for_an_attack_that_dealt_no_damage(table):
    state = table(MonsterSetup("Alienoid", cards=["shrink_ray"]),
                  MonsterSetup("Kraken", tokyo="city", cards=["armor_plating"]),
                  deck="default", dice=["claw 1 2 3 heart heart"])
    state.apply("stop")
    assert state.shrink == [0, 0]


def test_shrink_tokens_outlive_the_card_and_a_heart_may_remove_one(table):
    state = table("Alienoid", MonsterSetup("Kraken", shrink=2), deck=None,
                  dice=["heart 1 2 3"], first="Kraken")
    assert len(state.dice) == 4
    state.apply("stop")
    assert state.kind == "hearts"
    assert "cure 0 1" in [a.text for a in state.legal]
    state.apply("cure 0 1")
    assert state.shrink[1] == 1


def test_freeze_time_with_1_1_1_plays_again_with_one_die_fewer(table):
    state = table(MonsterSetup("Alienoid", cards=["freeze_time"]), "Kraken", deck="default",
                  dice=["1 1 1 2 3 heart", "1 1 1 2 3", "2 2 3 heart"])
    state.apply("stop")  # nothing to buy: the turn ends
    state.next_turn()
    assert state.active == 0 and len(state.dice) == 5  # the frozen turn
    state.apply("stop")
    state.next_turn()
    assert state.active == 0 and len(state.dice) == 4  # frozen again: one fewer again
    state.apply("stop")
    assert state.between_turns and state.active == 1  # no 1 1 1: Kraken's turn


def test_freeze_time_without_1_1_1_passes_the_dice_and_the_next_turn_has_six(table):
    state = table(MonsterSetup("Alienoid", cards=["freeze_time"]), "Kraken", deck="default",
                  dice=["1 1 2 2 3 heart", "2 2 3 3 heart energy", "1 2 3 1 2 heart"])
    state.apply("stop")  # nothing to buy: the turn ends
    state.next_turn()
    assert state.active == 1
    state.apply("stop")
    state.next_turn()
    assert state.active == 0 and len(state.dice) == 6
