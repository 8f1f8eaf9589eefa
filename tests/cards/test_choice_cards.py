"""Cards that offer choices (``use <card> ...``), cards with counters and tokens, and
cards that save or protect a monster.

Every card decision lists ``pass`` first, so a bot taking the first legal action
never uses a card by accident.
"""

from __future__ import annotations

from kotarena.games.kot.position import MonsterSetup
from kotarena.games.kot.rulings import (
    CURE_TOKENS_ONLY_OUTSIDE_TOKYO,
    HEALING_RAY_FROM_TOKYO,
    MIMIC_MAY_COPY_ITS_OWNERS_CARDS,
    RAPID_HEALING_BEFORE_DAMAGE_ONLY_IF_FATAL,
)

QUIET = "1 2 3 1 2 heart"


# ---------------------------------------------------------------- changing dice


def test_herd_culler_turns_one_die_to_a_1_once_a_turn(table):
    state = table(MonsterSetup("Alienoid", cards=["herd_culler"]), "Kraken", deck="default",
                  dice=["1 1 3 2 heart energy"])
    state.apply("stop")
    assert state.kind == "dice" and state.legal[0].text == "pass"
    assert {a.text for a in state.legal} == {"pass", "use herd_culler 3", "use herd_culler 4",
                                              "use herd_culler 5", "use herd_culler 6"}
    state.apply("use herd_culler 3")
    assert state.between_turns  # nothing more to offer this turn: the dice resolved, nothing to buy
    assert state.stars[0] == 1


def test_plot_twist_changes_a_die_to_any_face_then_is_discarded(table, events):
    state = table(MonsterSetup("Alienoid", cards=["plot_twist"]), "Kraken", deck="default",
                  dice=["3 3 1 2 heart energy"])
    state.apply("stop")
    state.apply("use plot_twist 3 3")
    assert state.stars[0] == 3
    assert not state.owned[0] and state.card(state.discard[-1]).id == "plot_twist"
    assert ("change die", 0, 3, "3", "plot_twist") in events(state, "change die")


def test_stretchy_pays_2_energy_per_changed_die_as_often_as_energy_lasts(table):
    state = table(MonsterSetup("Alienoid", energy=4, cards=["stretchy"]), "Kraken", deck="default",
                  dice=["claw claw 1 2 heart energy"])
    state.apply("stop")
    state.apply("use stretchy 3 claw")
    assert state.kind == "dice" and state.energy[0] == 2
    state.apply("use stretchy 4 claw")
    assert state.city == 0  # 4 claws took the empty Tokyo
    assert state.energy[0] == 0 + 1  # both changes paid; the energy die still counts


def test_stretchy_is_not_offered_without_2_energy(table):
    state = table(MonsterSetup("Alienoid", energy=1, cards=["stretchy"]), "Kraken", deck="default", dice=[QUIET])
    state.apply("stop")
    assert state.between_turns  # no Stretchy decision (and nothing to buy with 1 energy)
    assert [a.text for _, a in state.history] == ["stop"]


def test_telepath_buys_an_extra_reroll_for_1_energy(table):
    state = table(MonsterSetup("Alienoid", energy=1, cards=["telepath"]), "Kraken", deck="default",
                  dice=["1 2 3 1 2 heart", "1", "1", "3"])
    state.apply("reroll 2")
    state.apply("reroll 3")
    assert state.kind == "dice"
    state.apply("use telepath")
    assert state.kind == "roll" and state.rolls_left == 1 and state.energy[0] == 0
    state.apply("reroll 5")
    assert state.dice == [0, 0, 0, 0, 2, 4]
    assert state.stars[0] == 2


def test_smoke_cloud_has_3_charges_and_is_discarded_when_they_are_spent(table):
    state = table(MonsterSetup("Alienoid", cards=["smoke_cloud"]), "Kraken", deck="default",
                  dice=[QUIET, "heart", "heart", "heart"])
    assert state.view(0).counters == ((3,), ())
    state.apply("stop")
    for charges in (2, 1):
        state.apply("use smoke_cloud")
        assert state.kind == "roll" and state.rolls_left == 1
        state.apply("reroll 1")
        assert state.kind == "dice" and state.counters[state.owned[0][0]] == charges
    state.apply("use smoke_cloud")
    assert not state.owned[0]
    state.apply("reroll 1")
    assert state.between_turns  # no charge left to offer; nothing to buy


