"""The 50 Duel cards, each played through the engine with fixed dice (docs/duel.md)."""

from __future__ import annotations

from kotarena.games.duel.position import build_position, duel_dice
from kotarena.games.duel.rulings import (
    ADRENALINE_COUNTS_BOTH_SIDES,
    BOTH_KNOCKED_OUT_IS_A_DRAW,
    OPERATION_MEDIA_COUNTS_EXTRA_CLAWS,
    TESLA_ENERGY_WITHOUT_DISCARD,
)

DECK = "duel"
#: Six hearts at full health: a roll that does nothing.
CALM = "heart heart heart heart heart heart"
#: A roll that does nothing at any health (Gigazaur declines its power).
QUIET = "fame fame destruction destruction power power"


def duel(dice=(CALM,), monsters=("Gigazaur", "Xenoid"), **position):
    return build_position(monsters, dice=duel_dice(*dice), pause_between_turns=True, **position)


def play(state, *actions):
    for action in actions:
        state.apply(action)
    return state


def buy(card, *, energy=None, hype=None, dice=(CALM,), **position):
    """A table where seat 0 buys ``card`` from slot 3 (placing its hype token, if any,
    where ``hype`` says, else on the first space offered) and is left in its buy step."""
    from kotarena.games.duel.cards import BY_ID

    state = duel(dice, market=["snack_time", "photoshoot", card], energy=(energy or BY_ID[card].cost - 1, 0),
                 **position)
    play(state, "stop")
    while state.kind != "buy":
        play(state, state.legal[0] if state.kind != "tokens" else "spend 0")
    play(state, "buy 3")
    if state.kind == "hype":
        play(state, f"hype {hype}" if hype else state.legal[0])
    return state


# ------------------------------------------------------------------ discard cards

def test_cannonball_pulls_fame_hits_and_gains_four_energy():
    state = buy("cannonball")
    assert state.board.markers[0] == ("", -1) and state.health[1] == 13 and state.energy[0] == 4


def test_dominate_costs_the_rival_a_die_per_keep_card_unless_it_discards_them():
    state = buy("dominate", cards=([], ["giant_brain", "extra_head"]))
    play(state, "done")
    state.scripted.extend(duel_dice("heart heart heart heart heart heart").groups)
    state.next_turn()
    assert state.kind == "card" and {a.text for a in state.legal} == {
        "pass", "use dominate giant_brain", "use dominate extra_head"}
    play(state, "use dominate giant_brain", "pass")
    assert state.keeps[1] == ["extra_head"]
    assert len(state.dice) == 6 + 1 - 1  # Extra Head's die, one less for the card it kept


def test_energize_gains_eight_energy_and_two_dice_tokens():
    state = buy("energize")
    assert state.energy[0] == 8 and state.tokens[0] == 2


def test_frenzy_takes_another_turn():
    state = buy("frenzy")
    play(state, "done")
    assert state.between_turns and state.active == 0


def test_hors_doeuvre_hurts_its_buyer_and_pulls_destruction_two():
    state = buy("hors_doeuvre", hype="fame 5")
    assert state.health[0] == 11 and state.board.markers[1] == ("", -2)


def test_hors_doeuvre_with_camouflage_pulls_only_after_the_damage_is_settled():
    state = buy("hors_doeuvre", hype="fame 5", cards=(["camouflage"], []))
    assert state.kind == "card" and state.board.markers[1] == ("", 0)  # the damage comes first
    play(state, "pass")
    assert state.health[0] == 11 and state.board.markers[1] == ("", -2)


def test_jets_scrambled_hurts_both_monsters_five():
    state = buy("jets_scrambled", hype="fame 5 6")
    assert state.health == [9, 9]


def test_jets_scrambled_knocking_both_out_is_a_draw():
    assert BOTH_KNOCKED_OUT_IS_A_DRAW is True
    state = buy("jets_scrambled", hype="fame 5 6", health=(5, 5), dice=(QUIET,))
    assert state.outcome.winner is None and state.outcome.ranks == (0, 0)


def test_kaijutsu_pulls_destruction_and_hits_two():
    state = buy("kaijutsu", hype="fame 5 7")
    assert state.board.markers[1] == ("", -1) and state.health[1] == 12


