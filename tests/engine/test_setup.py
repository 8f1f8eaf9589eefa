"""Setting up: monsters, the market, who starts, and positions that cannot exist."""

from __future__ import annotations

import pytest

from kotarena.engine import PositionError
from kotarena.games import new_game
from kotarena.games.kot import MONSTERS
from kotarena.games.kot.faces import scripted_dice
from kotarena.games.kot.position import MonsterSetup, build_position
from kotarena.games.kot.rulings import ROLL_OFF_ONLY_THE_TIED_ROLL_AGAIN

NO_CLAWS = "1 2 3 1 2 heart"


def test_each_monster_starts_with_10_health_0_stars_and_0_energy():
    game = new_game("kot", 4, seed=5)
    assert game.health == [10] * 4
    assert game.max_health == [10] * 4
    assert game.stars == [0] * 4
    assert game.energy == [0] * 4
    assert game.alive == [True] * 4


def test_nobody_is_in_tokyo_and_nobody_owns_cards_at_the_start():
    game = new_game("kot", 5, seed=5)
    assert game.city == -1 and game.bay == -1
    assert game.owned == [[]] * 5


def test_three_cards_of_the_shuffled_66_card_deck_are_face_up():
    game = new_game("kot", 4, seed=5)
    assert len(game.cards_info) == 66
    assert len(game.market) == 3 and all(card >= 0 for card in game.market)
    assert len(game.deck) == 63 and game.discard == []
    assert sorted(game.deck + game.market) == list(range(66))


def test_the_deck_is_shuffled_by_the_seed():
    assert new_game("kot", 4, seed=1).deck != new_game("kot", 4, seed=2).deck
    assert new_game("kot", 4, seed=1).deck == new_game("kot", 4, seed=1).deck


def test_a_game_without_cards_has_no_market():
    game = new_game("kot", 4, seed=5, deck=None)
    assert game.market == [-1, -1, -1] and game.deck == []


def test_monsters_sit_in_the_order_given():
    assert new_game("kot", ["Kraken", "Alienoid"], seed=1).names == ("Kraken", "Alienoid")
    assert new_game("kot", 3, seed=1).names == MONSTERS[:3]


@pytest.mark.parametrize("players", [1, 7])
def test_king_of_tokyo_is_for_2_to_6_players(players):
    with pytest.raises(PositionError, match="2 to 6 players"):
        new_game("kot", players, seed=1)


def test_two_monsters_cannot_share_a_name():
    with pytest.raises(PositionError, match="same name"):
        new_game("kot", ["Kraken", "Kraken"], seed=1)


def test_the_monster_with_most_claws_starts(events):
    dice = scripted_dice(["claw 1 2 3 1 2", "claw claw claw 1 2 3", "claw claw 1 2 3 1", NO_CLAWS])
    game = new_game("kot", 3, seed=1, dice=dice)
    assert game.active == 1 and game.to_move == 1
    assert events(game, "rolloff") == [("rolloff", ((0, 1), (1, 3), (2, 2)))]


def test_tied_monsters_roll_again_among_themselves_only(events):
    assert ROLL_OFF_ONLY_THE_TIED_ROLL_AGAIN is True
    dice = scripted_dice([
        "claw claw 1 2 3 1", "claw 1 2 3 1 2", "claw claw 1 2 3 1", "1 2 3 1 2 3",  # seats 0 and 2 tie
        "claw 1 2 3 1 2", "claw 1 2 3 1 2",                                      # tie again
        "1 2 3 1 2 3", "claw 1 2 3 1 2",                                         # seat 2 starts
        NO_CLAWS,
    ])
    game = new_game("kot", 4, seed=1, dice=dice)
    assert game.active == 2
    assert [event[1] for event in events(game, "rolloff")] == [
        ((0, 2), (1, 1), (2, 2), (3, 0)),
        ((0, 1), (2, 1)),
        ((0, 0), (2, 1)),
    ]
    assert dice.remaining == 0  # the starting monster's first roll used the last group


