"""Duel's market (seed 002): the rightmost card 1 cheaper, slide right and refill after
each buy or discard, the 2-energy sweep (not a buy), and hype tokens placed on buying."""

from __future__ import annotations

BLANK = "heart heart heart heart heart heart"


def test_the_rightmost_card_costs_one_less(duel, play):
    state = duel(dice=[BLANK], energy=(1, 0), market=["photoshoot", "snack_time", "photoshoot"][:2] + ["photoshoot"])
    play(state, "stop")
    legal = {a.text for a in state.legal}
    assert "buy 3" in legal and "buy 1" not in legal  # Photoshoot costs 2, 1 in slot 3


def test_after_a_buy_the_cards_slide_right_and_the_deck_refills_the_slot_nearest_it(duel, play):
    state = duel(dice=[BLANK], energy=(10, 0), market=["too_cute", "snack_time", "frenzy"],
                 deck=["seismic_test", "kaijutsu"])
    play(state, "stop", "buy 3")
    assert state.market == ["seismic_test", "too_cute", "snack_time"]
    assert state.energy[0] == 10 - 5


def test_several_cards_bought_at_the_discount_in_one_turn(duel, play):
    state = duel(dice=[BLANK], energy=(4, 0), market=["snack_time", "too_cute", "photoshoot"], deck=["seismic_test"])
    play(state, "stop", "buy 3")
    play(state, "hype fame -3")  # Photoshoot's fish_heal token
    assert state.market == ["seismic_test", "snack_time", "too_cute"]
    play(state, "buy 3")  # Too Cute, 3 - 1
    assert state.energy[0] == 4 - 1 - 2


def test_sweeping_costs_two_and_reveals_three_new_cards(duel, play):
    state = duel(dice=[BLANK], energy=(2, 0), market=["snack_time", "too_cute", "photoshoot"],
                 deck=["seismic_test", "kaijutsu", "frenzy", "energize"])
    play(state, "stop", "sweep")
    assert state.market == ["seismic_test", "kaijutsu", "frenzy"] and state.energy[0] == 0


def test_the_market_may_be_swept_again_and_again_in_one_turn_while_energy_lasts(duel, play):
    # The seed sets no limit on sweeps (Game Park allows one a turn).
    from kotarena.games.duel.rulings import SWEEPS_PER_TURN

    assert SWEEPS_PER_TURN is None
    state = duel(dice=[BLANK], energy=(6, 0), market=["snack_time", "too_cute", "photoshoot"],
                 deck=["seismic_test", "kaijutsu", "frenzy", "energize", "monumental", "cannonball",
                       "dominate", "monster_coaster", "jets_scrambled"])
    play(state, "stop", "sweep", "sweep")
    assert "sweep" in {a.text for a in state.legal}
    play(state, "sweep")
    assert state.energy[0] == 0 and "sweep" not in {a.text for a in state.legal}
    assert state.market == ["dominate", "monster_coaster", "jets_scrambled"]


def test_sweeping_is_not_buying_so_one_energy_is_gained(duel, play):
    state = duel(dice=[BLANK], energy=(2, 0), market=["snack_time", "too_cute", "photoshoot"],
                 deck=["seismic_test", "kaijutsu", "frenzy"])
    play(state, "stop", "sweep", "done")
    assert state.energy[0] == 1


def test_buying_a_card_gains_no_energy_at_the_end_of_the_buy_step(duel, play):
    state = duel(dice=[BLANK], energy=(3, 0), market=["snack_time", "too_cute", "monster_coaster"])
    play(state, "stop", "buy 2", "hype fame -2", "done")
    assert state.energy[0] == 0


def test_a_hype_token_is_placed_before_the_cards_effect(duel, play):
    state = duel(dice=["claw claw claw fame destruction claw"], energy=(2, 0), health=(10, 14), market=["snack_time", "monster_coaster", "photoshoot"])
    play(state, "stop", "buy 3")
    assert state.kind == "hype"
    play(state, "hype fame -1")  # Photoshoot then pulls fame onto it: its heal bonus
    assert state.board.markers[0] == ("fish_heal", 0)
    assert state.health[0] == 10 + 1


def test_a_hype_token_may_not_cover_another_token_or_a_marker(duel, play):
    state = duel(dice=[BLANK], energy=(2, 0), markers=(-2, 0), hype={"cat_smash": "fame -1"},
                 market=["snack_time", "monster_coaster", "photoshoot"])
    play(state, "stop", "buy 3")
    legal = {a.text for a in state.legal}
    assert "hype fame -1" not in legal and "hype fame -2" not in legal and "hype destruction 0" not in legal
    assert "hype fame -3" in legal and "pass" not in legal  # a token not on the board must be placed


def test_a_hype_token_already_on_the_board_may_be_moved_or_left(duel, play):
    state = duel(dice=[BLANK], energy=(4, 0), hype={"fish_heal": "destruction 3"},
                 market=["snack_time", "too_cute", "photoshoot"])
    play(state, "stop", "buy 2")  # Too Cute shows the same token as Photoshoot
    assert state.kind == "hype" and state.legal[0].text == "pass"
    play(state, "hype fame 5")
    assert state.board.placed["fish_heal"] == (0, 5, False)


def test_a_hype_token_under_a_marker_stays(duel, play):
    state = duel(dice=[BLANK], energy=(4, 0), hype={"fish_heal": "destruction 3"}, markers=(0, "fish_heal"),
                 market=["snack_time", "too_cute", "photoshoot"])
    play(state, "stop", "buy 2")
    assert state.kind == "buy" and state.health[1] == 12


def test_a_two_space_token_may_lie_either_way_round(duel, play):
    state = duel(dice=[BLANK], energy=(4, 0), market=["snack_time", "scrappy", "photoshoot"])
    play(state, "stop", "buy 2")
    legal = {a.text for a in state.legal}
    assert {"hype fame 2 3", "hype fame 3 2"} <= legal
    play(state, "hype fame -3 -4")
    assert state.board.bonus(("lizard_smash_dice", 1)) == "smash"  # the smash on -3, toward the centre


def test_when_the_deck_runs_out_the_cards_out_of_play_are_shuffled_into_a_new_one(duel, play):
    from kotarena.games.duel.rulings import RESHUFFLE_WHEN_DECK_RUNS_OUT

    assert RESHUFFLE_WHEN_DECK_RUNS_OUT is True
    state = duel(dice=[BLANK], energy=(4, 0), market=["snack_time", "too_cute", "frenzy"])
    state.deck, state.gone = [], ["kaijutsu", "seismic_test", "energize"]
    play(state, "stop", "sweep")  # the deck is empty: the three cards out of play come back
    assert sorted(state.market) == ["energize", "kaijutsu", "seismic_test"]
    assert sorted(state.gone) == ["frenzy", "snack_time", "too_cute"]
    play(state, "sweep")
    assert sorted(state.market) == ["frenzy", "snack_time", "too_cute"]