def test_smoke_cloud_charges_are_set_up_by_positions(table):
    state = table(MonsterSetup("Alienoid", cards=["smoke_cloud"], counters={"smoke_cloud": 1}), "Kraken",
                  deck="default", dice=[QUIET, "heart"])
    state.apply("stop")
    state.apply("use smoke_cloud")
    assert not state.owned[0]


def test_background_dweller_rerolls_a_3_even_without_rerolls_left(table):
    state = table(MonsterSetup("Alienoid", cards=["background_dweller"]), "Kraken", deck="default",
                  dice=["3 2 2 1 heart energy", "2", "2", "2"])
    state.apply("reroll 4")
    state.apply("reroll 4")
    assert state.kind == "dice"
    assert [a.text for a in state.legal] == ["pass", "use background_dweller 1"]
    state.apply("use background_dweller 1")
    assert state.stars[0] == 3  # 2 2 2 2


# ---------------------------------------------------------------- health and protection


def test_rapid_healing_pays_2_energy_per_health_at_the_buy_step(table):
    state = table(MonsterSetup("Alienoid", health=5, energy=3, cards=["rapid_healing"]), "Kraken",
                  deck="default", dice=["1 2 3 1 2 claw"])
    state.apply("stop")
    assert state.kind == "dice"  # offered before the dice resolve too
    state.apply("pass")
    assert "use rapid_healing" in {a.text for a in state.legal}
    state.apply("use rapid_healing")
    assert (state.health[0], state.energy[0]) == (6, 1)
    assert "use rapid_healing" not in {a.text for a in state.legal}


def test_rapid_healing_is_not_offered_at_full_health(table):
    state = table(MonsterSetup("Alienoid", energy=3, cards=["rapid_healing"]), "Kraken", deck="default",
                  dice=[QUIET])
    state.apply("stop")
    assert state.kind == "buy" and "use rapid_healing" not in {a.text for a in state.legal}


def test_camouflage_rolls_a_die_per_damage_and_each_heart_cancels_one(table, events):
    state = table("Alienoid", MonsterSetup("Kraken", tokyo="city", cards=["camouflage"]), deck="default",
                  dice=["claw claw claw 1 2 3", "heart 1 heart"])
    state.apply("stop")
    assert state.health[1] == 9
    assert ("camouflage", 1, (4, 0, 4), 2) in events(state, "camouflage")
    assert state.kind == "yield"


def test_camouflage_that_cancels_everything_leaves_no_attack(table):
    # Seeds 003/004: an attack whose damage is all cancelled is not an attack.
    state = table("Alienoid", MonsterSetup("Kraken", tokyo="city", cards=["camouflage"]), deck="default",
                  dice=["claw claw 1 2 3 heart", "heart heart"])
    state.apply("stop")
    assert state.health[1] == 10
    assert state.between_turns and state.city == 1  # no yield decision; nothing to buy


def test_it_has_a_child_keeps_the_monster_with_full_health_no_stars_no_cards(table, events):
    state = table("Alienoid",
                  MonsterSetup("Kraken", tokyo="city", health=2, stars=9, cards=["it_has_a_child", "spiked_tail"]),
                  "Meka Dragon", deck="default", dice=["claw claw 1 2 3 heart"])
    state.apply("stop")
    assert state.alive[1]
    assert (state.health[1], state.stars[1], state.owned[1]) == (10, 0, [])
    assert state.city == 0  # Kraken left Tokyo; the attacker took the free place
    assert ("eliminated", 1) not in events(state)


def test_it_has_a_child_with_even_bigger_comes_back_at_10(table):
    state = table("Alienoid",
                  MonsterSetup("Kraken", tokyo="city", health=2, max_health=12, cards=["it_has_a_child", "even_bigger"]),
                  deck="default", dice=["claw claw 1 2 3 heart"])
    state.apply("stop")
    assert (state.health[1], state.max_health[1]) == (10, 10)


# ---------------------------------------------------------------- tokens


def test_poison_spit_gives_a_poison_token_to_each_monster_it_damages(table):
    state = table(MonsterSetup("Alienoid", tokyo="city", cards=["poison_spit"]), "Kraken", "Meka Dragon",
                  deck="default", dice=["claw 1 2 3 heart heart", QUIET])
    state.apply("stop")
    assert state.poison == [0, 1, 1]
    assert state.view(2).poison == (0, 1, 1)
    state.next_turn()  # Kraken's turn: it loses 1 health per token at its end
    state.apply("stop")
    assert state.kind == "hearts"  # a heart may remove the token instead of healing
    state.apply("pass")
    assert state.health[1] == 10 - 1 - 1 + 1  # the claw, the poison, and one heart healed before


