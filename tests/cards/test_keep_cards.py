"""Keep cards that act on their own: stars, energy, health, attacks, dice.

Each test sets a table up with the card already owned (or bought in the test) and
plays through the real engine with scripted dice.
"""

from __future__ import annotations

from kotarena.games.kot.position import MonsterSetup
from kotarena.games.kot.rulings import CARDS_SEE_THEIR_OWN_PURCHASE, UNDERDOG_NEEDS_STRICTLY_FEWEST_STARS

NOTHING = "1 2 3 1 2 energy"  # scores nothing, 1 energy
QUIET = "1 2 3 1 2 heart"  # scores nothing, 1 heart


def play_turn(state, *actions):
    """Play the active monster's turn: ``stop`` (or the given actions), to its end.

    With nothing to buy the buy step asks nothing, so the turn is over; a turn with
    something to buy gives its ``done`` among the actions.
    """
    for action in actions or ("stop",):
        state.apply(action)
    assert state.between_turns
    return state


# ---------------------------------------------------------------- stars and energy


def test_energy_hoarder_gives_a_star_per_6_energy_at_the_end_of_the_turn(table):
    state = table(MonsterSetup("Alienoid", energy=12, cards=["energy_hoarder"]), "Kraken",
                  deck="default", dice=[NOTHING])
    play_turn(state, "stop", "done")
    assert (state.stars[0], state.energy[0]) == (2, 13)


def test_solar_powered_gives_1_energy_at_the_end_of_a_turn_with_none(table):
    state = table(MonsterSetup("Alienoid", cards=["solar_powered"]), "Kraken", deck="default", dice=[QUIET])
    play_turn(state)
    assert state.energy[0] == 1


def test_solar_powered_does_nothing_with_energy_left(table):
    state = table(MonsterSetup("Alienoid", cards=["solar_powered"]), "Kraken", deck="default", dice=[NOTHING])
    play_turn(state)
    assert state.energy[0] == 1


def test_solar_powered_works_the_turn_it_is_bought(at_buy):
    state = at_buy("solar_powered", energy=1)
    state.apply("buy 1")  # 0 energy left: nothing more to buy, the turn ends
    assert state.between_turns and state.energy[0] == 1


def test_friend_of_children_adds_1_whenever_energy_is_gained(table):
    state = table(MonsterSetup("Alienoid", cards=["friend_of_children"]), "Kraken", deck="default",
                  dice=["energy energy 1 2 3 heart"])
    state.apply("stop")
    assert state.energy[0] == 3


def test_friend_of_children_adds_to_energize(at_buy):
    state = at_buy("energize", energy=7, cards=["friend_of_children"])
    assert state.energy[0] == 9  # the dice's 1 energy became 2
    state.apply("buy 1")
    assert state.energy[0] == 1 + 10


def test_rooting_for_the_underdog_gives_a_star_to_the_monster_with_fewest_stars(table):
    state = table(MonsterSetup("Alienoid", stars=1, cards=["rooting_for_the_underdog"]),
                  MonsterSetup("Kraken", stars=3), MonsterSetup("Meka Dragon", stars=2), deck="default", dice=[QUIET])
    play_turn(state)
    assert state.stars[0] == 2


def test_rooting_for_the_underdog_gives_nothing_on_a_tie_for_fewest(table):
    assert UNDERDOG_NEEDS_STRICTLY_FEWEST_STARS is True
    state = table(MonsterSetup("Alienoid", stars=2, cards=["rooting_for_the_underdog"]),
                  MonsterSetup("Kraken", stars=2), deck="default", dice=[QUIET])
    play_turn(state)
    assert state.stars[0] == 2


def test_dedicated_news_team_gives_a_star_for_each_card_bought_after_it(at_buy):
    state = at_buy("corner_store", cards=["dedicated_news_team"])
    state.apply("buy 1")
    assert state.stars[0] == 1 + 1


def test_dedicated_news_team_gives_nothing_for_itself(at_buy):
    assert CARDS_SEE_THEIR_OWN_PURCHASE is False
    state = at_buy("dedicated_news_team")
    state.apply("buy 1")
    assert state.stars[0] == 0