def test_moment_of_respite_heals_two_and_gives_a_dice_token():
    state = buy("moment_of_respite", health=(10, 14), dice=(QUIET,), hype="fame 5 7")
    assert state.health[0] == 12 and state.tokens[0] == 1


def test_monster_coaster_pulls_destruction_three():
    state = buy("monster_coaster")
    assert state.board.markers[1] == ("", -3)


def test_monumental_pulls_both_markers_one():
    state = buy("monumental", hype="fame 6")
    assert state.board.markers == [("", -1), ("", -1)]


def test_operation_media_pulls_fame_one_per_claw_resolved():
    state = buy("operation_media", dice=("claw claw heart heart heart heart",), hype="destruction 5 6")
    assert state.board.markers[0] == ("", -2)


def test_operation_media_counts_acid_attacks_extra_claw():
    # Acid Attack: "your roll always counts one extra claw"
    assert OPERATION_MEDIA_COUNTS_EXTRA_CLAWS is True
    state = buy("operation_media", dice=("claw heart heart heart heart heart",), hype="destruction 5 6",
                cards=(["acid_attack"], []))
    assert state.health[1] == 12 and state.board.markers[0] == ("", -2)


def test_photoshoot_pulls_fame_one():
    state = buy("photoshoot", hype="fame 6")
    assert state.board.markers[0] == ("", -1)


def test_sack_the_stadium_pulls_both_markers_two():
    state = buy("sack_the_stadium", hype="fame 5 6")
    assert state.board.markers == [("", -2), ("", -2)]


def test_seismic_test_pulls_destruction_two():
    state = buy("seismic_test")
    assert state.board.markers[1] == ("", -2)


def test_snack_time_heals_three():
    state = buy("snack_time", health=(9, 14), dice=(QUIET,))
    assert state.health[0] == 12


def test_tesla_impulse_discards_a_rival_keep_card_of_your_choice_and_gains_two_energy():
    state = buy("tesla_impulse", hype="fame 5 6", cards=([], ["giant_brain", "extra_head"]))
    assert state.kind == "card" and "pass" not in {a.text for a in state.legal}
    play(state, "use tesla_impulse extra_head")
    assert state.keeps[1] == ["giant_brain"] and state.energy[0] == 2


def test_tesla_impulse_without_rival_keep_cards_still_gains_two_energy():
    assert TESLA_ENERGY_WITHOUT_DISCARD is True
    state = buy("tesla_impulse", hype="fame 5 6")
    assert state.energy[0] == 2


def test_the_party_is_over_hurts_each_monster_with_a_marker_in_its_spotlight_zone():
    state = buy("the_party_is_over", hype="destruction 5 6", markers=(-3, 0))
    assert state.health == [10, 14]


def test_thermonuclear_cooking_pulls_destruction_heals_two_and_gains_two_energy():
    state = buy("thermonuclear_cooking", health=(10, 14), dice=(QUIET,), hype="fame 6")
    assert state.board.markers[1] == ("", -1) and state.health[0] == 12 and state.energy[0] == 2


def test_too_cute_hits_two():
    state = buy("too_cute", hype="fame 6")
    assert state.health[1] == 12


# ------------------------------------------------------------------ keep cards

def test_acid_attack_adds_a_claw_on_your_turns():
    state = play(duel(["claw heart heart heart heart heart"], cards=(["acid_attack"], [])), "stop")
    assert state.health[1] == 12


def test_adrenaline_augment_adds_a_claw_per_marker_in_a_spotlight_zone():
    assert ADRENALINE_COUNTS_BOTH_SIDES is True
    state = play(duel(["claw heart heart heart heart heart"], markers=(-3, 4), cards=(["adrenaline_augment"], [])),
                 "stop")
    assert state.health[1] == 14 - 3  # the marker in the rival's zone counts too (rulings)


def test_alien_metabolism_discards_a_face_up_card_once_a_turn():
    state = duel(cards=(["alien_metabolism"], []), market=["snack_time", "too_cute", "frenzy"], deck=["kaijutsu"])
    play(state, "stop", "use alien_metabolism 2")
    assert state.market == ["kaijutsu", "snack_time", "frenzy"]
    assert not any(a.text.startswith("use alien_metabolism") for a in state.legal)