def test_poison_spit_gives_no_token_for_an_attack_that_dealt_no_damage(table):
    # Seed 003: an attack that deals no damage is not an attack (Poison Spit).
    state = table(MonsterSetup("Alienoid", cards=["poison_spit"]),
                  MonsterSetup("Kraken", tokyo="city", cards=["armor_plating"]),
                  deck="default", dice=["claw 1 2 3 heart heart"])
    state.apply("stop")
    assert state.poison == [0, 0]


def test_poison_tokens_outlive_the_card_and_a_heart_may_remove_one(table):
    state = table("Alienoid", MonsterSetup("Kraken", poison=2), deck=None,
                  dice=["heart heart 1 2 3 energy"], first="Kraken")
    state.apply("stop")
    assert state.kind == "hearts"
    assert [a.text for a in state.legal] == ["pass", "cure 1 0", "cure 2 0"]
    state.apply("cure 1 0")
    assert state.poison[1] == 1
    assert state.health[1] == 10 - 1  # the other heart healed nothing at full health, then poison


def test_a_heart_on_poison_is_not_offered_in_tokyo(table):
    assert CURE_TOKENS_ONLY_OUTSIDE_TOKYO is True
    state = table(MonsterSetup("Kraken", poison=1, tokyo="city"), "Alienoid", deck=None,
                  dice=["heart 1 2 3 energy energy"])
    state.apply("stop")
    assert state.kind != "hearts"


def test_armor_plating_ignores_a_single_poison_token(table):
    state = table(MonsterSetup("Kraken", poison=1, cards=["armor_plating"]), "Alienoid", deck="default",
                  dice=["1 2 3 1 2 energy"])
    state.apply("stop")
    assert state.between_turns  # the turn (and its poison) is over
    assert state.health[0] == 10


# ---------------------------------------------------------------- buying


def test_metamorph_sells_keep_cards_for_their_cost_at_the_end_of_the_turn(table):
    state = table(MonsterSetup("Alienoid", cards=["metamorph", "giant_brain"]), "Kraken", deck="default",
                  dice=[QUIET])
    state.apply("stop")  # nothing to buy with 0 energy: straight to the end of the turn
    assert state.kind == "end" and state.legal[0].text == "pass"
    state.apply("use metamorph giant_brain")
    assert state.energy[0] == 5
    state.apply("pass")
    assert state.between_turns


def test_metamorph_can_sell_a_card_bought_this_turn(at_buy):
    # Seed 003: selling comes after buying; a card bought this turn may be sold.
    state = at_buy("giant_brain", energy=4, cards=["metamorph"])
    state.apply("buy 1")  # nothing else affordable: straight to the end of the turn
    state.apply("use metamorph giant_brain")
    assert state.energy[0] == 5


def test_parasitic_tentacles_buys_another_monsters_card_paying_that_monster(at_buy):
    state = at_buy("corner_store", MonsterSetup("Kraken", cards=["giant_brain"]), energy=5,
                   cards=["parasitic_tentacles"])
    assert "use parasitic_tentacles 2 giant_brain" in {a.text for a in state.legal}
    state.apply("use parasitic_tentacles 2 giant_brain")
    assert state.energy[:2] == [1, 5]
    assert [state.card(c).id for c in state.owned[0]] == ["parasitic_tentacles", "giant_brain"]
    assert state.owned[1] == []


def test_parasitic_tentacles_takes_the_tokens_on_the_card_with_it(at_buy):
    # Seed 003: tokens on the card go with it.
    state = at_buy("corner_store", MonsterSetup("Kraken", cards=["smoke_cloud"], counters={"smoke_cloud": 1}),
                   energy=5, cards=["parasitic_tentacles"])
    state.apply("use parasitic_tentacles 2 smoke_cloud")
    assert state.view(0).counters[0] == (0, 1)


def test_made_in_a_lab_shows_the_top_card_to_its_owner_only_and_may_buy_it(table):
    state = table(MonsterSetup("Alienoid", energy=6, cards=["made_in_a_lab"]), "Kraken", deck="default",
                  deck_top=["skyscraper"], dice=[QUIET])
    state.apply("stop")
    assert state.view(0).private == (("made_in_a_lab", "skyscraper"),)
    assert state.view(1).private == ()
    state.apply("use made_in_a_lab")
    assert state.stars[0] == 4