def test_omnivore_gives_2_stars_for_1_2_3(table):
    state = table(MonsterSetup("Alienoid", cards=["omnivore"]), "Kraken", deck="default",
                  dice=["1 2 3 heart heart energy"])
    state.apply("stop")
    assert state.stars[0] == 2


def test_omnivore_dice_still_count_for_sets(table):
    state = table(MonsterSetup("Alienoid", cards=["omnivore"]), "Kraken", deck="default", dice=["1 2 3 3 3 energy"])
    state.apply("stop")
    assert state.stars[0] == 2 + 3


def test_gourmet_gives_2_extra_stars_for_1_1_1(table):
    state = table(MonsterSetup("Alienoid", cards=["gourmet"]), "Kraken", deck="default", dice=["1 1 1 2 2 energy"])
    state.apply("stop")
    assert state.stars[0] == 1 + 2


def test_gourmet_gives_its_2_stars_once_with_two_sets_of_1s(table):
    # Seed 003: even with two triples of 1, the extra is 2 stars.
    state = table(MonsterSetup("Alienoid", cards=["gourmet"]), "Kraken", deck="default", dice=["1 1 1 1 1 1"])
    state.apply("stop")
    assert state.stars[0] == 4 + 2


def test_complete_destruction_gives_9_stars_for_all_six_faces(table):
    state = table(MonsterSetup("Alienoid", cards=["complete_destruction"]), MonsterSetup("Kraken", tokyo="city"),
                  deck="default", dice=["1 2 3 energy heart claw"])
    state.apply("stop")
    assert state.stars[0] == 9


def test_complete_destruction_needs_every_face(table):
    state = table(MonsterSetup("Alienoid", cards=["complete_destruction"]), "Kraken", deck="default",
                  dice=["1 2 3 energy heart heart"])
    state.apply("stop")
    assert state.stars[0] == 0


def test_eater_of_the_dead_gains_3_stars_when_a_monster_drops_to_0(table):
    state = table(MonsterSetup("Alienoid", cards=["eater_of_the_dead"]), MonsterSetup("Kraken", tokyo="city", health=2),
                  "Meka Dragon", deck="default", dice=["claw claw 1 2 3 heart"])
    state.apply("stop")
    assert not state.alive[1]
    assert state.stars[0] == 3 + 1  # and 1 for taking the place of the monster it eliminated


def test_eater_of_the_dead_counts_a_monster_saved_by_it_has_a_child(table):
    # Seed 003: a monster kept in the game by It Has a Child still dropped to 0.
    state = table(MonsterSetup("Alienoid", cards=["eater_of_the_dead"]),
                  MonsterSetup("Kraken", tokyo="city", health=2, cards=["it_has_a_child"]),
                  "Meka Dragon", deck="default", dice=["claw claw 1 2 3 heart"])
    state.apply("stop")
    assert state.alive[1] and state.health[1] == 10
    assert state.stars[0] == 3 + 1


# ---------------------------------------------------------------- health


def test_even_bigger_raises_maximum_health_to_12_and_heals_2(at_buy):
    state = at_buy("even_bigger", health=10)
    state.apply("buy 1")
    assert (state.health[0], state.max_health[0]) == (12, 12)


def test_even_bigger_lost_takes_its_2_health_back(table):
    # Seeds 000/003/004: losing the card loses the 2 health it gave (here: sold with Metamorph).
    state = table(MonsterSetup("Alienoid", health=12, max_health=12, cards=["even_bigger", "metamorph"]),
                  "Kraken", deck="default", dice=[QUIET])
    state.apply("stop")  # nothing to buy with 0 energy: straight to the end of the turn
    assert state.kind == "end"
    state.apply("use metamorph even_bigger")
    assert (state.health[0], state.max_health[0], state.energy[0]) == (10, 10, 4)


def test_even_bigger_lost_loses_the_2_health_it_gave_not_only_the_maximum(table, events):
    # Seeds 000/003/004: "you also lose the 2 health you gained with this card". At 8 of
    # 12, selling it leaves 6 of 10 (not 8 of 10).
    state = table(MonsterSetup("Alienoid", health=8, max_health=12, cards=["even_bigger", "metamorph"]),
                  "Kraken", deck="default", dice=["1 2 3 1 2 3"])
    state.apply("stop")
    assert state.kind == "end"
    state.apply("use metamorph even_bigger")
    assert (state.health[0], state.max_health[0]) == (6, 10)
    assert ("lose health", 0, 2, "even_bigger") in events(state)
    assert not [e for e in events(state, "damage") if e[1] == 0]  # a loss, not damage


