"""The 14 cards new in King of Tokyo: Origins (deck ``origins``), each played through the
classic game's engine with scripted dice.

Origins' other 36 cards are second-edition classic cards, the very same cards as in
deck ``kot-2e`` (their tests are in ``test_second_edition.py`` and the classic
modules); ``test_coverage.py`` checks that every card has its test.
"""

from __future__ import annotations

from kotarena.games.kot.cards import DECKS, get_deck
from kotarena.games.kot.cards.origins import ORIGINS_NEW
from kotarena.games.kot.position import MonsterSetup
from kotarena.games.kot.rulings import BIOFUEL_IN_TOKYO, DRAINING_RAY_ROBS_EVERY_TIED_LEADER

#: The deck these tests play (``test_coverage.py`` reads it).
DECK = "origins"

NOTHING = "1 2 3 1 2 energy"  # scores nothing, 1 energy
QUIET = "1 2 3 1 2 heart"  # scores nothing, 1 heart
CLAW = "claw 1 2 3 1 2"  # one claw, nothing else


def test_origins_has_50_cards_14_of_them_new_and_36_second_edition_classics():
    origins, second = get_deck(DECK), get_deck("kot-2e")
    assert len(origins.cards) == 50 and len(ORIGINS_NEW) == 14
    repeats = [info for info in DECKS[DECK] if info.id not in ORIGINS_NEW]
    assert len(repeats) == 36
    assert all(origins.effects[info.id] is second.effects[info.id] for info in repeats)
    assert sum(1 for info in origins.cards if info.type == "keep") == 36
    assert next(info for info in DECKS[DECK] if info.id == "evacuation_orders").copies == 1


# ---------------------------------------------------------------- discard cards


def test_barricades_makes_every_other_monster_lose_3_stars(at_buy):
    state = at_buy("barricades", MonsterSetup("Kraken", stars=5), MonsterSetup("Meka Dragon", stars=2),
                   energy=4, deck=DECK)
    state.apply("buy 1")
    assert state.stars == [0, 2, 0]


def test_ice_cream_truck_gives_a_star_and_heals_2(at_buy):
    state = at_buy("ice_cream_truck", energy=3, health=5, deck=DECK)
    state.apply("buy 1")
    assert (state.stars[0], state.health[0]) == (1, 7)


def test_supertower_gives_5_stars(at_buy):
    state = at_buy("supertower", energy=6, deck=DECK)
    state.apply("buy 1")
    assert state.stars[0] == 5


# ---------------------------------------------------------------- Tokyo


def test_hungry_urbavore_gives_a_star_more_for_taking_tokyo(table):
    state = table(MonsterSetup("Alienoid", cards=["hungry_urbavore"]), "Kraken", deck=DECK, dice=[CLAW])
    state.apply("stop")
    assert state.city == 0 and state.stars[0] == 1 + 1


def test_hungry_urbavore_gives_its_star_when_a_yield_lets_its_owner_in(table):
    state = table(MonsterSetup("Alienoid", cards=["hungry_urbavore"]), MonsterSetup("Kraken", tokyo="city"),
                  deck=DECK, dice=[CLAW])
    state.apply("stop")
    state.apply("yield")
    assert state.city == 0 and state.stars[0] == 2


def test_gamma_blast_hurts_every_other_monster_when_its_owner_takes_tokyo(table, events):
    state = table(MonsterSetup("Alienoid", cards=["gamma_blast"]), "Kraken", "Meka Dragon", deck=DECK, dice=[CLAW])
    state.apply("stop")
    assert state.city == 0 and state.health == [10, 9, 9]
    assert ("damage", 1, 1, 0) in events(state, "damage")


def test_gamma_blast_hurts_the_monster_that_yielded_too(table):
    state = table(MonsterSetup("Alienoid", cards=["gamma_blast"]), MonsterSetup("Kraken", tokyo="city"),
                  "Meka Dragon", deck=DECK, dice=[CLAW])
    state.apply("stop")
    state.apply("yield")
    assert state.city == 0 and state.health == [10, 8, 9]  # Kraken: the claw, then the blast


