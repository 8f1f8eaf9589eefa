"""Resolving the roll in the player's order, and wins checked at every space (seed 002).

Seed 002, "Розіграш результатів кидка": "Ви повинні розіграти всі кубики у результатах
кидка в будь-якому порядку" (you must resolve all the dice of your result, in any
order). "Кінець гри": "Гра може завершитися в будь-який момент" (the game may end at
any moment) and, for fame and destruction, "ви миттєво перемагаєте" (you win at once).
"""

from __future__ import annotations

from kotarena.games.duel.endings import SPOTLIGHT, VICTORY_SPACE
from kotarena.games.duel.rulings import RIVAL_WINS_ON_SPACES_PASSED


def texts(state):
    return [action.text for action in state.legal]


def test_the_order_is_asked_with_todays_order_first(duel, play):
    state = duel(dice=["fame fame fame power power claw"])
    play(state, "stop")
    assert state.kind == "order" and texts(state) == ["resolve power", "resolve fame", "resolve claw"]
    play(state, "resolve power", "power destruction")
    assert state.kind == "order" and texts(state) == ["resolve fame", "resolve claw"]
    play(state, "resolve claw")
    assert state.health[1] == 13 and state.board.markers == [("", -1), ("", -1)]


def test_no_order_is_asked_when_only_one_part_can_change_the_game(duel, play):
    # Energy and hearts change nothing the other parts do (docs/duel.md, "Resolve order").
    state = duel(dice=["fame fame fame energy heart heart"], health=(12, 14))
    play(state, "stop")
    assert state.kind == "buy"
    assert state.board.markers[0] == ("", -1) and state.energy[0] == 1 and state.health[0] == 14


def test_the_kings_block_dice_first_then_gigazaurs_power_reaches_the_victory_space(duel, play):
    blocked = {"king_block_1": "fame -6"}
    state = duel(("Gigazaur", "The King"), dice=["fame fame fame fame power power"], markers=(-4, 0), hype=blocked)
    play(state, "stop", "resolve fame")  # -5, then the block at -6 stops the pull
    assert state.board.markers[0] == ("king_block_1", 0)
    play(state, "power fame")  # a pull that starts on the block moves normally
    assert state.outcome.winner == 0 and state.outcome.termination is VICTORY_SPACE


def test_the_kings_block_power_first_the_dice_stop_on_the_block(duel, play):
    blocked = {"king_block_1": "fame -6"}
    state = duel(("Gigazaur", "The King"), dice=["fame fame fame fame power power"], markers=(-4, 0), hype=blocked)
    play(state, "stop", "resolve power", "power fame")  # to -5
    assert state.kind == "buy" and state.outcome is None
    assert state.board.markers[0] == ("king_block_1", 0)  # the dice's second space is lost


def test_the_king_resolves_fame_first_to_free_the_token_he_then_moves(duel, play):
    tokens = {"king_block_1": "fame -1", "king_block_2": "destruction 5"}
    roll = ["fame fame fame power power heart"]
    state = duel(("The King", "Gigazaur"), dice=roll, markers=("king_block_1", 0), hype=tokens)
    play(state, "stop")
    assert texts(state) == ["resolve power", "resolve fame"]
    play(state, "resolve power")  # the fame marker stands on token 1: only token 2 moves
    assert {a.args[0] for a in state.legal if a.kind == "block"} == {2}
    state = duel(("The King", "Gigazaur"), dice=roll, markers=("king_block_1", 0), hype=tokens)
    play(state, "stop", "resolve fame")
    assert state.board.markers[0] == ("", -2)
    assert "block 1 destruction 4" in texts(state)
    play(state, "block 1 destruction 4")
    assert state.board.placed["king_block_1"] == (1, 4, False)


def test_fame_or_destruction_first_decides_a_win_in_the_spotlight(duel, play):
    roll = ["fame fame fame fame destruction destruction destruction"]  # fame pulls 2, destruction 1
    # Fame waits in the zone at -4: destruction first (-2 to -3) wins at once.
    state = duel(dice=roll, markers=(-4, -2), cards=(["extra_head"], []))
    play(state, "stop", "resolve destruction")
    assert state.outcome.winner == 0 and state.outcome.termination is SPOTLIGHT
    # Fame first goes past the zone (-6); destruction then enters it alone.
    state = duel(dice=roll, markers=(-4, -2), cards=(["extra_head"], []))
    play(state, "stop", "resolve fame")
    assert state.outcome is None and state.board.markers == [("", -6), ("", -3)]


def test_a_pull_that_crosses_your_spotlight_zone_wins_there(duel, play):
    # Destruction waits in the zone; fame is pulled from -2 to -6, through -3: the win
    # comes at -3 and the pull ends there.
    state = duel(dice=["fame fame fame fame fame fame"], markers=(-2, -4))
    play(state, "stop")
    assert state.outcome.winner == 0 and state.outcome.termination is SPOTLIGHT
    assert state.board.markers[0] == ("", -3)


def test_a_pull_only_passing_through_the_rivals_spotlight_zone_does_not_make_the_rival_win(duel, play):
    # The instant win is the puller's ("ви миттєво перемагаєте"): fame comes back from
    # +6 through +5, +4 and +3 to +2 while destruction stands at +4, and the game goes on.
    assert RIVAL_WINS_ON_SPACES_PASSED is False
    state = duel(dice=["fame fame fame fame fame fame"], markers=(6, 4))
    play(state, "stop")
    assert state.outcome is None and state.board.markers == [("", 2), ("", 4)]


