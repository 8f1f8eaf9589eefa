"""Discard cards: their whole effect happens when they are bought, then they are discarded.

Damage from a card is not an attack: nobody may yield to it, attack cards do not add
to it, and a monster in Tokyo it eliminates leaves its place empty.
"""

from __future__ import annotations

import pytest

from kotarena.games.kot.position import MonsterSetup


@pytest.mark.parametrize(
    ("card", "stars"),
    [("corner_store", 1), ("commuter_train", 2), ("apartment_building", 3), ("skyscraper", 4)],
)
def test_star_cards_give_their_stars_and_go_to_the_discard_pile(at_buy, card, stars):
    # test_apartment_building_, test_commuter_train_, test_corner_store_, test_skyscraper_
    state = at_buy(card)
    state.apply("buy 1")
    assert state.stars[0] == stars
    assert state.card(state.discard[-1]).id == card and not state.owned[0]


def test_apartment_building_gives_3_stars(at_buy):
    state = at_buy("apartment_building", energy=4)
    state.apply("buy 1")
    assert (state.stars[0], state.energy[0]) == (3, 0)


def test_commuter_train_gives_2_stars(at_buy):
    state = at_buy("commuter_train")
    state.apply("buy 1")
    assert state.stars[0] == 2


def test_corner_store_gives_1_star(at_buy):
    state = at_buy("corner_store")
    state.apply("buy 1")
    assert state.stars[0] == 1


def test_skyscraper_gives_4_stars(at_buy):
    state = at_buy("skyscraper")
    state.apply("buy 1")
    assert state.stars[0] == 4


def test_energize_gives_9_energy(at_buy):
    state = at_buy("energize", energy=7)
    state.apply("buy 1")
    assert state.energy[0] == 9


def test_heal_heals_2_but_never_above_the_maximum(at_buy):
    state = at_buy("heal", health=7)
    state.apply("buy 1")
    assert state.health[0] == 9
    state = at_buy("heal", health=9)
    state.apply("buy 1")
    assert state.health[0] == 10


def test_nuclear_power_plant_gives_2_stars_and_heals_3(at_buy):
    state = at_buy("nuclear_power_plant", health=5)
    state.apply("buy 1")
    assert (state.stars[0], state.health[0]) == (2, 8)


def test_nuclear_power_plant_heals_a_monster_in_tokyo(at_buy):
    state = at_buy("nuclear_power_plant", health=5, tokyo="city")
    state.apply("buy 1")
    assert state.health[0] == 8  # cards heal in Tokyo, only dice do not


@pytest.mark.parametrize(("card", "stars", "loss"), [("jet_fighters", 5, 4), ("national_guard", 2, 2), ("tanks", 4, 3)])
def test_stars_for_health_cards(at_buy, card, stars, loss):
    state = at_buy(card)
    state.apply("buy 1")
    assert (state.stars[0], state.health[0]) == (stars, 10 - loss)


def test_jet_fighters_gives_5_stars_and_costs_4_health(at_buy, events):
    state = at_buy("jet_fighters")
    state.apply("buy 1")
    assert (state.stars[0], state.health[0]) == (5, 6)
    assert ("damage", 0, 4, 0) in events(state, "damage")


def test_national_guard_gives_2_stars_and_costs_2_health(at_buy):
    state = at_buy("national_guard")
    state.apply("buy 1")
    assert (state.stars[0], state.health[0]) == (2, 8)


def test_tanks_gives_4_stars_and_costs_3_health(at_buy):
    state = at_buy("tanks")
    state.apply("buy 1")
    assert (state.stars[0], state.health[0]) == (4, 7)


def test_tanks_can_eliminate_its_buyer_whose_turn_ends_at_once(at_buy):
    state = at_buy("tanks", "Kraken", "Meka Dragon", health=3)
    state.apply("buy 1")
    assert not state.alive[0]
    assert state.between_turns and state.active == 1  # no more buying for a dead monster


def test_jet_fighters_at_15_stars_and_4_health_does_not_win(at_buy):
    # Seeds: a monster that reaches 20 stars and 0 health in the same turn does not win.
    state = at_buy("jet_fighters", "Kraken", "Meka Dragon", stars=15, health=4)
    state.apply("buy 1")
    assert state.stars[0] == 20 and not state.alive[0]
    assert not state.is_over


def test_fire_blast_hurts_every_other_monster_by_2(at_buy):
    state = at_buy("fire_blast", "Kraken", MonsterSetup("Meka Dragon", tokyo="city"))
    state.apply("buy 1")
    assert state.health == [10, 8, 8]
    assert state.kind == "buy" and state.to_move == 0  # nobody is asked to yield