def test_gamma_blast_acts_when_death_from_above_takes_tokyo(at_buy):
    state = at_buy("death_from_above", MonsterSetup("Kraken", tokyo="city"), energy=4, cards=["gamma_blast"],
                   deck=DECK)
    state.apply("buy 1")
    assert state.city == 0 and state.health[1] == 9


def test_jagged_tactician_gives_energy_for_yielding_and_hurts_who_takes_the_place(table):
    state = table("Alienoid", MonsterSetup("Kraken", tokyo="city", cards=["jagged_tactician"]), deck=DECK,
                  dice=[CLAW])
    state.apply("stop")
    state.apply("yield")
    assert state.city == 0
    assert state.energy[1] == 1 and state.health[0] == 9 and state.health[1] == 9


def test_jagged_tactician_does_nothing_when_its_owner_stays(table):
    state = table("Alienoid", MonsterSetup("Kraken", tokyo="city", cards=["jagged_tactician"]), deck=DECK,
                  dice=[CLAW])
    state.apply("stop")
    state.apply("stay")
    assert state.city == 1 and state.energy[1] == 0 and state.health[0] == 10


def test_bull_headed_gives_a_star_for_staying_in_tokyo(table):
    state = table("Alienoid", MonsterSetup("Kraken", tokyo="city", cards=["bull_headed"]), deck=DECK, dice=[CLAW])
    state.apply("stop")
    state.apply("stay")
    assert state.city == 1 and state.stars[1] == 1


def test_bull_headed_gives_nothing_for_yielding(table):
    state = table("Alienoid", MonsterSetup("Kraken", tokyo="city", cards=["bull_headed"]), deck=DECK, dice=[CLAW])
    state.apply("stop")
    state.apply("yield")
    assert state.stars[1] == 0


# ---------------------------------------------------------------- dice


def test_shrinky_turns_2s_into_1s_one_die_at_a_time(table):
    state = table(MonsterSetup("Alienoid", cards=["shrinky"]), "Kraken", deck=DECK, dice=["2 2 1 3 heart energy"])
    state.apply("stop")
    assert state.kind == "dice"
    assert [a.text for a in state.legal] == ["pass", "use shrinky 1", "use shrinky 2"]
    state.apply("use shrinky 1")
    assert [a.text for a in state.legal] == ["pass", "use shrinky 2"]
    state.apply("use shrinky 2")
    assert state.stars[0] == 1  # 1 1 1


def test_shrinky_is_not_offered_without_a_2(table):
    state = table(MonsterSetup("Alienoid", cards=["shrinky"]), "Kraken", deck=DECK, dice=["1 1 3 3 heart energy"])
    state.apply("stop")
    assert state.kind != "dice"


def test_draining_ray_takes_a_star_from_each_monster_tied_for_the_most(table):
    assert DRAINING_RAY_ROBS_EVERY_TIED_LEADER is True
    state = table(MonsterSetup("Alienoid", stars=1, cards=["draining_ray"]), MonsterSetup("Kraken", stars=5),
                  MonsterSetup("Meka Dragon", stars=5), MonsterSetup("The King", stars=3), deck=DECK,
                  dice=["energy energy energy energy 1 2"])
    state.apply("stop")
    assert state.stars == [1 + 2, 4, 4, 3]


def test_draining_ray_needs_four_of_a_kind(table):
    state = table(MonsterSetup("Alienoid", cards=["draining_ray"]), MonsterSetup("Kraken", stars=5), deck=DECK,
                  dice=["energy energy energy 1 2 3"])
    state.apply("stop")
    assert state.stars == [0, 5]


def test_draining_ray_takes_nothing_when_its_owner_leads(table):
    state = table(MonsterSetup("Alienoid", stars=6, cards=["draining_ray"]), MonsterSetup("Kraken", stars=5),
                  deck=DECK, dice=["energy energy energy energy 1 2"])
    state.apply("stop")
    assert state.stars == [6, 5]