def test_even_bigger_lost_is_health_lost_for_were_only_making_it_stronger(table):
    state = table(MonsterSetup("Alienoid", health=8, max_health=12,
                               cards=["even_bigger", "metamorph", "were_only_making_it_stronger"]),
                  "Kraken", deck="default", dice=["1 2 3 1 2 3"])
    state.apply("stop")
    state.apply("use metamorph even_bigger")
    assert (state.health[0], state.energy[0]) == (6, 4 + 1)


def test_even_bigger_lost_at_2_health_eliminates_its_monster(at_buy):
    # Kraken, at 2 of 12, loses Even Bigger to Alienoid's Parasitic Tentacles: it loses
    # the 2 health the card gave, drops to 0 and is eliminated at once.
    state = at_buy("corner_store", MonsterSetup("Kraken", health=2, max_health=12, cards=["even_bigger"]),
                   "Meka Dragon", energy=6, cards=["parasitic_tentacles"])
    state.apply("use parasitic_tentacles 2 even_bigger")
    assert not state.alive[1] and state.health[1] == 0 and state.max_health[1] == 10
    assert (state.health[0], state.max_health[0]) == (12, 12)
    assert state.kind == "buy" and state.to_move == 0  # Alienoid's buy step goes on


def test_even_bigger_lost_at_1_health_with_two_monsters_ends_the_game(at_buy):
    state = at_buy("corner_store", MonsterSetup("Kraken", health=1, max_health=12, cards=["even_bigger"]),
                   energy=4, cards=["parasitic_tentacles"])
    state.apply("use parasitic_tentacles 2 even_bigger")
    assert state.outcome is not None and state.outcome.winner == 0


def test_regeneration_heals_1_more_whenever_the_monster_heals(table):
    state = table(MonsterSetup("Alienoid", health=5, cards=["regeneration"]), "Kraken", deck="default",
                  dice=["heart heart 1 2 3 energy"])
    state.apply("stop")
    assert state.health[0] == 5 + 2 + 1


def test_regeneration_does_not_heal_in_tokyo_without_hearts_that_heal(table):
    state = table(MonsterSetup("Alienoid", health=5, tokyo="city", cards=["regeneration"]), "Kraken",
                  deck="default", dice=["heart heart 1 2 3 energy"])
    state.apply("stop")
    assert state.health[0] == 5


def test_armor_plating_ignores_a_damage_of_exactly_1(table, events):
    # Seed 003: Armor Plating ignores any damage of 1. No damage dealt: no attack, no yield offer.
    state = table("Alienoid", MonsterSetup("Kraken", tokyo="city", cards=["armor_plating"]), "Meka Dragon",
                  deck="default", dice=["claw 1 2 3 heart energy"])
    state.apply("stop")
    assert state.health[1] == 10
    assert state.between_turns and state.city == 1  # nobody was attacked: no yielding, no moving in
    assert ("prevent", 1, 1, "armor_plating") in events(state, "prevent")


def test_armor_plating_lets_2_damage_through(table):
    state = table("Alienoid", MonsterSetup("Kraken", tokyo="city", cards=["armor_plating"]), deck="default",
                  dice=["claw claw 1 2 3 heart"])
    state.apply("stop")
    assert state.health[1] == 8 and state.kind == "yield"


def test_were_only_making_it_stronger_gives_1_energy_for_2_damage_or_more(table):
    state = table("Alienoid", MonsterSetup("Kraken", tokyo="city", cards=["were_only_making_it_stronger"]),
                  deck="default", dice=["claw claw 1 2 3 heart"])
    state.apply("stop")
    assert state.energy[1] == 1


def test_were_only_making_it_stronger_gives_nothing_for_1_damage(table):
    state = table("Alienoid", MonsterSetup("Kraken", tokyo="city", cards=["were_only_making_it_stronger"]),
                  deck="default", dice=["claw 1 2 3 heart heart"])
    state.apply("stop")
    assert state.energy[1] == 0


