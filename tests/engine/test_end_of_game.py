"""The end of the game: 20 stars at the end of a turn, last standing, nobody, and ranks.

Cards are not played in these tests. A few situations (the active monster losing its
last health on its own turn, everybody eliminated at once) cannot happen with dice
alone, because claws never hurt the monster that rolls them; those tests make the
engine's damage step do what the named card would do, and say so.
"""

from __future__ import annotations

from kotarena.games.kot.end import ALL_ELIMINATED, LAST_STANDING, STARS
from kotarena.games.kot.position import MonsterSetup


def test_monster_with_20_stars_at_the_end_of_its_turn_wins(table, act, events):
    state = table(MonsterSetup("Alienoid", stars=17), "Kraken", dice=["3 3 3 1 2 heart"])
    act(state, "stop")
    assert state.is_over
    assert state.outcome.winner == 0
    assert state.outcome.termination is STARS
    assert events(state, "over") == [("over", 0, "stars")]


def test_more_than_20_stars_also_wins(table, act):
    state = table(MonsterSetup("Alienoid", stars=19), "Kraken", dice=["3 3 3 3 3 3"])
    act(state, "stop")
    assert state.stars[0] == 25
    assert state.outcome.winner == 0


def test_19_stars_is_not_yet_a_win(table, act):
    state = table(MonsterSetup("Alienoid", stars=16), "Kraken", dice=["3 3 3 1 2 heart"])
    act(state, "stop")
    assert not state.is_over and state.between_turns


def test_victory_by_stars_waits_for_the_end_of_the_turn(table, act):
    state = table(MonsterSetup("Alienoid", stars=17, energy=5), "Kraken", deck="default", dice=["3 3 3 1 2 heart"])
    act(state, "stop")
    assert state.stars[0] == 20
    assert not state.is_over and state.kind == "buy"  # the turn goes on: you must survive it
    act(state, "done")
    assert state.outcome.winner == 0 and state.outcome.termination is STARS


def test_star_for_taking_tokyo_counts_toward_victory(table, act):
    state = table(MonsterSetup("Alienoid", stars=19), MonsterSetup("Kraken", tokyo="city"), dice=["claw 1 2 3 1 2"])
    act(state, "stop", "yield")
    assert state.outcome.winner == 0


def test_stars_for_starting_in_tokyo_win_at_the_end_of_that_turn(table, act):
    state = table(MonsterSetup("Alienoid", stars=18, tokyo="city"), "Kraken", dice=["1 2 3 1 2 heart"])
    assert state.stars[0] == 20 and not state.is_over
    act(state, "stop")
    assert state.outcome.winner == 0


def test_monster_with_20_stars_and_0_health_in_the_same_turn_does_not_win(table, act):
    # Jet Fighters ("gain 5 stars and lose 4 health") bought at 15 stars and 4 health:
    # dice cannot hurt the monster rolling them, so the card's effect is applied with
    # the engine's own star and damage steps during the buy step.
    state = table(MonsterSetup("Alienoid", stars=15, health=4, energy=5), "Kraken", "Meka Dragon",
                  deck="default", dice=["1 2 3 1 2 energy"])
    act(state, "stop")
    state.gain_stars(0, 5, "card")
    state.damage(0, 4, 0)
    assert state.stars[0] == 20 and not state.alive[0]
    act(state, "done")
    assert not state.is_over  # nobody wins: the game goes on with Kraken's turn
    assert state.active == 1


def test_monster_eliminated_at_20_stars_leaves_the_win_to_the_last_one_standing(table, act):
    # The same Jet Fighters purchase in a 2-player game: the other monster is last standing.
    state = table(MonsterSetup("Alienoid", stars=15, health=4, energy=5), "Kraken",
                  deck="default", dice=["1 2 3 1 2 energy"])
    act(state, "stop")
    state.gain_stars(0, 5, "card")
    state.damage(0, 4, 0)
    act(state, "done")
    assert state.outcome.winner == 1
    assert state.outcome.termination is LAST_STANDING


def test_everybody_eliminated_at_once_means_nobody_wins(table, act):
    # High Altitude Bombing ("every monster, you included, loses 3 health") with both
    # monsters at 3 health; applied through the engine's damage step, one damage event.
    state = table(MonsterSetup("Alienoid", health=3, energy=4), MonsterSetup("Kraken", health=3),
                  deck="default", dice=["1 2 3 1 2 energy"])
    act(state, "stop")
    state.damage(0, 3, 0)
    state.damage(1, 3, 0)
    act(state, "done")
    assert state.outcome.winner is None
    assert state.outcome.termination is ALL_ELIMINATED
    assert state.outcome.ranks == (0, 0)