def test_flaming_aura_hurts_every_other_monster_on_four_of_a_kind_without_an_attack(table):
    state = table(MonsterSetup("Alienoid", cards=["flaming_aura"]), MonsterSetup("Kraken", tokyo="city"),
                  "Meka Dragon", deck=DECK, dice=["energy energy energy energy 1 2"])
    state.apply("stop")
    assert state.health == [10, 9, 9]
    assert state.kind != "yield"  # card damage: nobody may yield to it


def test_flaming_aura_damage_lands_with_the_attack(table):
    state = table(MonsterSetup("Alienoid", cards=["flaming_aura"]), MonsterSetup("Kraken", tokyo="city"),
                  deck=DECK, dice=["claw claw claw claw 1 2"])
    state.apply("stop")
    assert state.health[1] == 10 - 4 - 1 and state.kind == "yield"


# ---------------------------------------------------------------- hearts and damage


def test_biofuel_spends_heart_results_on_energy(table):
    state = table(MonsterSetup("Alienoid", health=6, cards=["biofuel"]), "Kraken", deck=DECK,
                  dice=["heart heart 1 2 3 1"])
    state.apply("stop")
    assert state.kind == "hearts" and [a.text for a in state.legal] == ["pass", "use biofuel"]
    state.apply("use biofuel")
    state.apply("pass")  # the other heart heals
    assert (state.energy[0], state.health[0]) == (1, 7)


def test_biofuel_gives_energy_for_hearts_in_tokyo(table):
    assert BIOFUEL_IN_TOKYO is True
    state = table(MonsterSetup("Alienoid", tokyo="city", cards=["biofuel"]), "Kraken", deck=DECK,
                  dice=["heart heart 1 2 3 1"])
    state.apply("stop")
    state.apply("use biofuel")
    state.apply("use biofuel")
    assert state.energy[0] == 2


def test_electric_armor_pays_1_energy_to_lose_1_health_less(table, events):
    state = table(MonsterSetup("Alienoid", tokyo="city"), MonsterSetup("Kraken", energy=2, cards=["electric_armor"]),
                  deck=DECK, dice=["claw claw claw 1 2 3"])
    state.apply("stop")
    assert (state.kind, state.to_move) == ("damage", 1)
    assert [a.text for a in state.legal] == ["pass", "use electric_armor"]
    state.apply("use electric_armor")  # once per damage: the rest lands, nothing more is asked
    assert (state.health[1], state.energy[1]) == (8, 1)
    assert state.between_turns  # Alienoid has nothing to buy: the turn is over
    assert ("prevent", 1, 1, "electric_armor") in events(state, "prevent")


def test_electric_armor_acts_again_on_the_next_damage(table):
    # Alienoid's claws, then its Flame Thrower: two damages, the armour may act on each.
    state = table(MonsterSetup("Alienoid", energy=2), MonsterSetup("Kraken", tokyo="city", energy=2,
                  cards=["electric_armor"]), deck=DECK, market=["flame_thrower"], dice=["claw claw 1 2 3 energy"])
    state.apply("stop")
    state.apply("use electric_armor")
    state.apply("stay")
    assert state.health[1] == 10 - 1 and state.kind == "buy"
    state.apply("buy 1")
    assert (state.kind, state.to_move) == ("damage", 1)
    state.apply("use electric_armor")
    assert (state.health[1], state.energy[1]) == (8, 0)


def test_orb_of_doom_hurts_the_roller_1_at_each_reroll_as_it_rerolls(table, events):
    # The card: "each time another monster makes a reroll, it loses 1 health": at the
    # reroll, while the roll goes on, not once the dice resolved.
    state = table("Alienoid", MonsterSetup("Kraken", cards=["orb_of_doom"]), deck=DECK,
                  dice=["1 2 3 1 2 energy", "1", "1"])
    state.apply("reroll 2")
    assert state.health == [9, 10] and (state.kind, state.to_move, state.rolls_left) == ("roll", 0, 1)
    state.apply("reroll 3")
    assert state.health == [8, 10] and state.stars[0] == 2  # 1 1 1 1
    assert events(state, "damage") == [("damage", 0, 1, 1), ("damage", 0, 1, 1)]


