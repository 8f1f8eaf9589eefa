"""King of Tokyo: Origins (seed 001), played through the real engine with fixed dice.

Every difference from the classic game has a test here: Tokyo City only, the Enter
Tokyo step (claws or not, the very first player included), leaving Tokyo only after
another monster's claws, card damage while the dice resolve, what an eliminated
monster loses, and the two-player variant. ``docs/origins.md`` lists the rulings.
"""

from __future__ import annotations

import pytest

from kotarena.engine import PositionError
from kotarena.games import get_game, new_game
from kotarena.games.kot import ORIGINS, ORIGINS_GAME, ORIGINS_TWO_PLAYERS
from kotarena.games.kot.faces import scripted_dice
from kotarena.games.kot.position import MonsterSetup
from kotarena.games.kot.rulings import ROLL_OFF_ONLY_THE_TIED_ROLL_AGAIN
from kotarena.testing import check_game


def origins(table, *monsters, **options):
    """An Origins position (classic deck cards where a test names some)."""
    return table(*monsters, game="origins", **options)


# ------------------------------------------------------------------ the table


def test_origins_is_for_two_to_four_players():
    with pytest.raises(PositionError, match="2 to 4 players, not 5"):
        new_game("origins", 5, seed=1)
    assert new_game("origins", 4, seed=1, deck="kot").n == 4


def test_four_monsters_play_with_tokyo_city_only():
    state = new_game("origins", 4, seed=3, deck=None, first_player=0)
    assert not state.bay_open and state.bay == -1


def test_seats_get_the_classic_monsters_names_unless_named():
    assert new_game("origins", 4, seed=1, deck=None).names == ("Alienoid", "Cyber Bunny", "Giga Zaur", "Kraken")
    named = new_game("origins", ["Gigarex", "Mecha Hamster", "Steel Spine"], seed=1, deck=None)
    assert named.names == ("Gigarex", "Mecha Hamster", "Steel Spine")


def test_origins_keeps_every_promise_of_the_seam():
    assert check_game(ORIGINS_GAME, games=2) > 100


def test_first_player_ties_roll_again_until_one_has_the_most_claws():
    # Alienoid and Kraken tie on two claws (Cyber Bunny, with one, is out of it); they
    # roll again and tie on one; then Kraken rolls more.
    assert ROLL_OFF_ONLY_THE_TIED_ROLL_AGAIN is True
    dice = scripted_dice(["claw claw 1 2 3 heart", "claw 1 2 3 heart energy", "claw claw 1 1 2 2",
                         "claw 1 2 3 3 3", "claw 1 2 3 3 3",
                         "1 1 2 2 3 3", "claw 1 2 3 3 3",
                         "1 2 3 1 2 3"])  # Kraken's first roll
    state = new_game("origins", 3, seed=1, deck=None, dice=dice)
    assert state.active == 2 and [e for e in state.log if e[0] == "rolloff"] == [
        ("rolloff", ((0, 2), (1, 1), (2, 2))), ("rolloff", ((0, 1), (2, 1))), ("rolloff", ((0, 0), (2, 1)))]


# ------------------------------------------------------------------ entering Tokyo


def test_the_very_first_player_enters_tokyo_without_claws(events):
    state = new_game("origins", 4, seed=1, deck=None, first_player=0, dice=scripted_dice(["1 2 3 heart energy energy", "1 2 3 1 2 3"]))
    state.apply("stop")
    assert state.city == 0 and state.stars[0] == 1 and state.energy[0] == 2
    assert events(state, "enter") == [("enter", 0, "city")]


def test_the_first_players_claws_hurt_nobody_and_it_enters(table, act, events):
    state = origins(table, "Alienoid", "Kraken", "Meka Dragon", dice=["claw claw claw 1 2 3"])
    act(state, "stop")
    assert state.health == [10, 10, 10] and events(state, "damage") == []
    assert state.city == 0 and state.stars[0] == 1