def test_the_first_player_may_be_chosen_instead_of_rolling(events):
    game = new_game("kot", 4, seed=1, first_player=3)
    assert game.active == 3
    assert events(game, "rolloff") == []


def test_play_goes_clockwise_in_seat_order(table, act, events):
    state = table("Alienoid", "Cyber Bunny", "Giga Zaur", "Kraken", first="Giga Zaur",
                  dice=[NO_CLAWS] * 5, pause_between_turns=False)
    act(state, "stop", "stop", "stop", "stop")
    assert [event[1] for event in events(state, "turn")] == [2, 3, 0, 1, 2]


def test_a_game_starts_at_the_first_monsters_first_roll():
    game = new_game("kot", 4, seed=9, first_player=0)
    assert game.turn == 1 and game.kind == "roll" and game.rolls_left == 2
    assert len(game.dice) == 6


# -------------------------------------------------------------- positions


def build(*monsters: MonsterSetup, **options):
    return build_position(list(monsters), first=monsters[0].name, deck=None, **options)


def test_a_position_starts_at_the_first_monsters_turn(table):
    state = table(MonsterSetup("Alienoid", health=4, stars=7, energy=2), "Kraken", first="Kraken", dice=[NO_CLAWS])
    assert (state.active, state.to_move, state.kind, state.turn) == (1, 1, "roll", 1)
    assert (state.health[0], state.stars[0], state.energy[0]) == (4, 7, 2)


@pytest.mark.parametrize(("monsters", "message"), [
    ((MonsterSetup("A", tokyo="city"), MonsterSetup("B", tokyo="city")), "Tokyo City already holds 'A'"),
    ((MonsterSetup("A", health=0), MonsterSetup("B")), "health 0 is outside 1..10"),
    ((MonsterSetup("A", health=11), MonsterSetup("B")), "health 11 is outside 1..10"),
    ((MonsterSetup("A", alive=False, health=3), MonsterSetup("B"), MonsterSetup("C")), "eliminated monster has 0 health"),
    ((MonsterSetup("A"), MonsterSetup("B", alive=False, health=0)), "at least 2 monsters alive"),
    ((MonsterSetup("A", alive=False, health=0, tokyo="city"), MonsterSetup("B"), MonsterSetup("C")),
     "eliminated monster cannot be in Tokyo"),
    ((MonsterSetup("A", tokyo="harbour"), MonsterSetup("B")), "tokyo must be 'city', 'bay' or 'none'"),
    ((MonsterSetup("A", stars=-1), MonsterSetup("B")), "cannot be negative"),
    ((MonsterSetup("A"),), "2 to 6 players"),
])
def test_positions_that_cannot_exist_are_refused(monsters, message):
    with pytest.raises(PositionError, match=message):
        build(*monsters)


def test_a_position_cannot_start_with_an_eliminated_monster():
    monsters = [MonsterSetup("A", alive=False, health=0), MonsterSetup("B"), MonsterSetup("C")]
    with pytest.raises(PositionError, match="cannot take the first turn"):
        build_position(monsters, first="A", deck=None)


def test_a_position_names_its_first_monster_from_the_table():
    with pytest.raises(PositionError, match="'Z' is not at the table"):
        build_position([MonsterSetup("A"), MonsterSetup("B")], first="Z", deck=None)


def test_bay_of_a_position_is_closed_once_fewer_than_5_are_alive():
    monsters = [MonsterSetup(n) for n in "ABCD"] + [MonsterSetup("E", alive=False, health=0)]
    assert not build(*monsters).bay_open
    assert build(*[MonsterSetup(n) for n in "ABCDE"]).bay_open


def test_cards_need_a_deck():
    with pytest.raises(PositionError, match="no deck"):
        build(MonsterSetup("A", cards=["wings"]), MonsterSetup("B"))