# ---------------------------------------------------------------- attacks


def test_spiked_tail_adds_1_damage_to_an_attack(table):
    state = table(MonsterSetup("Alienoid", cards=["spiked_tail"]), MonsterSetup("Kraken", tokyo="city"),
                  deck="default", dice=["claw 1 2 3 heart heart"])
    state.apply("stop")
    assert state.health[1] == 8


def test_spiked_tail_does_nothing_without_claws(table):
    state = table(MonsterSetup("Alienoid", cards=["spiked_tail"]), MonsterSetup("Kraken", tokyo="city"),
                  deck="default", dice=[QUIET])
    state.apply("stop")
    assert state.health[1] == 10


def test_spiked_tail_and_armor_plating_judge_the_whole_attack(table):
    # Ruling: an attack's bonus damage joins its claws into one damage; 1 claw + 1 is 2.
    state = table(MonsterSetup("Alienoid", cards=["spiked_tail"]),
                  MonsterSetup("Kraken", tokyo="city", cards=["armor_plating"]),
                  deck="default", dice=["claw 1 2 3 heart heart"])
    state.apply("stop")
    assert state.health[1] == 8


def test_acid_attack_adds_1_damage_to_an_attack(table):
    state = table(MonsterSetup("Alienoid", cards=["acid_attack"]), MonsterSetup("Kraken", tokyo="city"),
                  deck="default", dice=["claw 1 2 3 heart heart"])
    state.apply("stop")
    assert state.health[1] == 8 and state.kind == "yield"


def test_acid_attack_without_claws_deals_1_card_damage_that_is_no_attack(table):
    # Seed 003: 1 extra damage every turn even without attacking; no yielding over it.
    state = table(MonsterSetup("Alienoid", cards=["acid_attack"]), MonsterSetup("Kraken", tokyo="city"),
                  "Meka Dragon", deck="default", dice=[QUIET])
    state.apply("stop")
    assert state.health == [10, 9, 10]
    assert state.between_turns and state.city == 1  # no yield decision; nothing to buy


def test_acid_attack_from_tokyo_hurts_everybody_outside(table):
    state = table(MonsterSetup("Alienoid", tokyo="city", cards=["acid_attack"]), "Kraken", "Meka Dragon",
                  deck="default", dice=[QUIET])
    state.apply("stop")
    assert state.health == [10, 9, 9]


def test_acid_attack_hurts_nobody_when_tokyo_is_empty_and_it_rolled_no_claw(table):
    state = table(MonsterSetup("Alienoid", cards=["acid_attack"]), "Kraken", deck="default", dice=[QUIET])
    state.apply("stop")
    assert state.health == [10, 10] and state.city == -1


def test_urbavore_gives_1_more_star_for_starting_in_tokyo(table):
    state = table(MonsterSetup("Alienoid", tokyo="city", cards=["urbavore"]), "Kraken", deck="default",
                  dice=[QUIET])
    assert state.stars[0] == 3


def test_urbavore_adds_1_damage_to_attacks_from_tokyo_only(table):
    state = table(MonsterSetup("Alienoid", tokyo="city", cards=["urbavore"]), "Kraken", deck="default",
                  dice=["claw 1 2 3 heart heart", "claw 1 2 3 heart heart"])
    state.apply("stop")
    assert state.health[1] == 8
    state = table(MonsterSetup("Alienoid", cards=["urbavore"]), MonsterSetup("Kraken", tokyo="city"),
                  deck="default", dice=["claw 1 2 3 heart heart"])
    state.apply("stop")
    assert state.health[1] == 9


def test_burrowing_adds_1_damage_when_attacking_tokyo_from_outside(table):
    state = table(MonsterSetup("Alienoid", cards=["burrowing"]), MonsterSetup("Kraken", tokyo="city"),
                  deck="default", dice=["claw 1 2 3 heart heart"])
    state.apply("stop")
    assert state.health[1] == 8