def test_classic_claws_take_empty_tokyo_but_origins_enters_after_the_whole_roll(table, act):
    # Classic: the claws take Tokyo. Origins: the same roll resolves in full first, then
    # the monster enters; both get 1 star for entering.
    for game in ("kot", "origins"):
        state = table("Alienoid", "Kraken", "Meka Dragon", dice=["claw 1 1 1 energy 2"], game=game)
        act(state, "stop")
        assert (state.city, state.stars[0], state.energy[0]) == (0, 2, 1)


def test_whoever_ends_the_resolve_step_with_tokyo_empty_enters(table, act):
    # Later in a game: Tokyo is empty (its monster was eliminated by a card), and Kraken
    # rolls no claw at all. It enters anyway.
    state = origins(table, MonsterSetup("Alienoid", stars=3), "Kraken", "Meka Dragon",
                    first="Kraken", dice=["heart energy 1 2 3 1"])
    act(state, "stop")
    assert state.city == 1 and state.stars[1] == 1


def test_a_monster_already_in_tokyo_does_not_enter_again(table, act):
    state = origins(table, MonsterSetup("Alienoid", tokyo="city"), "Kraken", "Meka Dragon", dice=["1 2 3 1 2 heart"])
    act(state, "stop")
    assert state.city == 0 and state.stars[0] == 2  # the start-of-turn stars only


def test_the_attacker_enters_when_the_hit_monster_yields(table, act):
    state = origins(table, "Alienoid", MonsterSetup("Kraken", tokyo="city"), "Meka Dragon", dice=["claw claw 1 2 3 heart"])
    act(state, "stop", "yield")
    assert state.city == 0 and state.stars[0] == 1 and state.health[1] == 8


def test_the_attacker_stays_out_when_the_hit_monster_stays(table, act):
    state = origins(table, "Alienoid", MonsterSetup("Kraken", tokyo="city"), dice=["claw claw 1 2 3 heart"])
    act(state, "stop", "stay")
    assert state.city == 1 and state.stars[0] == 0


def test_the_attacker_enters_when_its_claws_eliminate_the_monster_in_tokyo(table, act):
    state = origins(table, "Alienoid", MonsterSetup("Kraken", health=2, tokyo="city"), "Meka Dragon",
                    dice=["claw claw 1 2 3 heart"])
    act(state, "stop")
    assert not state.alive[1] and state.city == 0 and state.stars[0] == 1


# ------------------------------------------------------------------ leaving Tokyo


def test_a_monster_in_tokyo_may_leave_only_after_losing_health_to_claws(table, act):
    state = origins(table, "Alienoid", MonsterSetup("Kraken", tokyo="city"), dice=["1 2 3 heart energy 1"])
    act(state, "stop")
    assert state.kind != "yield" and state.city == 1


def test_card_damage_while_the_dice_resolve_offers_no_yield(table, act):
    # Acid Attack without claws: card damage to the monster in Tokyo, not an attack.
    state = origins(table, MonsterSetup("Alienoid", cards=["acid_attack"]), MonsterSetup("Kraken", tokyo="city"),
                    deck="kot", dice=["1 2 3 heart energy 1"])
    act(state, "stop")
    assert state.health[1] == 9 and state.city == 1 and state.kind != "yield"


def test_card_damage_that_empties_tokyo_while_the_dice_resolve_lets_the_roller_enter(table, act):
    # Origins routes card damage dealt during the dice step to the Enter Tokyo step.
    state = origins(table, MonsterSetup("Alienoid", cards=["acid_attack"]), MonsterSetup("Kraken", health=1, tokyo="city"),
                    "Meka Dragon", deck="kot", dice=["1 2 3 heart energy 1"])
    act(state, "stop")
    assert not state.alive[1] and state.city == 0 and state.stars[0] == 1


