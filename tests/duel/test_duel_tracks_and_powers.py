"""Duel's hype tokens, The King's blocking tokens and the six superpowers (seed 002)."""

from __future__ import annotations

from kotarena.games.duel.endings import VICTORY_SPACE
from kotarena.games.duel.rulings import BONUS_ON_SPACES_PASSED

BLANK = "heart heart energy energy claw"


def test_a_hype_bonus_is_gained_where_the_pull_ends(duel, play):
    state = duel(dice=["fame fame fame heart claw claw"], hype={"tiger_energy": "fame -1"})
    play(state, "stop", "resolve fame")
    assert state.board.markers[0] == ("tiger_energy", 0)
    assert state.energy[0] == 1  # the hype bonus; no energy die


def test_a_space_only_passed_over_gives_no_bonus(duel, play):
    # Seed 002: "У той момент, коли ви переміщуєте маркер ... на поділку з бонусом
    # ажіотажу, застосуйте ефект": the pull moves the marker onto the space where it ends.
    assert BONUS_ON_SPACES_PASSED is False
    state = duel(dice=["fame fame fame fame heart heart"], hype={"tiger_energy": "fame -1"})
    play(state, "stop")
    assert state.board.markers[0] == ("", -2) and state.energy[0] == 0


def test_smash_bonus_hits_the_rival_of_the_monster_that_moved_the_marker(duel, play):
    state = duel(dice=["destruction destruction destruction heart heart heart"], active=1,
                 hype={"pumpkin_heal_smash2_heal": "destruction 1 3"})
    play(state, "stop")
    assert state.board.markers[1] == ("pumpkin_heal_smash2_heal", 0)
    state = duel(dice=["destruction destruction destruction destruction heart heart"], active=1,
                 hype={"pumpkin_heal_smash2_heal": "destruction 1 3"})
    play(state, "stop")
    assert state.health[0] == 12  # double smash: 2 damage to the rival of the puller


def test_dice_token_bonus_never_above_two(duel, play):
    state = duel(dice=["fame fame fame heart heart heart"], tokens=(2, 0), hype={"panda_dice": "fame -1"})
    play(state, "spend 0", "stop")
    assert state.tokens[0] == 2


def test_the_shortcut_token_shortens_a_track(duel, play):
    # Covers -7, -6, -5 and offers 2 spaces: from -4, two pulls reach the victory space.
    state = duel(dice=["fame fame fame fame heart heart"], markers=(-4, 0), hype={"alien_shortcut": "fame -7 -5"})
    play(state, "stop")
    assert state.outcome.termination is VICTORY_SPACE


def test_an_extension_token_lengthens_a_track(duel, play):
    state = duel(dice=["fame fame fame fame fame heart"], markers=(-4, 0),
                 hype={"penguin_extend_smash": "fame -7 -6"})
    play(state, "stop")
    assert state.outcome is None and state.board.markers[0] == ("penguin_extend_smash", 1)
    assert state.health[1] == 13  # the extension's middle space: smash


def test_the_kings_token_stops_his_rivals_pull_and_the_rest_is_lost(duel, play):
    state = duel(("Gigazaur", "The King"), dice=["fame fame fame fame fame heart"], hype={"king_block_1": "fame -1"})
    play(state, "stop")
    assert state.board.markers[0] == ("king_block_1", 0)


def test_a_marker_starting_on_the_kings_token_moves_normally(duel, play):
    state = duel(("Gigazaur", "The King"), dice=["fame fame fame fame heart heart"], markers=("king_block_1", 0),
                 hype={"king_block_1": "fame -1"})
    play(state, "stop")
    assert state.board.markers[0] == ("", -3)


def test_the_kings_own_pulls_are_not_stopped(duel, play):
    state = duel(("The King", "Gigazaur"), dice=["fame fame fame fame heart heart"], hype={"king_block_1": "fame -1"})
    play(state, "stop")
    assert state.board.markers[0] == ("", -2)