def test_last_monster_standing_wins_at_once(table, act, events):
    state = table("Alienoid", MonsterSetup("Kraken", health=2, tokyo="city"), MonsterSetup("Meka Dragon", alive=False,
                  health=0), deck="default", dice=["claw claw 1 2 3 1"])
    act(state, "stop")
    assert state.outcome.winner == 0
    assert state.outcome.termination is LAST_STANDING
    assert state.kind is None and state.legal == ()  # no buy step after the last elimination
    assert events(state, "over") == [("over", 0, "last_standing")]


def test_monster_in_tokyo_wins_by_eliminating_everyone_outside(table, act):
    state = table(MonsterSetup("Alienoid", tokyo="city"), MonsterSetup("Kraken", health=2),
                  MonsterSetup("Meka Dragon", health=1), dice=["claw claw 1 2 3 1"])
    act(state, "stop")
    assert state.outcome.winner == 0 and state.outcome.termination is LAST_STANDING
    assert state.outcome.ranks == (0, 1, 1)


def test_with_several_monsters_at_20_stars_the_most_stars_wins(table, act):
    # Monsters can pass 20 on another monster's turn only through cards (Eater of the
    # Dead); the position starts with them there.
    state = table("Alienoid", MonsterSetup("Kraken", stars=21), MonsterSetup("Meka Dragon", stars=23),
                  dice=["1 2 3 1 2 heart"])
    act(state, "stop")
    assert state.outcome.winner == 2


def test_tied_stars_go_to_the_first_in_turn_order_from_the_active_monster(table, act):
    state = table("Alienoid", MonsterSetup("Cyber Bunny", stars=21), "Giga Zaur", MonsterSetup("Kraken", stars=21),
                  first="Giga Zaur", dice=["1 2 3 1 2 heart"])
    act(state, "stop")
    assert state.outcome.winner == 3  # Giga Zaur, Kraken, Alienoid, Cyber Bunny


def test_active_monster_wins_a_tie_at_20_stars(table, act):
    state = table(MonsterSetup("Alienoid", stars=17), MonsterSetup("Kraken", stars=20), dice=["3 3 3 1 2 heart"])
    act(state, "stop")
    assert state.outcome.winner == 0


def test_ranks_put_the_winner_first_then_survivors_by_stars_with_ties(table, act):
    state = table(MonsterSetup("Alienoid", stars=17), MonsterSetup("Cyber Bunny", stars=5),
                  MonsterSetup("Giga Zaur", stars=9), MonsterSetup("Kraken", stars=5), dice=["3 3 3 1 2 heart"])
    act(state, "stop")
    assert state.outcome.ranks == (0, 2, 1, 2)


def test_ranks_put_the_eliminated_last_in_reverse_order_of_elimination(table, act):
    # Alienoid, in Tokyo, eliminates Cyber Bunny and Giga Zaur with one roll (they tie),
    # then Kraken two turns later.
    state = table(
        MonsterSetup("Alienoid", tokyo="city"), MonsterSetup("Cyber Bunny", health=2),
        MonsterSetup("Giga Zaur", health=1), MonsterSetup("Kraken", health=5),
        dice=["claw claw 1 2 3 1", "1 2 3 1 2 3", "claw claw claw 1 2 3"],
    )
    act(state, "stop")
    assert state.alive == [True, False, False, True]
    state.next_turn()
    act(state, "stop")  # Kraken
    state.next_turn()
    act(state, "stop")  # Alienoid
    assert state.outcome.winner == 0 and state.outcome.termination is LAST_STANDING
    assert state.outcome.ranks == (0, 2, 2, 1)
    assert state.outcome.turns == 3


def test_eliminated_monsters_rank_below_every_survivor(table, act):
    state = table(MonsterSetup("Alienoid", stars=18, tokyo="city"), MonsterSetup("Cyber Bunny", health=1, stars=15),
                  "Giga Zaur", MonsterSetup("Kraken", stars=3), dice=["claw 1 2 3 1 2"])
    act(state, "stop")
    assert state.outcome.winner == 0
    assert state.outcome.ranks == (0, 3, 2, 1)


def test_outcome_counts_the_turns_played(table, act):
    state = table(MonsterSetup("Alienoid", stars=16), MonsterSetup("Kraken"),
                  dice=["3 3 3 1 2 heart", "1 2 3 1 2 heart", "3 3 3 1 2 heart"])
    act(state, "stop")
    state.next_turn()
    act(state, "stop")
    state.next_turn()
    act(state, "stop")
    assert state.outcome.turns == 3
    assert state.outcome.to_json() == {"winner": 0, "termination": "stars", "ranks": [0, 1], "turns": 3}
