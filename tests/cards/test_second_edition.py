"""The classic deck's second edition (deck ``kot-2e``): the cards it renamed, replaced or
reworded, each played through the engine with scripted dice.

The cards the second edition left as they were are the very same cards as the first
edition's (their tests are in the other modules); ``test_coverage.py`` checks that.
"""

from __future__ import annotations

from kotarena.games.kot.cards import DECKS, get_deck
from kotarena.games.kot.position import MonsterSetup

#: The deck these tests play (``test_coverage.py`` reads it).
DECK = "kot-2e"

NOTHING = "1 2 3 1 2 energy"  # scores nothing, 1 energy
QUIET = "1 2 3 1 2 heart"  # scores nothing, 1 heart


def test_the_second_edition_has_the_first_editions_66_cards_with_their_new_names():
    names = {info.name for info in DECKS[DECK]}
    assert len(get_deck(DECK).cards) == 66 and len(DECKS[DECK]) == 64
    assert {"Alien Origin", "Media-Friendly", "Death From Above", "Flame Thrower", "Detritivore", "Tank",
            "Energy Drink", "Battery Monster", "It Has a Child!", "We're Only Making It Stronger!"} <= names
    assert not {"Alien Metabolism", "Telepath", "Monster Batteries", "Omnivore"} & names


def test_the_first_edition_stays_the_classic_games_default_deck():
    from kotarena.games import get_spec

    assert get_spec("kot").deck == "kot"
    assert {info.name for info in DECKS["kot"]} >= {"Alien Metabolism", "Monster Batteries", "Telepath"}


# ---------------------------------------------------------------- renamed cards


def test_alien_origin_makes_every_card_cost_1_less(at_buy):
    state = at_buy("heal", energy=1, cards=["alien_origin"], deck=DECK)  # 2 energy after the roll
    state.apply("buy 1")
    assert state.energy[0] == 0


def test_media_friendly_gives_a_star_for_each_card_bought_after_it(at_buy):
    state = at_buy("corner_store", cards=["media_friendly"], deck=DECK)
    state.apply("buy 1")
    assert state.stars[0] == 1 + 1  # Corner Store, and Media-Friendly's star


def test_media_friendly_gives_nothing_for_itself(at_buy):
    state = at_buy("media_friendly", deck=DECK)
    state.apply("buy 1")
    assert state.stars[0] == 0


def test_death_from_above_gives_2_stars_and_takes_tokyo_city(at_buy):
    state = at_buy("death_from_above", MonsterSetup("Kraken", tokyo="city"), energy=4, deck=DECK)
    state.apply("buy 1")
    assert state.city == 0 and state.stars[0] == 2 + 1


def test_flame_thrower_hurts_every_other_monster_2(at_buy):
    state = at_buy("flame_thrower", "Kraken", "Meka Dragon", energy=2, deck=DECK)
    state.apply("buy 1")
    assert state.health == [10, 8, 8]


def test_detritivore_gives_2_stars_for_a_1_a_2_and_a_3(table):
    state = table(MonsterSetup("Alienoid", cards=["detritivore"]), "Kraken", deck=DECK, dice=["1 2 3 3 3 heart"])
    state.apply("stop")
    assert state.stars[0] == 3 + 2


def test_tank_gives_4_stars_and_costs_3_health(at_buy):
    state = at_buy("tank", energy=3, deck=DECK)
    state.apply("buy 1")
    assert (state.stars[0], state.health[0]) == (4, 7)


def test_energy_drink_buys_an_extra_reroll_for_1_energy(table):
    state = table(MonsterSetup("Alienoid", energy=1, cards=["energy_drink"]), "Kraken", deck=DECK,
                  dice=["1 2 3 1 2 heart", "1", "1", "3"])
    state.apply("reroll 2")
    state.apply("reroll 3")
    state.apply("use energy_drink")
    assert state.kind == "roll" and state.rolls_left == 1 and state.energy[0] == 0
    state.apply("reroll 5")
    assert state.stars[0] == 2  # 1 1 1 1


def test_battery_monster_comes_with_6_energy_and_gives_2_a_turn(at_buy, events):
    state = at_buy("battery_monster", energy=2, dice=(NOTHING, QUIET, QUIET), deck=DECK)
    state.apply("buy 1")  # 3 energy: all of it
    assert state.energy[0] == 0 and state.view(0).counters[0] == (6,)
    assert ("charge", 0, "battery_monster", 6) in events(state, "charge")
    state.next_turn()
    state.apply("stop")
    state.next_turn()  # Alienoid's turn: 2 energy from the card
    assert state.energy[0] == 2 and state.view(0).counters[0] == (4,)


def test_battery_monster_is_discarded_when_empty(table):
    state = table(MonsterSetup("Alienoid", cards=["battery_monster"], counters={"battery_monster": 2}),
                  "Kraken", deck=DECK, dice=[QUIET])
    assert state.energy[0] == 2 and not state.owned[0]


def test_it_has_a_child_keeps_its_first_edition_effect_under_its_new_name():
    assert get_deck(DECK).effects["it_has_a_child"] is get_deck("kot").effects["it_has_a_child"]
    assert next(i for i in DECKS[DECK] if i.id == "it_has_a_child").name == "It Has a Child!"


# ---------------------------------------------------------------- reworded: claws added to the roll


def test_acid_attack_adds_a_claw_that_takes_an_empty_tokyo(table):
    state = table(MonsterSetup("Alienoid", cards=["acid_attack"]), "Kraken", deck=DECK, dice=[QUIET])
    state.apply("stop")
    assert state.city == 0 and state.health[1] == 10  # taking Tokyo deals no damage