def test_made_in_a_lab_sample_game_keeps_the_peeked_card_on_top(table):
    state = table(MonsterSetup("Alienoid", energy=6, cards=["made_in_a_lab"]), "Kraken", deck="default",
                  deck_top=["skyscraper"], dice=[QUIET])
    state.apply("stop")
    for seed in range(5):
        sampled = state.view(0).sample_game(seed)
        assert sampled.card(sampled.deck[-1]).id == "skyscraper"
        assert "use made_in_a_lab" in {a.text for a in sampled.legal}


def test_made_in_a_lab_peek_ends_when_its_owner_is_eliminated_in_its_own_buy_step(table):
    # Alienoid (3 health after its heart) sees Skyscraper on top, then buys Tanks and
    # dies of it: Skyscraper is revealed into the market, and the next monster's view
    # must not carry the peek (Meka Dragon's card keeps the cards' view facts on).
    state = table(MonsterSetup("Alienoid", energy=6, health=2, cards=["made_in_a_lab"]), "Kraken",
                  MonsterSetup("Meka Dragon", cards=["solar_powered"]),
                  deck="default", market=["tanks"], deck_top=["skyscraper"], dice=[QUIET, QUIET])
    state.apply("stop")
    assert state.view(0).private == (("made_in_a_lab", "skyscraper"),)
    state.apply("buy 1")
    assert not state.alive[0] and state.between_turns
    state.next_turn()
    view = state.view(1)
    assert (view.active, view.private) == (1, ())
    assert view.market[0] == "skyscraper"
    for seed in range(3):
        sampled = view.sample_game(seed)
        assert sampled.peek == -1 and sampled.kind == view.kind


def test_made_in_a_lab_peek_ends_when_the_peeked_card_is_revealed_and_bought(table):
    # Alienoid sees Gas Refinery on top and buys Corner Store: Gas Refinery is revealed,
    # Kraken's Opportunist buys it (to the discard pile) and its damage asks Alienoid
    # whether to use Wings. Alienoid's view no longer shows a card it saw face up.
    state = table(MonsterSetup("Alienoid", energy=6, cards=["made_in_a_lab", "wings"]),
                  MonsterSetup("Kraken", energy=6, cards=["opportunist"]), "Meka Dragon",
                  deck="default", market=["corner_store"], deck_top=["gas_refinery"], dice=[QUIET])
    state.apply("stop")
    assert state.view(0).private == (("made_in_a_lab", "gas_refinery"),)
    state.apply("buy 1")
    assert (state.kind, state.to_move) == ("reveal", 1)
    state.apply("use opportunist 1")
    assert (state.kind, state.to_move) == ("damage", 0)
    view = state.view(0)
    assert "gas_refinery" in view.discard and view.private == ()
    for seed in range(3):
        sampled = view.sample_game(seed)
        assert sampled.kind == "damage" and sampled.legal == state.legal


def test_monster_batteries_doubles_the_energy_put_on_it_and_pays_2_a_turn(at_buy, events):
    state = at_buy("monster_batteries", "Kraken", energy=3, dice=("1 2 3 1 2 energy", QUIET, QUIET))
    state.apply("buy 1")
    state.apply("use monster_batteries 2")  # 2 of the 2 left after buying, the bank adds 2
    assert state.energy[0] == 0 and state.view(0).counters[0] == (4,)
    assert state.between_turns  # 0 energy: nothing more to buy
    state.next_turn()
    state.apply("stop")
    state.next_turn()  # Alienoid's turn: 2 energy from the card
    assert state.energy[0] == 2 and state.view(0).counters[0] == (2,)


def test_monster_batteries_is_discarded_when_empty(table):
    state = table(MonsterSetup("Alienoid", cards=["monster_batteries"], counters={"monster_batteries": 2}),
                  "Kraken", deck="default", dice=[QUIET])
    assert state.energy[0] == 2 and not state.owned[0]


# ---------------------------------------------------------------- before damage (another monster decides)


def test_wings_pays_2_energy_to_lose_no_health_for_the_rest_of_the_turn(table, events):
    state = table(MonsterSetup("Alienoid", tokyo="city", energy=2), MonsterSetup("Kraken", energy=2, cards=["wings"]),
                  deck="default", dice=["claw claw 1 2 3 heart"])
    state.apply("stop")
    assert (state.kind, state.to_move) == ("damage", 1)  # decided on Alienoid's turn
    assert [a.text for a in state.legal] == ["pass", "use wings"]
    assert state.view(1).pending[0] == (1, 2, 0, True)
    state.apply("use wings")
    assert (state.health[1], state.energy[1]) == (10, 0)
    assert ("prevent", 1, 2, "wings") in events(state, "prevent")
    assert state.kind == "buy" and state.to_move == 0