def test_a_pull_ending_in_the_rivals_spotlight_zone_makes_the_rival_win(duel, play):
    # "Гра може завершитися в будь-який момент": once the marker stands at +5 beside
    # destruction at +4, both are in the rival's zone, whoever pulled.
    state = duel(dice=["fame fame fame heart heart heart"], markers=(6, 4))
    play(state, "stop")
    assert state.outcome.winner == 1 and state.outcome.termination is SPOTLIGHT
    assert state.board.markers[0] == ("", 5)


def test_superconductor_fires_on_energy_from_a_superpower(duel, play):
    # "When your rival gains energy while resolving its dice": Cyber Kitty's energy too.
    state = duel(("Gigazaur", "Cyber Kitty"), dice=["power power heart heart heart heart"], active=1,
                 cards=(["superconductor"], []))
    play(state, "stop", "power energy")
    assert state.to_move == 0 and texts(state) == ["pass", "use superconductor"]
    play(state, "use superconductor")
    assert state.energy == [2, 2]


def test_thunder_stomp_counts_a_superpowers_destruction_pull(duel, play):
    # "If you pull the destruction marker while resolving your dice": Gigazaur's pull too.
    state = duel(dice=["power power heart heart heart heart"], cards=(["thunder_stomp"], []))
    play(state, "stop", "power destruction", "done")
    assert state.penalty[1] == 1


def test_camouflage_declined_lets_three_damage_set_off_unstable_dna(duel, play):
    # Declining "may" matters: 3 claws taken whole let Unstable DNA swap.
    state = duel(dice=["claw claw claw heart heart heart"], active=1,
                 cards=(["camouflage", "unstable_dna"], ["giant_brain"]))
    play(state, "stop", "pass")
    assert state.health[0] == 11 and texts(state) == ["pass", "use unstable_dna giant_brain"]


def test_mekadragon_declines_to_keep_the_damage_under_the_rivals_unstable_dna(duel, play):
    state = duel(("MekaDragon", "Gigazaur"), dice=["claw claw power power heart heart"],
                 cards=([], ["unstable_dna"]))
    play(state, "stop", "pass")
    assert state.health[1] == 12 and state.kind == "buy"  # 2 damage: no swap to offer


def test_a_damage_waiting_on_camouflage_is_taken_before_the_dice_pass(duel, play):
    # Electrical Aura's pull at the end of the turn, Spiked Tail's damage: the rival's
    # Camouflage choice and Armor Plating still belong to this turn.
    state = duel(dice=["heart heart heart heart heart heart"], energy=(7, 0),
                 cards=(["electrical_aura", "spiked_tail"], ["camouflage", "armor_plating"]))
    play(state, "stop", "done")
    assert state.to_move == 1 and texts(state) == ["pass", "use camouflage"] and state.active == 0
    play(state, "pass")
    assert state.health[1] == 14 and state.between_turns  # Armor Plating took the point


def test_the_end_of_turn_cards_resolve_in_the_order_their_owner_chooses(duel, play):
    # Seed 002, "Кінець ходу": "Розіграйте їх у будь-якому порядку на свій вибір".
    roll = ["claw claw claw claw heart heart"]  # 4 damage: In Shape may pull fame 1 for 1 energy
    mine = (["electrical_aura", "in_shape"], [])
    state = duel(dice=roll, energy=(6, 0), cards=mine)
    play(state, "stop", "done")  # 7 energy
    assert state.kind == "order" and texts(state) == ["resolve electrical_aura", "resolve in_shape"]
    play(state, "resolve electrical_aura", "use in_shape 1")
    assert state.board.markers == [("", -1), ("", -1)] and state.energy[0] == 6
    state = duel(dice=roll, energy=(6, 0), cards=mine)
    play(state, "stop", "done", "resolve in_shape", "use in_shape 1")  # 6 energy left: no full 7
    assert state.board.markers == [("", -1), ("", 0)] and state.between_turns


def test_hearts_are_offered_when_the_rivals_unstable_dna_may_take_regeneration_first(duel, play):
    roll = ["claw claw claw heart heart heart"]
    state = duel(dice=roll, health=(10, 14), cards=(["regeneration"], ["unstable_dna"]))
    play(state, "stop")
    assert texts(state) == ["resolve heart", "resolve claw"]
    play(state, "resolve claw", "use unstable_dna regeneration")  # 3 damage: the swap takes it
    assert state.health[0] == 13  # the hearts heal without Regeneration's extra 1
    state = duel(dice=roll, health=(10, 14), cards=(["regeneration"], ["unstable_dna"]))
    play(state, "stop", "resolve heart")
    assert state.health[0] == 14


def test_natural_selections_damage_lands_before_the_roll_resolves_so_the_hearts_heal_after_it(duel, play):
    # The only card that hurts the roller on its own turn before the buy step: its 10
    # damage comes "before resolving your dice", so no hearts can be taken back by it
    # whatever their place (docs/duel.md, "Resolve order": hearts are not offered).
    state = duel(dice=["heart heart heart heart claw claw fame"], cards=(["natural_selection"], []))
    play(state, "stop")
    assert state.kind == "buy"  # hearts and claws: only the claws' place matters, nothing asked
    assert state.health == [14 - 10 + 4, 14 - 2]