def test_acid_attack_without_claws_is_an_attack_the_monster_in_tokyo_may_yield_to(table):
    state = table(MonsterSetup("Alienoid", cards=["acid_attack"]), MonsterSetup("Kraken", tokyo="city"),
                  deck=DECK, dice=[QUIET])
    state.apply("stop")
    assert (state.kind, state.to_move, state.health[1]) == ("yield", 1, 9)
    state.apply("yield")
    assert state.city == 0


def test_spiked_tail_adds_a_claw_to_a_roll_with_a_claw(table):
    state = table(MonsterSetup("Alienoid", cards=["spiked_tail"]), MonsterSetup("Kraken", tokyo="city"),
                  deck=DECK, dice=["claw 1 2 3 heart heart"])
    state.apply("stop")
    assert state.health[1] == 8


def test_spiked_tail_adds_nothing_to_a_roll_without_claws(table):
    state = table(MonsterSetup("Alienoid", cards=["spiked_tail"]), MonsterSetup("Kraken", tokyo="city"),
                  deck=DECK, dice=[QUIET])
    state.apply("stop")
    assert state.health[1] == 10 and state.city == 1


def test_urbavore_adds_a_claw_to_a_roll_with_a_claw_in_tokyo(table):
    state = table(MonsterSetup("Alienoid", tokyo="city", cards=["urbavore"]), "Kraken", deck=DECK,
                  dice=["claw 1 2 3 heart heart"])
    assert state.stars[0] == 2 + 1  # starting the turn in Tokyo, and Urbavore's star
    state.apply("stop")
    assert state.health[1] == 8


def test_urbavore_adds_no_claw_from_outside_tokyo(table):
    state = table(MonsterSetup("Alienoid", cards=["urbavore"]), MonsterSetup("Kraken", tokyo="city"), deck=DECK,
                  dice=["claw 1 2 3 heart heart"])
    state.apply("stop")
    assert state.health[1] == 9


def test_burrowing_adds_a_claw_in_tokyo_even_without_claws(table):
    state = table(MonsterSetup("Alienoid", tokyo="city", cards=["burrowing"]), "Kraken", deck=DECK, dice=[QUIET])
    state.apply("stop")
    assert state.health[1] == 9


def test_burrowing_adds_nothing_when_attacking_tokyo_from_outside(table):
    state = table(MonsterSetup("Alienoid", cards=["burrowing"]), MonsterSetup("Kraken", tokyo="city"), deck=DECK,
                  dice=["claw 1 2 3 heart heart"])
    state.apply("stop")
    assert state.health[1] == 9


def test_burrowing_still_hurts_the_monster_that_takes_the_yielded_place(table):
    state = table(MonsterSetup("Alienoid", energy=2), MonsterSetup("Kraken", tokyo="city", cards=["burrowing"]),
                  deck=DECK, dice=["claw 1 2 3 heart heart"])
    state.apply("stop")
    state.apply("yield")
    assert state.city == 0 and state.health[0] == 9


# ---------------------------------------------------------------- reworded: a roll with a claw


def test_alpha_monster_gives_a_star_for_a_claw_even_when_it_only_takes_tokyo(table):
    state = table(MonsterSetup("Alienoid", cards=["alpha_monster"]), "Kraken", deck=DECK,
                  dice=["claw 1 2 3 heart heart"])
    state.apply("stop")
    assert state.city == 0 and state.stars[0] == 1 + 1  # Alpha Monster, and taking Tokyo


def test_alpha_monster_gives_nothing_without_a_claw(table):
    state = table(MonsterSetup("Alienoid", cards=["alpha_monster"]), "Kraken", deck=DECK, dice=[QUIET])
    state.apply("stop")
    assert state.stars[0] == 0


def test_fire_breathing_hurts_both_neighbours_whoever_the_claws_hit(table, events):
    # From outside, the claws hit only Meka Dragon in Tokyo; both neighbours lose 1.
    state = table(MonsterSetup("Alienoid", cards=["fire_breathing"]), "Kraken",
                  MonsterSetup("Meka Dragon", tokyo="city"), "The King", deck=DECK, dice=["claw 1 2 3 heart heart"])
    state.apply("stop")
    assert state.health == [10, 9, 9, 9]
    assert ("damage", 1, 1, 0) in events(state, "damage") and ("damage", 3, 1, 0) in events(state, "damage")


def test_fire_breathing_adds_its_own_damage_to_an_attacked_neighbour(table):
    # From Tokyo the claws hit everybody outside: the neighbours lose 1 more each.
    state = table(MonsterSetup("Alienoid", tokyo="city", cards=["fire_breathing"]), "Kraken", "Meka Dragon",
                  "The King", deck=DECK, dice=["claw 1 2 3 heart heart"])
    state.apply("stop")
    assert state.health == [10, 8, 9, 8]


def test_fire_breathing_hurts_the_only_opponent_once(table):
    state = table(MonsterSetup("Alienoid", cards=["fire_breathing"]), MonsterSetup("Kraken", tokyo="city"),
                  deck=DECK, dice=["claw 1 2 3 heart heart"])
    state.apply("stop")
    assert state.health[1] == 10 - 1 - 1


def test_fire_breathing_does_nothing_on_a_roll_without_claws(table):
    state = table(MonsterSetup("Alienoid", cards=["fire_breathing"]), "Kraken", "Meka Dragon", deck=DECK,
                  dice=[QUIET])
    state.apply("stop")
    assert state.health[1:] == [10, 10]