def test_wings_passed_lets_the_damage_through(table):
    state = table(MonsterSetup("Alienoid", tokyo="city"), MonsterSetup("Kraken", energy=2, cards=["wings"]),
                  deck="default", dice=["claw claw 1 2 3 heart"])
    state.apply("stop")
    state.apply("pass")
    assert state.health[1] == 8 and state.energy[1] == 2


def test_wings_protects_for_the_rest_of_the_turn_against_card_damage_too(table):
    state = table(MonsterSetup("Alienoid", tokyo="city", energy=3, cards=["acid_attack"]),
                  MonsterSetup("Kraken", energy=2, cards=["wings"]), deck="default", market=["fire_blast"],
                  dice=["claw 1 2 3 heart heart"])
    state.apply("stop")
    state.apply("use wings")
    state.apply("buy 1")  # Fire Blast: 2 card damage, prevented
    assert state.health[1] == 10


def test_a_sampled_game_at_a_damage_decision_goes_on_like_the_real_one(table):
    # Alienoid has 2 energy so that both games stop at its buy step (a sweep is affordable).
    state = table(MonsterSetup("Alienoid", tokyo="city", energy=2), MonsterSetup("Kraken", energy=2, cards=["wings"]),
                  MonsterSetup("Meka Dragon", health=2), deck="default", dice=["claw claw 1 2 3 heart"])
    state.apply("stop")
    sampled = state.view(1).sample_game(3)
    for game in (state, sampled):
        game.apply("pass")
        assert game.health == [10, 8, 0] and not game.alive[2] and game.kind == "buy"


def test_jets_escapes_before_the_damage_and_the_attacker_still_takes_tokyo(table):
    state = table("Alienoid", MonsterSetup("Kraken", tokyo="city", health=2, cards=["jets"]),
                  "Meka Dragon", deck="default", dice=["claw claw claw 1 2 3"])
    state.apply("stop")
    assert state.kind == "damage" and "use jets" in {a.text for a in state.legal}
    state.apply("use jets")
    assert state.alive[1] and state.health[1] == 2  # no health lost to the attack it yielded to
    assert state.city == 0 and state.between_turns  # nothing to buy: the turn is over


def test_jets_is_not_offered_against_card_damage(table):
    state = table(MonsterSetup("Alienoid", energy=3), MonsterSetup("Kraken", tokyo="city", cards=["jets"]),
                  deck="default", market=["fire_blast"], dice=["1 2 3 1 2 heart"])
    state.apply("stop")
    state.apply("buy 1")
    assert state.health[1] == 8 and state.between_turns  # no Jets decision; nothing more to buy


def test_rapid_healing_is_offered_before_damage_that_would_eliminate(table):
    # Seed 003: spend 2 energy at any time, even right before another monster damages you.
    state = table("Alienoid", MonsterSetup("Kraken", tokyo="city", health=2, energy=2, cards=["rapid_healing"]),
                  deck="default", dice=["claw claw 1 2 3 heart"])
    state.apply("stop")
    assert state.kind == "damage" and [a.text for a in state.legal] == ["pass", "use rapid_healing"]
    state.apply("use rapid_healing")
    assert state.alive[1] and state.health[1] == 1
    assert state.kind == "yield"


def test_rapid_healing_is_not_offered_before_damage_it_survives(table):
    assert RAPID_HEALING_BEFORE_DAMAGE_ONLY_IF_FATAL is True
    state = table("Alienoid", MonsterSetup("Kraken", tokyo="city", health=5, energy=2, cards=["rapid_healing"]),
                  deck="default", dice=["claw claw 1 2 3 heart"])
    state.apply("stop")
    assert state.kind == "yield"


# ---------------------------------------------------------------- on other monsters' turns


def test_psychic_probe_makes_the_roller_reroll_one_die_once_a_turn(table):
    state = table("Alienoid", MonsterSetup("Kraken", cards=["psychic_probe"]), deck="default",
                  dice=["3 3 3 1 2 energy", "claw"])
    state.apply("stop")
    assert (state.kind, state.to_move) == ("probe", 1)
    assert [a.text for a in state.legal][:2] == ["pass", "use psychic_probe 1"] and len(state.legal) == 7
    state.apply("use psychic_probe 1")
    assert state.dice[0] == 5
    assert state.between_turns and state.city == 0  # the 3 3 3 was broken; the claw took Tokyo
    assert state.stars[0] == 1
    assert state.owned[1]  # not a heart: the card stays