def test_the_king_places_a_blocking_token_with_two_power_faces(duel, play):
    state = duel(("The King", "Gigazaur"), dice=["power power power power heart heart"])
    play(state, "stop")
    assert state.kind == "power" and "block 1 fame 3" in {a.text for a in state.legal}
    assert not any(a.text.startswith("block 2") for a in state.legal)  # the first one first
    play(state, "block 1 fame 3")
    assert "block 2 destruction 2" in {a.text for a in state.legal}  # place the second, or move the first
    assert "block 1 fame 4" in {a.text for a in state.legal}
    play(state, "block 1 fame 4")
    assert state.board.placed["king_block_1"] == (0, 4, False) and "king_block_2" not in state.board.placed
    assert state.kind == "buy"


def test_gigazaur_pulls_a_marker_one_space_per_pair_of_power(duel, play):
    state = duel(("Gigazaur", "Xenoid"), dice=["power power power power power heart"])
    play(state, "stop", "power fame", "power destruction")
    assert state.board.markers == [("", -1), ("", -1)]
    assert state.kind == "buy"  # one power face left: no third activation


def test_xenoid_adds_a_face_and_one_more_power_adds_it_again(duel, play):
    state = duel(("Xenoid", "Gigazaur"), dice=["power power power fame claw heart"])
    play(state, "stop")
    assert "power fame fame" in {a.text for a in state.legal}
    assert "power power" not in {a.text for a in state.legal}
    play(state, "power fame fame")
    assert state.kind == "order"  # its superpower comes first; then fame and claws in any order
    play(state, "resolve fame")
    assert state.board.markers[0] == ("", -1)  # 1 rolled + 2 added = 3 fame
    assert state.health[1] == 13


def test_space_penguin_gains_a_dice_token_per_power_face_if_it_chooses(duel, play):
    # Seed 002: "можете активувати свою суперсилу" (you may activate your superpower).
    state = duel(("Space Penguin", "Gigazaur"), dice=["power power heart heart energy energy"])
    play(state, "stop")
    assert state.kind == "power" and [a.text for a in state.legal] == ["pass", "power token", "power token token"]
    play(state, "power token")
    assert state.tokens[0] == 1
    state = duel(("Space Penguin", "Gigazaur"), dice=["power heart heart heart energy energy"])
    play(state, "stop", "pass")
    assert state.tokens[0] == 0 and state.kind == "buy"


def test_mekadragon_may_multiply_claws_by_power_faces(duel, play):
    # Seed 002: "Можете вважати [claws] у ваших результатах кидка як [claws] × [power]".
    state = duel(("MekaDragon", "Gigazaur"), dice=["claw claw power power power heart"])
    play(state, "stop")
    assert state.kind == "power" and [a.text for a in state.legal] == ["pass", "power multiply"]
    play(state, "power multiply")
    assert state.health[1] == 14 - 6
    state = duel(("MekaDragon", "Gigazaur"), dice=["claw claw power power power heart"])
    play(state, "stop", "pass")
    assert state.health[1] == 14 - 2


def test_mekadragon_with_no_power_deals_its_claws(duel, play):
    state = duel(("MekaDragon", "Gigazaur"), dice=["claw claw heart heart heart heart"])
    play(state, "stop")
    assert state.health[1] == 12


def test_cyber_kitty_gains_energy_by_pairs_and_an_extra_power(duel, play):
    state = duel(("Cyber Kitty", "Gigazaur"), dice=["power power power heart heart heart"])
    play(state, "stop")
    assert [a.text for a in state.legal] == ["pass", "power energy", "power energy energy"]
    play(state, "power energy energy")
    assert state.energy[0] == 4
    state = duel(("Cyber Kitty", "Gigazaur"), dice=["power power power power heart heart"])
    play(state, "stop", "power energy", "power energy")  # two activations, 2 energy each
    assert state.energy[0] == 4 and state.kind == "buy"


def test_the_superpower_may_be_declined(duel, play):
    state = duel(("Gigazaur", "Xenoid"), dice=["power power heart heart heart heart"])
    play(state, "stop", "pass")
    assert state.board.markers == [("", 0), ("", 0)] and state.kind == "buy"