def test_in_classic_the_same_card_damage_leaves_tokyo_empty(table, act):
    state = table(MonsterSetup("Alienoid", cards=["acid_attack"]), MonsterSetup("Kraken", health=1, tokyo="city"),
                  "Meka Dragon", deck="kot", dice=["1 2 3 heart energy 1"])
    act(state, "stop")
    assert not state.alive[1] and state.city == -1


def test_tokyo_emptied_while_buying_waits_for_the_next_enter_tokyo_step(table, act):
    # Fire Blast (card damage) in the buy step eliminates Kraken in Tokyo; the Enter
    # Tokyo step is over, so Tokyo stays empty until Meka Dragon's resolve step.
    state = origins(table, MonsterSetup("Alienoid", energy=3), MonsterSetup("Kraken", health=2, tokyo="city"),
                    "Meka Dragon", deck="kot", market=["Fire Blast", "Heal", "Frenzy"],
                    dice=["1 2 3 heart 1 2", "1 1 2 2 3 3"])
    act(state, "stop", "buy 1")
    assert not state.alive[1] and state.city == -1
    state.next_turn()
    assert state.active == 2
    act(state, "stop")
    assert state.city == 2


# ------------------------------------------------------------------ elimination and the end


def test_an_eliminated_monster_discards_all_its_cards_and_energy(table, act, events):
    state = origins(table, "Alienoid", MonsterSetup("Kraken", health=2, energy=7, tokyo="city", cards=["Energy Hoarder"]),
                    "Meka Dragon", deck="kot", dice=["claw claw 1 2 3 heart"])
    act(state, "stop")
    assert not state.alive[1] and state.energy[1] == 0 and state.owned[1] == []
    assert ("lose energy", 1, 7, "eliminated") in events(state)


def test_a_monster_eliminated_by_its_own_card_takes_no_further_step(table, act):
    # High Altitude Bombing hurts everybody, its buyer too: it falls with 3 health.
    state = origins(table, MonsterSetup("Alienoid", health=3, energy=4), MonsterSetup("Kraken", tokyo="city"),
                    "Meka Dragon", deck="kot", market=["High Altitude Bombing", "Heal", "Frenzy"],
                    dice=["1 2 3 energy 1 2"])
    act(state, "stop", "buy 1")
    assert not state.alive[0] and state.energy[0] == 0 and state.between_turns and state.active == 1


def test_twenty_stars_win_at_the_end_of_the_turn(table, act):
    state = origins(table, MonsterSetup("Alienoid", stars=17), "Kraken", dice=["3 3 3 heart 1 2"])
    act(state, "stop")
    assert state.outcome.winner == 0 and state.outcome.termination.value == "stars"


def test_the_last_monster_standing_wins(table, act):
    state = origins(table, MonsterSetup("Alienoid", tokyo="city"), MonsterSetup("Kraken", health=2),
                    dice=["claw claw 1 2 3 heart"])
    act(state, "stop")
    assert state.outcome.winner == 0 and state.outcome.termination.value == "last_standing"


# ------------------------------------------------------------------ the two-player variant


def test_two_players_play_the_variant_by_default():
    assert new_game("origins", 2, seed=1, deck=None).rules is ORIGINS_TWO_PLAYERS
    assert new_game("origins", 3, seed=1, deck=None).rules is ORIGINS


def test_in_the_two_player_variant_entering_gives_one_energy_instead_of_a_star(table, act):
    state = origins(table, "Alienoid", "Kraken", dice=["1 2 3 heart 1 2"])
    act(state, "stop")
    assert state.city == 0 and state.stars[0] == 0 and state.energy[0] == 1


def test_in_the_two_player_variant_starting_in_tokyo_gives_two_energy_instead_of_two_stars(table):
    state = origins(table, MonsterSetup("Alienoid", tokyo="city"), "Kraken", dice=["1 2 3 heart 1 2"])
    assert state.stars[0] == 0 and state.energy[0] == 2


def test_the_two_player_variant_can_be_switched_off(table, act):
    state = table(MonsterSetup("Alienoid", tokyo="city"), "Kraken", dice=["1 2 3 heart 1 2"],
                  game="origins:two-player-variant=off")
    assert state.stars[0] == 2 and state.energy[0] == 0
    assert state.game == "origins:two-player-variant=off"