def test_orb_of_doom_damage_comes_before_the_rollers_hearts(table):
    # At full health the reroll costs 1 at once, and the two hearts then heal it back;
    # damage held to the end of the roll would have found the hearts wasted (8 health).
    state = table("Alienoid", MonsterSetup("Kraken", cards=["orb_of_doom"]), deck=DECK,
                  dice=["heart heart 1 2 3 energy", "1"])
    state.apply("reroll 3")
    assert state.health[0] == 9
    state.apply("stop")
    assert state.health[0] == 10


def test_orb_of_doom_asks_the_rollers_damage_cards_at_the_reroll_and_the_roll_goes_on(table):
    state = table(MonsterSetup("Alienoid", energy=2, cards=["shrinky", "wings"]),
                  MonsterSetup("Kraken", cards=["orb_of_doom"]), deck=DECK,
                  dice=["2 1 1 3 energy energy", "1", "2"])
    state.apply("reroll 4")
    assert (state.kind, state.to_move) == ("damage", 0)
    assert state.view(0).pending[0] == (0, 1, 1, False)
    assert state.stars[0] == 0 and state.energy[0] == 2  # the dice have not resolved
    state.apply("use wings")
    assert state.health[0] == 10 and (state.kind, state.to_move, state.rolls_left) == ("roll", 0, 1)
    state.apply("reroll 4")  # Wings keeps the second loss off too
    state.apply("use shrinky 1")  # 1 1 1 2
    state.apply("pass")  # the other 2 stays
    assert state.health[0] == 10 and state.stars[0] == 1


def test_orb_of_doom_eliminates_a_roller_at_its_reroll_before_its_dice_resolve(table, events):
    # Seed 001: a monster that loses its last health "выбывает из игры" (is out of the
    # game), its cards and energy discarded. Alienoid, in Tokyo at 1 health, rerolls
    # into three claws: it is out at the reroll, so they hurt nobody, its 1 1 1 scores
    # nothing, and its turn is over.
    state = table(MonsterSetup("Alienoid", health=1, energy=3, tokyo="city"),
                  MonsterSetup("Kraken", cards=["orb_of_doom"]), "Meka Dragon", game="origins", deck=DECK,
                  dice=["1 1 1 claw claw energy", "claw", "1 2 3 1 2 energy"])
    stars = state.stars[0]
    state.apply("reroll 6")
    assert not state.alive[0] and state.city == -1
    assert state.health == [0, 10, 10] and state.stars[0] == stars and state.energy[0] == 0
    assert events(state, "eliminated") == [("eliminated", 0)] and events(state, "stars")[-1:] != [
        ("stars", 0, 1, "dice")]
    assert state.between_turns and state.active == 1  # the turn passed to Kraken
    state.next_turn()
    state.apply("stop")
    assert state.city == 1  # Tokyo emptied by the Orb: the next monster enters


def test_orb_of_doom_ends_a_two_player_game_at_the_reroll(table):
    # The roller at 1 health rerolls into a heart: it is out before the heart could heal
    # it, and the Orb's owner is the last monster standing at once.
    state = table(MonsterSetup("Alienoid", health=1), MonsterSetup("Kraken", cards=["orb_of_doom"]),
                  game="origins", deck=DECK, dice=["1 2 3 1 2 energy", "heart"])
    state.apply("reroll 6")
    assert state.outcome is not None and state.outcome.winner == 1
    assert state.outcome.termination.value == "last_standing" and state.energy[0] == 0


def test_orb_of_doom_counts_the_extra_reroll_a_card_gives(table):
    # "including extra rolls": Giant Brain's third reroll costs 1 too, and may be the last.
    state = table(MonsterSetup("Alienoid", health=3, cards=["giant_brain"]),
                  MonsterSetup("Kraken", cards=["orb_of_doom"]), "Meka Dragon", deck=DECK,
                  dice=["1 2 3 1 2 energy", "1", "1", "1"])
    state.apply("reroll 6")
    state.apply("reroll 5")
    assert state.health[0] == 1 and (state.kind, state.rolls_left) == ("roll", 1)  # Giant Brain's reroll
    state.apply("reroll 4")
    assert not state.alive[0] and state.stars[0] == 0