def test_psychic_probe_is_discarded_when_its_reroll_shows_a_heart(table):
    state = table("Alienoid", MonsterSetup("Kraken", cards=["psychic_probe"]), deck="default",
                  dice=["3 3 3 1 2 energy", "heart"])
    state.apply("stop")
    state.apply("use psychic_probe 2")
    assert not state.owned[1] and state.card(state.discard[-1]).id == "psychic_probe"


def test_psychic_probe_declined_is_not_offered_again_this_turn(table):
    state = table("Alienoid", MonsterSetup("Kraken", cards=["psychic_probe"]), deck="default",
                  dice=["3 3 3 1 2 energy"])
    state.apply("stop")
    state.apply("pass")
    assert state.between_turns and state.stars[0] == 3  # no second probe; nothing to buy


def test_opportunist_buys_a_card_revealed_on_another_monsters_turn(table):
    state = table(MonsterSetup("Alienoid", energy=8), MonsterSetup("Kraken", energy=3, cards=["opportunist"]),
                  deck="default", market=["skyscraper"], deck_top=["corner_store", "heal"],
                  dice=["1 2 3 1 2 heart"])
    state.apply("stop")
    state.apply("buy 1")  # Skyscraper; Corner Store is revealed in slot 1
    assert (state.kind, state.to_move) == ("reveal", 1)
    assert [a.text for a in state.legal] == ["pass", "use opportunist 1"]
    state.apply("use opportunist 1")
    assert state.stars[1] == 1 and state.energy[1] == 0
    assert state.card(state.market[0]).id == "heal"  # Kraken cannot afford Heal: back to Alienoid
    assert (state.kind, state.to_move) == ("buy", 0)


def test_opportunist_is_not_offered_a_card_it_cannot_afford(table):
    state = table(MonsterSetup("Alienoid", energy=8), MonsterSetup("Kraken", energy=0, cards=["opportunist"]),
                  deck="default", market=["skyscraper"], deck_top=["corner_store"], dice=["1 2 3 1 2 heart"])
    state.apply("stop")
    state.apply("buy 1")
    assert (state.kind, state.to_move) == ("buy", 0)


def test_opportunist_sees_the_cards_of_a_sweep_one_by_one(table):
    state = table(MonsterSetup("Alienoid", energy=4), MonsterSetup("Kraken", energy=3, cards=["opportunist"]),
                  deck="default", deck_top=["corner_store", "heal", "skyscraper"], dice=["1 2 3 1 2 heart"])
    state.apply("stop")
    state.apply("sweep")
    assert [a.text for a in state.legal] == ["pass", "use opportunist 1"]
    state.apply("pass")
    assert [a.text for a in state.legal] == ["pass", "use opportunist 2"]
    state.apply("use opportunist 2")
    assert state.health[1] == 10 and state.energy[1] == 0
    assert (state.kind, state.to_move) == ("buy", 0)


def test_healing_ray_spends_hearts_on_another_monster_who_pays_2_energy_per_health(table, events):
    state = table(MonsterSetup("Alienoid", cards=["healing_ray"]), MonsterSetup("Kraken", health=5, energy=3),
                  deck="default", dice=["heart heart 1 2 3 energy"])
    state.apply("stop")
    assert state.kind == "hearts" and [a.text for a in state.legal] == ["pass", "use healing_ray 2"]
    state.apply("use healing_ray 2")
    assert state.health[1] == 6 and state.energy[1] == 1
    state.apply("use healing_ray 2")
    assert state.health[1] == 7 and state.energy[1] == 0  # its last energy: it pays 1
    assert state.energy[0] == 1 + 3
    assert state.kind == "buy"


def test_healing_ray_works_from_tokyo_where_hearts_cannot_heal_the_roller(table):
    assert HEALING_RAY_FROM_TOKYO is True
    state = table(MonsterSetup("Alienoid", tokyo="city", cards=["healing_ray"]), MonsterSetup("Kraken", health=5),
                  deck="default", dice=["heart 1 2 3 energy energy"])
    state.apply("stop")
    state.apply("use healing_ray 2")
    assert state.health[1] == 6


def test_healing_ray_passed_heals_the_roller(table):
    state = table(MonsterSetup("Alienoid", health=5, cards=["healing_ray"]), MonsterSetup("Kraken", health=5),
                  deck="default", dice=["heart heart 1 2 3 energy"])
    state.apply("stop")
    state.apply("pass")
    assert state.health == [7, 5]