def test_the_variant_is_for_games_of_two_not_games_down_to_two(table, act):
    # Three monsters started; one is out: Tokyo still gives stars.
    state = origins(table, MonsterSetup("Alienoid", tokyo="city"), "Kraken", MonsterSetup("Meka Dragon", alive=False,
                    health=0), dice=["1 2 3 heart 1 2"])
    assert state.stars[0] == 2 and state.energy[0] == 0


def test_a_search_bots_sampled_game_plays_by_the_tables_rules():
    for name, players, rules in (("origins", 2, ORIGINS_TWO_PLAYERS), ("origins", 3, ORIGINS),
                                 ("origins:two-player-variant=off", 2, ORIGINS)):
        state = new_game(name, players, seed=4, deck="kot")
        sampled = state.view(state.to_move).sample_game(seed=1)
        assert sampled.rules is rules and sampled.game == name


# ------------------------------------------------------------------ game options


def test_an_option_at_its_default_is_the_plain_game():
    assert get_game("origins:two-player-variant=on") is ORIGINS_GAME
    assert get_game("Origins: Two-Player-Variant = OFF").spec.name == "origins:two-player-variant=off"


@pytest.mark.parametrize(("name", "message"), [
    ("origins:speed=fast", "has no option 'speed'"),
    ("origins:two-player-variant=maybe", "one of on, off, not 'maybe'"),
    ("origins:two-player-variant", "write NAME=VALUE"),
    ("kot:two-player-variant=off", "takes no option|has no option"),
])
def test_a_bad_game_option_is_refused_with_its_reason(name, message):
    with pytest.raises(ValueError, match=message):
        get_game(name)


def test_a_game_with_options_keeps_every_promise_of_the_seam():
    assert check_game(get_game("origins:two-player-variant=off"), games=1) > 50


# ------------------------------------------------------------------ invariants


def test_the_invariants_know_what_origins_promises(table, act):
    from kotarena.testing import invariants

    state = origins(table, MonsterSetup("Alienoid", energy=5), MonsterSetup("Kraken", tokyo="city"), "Meka Dragon",
                    deck="kot", dice=["1 2 3 heart 1 2"])
    act(state, "stop")
    assert state.kind == "buy" and invariants(state) == []
    state.city = -1  # as if the Enter Tokyo step had been skipped
    assert invariants(state) == ["Tokyo is empty at monster #0 (Alienoid)'s buy step and nobody left it this turn"]
    state.city = 1
    state.alive[2], state.health[2], state.alive_count, state.eliminated_at[2] = False, 0, 2, (1, 1)
    state.energy[2] = 3
    assert invariants(state) == ["monster #2 (Meka Dragon) is eliminated but still has 3 energy"]


def test_random_origins_games_break_no_invariant():
    from kotarena.testing import random_games

    played = list(random_games(60, players=(2, 3, 4), decks=("origins", "kot", None), game="origins", record=True,
                               seed=7))
    assert all(state.is_over for state in played)


def test_every_ruling_of_the_origins_page_names_tests_and_scenarios_that_exist():
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    page = (root / "docs" / "origins.md").read_text(encoding="utf-8")
    rulings = page[page.index("## Rulings"):page.index("## Checking it")]
    named_tests = re.findall(r"test_origins\.py::(\w+)", rulings)
    named_scenarios = re.findall(r"`(\w+\.toml)`", rulings)
    # One row of the constants' table, eleven rulings in the shape of the turn.
    assert len(re.findall(r"^\| `[A-Z_]+`", rulings, re.M)) == 1
    assert len(re.findall(r"^- \*\*", rulings, re.M)) == 11 and named_tests and named_scenarios
    assert set(named_tests) <= set(globals())
    assert all((root / "scenarios" / "origins" / name).exists() for name in named_scenarios)