def test_antimatter_pellets_five_of_a_face_hit_four_and_pull_destruction_two():
    state = play(duel(["heart heart heart heart heart claw"], cards=(["antimatter_pellets"], [])), "stop",
                 "resolve cards")
    assert state.health[1] == 14 - 4 - 1 and state.board.markers[1] == ("", -2)


def test_armor_plating_ignores_the_first_damage_of_each_rival_turn():
    state = play(duel(["claw claw claw heart heart heart"], active=1, cards=(["armor_plating"], [])), "stop")
    assert state.health[0] == 14 - 2


def test_breaking_news_pulls_fame_for_each_card_bought():
    state = buy("too_cute", hype="destruction 6", cards=(["breaking_news"], []))
    assert state.board.markers[0] == ("", -1)


def test_camouflage_cancels_a_damage_per_heart_rolled():
    state = duel(["claw claw heart heart heart heart", "heart energy"], active=1, cards=(["camouflage"], []))
    play(state, "stop")
    assert state.to_move == 0 and [a.text for a in state.legal] == ["pass", "use camouflage"]
    play(state, "use camouflage")
    assert state.health[0] == 13


def test_camouflage_may_be_declined_to_take_the_damage_whole():
    # "you may roll": declined, the two dice scripted for it stay unrolled
    state = duel(["claw claw heart heart heart heart", "heart heart"], active=1, cards=(["camouflage"], []))
    play(state, "stop", "pass")
    assert state.health[0] == 12


def test_electrical_aura_pulls_destruction_one_per_seven_energy_at_the_end_of_the_turn():
    state = play(duel(energy=(14, 0), cards=(["electrical_aura"], [])), "stop", "done")
    assert state.board.markers[1] == ("", -2) and state.energy[0] == 15


def test_extra_head_rolls_one_more_die():
    state = duel(["heart heart heart heart heart heart heart"], cards=(["extra_head"], []))
    assert len(state.dice) == 7


def test_eye_of_the_storm_gains_an_energy_per_unused_roll():
    state = play(duel(cards=(["eye_of_the_storm"], [])), "stop")
    assert state.energy[0] == 2


def test_gentle_giant_pulls_fame_after_a_roll_without_claws():
    state = play(duel(cards=(["gentle_giant"], [])), "stop")
    assert state.board.markers[0] == ("", -1)


def test_giant_brain_gives_a_fourth_roll():
    state = duel([CALM, "heart", "heart", "heart"], cards=(["giant_brain"], []))
    play(state, "reroll 1", "reroll 1", "reroll 1")
    assert state.kind == "buy"


def test_hibernation_kept_heals_six_and_ends_the_turn():
    state = duel([], health=(5, 14), cards=(["hibernation"], []))
    assert state.kind == "card"
    play(state, "pass")
    assert state.health[0] == 11 and state.between_turns


def test_hibernation_takes_no_damage_and_discarded_lets_the_turn_be_played():
    state = play(duel(["claw claw claw claw heart heart"], active=1, cards=(["hibernation"], [])), "stop")
    assert state.health[0] == 14
    state = duel([CALM], cards=(["hibernation"], []))
    play(state, "use hibernation")
    assert state.kind == "roll" and state.keeps[0] == []


def test_in_shape_pays_energy_to_pull_fame_for_damage_beyond_three():
    state = duel(["claw claw claw claw claw heart"], energy=(3, 0), cards=(["in_shape"], []))
    play(state, "stop", "done")
    assert {a.text for a in state.legal} == {"pass", "use in_shape 1", "use in_shape 2"}
    play(state, "use in_shape 2")
    assert state.board.markers[0] == ("", -2) and state.energy[0] == 2


def test_in_the_shadows_rerolls_fame_dice_after_the_rolls_are_used():
    state = duel(["fame heart heart heart heart heart", "fame", "fame", "heart"], cards=(["in_the_shadows"], []))
    play(state, "reroll 1", "reroll 1")
    assert state.kind == "roll" and {a.text for a in state.legal} == {"stop", "reroll 1"}
    play(state, "reroll 1")
    assert state.kind == "buy"


def test_lightning_speed_hits_when_a_pull_ends_on_an_empty_hype_space():
    state = duel(["fame fame fame heart heart heart"], hype={"alien_shortcut": "fame -3 -1"},
                 cards=(["lightning_speed"], []))
    play(state, "stop")
    assert [a.text for a in state.legal] == ["pass", "use lightning_speed"]
    play(state, "use lightning_speed")
    assert state.health[1] == 13