def test_burrowing_adds_nothing_to_attacks_from_tokyo(table):
    state = table(MonsterSetup("Alienoid", tokyo="city", cards=["burrowing"]), "Kraken", deck="default",
                  dice=["claw 1 2 3 heart heart"])
    state.apply("stop")
    assert state.health[1] == 9


def test_burrowing_hurts_the_monster_that_takes_the_yielded_place(table, events):
    # Alienoid has 2 energy (a sweep), so the game goes back to a real buy step.
    state = table(MonsterSetup("Alienoid", energy=2), MonsterSetup("Kraken", tokyo="city", cards=["burrowing"]),
                  deck="default", dice=["claw 1 2 3 heart heart"])
    state.apply("stop")
    state.apply("yield")
    assert state.city == 0
    assert state.health[0] == 9  # card damage from Kraken's Burrowing
    assert events(state, "damage")[-1] == ("damage", 0, 1, 1)
    assert state.kind == "buy"


def test_fire_breathing_adds_1_damage_to_attacked_neighbours_only(table):
    state = table(MonsterSetup("Alienoid", tokyo="city", cards=["fire_breathing"]), "Kraken", "Meka Dragon",
                  "The King", deck="default", dice=["claw 1 2 3 heart heart"])
    state.apply("stop")
    assert state.health == [10, 8, 9, 8]  # Kraken and The King sit next to Alienoid


def test_fire_breathing_gives_nothing_to_a_neighbour_that_is_not_attacked(table):
    # Seed 000/003: the extra damage only adds to an attack on the neighbour.
    state = table(MonsterSetup("Alienoid", cards=["fire_breathing"]), "Kraken", MonsterSetup("Meka Dragon", tokyo="city"),
                  "The King", deck="default", dice=["claw 1 2 3 heart heart"])
    state.apply("stop")
    assert state.health == [10, 10, 9, 10]


def test_nova_breath_hits_every_other_monster(table):
    state = table(MonsterSetup("Alienoid", cards=["nova_breath"]), MonsterSetup("Kraken", tokyo="city"),
                  "Meka Dragon", deck="default", dice=["claw claw 1 2 3 heart"])
    state.apply("stop")
    assert state.health == [10, 8, 8]
    assert state.kind == "yield" and state.to_move == 1


def test_nova_breath_takes_an_empty_tokyo_then_hits_everybody(table):
    state = table(MonsterSetup("Alienoid", cards=["nova_breath"]), "Kraken", "Meka Dragon", deck="default",
                  dice=["claw 1 2 3 heart heart"])
    state.apply("stop")
    assert state.city == 0
    assert state.health == [10, 9, 9]


def test_burrowing_with_nova_breath_adds_1_damage_to_the_monster_in_tokyo_only(table):
    # Seed 003: Burrowing deals 1 extra damage "when you attack Tokyo"; the monsters
    # outside that Nova Breath also hits are not in Tokyo and take the claws alone.
    state = table(MonsterSetup("Alienoid", cards=["burrowing", "nova_breath"]), MonsterSetup("Kraken", tokyo="city"),
                  "Meka Dragon", deck="default", dice=["claw claw 1 2 3 heart"])
    state.apply("stop")
    assert state.health == [10, 7, 8]


def test_burrowing_with_nova_breath_from_tokyo_adds_nothing(table):
    state = table(MonsterSetup("Alienoid", tokyo="city", cards=["burrowing", "nova_breath"]), "Kraken",
                  MonsterSetup("Meka Dragon", tokyo="bay"), "The King", "Giga Zaur", deck="default",
                  dice=["claw claw 1 2 3 heart"])
    state.apply("stop")
    assert state.health == [10, 8, 8, 8, 8]


def test_alpha_monster_gains_a_star_when_attacking(table):
    state = table(MonsterSetup("Alienoid", cards=["alpha_monster"]), MonsterSetup("Kraken", tokyo="city"),
                  deck="default", dice=["claw 1 2 3 heart heart"])
    state.apply("stop")
    assert state.stars[0] == 1


def test_alpha_monster_gains_nothing_for_an_attack_that_dealt_no_damage(table):
    state = table(MonsterSetup("Alienoid", cards=["alpha_monster"]),
                  MonsterSetup("Kraken", tokyo="city", cards=["armor_plating"]),
                  deck="default", dice=["claw 1 2 3 heart heart"])
    state.apply("stop")
    assert state.stars[0] == 0