# ---------------------------------------------------------------- Mimic


def test_mimic_copies_another_monsters_card_placed_at_the_start_of_the_turn_for_1_energy(table):
    state = table(MonsterSetup("Alienoid", energy=1, cards=["mimic"]), MonsterSetup("Kraken", cards=["extra_head"]),
                  deck="default", dice=["1 2 3 1 2 energy heart"])
    assert state.kind == "start" and state.legal[0].text == "pass"
    state.apply("use mimic 2 extra_head")
    assert state.energy[0] == 0
    assert len(state.dice) == 7  # Alienoid rolls an extra die like Kraken
    assert state.view(1).mimic == (1, "extra_head")


def test_mimic_may_copy_a_card_of_its_own_owner(table):
    # Seed 003: "Mimic imitates any card in play", its owner's own included.
    assert MIMIC_MAY_COPY_ITS_OWNERS_CARDS is True
    state = table(MonsterSetup("Alienoid", energy=1, cards=["extra_head", "mimic"]), "Kraken",
                  deck="default", dice=["1 2 3 1 2 energy heart 3"])
    assert "use mimic 1 extra_head" in {a.text for a in state.legal}
    assert "use mimic 1 mimic" not in {a.text for a in state.legal}  # never itself
    state.apply("use mimic 1 extra_head")
    assert len(state.dice) == 8  # two extra dice: the card and its copy
    assert state.view(1).mimic == (0, "extra_head")


def test_mimic_copying_its_owners_card_is_used_after_the_card_itself(table):
    # The card and its copy offer the same action once; the card acts first, then the
    # copy (its own once-a-turn use): Herd Culler twice a turn, never more.
    state = table(MonsterSetup("Alienoid", energy=1, cards=["herd_culler", "mimic"]), "Kraken",
                  deck="default", dice=["2 2 3 3 heart energy"])
    state.apply("use mimic 1 herd_culler")
    state.apply("stop")
    assert state.kind == "dice"
    texts = [a.text for a in state.legal]
    assert len(texts) == len(set(texts)) and "use herd_culler 1" in texts
    state.apply("use herd_culler 1")
    assert "use herd_culler 2" in {a.text for a in state.legal}  # the copy's use
    state.apply("use herd_culler 2")
    assert not [a for a in state.legal if a.text.startswith("use herd_culler")]
    assert state.dice[:2] == [0, 0]
    assert sorted(state.view(0).used) == [("used", 0, "herd_culler"), ("used", 0, "mimic")]
    sampled = state.view(0).sample_game(1)
    assert [a.text for a in sampled.legal] == [a.text for a in state.legal]


def test_mimic_is_placed_free_right_after_buying_it(at_buy):
    state = at_buy("mimic", MonsterSetup("Kraken", cards=["spiked_tail"]), energy=7)
    state.apply("buy 1")
    assert state.energy[0] == 0
    state.apply("use mimic 2 spiked_tail")
    assert state.energy[0] == 0 and state.mimic >= 0


def test_mimic_of_a_card_with_counters_uses_its_own_as_if_just_bought(table):
    # Seed 003: a copied card with counters on it gets Mimic's own, as if just put in play.
    state = table(MonsterSetup("Alienoid", energy=1, cards=["mimic"]),
                  MonsterSetup("Kraken", cards=["smoke_cloud"], counters={"smoke_cloud": 1}),
                  deck="default", dice=["1 2 3 1 2 heart", "heart"])
    state.apply("use mimic 2 smoke_cloud")
    assert state.view(0).counters == ((3,), (1,))
    state.apply("stop")
    state.apply("use smoke_cloud")  # Mimic's charge, not Kraken's
    assert state.view(0).counters == ((2,), (1,))


def test_mimic_token_comes_back_when_the_copied_card_leaves_play(table):
    state = table(MonsterSetup("Alienoid", energy=1, health=10, cards=["mimic"]),
                  MonsterSetup("Kraken", tokyo="city", health=2, cards=["even_bigger"], max_health=12),
                  deck="default", dice=["claw claw 1 2 3 heart"])
    state.apply("use mimic 2 even_bigger")
    assert state.max_health[0] == 12
    state.apply("stop")  # Kraken is eliminated: Even Bigger leaves play, and so does the copy
    assert not state.alive[1]
    assert state.mimic == -1 and state.view(0).mimic == ()
    assert state.max_health[0] == 10