def test_lightning_speed_may_be_declined():
    # "you may treat it as a smash bonus"
    state = duel(["fame fame fame heart heart heart"], hype={"alien_shortcut": "fame -3 -1"},
                 cards=(["lightning_speed"], []))
    play(state, "stop", "pass")
    assert state.health[1] == 14 and state.kind == "buy"


def test_made_in_a_lab_buys_a_card_for_one_less_at_the_start_of_the_turn():
    state = duel([CALM], energy=(3, 0), market=["snack_time", "photoshoot", "too_cute"], cards=(["made_in_a_lab"], []))
    assert state.kind == "card"
    play(state, "use made_in_a_lab 3", "hype fame 6")
    assert state.health[1] == 12 and state.energy[0] == 2 and state.kind == "roll"


def test_made_in_a_lab_is_a_purchase_so_the_turn_earns_no_bought_nothing_energy():
    # Seed 002: the 1 energy is for a player who does not "купити жодну карту під час свого ходу"
    state = duel([CALM], energy=(3, 0), market=["snack_time", "photoshoot", "too_cute"], cards=(["made_in_a_lab"], []))
    play(state, "use made_in_a_lab 3", "hype fame 6", "stop", "done")
    assert state.energy[0] == 2


def test_natural_selection_gives_energy_health_and_a_die_but_four_of_a_face_hurt_ten():
    state = buy("natural_selection", health=(8, 14), dice=(QUIET,))
    assert state.energy[0] == 4 and state.health[0] == 12
    state = duel(["claw claw claw claw heart heart energy"], cards=(["natural_selection"], []))
    play(state, "stop")
    assert state.health[0] == 14 - 10 + 2


def test_natural_selection_reads_the_dice_before_xenoid_adds_faces():
    # Three fame rolled, a fourth added by Alien Technology: the damage came before it.
    state = duel(["power power fame fame fame heart claw"], monsters=("Xenoid", "Gigazaur"),
                 health=(10, 14), cards=(["natural_selection"], []))
    play(state, "stop", "power fame", "resolve fame")
    assert state.board.markers[0] == ("", -2)  # 3 rolled + 1 added: pulled 2
    assert state.health == [11, 13]  # no 10 damage; the heart heals 1


def test_natural_selection_counts_the_power_faces_xenoid_then_spends():
    state = duel(["power power power power heart heart claw"], monsters=("Xenoid", "Gigazaur"),
                 cards=(["natural_selection"], []))
    play(state, "stop")
    assert state.kind == "power" and state.health[0] == 14 - 10


def test_natural_selection_does_not_count_acid_attacks_extra_claw():
    # Three claws rolled and Acid Attack's fourth: not four dice of one face.
    state = duel(["claw claw claw heart heart energy fame"], cards=(["natural_selection", "acid_attack"], []))
    play(state, "stop")
    assert state.health == [14, 10]


def test_natural_selection_counts_dice_titanic_batteries_sets_aside():
    # The damage lands before the Resolve Dice phase starts, where the dice may be set aside.
    state = duel(["heart heart heart heart claw energy fame"], cards=(["natural_selection", "titanic_batteries"], []))
    play(state, "stop")
    assert state.kind == "card" and state.health[0] == 4
    play(state, "use titanic_batteries heart heart")
    assert state.tokens[0] == 1 and state.health == [6, 13]


def test_rebooting_skips_the_dice_for_two_tokens_and_two_energy():
    state = duel(["claw claw claw claw heart heart"], cards=(["rebooting"], []))
    play(state, "stop", "use rebooting")
    assert state.health[1] == 14 and state.tokens[0] == 2 and state.energy[0] == 2 and state.keeps[0] == []


def test_regeneration_heals_one_more_once_a_turn():
    state = play(duel(["heart heart claw claw claw claw"], health=(8, 14), cards=(["regeneration"], [])), "stop")
    assert state.health[0] == 11


def test_scrappy_gains_a_dice_token_when_pulling_a_marker_off_a_hype_token():
    state = duel(["fame fame fame heart heart heart"], hype={"cat_smash": "fame 0"}, markers=("cat_smash", 0),
                 cards=(["scrappy"], []))
    play(state, "stop")
    assert state.tokens[0] == 1