def test_herbivore_gains_a_star_on_a_turn_without_damaging_anybody(table):
    state = table(MonsterSetup("Alienoid", cards=["herbivore"]), MonsterSetup("Kraken", tokyo="city"),
                  deck="default", dice=[QUIET])
    play_turn(state)
    assert state.stars[0] == 1


def test_herbivore_gains_nothing_after_an_attack(table):
    state = table(MonsterSetup("Alienoid", cards=["herbivore"]), MonsterSetup("Kraken", tokyo="city"),
                  deck="default", dice=["claw 1 2 3 heart heart"])
    play_turn(state, "stop", "stay")
    assert state.stars[0] == 0


def test_herbivore_sees_an_attack_that_dealt_no_damage_as_no_attack(table):
    # Seed 003: an attack whose damage was all prevented is not an attack (Herbivore).
    state = table(MonsterSetup("Alienoid", cards=["herbivore"]),
                  MonsterSetup("Kraken", tokyo="city", cards=["armor_plating"]),
                  deck="default", dice=["claw 1 2 3 heart heart"])
    play_turn(state)
    assert state.stars[0] == 1


def test_poison_quills_with_2_2_2_attacks_for_2_more(table):
    state = table(MonsterSetup("Alienoid", cards=["poison_quills"]), MonsterSetup("Kraken", tokyo="city"),
                  deck="default", dice=["2 2 2 1 3 energy"])
    state.apply("stop")
    assert state.stars[0] == 2
    assert state.health[1] == 8 and state.kind == "yield"


def test_poison_quills_adds_to_claws(table):
    state = table(MonsterSetup("Alienoid", cards=["poison_quills"]), MonsterSetup("Kraken", tokyo="city"),
                  deck="default", dice=["2 2 2 claw 3 energy"])
    state.apply("stop")
    assert state.health[1] == 7


# ---------------------------------------------------------------- dice


def test_extra_head_rolls_a_seventh_die(table):
    state = table(MonsterSetup("Alienoid", cards=["extra_head"]), "Kraken", deck="default",
                  dice=["1 2 3 1 2 energy heart"])
    assert len(state.dice) == 7
    assert state.legal[-1].text == "reroll 1 2 3 4 5 6 7"


def test_two_extra_heads_roll_eight_dice(table):
    state = table(MonsterSetup("Alienoid", cards=["extra_head", "extra_head"]), "Kraken", deck="default",
                  dice=["1 2 3 1 2 energy heart claw"])
    assert len(state.dice) == 8


def test_giant_brain_gives_a_third_reroll(table):
    state = table(MonsterSetup("Alienoid", cards=["giant_brain"]), "Kraken", deck="default",
                  dice=["1 2 3 1 2 energy", "1", "1", "1"])
    state.apply("reroll 1")
    state.apply("reroll 1")
    assert state.kind == "roll" and state.rolls_left == 1  # the card's reroll
    state.apply("reroll 1")
    assert state.between_turns  # no reroll left; nothing to buy


def test_burrowing_hurts_nobody_when_the_attacker_takes_the_other_place(table):
    # Both yield: the attacker takes Tokyo City, not the Bay the Burrowing monster left.
    state = table("Alienoid", MonsterSetup("Kraken", tokyo="city"), MonsterSetup("Meka Dragon", tokyo="bay",
                  cards=["burrowing"]), "The King", "Giga Zaur", deck="default", dice=["claw 1 2 3 heart heart"])
    state.apply("stop")
    state.apply("yield")
    state.apply("yield")
    assert state.city == 0 and state.health[0] == 10


def test_burrowing_hurts_the_attacker_taking_the_bay_it_yielded(table):
    state = table("Alienoid", MonsterSetup("Kraken", tokyo="city"), MonsterSetup("Meka Dragon", tokyo="bay",
                  cards=["burrowing"]), "The King", "Giga Zaur", deck="default", dice=["claw 1 2 3 heart heart"])
    state.apply("stop")
    state.apply("stay")
    state.apply("yield")
    assert state.bay == 0 and state.health[0] == 9