def test_mimic_copy_of_even_bigger_lost_with_its_card_takes_its_2_health_in_the_same_elimination(table):
    # Alienoid's Mimic copies Meka Dragon's Even Bigger (1 -> 3 of 12). Kraken's claw
    # eliminates Meka Dragon and takes Alienoid to 2: the copy leaves play with the card,
    # Alienoid loses its 2 health and is eliminated by the same attack (a tie).
    state = table(MonsterSetup("Alienoid", energy=1, health=1, cards=["mimic"]), MonsterSetup("Kraken", tokyo="city"),
                  MonsterSetup("Meka Dragon", health=1, max_health=12, cards=["even_bigger"]), "The King",
                  deck="default", dice=["1 2 3 1 2 3", "claw 1 2 3 1 2"])
    state.apply("use mimic 3 even_bigger")
    assert (state.health[0], state.max_health[0]) == (3, 12)
    state.apply("stop")
    state.next_turn()
    state.apply("stop")
    assert state.alive == [False, True, False, True]
    assert state.eliminated_at[0] == state.eliminated_at[2]
    assert state.health[3] == 9


def test_mimic_moved_off_even_bigger_at_2_health_eliminates_its_owner_at_the_start_of_its_turn(table):
    state = table(MonsterSetup("Alienoid", energy=2, health=1, cards=["mimic"]),
                  MonsterSetup("Kraken", tokyo="city", energy=1, cards=["even_bigger", "extra_head"]), "Meka Dragon",
                  deck="default", dice=["1 2 3 1 2 3", "claw 1 2 3 1 2 3", "1 2 3 1 2 3", "1 2 3 1 2 3 1"])
    state.apply("use mimic 2 even_bigger")  # Alienoid: 3 of 12
    state.apply("stop")
    state.next_turn()
    state.apply("stop")  # Kraken's claw: Alienoid at 2 of 12
    state.next_turn()
    state.apply("stop")  # Meka Dragon
    state.next_turn()
    assert (state.kind, state.to_move, state.health[0]) == ("start", 0, 2)
    state.apply("use mimic 2 extra_head")
    assert not state.alive[0]
    assert state.between_turns and state.active == 1  # its turn is over: Kraken plays next


def test_mimic_moves_its_token_for_1_energy_at_the_start_of_a_later_turn(table):
    state = table(MonsterSetup("Alienoid", energy=2, cards=["mimic"]),
                  MonsterSetup("Kraken", cards=["extra_head", "giant_brain"]), deck="default",
                  dice=["1 2 3 1 2 energy heart", "1 2 3 1 2 heart energy", "1 2 3 1 2 heart"])
    state.apply("use mimic 2 extra_head")
    state.apply("stop")
    state.apply("done")
    state.next_turn()
    state.apply("stop")  # Kraken has 1 energy: nothing to buy, the turn ends
    state.next_turn()
    assert state.kind == "start"
    assert "use mimic 2 extra_head" not in {a.text for a in state.legal}  # it is already there
    state.apply("use mimic 2 giant_brain")
    assert len(state.dice) == 6 and state.energy[0] == 2 - 1 + 1 - 1


def test_opportunist_with_two_owners_the_nearest_clockwise_from_the_active_monster_chooses_first(table):
    # Seed 003: with two Opportunists (one a Mimic copy), the nearest clockwise to the
    # active monster has first choice.
    state = table(MonsterSetup("Alienoid", energy=3, cards=["opportunist"]), MonsterSetup("Kraken", energy=6),
                  MonsterSetup("Meka Dragon", energy=3), MonsterSetup("The King", energy=4, cards=["mimic"]),
                  deck="default", market=["skyscraper"], deck_top=["corner_store", "heal"],
                  dice=["1 2 3 1 2 heart", "1 2 3 1 2 heart", "1 2 3 1 2 heart", "1 2 3 1 2 heart"],
                  first="The King")
    state.apply("use mimic 1 opportunist")
    state.apply("stop")
    state.apply("done")
    state.next_turn()  # Alienoid
    state.apply("stop")
    state.apply("done")
    state.next_turn()  # Kraken buys Skyscraper: Corner Store is revealed
    state.apply("stop")
    state.apply("buy 1")
    # Clockwise from Kraken: Meka Dragon (none), The King (Mimic as Opportunist), then Alienoid.
    assert (state.kind, state.to_move) == ("reveal", 3)
    state.apply("pass")
    assert (state.kind, state.to_move) == ("reveal", 0)
    state.apply("use opportunist 1")
    assert state.stars[0] == 1