def test_gas_refinery_gives_2_stars_and_hurts_every_other_monster_by_3_without_an_attack(at_buy):
    state = at_buy("gas_refinery", MonsterSetup("Kraken", tokyo="city"), "Meka Dragon",
                   cards=["spiked_tail"])
    state.apply("buy 1")
    assert state.stars[0] == 2
    assert state.health == [10, 7, 7]  # Spiked Tail does not add to card damage
    assert state.city == 1 and state.kind == "buy"  # no yield offer: it is not an attack


def test_gas_refinery_that_eliminates_the_monster_in_tokyo_leaves_tokyo_empty(at_buy):
    state = at_buy("gas_refinery", MonsterSetup("Kraken", tokyo="city", health=3), "Meka Dragon")
    state.apply("buy 1")
    assert not state.alive[1]
    assert state.city == -1  # the buyer does not move in: card damage is not an attack


def test_high_altitude_bombing_hurts_everybody_by_3_the_buyer_too(at_buy):
    state = at_buy("high_altitude_bombing", "Kraken", "Meka Dragon")
    state.apply("buy 1")
    assert state.health == [7, 7, 7]


def test_high_altitude_bombing_can_eliminate_everybody_at_once(at_buy):
    state = at_buy("high_altitude_bombing", MonsterSetup("Kraken", health=3), energy=3, health=3)
    state.apply("buy 1")
    assert state.outcome.winner is None
    assert state.outcome.ranks == (0, 0)  # eliminated by the same damage: a tie


def test_evacuation_orders_takes_5_stars_from_every_other_monster_never_below_0(at_buy, events):
    state = at_buy("evacuation_orders", MonsterSetup("Kraken", stars=8), MonsterSetup("Meka Dragon", stars=3),
                   stars=4)
    state.apply("buy 1")
    assert state.stars == [4, 3, 0]
    assert events(state, "lose stars") == [("lose stars", 1, 5, "evacuation_orders"),
                                           ("lose stars", 2, 3, "evacuation_orders")]


def test_evacuation_orders_has_two_copies(at_buy):
    state = at_buy("evacuation_orders")
    assert sum(1 for info in state.cards_info if info.id == "evacuation_orders") == 2


def test_vast_storm_gives_2_stars_and_halves_the_others_energy_rounding_down(at_buy):
    state = at_buy("vast_storm", MonsterSetup("Kraken", energy=7), MonsterSetup("Meka Dragon", energy=1))
    state.apply("buy 1")
    assert state.stars[0] == 2
    assert state.energy[1:] == [4, 1]


def test_drop_from_high_altitude_takes_tokyo_city_and_its_monster_leaves(at_buy, events):
    state = at_buy("drop_from_high_altitude", MonsterSetup("Kraken", tokyo="city"))
    state.apply("buy 1")
    assert state.city == 0
    assert state.stars[0] == 3  # 2 from the card, 1 for taking Tokyo
    assert ("leave", 1, "city", "drop_from_high_altitude") in events(state, "leave")


def test_drop_from_high_altitude_takes_an_empty_tokyo(at_buy):
    state = at_buy("drop_from_high_altitude")
    state.apply("buy 1")
    assert state.city == 0 and state.stars[0] == 3


def test_drop_from_high_altitude_from_tokyo_bay_stays_in_the_bay(at_buy):
    # Seed 003: a monster in Tokyo Bay is in Tokyo, so it does not take Tokyo City.
    state = at_buy("drop_from_high_altitude", MonsterSetup("Kraken", tokyo="city"), "Meka Dragon", "The King",
                   "Giga Zaur", tokyo="bay")
    state.apply("buy 1")
    assert (state.city, state.bay) == (1, 0)
    assert state.stars[0] == 2 + 2  # 2 for starting the turn in Tokyo, 2 from the card


def test_frenzy_gives_another_turn_right_after_this_one(at_buy, events):
    state = at_buy("frenzy", "Kraken", dice=("1 2 3 1 2 energy", "1 2 3 1 2 heart"))
    state.apply("buy 1")
    state.apply("done")
    assert state.between_turns and state.active == 0
    state.next_turn()
    assert state.active == 0 and state.turn == 2
    assert ("extra turn", 0) in events(state, "extra turn")


def test_frenzy_then_the_turn_passes_on(at_buy):
    state = at_buy("frenzy", "Kraken", dice=("1 2 3 1 2 energy", "1 2 3 1 2 heart"))
    state.apply("buy 1")
    state.apply("done")
    state.next_turn()
    state.apply("stop")
    state.apply("done")
    assert state.active == 1