def test_scrappy_pays_nothing_for_a_pull_that_stays_on_its_hype_token():
    # "each time you pull a marker off a hype token": from its third space to its second is not off it
    state = duel(["fame fame fame heart heart heart"], hype={"dragon_energy_smash_heal": "fame -3 -1"},
                 markers=("dragon_energy_smash_heal:2", 0), cards=(["scrappy"], []))
    play(state, "stop")
    assert state.board.markers[0] == ("dragon_energy_smash_heal", 1) and state.tokens[0] == 0


def test_scrappy_pays_each_time_one_pull_comes_off_a_hype_token():
    # "each time": one pull that leaves two tokens pays twice
    state = duel(["fame fame fame fame heart heart"], hype={"cat_smash": "fame -1", "fish_heal": "fame -2"},
                 markers=("cat_smash", 0), cards=(["scrappy"], []))
    play(state, "stop")
    assert state.board.markers[0] == ("", -3) and state.tokens[0] == 2  # off the cat, then off the fish


def test_signature_move_pulls_fame_for_three_power_faces():
    state = play(duel(["power power power heart heart heart"], monsters=("Cyber Kitty", "Xenoid"),
                      cards=(["signature_move"], [])), "stop", "power energy energy")
    assert state.board.markers[0] == ("", -1) and state.energy[0] == 4


def test_spiked_tail_hits_one_per_space_destruction_moves():
    state = play(duel(["destruction destruction destruction destruction heart heart"], cards=(["spiked_tail"], [])),
                 "stop")
    assert state.health[1] == 12


def test_superconductor_discarded_gains_the_energy_the_rival_gains_from_its_dice():
    state = duel(["energy energy energy heart heart heart"], active=1, cards=(["superconductor"], []))
    play(state, "stop")
    assert state.to_move == 0 and state.kind == "card"
    play(state, "use superconductor")
    assert state.energy == [3, 3] and state.keeps[0] == []


def test_thunder_stomp_the_rival_rolls_one_less_die_next_turn():
    state = play(duel(["destruction destruction destruction heart heart heart"], cards=(["thunder_stomp"], [])),
                 "stop", "done")
    state.scripted.extend(duel_dice("heart heart heart heart heart").groups)
    state.next_turn()
    assert len(state.dice) == 5


def test_titanic_batteries_sets_two_dice_aside_for_a_dice_token():
    state = duel(["claw claw heart heart heart heart"], cards=(["titanic_batteries"], []))
    play(state, "stop", "use titanic_batteries claw claw")
    assert state.tokens[0] == 1 and state.health[1] == 14


def test_trend_setter_ignores_a_damage_while_fame_sits_on_a_hype_token():
    state = duel(["claw claw claw heart heart heart"], active=1, hype={"cat_smash": "fame 2"},
                 markers=("cat_smash", 0), cards=(["trend_setter"], []))
    play(state, "stop")
    assert state.health[0] == 12


def test_unchained_takes_a_smash_instead_of_another_bonus():
    state = duel(["fame fame fame heart heart heart"], hype={"fish_heal": "fame -1"}, cards=(["unchained"], []))
    play(state, "stop")
    assert state.kind == "card"
    play(state, "use unchained")
    assert state.health[1] == 13


def test_unstable_dna_swaps_for_a_rival_keep_card_after_three_damage():
    state = duel(["claw claw claw heart heart heart"], active=1, cards=(["unstable_dna"], ["giant_brain"]))
    play(state, "stop", "use unstable_dna giant_brain")
    assert state.keeps == [["giant_brain"], ["unstable_dna"]]


def test_unstoppable_stays_at_one_and_is_discarded():
    state = duel(["claw claw claw claw heart heart"], active=1, health=(3, 14), cards=(["unstoppable"], []))
    play(state, "stop")
    assert state.health[0] == 1 and state.outcome is None and state.keeps[0] == []


def test_utter_destruction_all_six_faces_pull_both_two_and_hit_two():
    state = play(duel(["claw heart energy fame destruction power"], monsters=("MekaDragon", "Xenoid"),
                      cards=(["utter_destruction"], [])), "stop", "resolve cards")
    assert state.board.markers == [("", -2), ("", -2)] and state.health[1] == 14 - 2 - 1
