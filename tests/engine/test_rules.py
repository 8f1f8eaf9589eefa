"""A variant of the King of Tokyo family is data: another rules value, another deck
built from the same effect blocks, and where it plays a step its own way, a function in
the rules' step table. Nothing of the turn machine is copied."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kotarena.engine import GameSpec
from kotarena.games.kot import CLASSIC, KingOfTokyo
from kotarena.games.kot.cards.abilities import Wings
from kotarena.games.kot.cards.blocks import AttackBonus, CardDamage, Instant, TokensOnHit
from kotarena.games.kot.cards.deck import Deck
from kotarena.games.kot.cards.effects import Combined
from kotarena.games.kot.cards.info import DISCARD, KEEP, CardInfo
from kotarena.games.kot.faces import scripted_dice
from kotarena.games.kot.kinds import CITY
from kotarena.games.kot.rules import CLASSIC_STEPS
from kotarena.games.kot.tokyo import attacker_moves_in
from kotarena.testing import check_game


def mini_deck() -> Deck:
    """A second deck from the classic deck's blocks (a new instance of each)."""
    return Deck("mini", (
        (CardInfo("corner_store", "Corner Store", 3, DISCARD, 2, "", "Gain 1 star."), Instant(stars=1)),
        (CardInfo("fire_blast", "Fire Blast", 3, DISCARD, 1, "", "Others lose 2 health."), Instant(hurt_others=2)),
        (CardInfo("spiked_tail", "Spiked Tail", 5, KEEP, 1, "", "+1 damage."), AttackBonus(1)),
        (CardInfo("acid_attack", "Acid Attack", 6, KEEP, 1, "", "+1 damage, even without claws."),
         Combined(AttackBonus(1), CardDamage(1))),
        (CardInfo("poison_spit", "Poison Spit", 4, KEEP, 1, "", "Poison who you hit."), TokensOnHit("poison")),
        (CardInfo("wings", "Wings", 6, KEEP, 1, "", "Pay 2 energy: no damage."), Wings()),
    ))


QUICK_RULES = replace(CLASSIC, stars_to_win=10, starting_health=8, market_size=2, bay_min_players=0,
                      take_tokyo_stars=0, take_tokyo_energy=1, start_tokyo_stars=1)
QUICK = KingOfTokyo(GameSpec("quick", "Quick King of Tokyo", 2, 4, "mini", rules_version=1, decks=("mini",)),
                    QUICK_RULES, {"mini": mini_deck()})


def test_a_variant_of_rules_and_deck_keeps_every_promise_of_the_seam():
    assert check_game(QUICK, games=2) > 100


def test_the_variant_plays_by_its_numbers():
    state = QUICK.new_state(3, seed=5, first_player=0, dice=scripted_dice(["claw 1 2 3 heart heart", "1 1 2 2 3 3"]))
    assert state.health == [8, 8, 8] and len(state.market) == 2 and not state.bay_open
    state.apply("stop")
    assert state.city == 0 and state.energy[0] == 1 and state.stars[0] == 0  # taking Tokyo gives energy here


def test_an_effect_instance_plays_one_card():
    wings = Wings()
    Deck("one", ((CardInfo("wings", "Wings", 6, KEEP), wings),))
    with pytest.raises(ValueError, match="already plays"):
        Deck("two", ((CardInfo("other_wings", "Other Wings", 6, KEEP), wings),))


def enter_when_empty(state) -> None:
    """An Enter Tokyo step of the kind Origins plays (Tokyo City only): whoever ends the
    resolve step with Tokyo empty enters it, claws or not."""
    if state.city < 0 and state.alive[state.active] and not state.in_tokyo(state.active):
        state.take_tokyo(state.active, CITY)
    attacker_moves_in(state)


def test_a_step_of_the_table_is_swapped_by_data():
    rules = replace(CLASSIC, bay_min_players=0, claws_take_tokyo=False,
                    steps=replace(CLASSIC_STEPS, enter_tokyo=enter_when_empty))
    game = KingOfTokyo(GameSpec("entering", "Entering", 2, 6, None, rules_version=1), rules)
    state = game.new_state(2, seed=1, deck=None, first_player=0, dice=scripted_dice(["1 2 3 heart energy energy", "1 1 2 2 3 3"]))
    state.apply("stop")  # no claw, yet Tokyo was empty
    assert state.city == 0 and state.stars[0] == 1
    assert check_game(game, games=2) > 100