def test_orb_of_doom_lets_rapid_healing_save_the_roller_at_the_reroll(table):
    state = table(MonsterSetup("Alienoid", health=1, energy=2, cards=["rapid_healing"]),
                  MonsterSetup("Kraken", cards=["orb_of_doom"]), deck=DECK, dice=["1 2 3 1 2 energy", "1"])
    state.apply("reroll 6")
    assert (state.kind, state.to_move) == ("damage", 0) and "use rapid_healing" in [a.text for a in state.legal]
    state.apply("use rapid_healing")
    assert state.alive[0] and state.health[0] == 1 and (state.kind, state.rolls_left) == ("roll", 1)


def test_orb_of_doom_drop_to_0_is_seen_by_eater_of_the_dead_and_it_has_a_child_rolls_on(table):
    # In the classic game with the Orb mixed in: the drop to 0 at the reroll is a drop
    # like any other (Eater of the Dead scores it, It Has a Child saves the monster), and
    # the saved roller goes on with its roll.
    state = table(MonsterSetup("Alienoid", health=1, stars=5, cards=["it_has_a_child"]),
                  MonsterSetup("Kraken", cards=["orb_of_doom", "eater_of_the_dead"]), deck="kot+origins:orb_of_doom",
                  dice=["1 2 3 1 2 energy", "1", "1"])
    state.apply("reroll 1")
    assert state.alive[0] and (state.health[0], state.stars[0], state.owned[0]) == (10, 0, [])
    assert state.stars[1] == 3 and (state.kind, state.to_move, state.rolls_left) == ("roll", 0, 1)
    state.apply("reroll 6")
    assert state.health[0] == 9


def test_orb_of_doom_a_sampled_game_at_its_damage_decision_goes_on_with_the_roll(table):
    # A search bot samples the game at the roller's damage decision: the copy knows the
    # roll goes on after the damage (the view's ``pending`` carries the step).
    state = table(MonsterSetup("Alienoid", energy=2, cards=["wings"]),
                  MonsterSetup("Kraken", cards=["orb_of_doom"]), deck=DECK, dice=["1 2 3 1 2 energy", "1"])
    state.apply("reroll 6")
    sampled = state.view(0).sample_game(5)
    for game in (state, sampled):
        game.apply("pass")
        assert game.health[0] == 9 and (game.kind, game.to_move, game.rolls_left) == ("roll", 0, 1)


def test_orb_of_doom_spares_its_owner(table):
    state = table(MonsterSetup("Alienoid", cards=["orb_of_doom"]), "Kraken", deck=DECK,
                  dice=["1 2 3 1 2 energy", "1"])
    state.apply("reroll 2")
    state.apply("stop")
    assert state.health == [10, 10]


# ---------------------------------------------------------------- buying


def test_scavenger_buys_a_card_from_the_discard_pile(table):
    state = table(MonsterSetup("Alienoid", energy=11, cards=["scavenger"]), "Kraken", deck=DECK,
                  market=["skyscraper", "heal", "corner_store"], dice=[NOTHING])
    state.apply("stop")
    state.apply("sweep")  # the three go to the discard pile
    assert "use scavenger skyscraper" in [a.text for a in state.legal]
    state.apply("use scavenger skyscraper")
    assert state.stars[0] == 4 and state.energy[0] == 12 - 2 - 6
    # A discard card bought from the pile goes to the bottom of the deck once played.
    assert state.cards_info[state.deck[0]].id == "skyscraper"
    assert "skyscraper" not in [state.cards_info[c].id for c in state.discard]


def test_scavenger_keeps_a_keep_card_from_the_discard_pile(table):
    state = table(MonsterSetup("Alienoid", energy=6, cards=["scavenger"]), "Kraken", deck=DECK,
                  market=["herd_culler"], dice=[NOTHING])
    state.apply("stop")
    state.apply("sweep")
    state.apply("use scavenger herd_culler")
    assert [state.cards_info[c].id for c in state.owned[0]] == ["scavenger", "herd_culler"]
    assert state.energy[0] == 7 - 2 - 3
