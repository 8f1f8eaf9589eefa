"""The buy step: three face-up cards, buying, sweeping, the deck and the discard pile.

Card effects are not played here; these tests cover where cards go and what they cost.
"""

from __future__ import annotations

import pytest

from kotarena.engine import IllegalActionError, PositionError
from kotarena.games.kot.position import MonsterSetup, build_position
from kotarena.games.kot.rulings import (
    REFILL_BEFORE_THE_BOUGHT_CARD_IS_PLAYED,
    RESHUFFLE_DISCARD_WHEN_THE_DECK_RUNS_OUT,
    SWEPT_CARDS_DISCARDED_BEFORE_REVEALING,
)

NO_CLAWS = "1 2 3 1 2 heart"


def ids(state, cards) -> list[str | None]:
    return [state.card(c).id if c >= 0 else None for c in cards]


def buying(table, energy: int, **options):
    """Alienoid, with ``energy``, at its buy step (its dice scored nothing)."""
    state = table(MonsterSetup("Alienoid", energy=energy), "Kraken", deck="default", dice=[NO_CLAWS], **options)
    state.apply("stop")
    assert state.kind == "buy"
    return state


def test_three_cards_are_face_up(table):
    state = buying(table, 2)  # 2 energy to sweep: the buy step is asked whatever the cards
    assert len(state.market) == 3 and all(c >= 0 for c in state.market)


def test_buying_a_card_costs_its_energy(table, act):
    state = buying(table, 6, market=["wings", "heal", "tanks"])
    act(state, "buy 1")
    assert state.energy[0] == 0


def test_a_bought_card_is_replaced_at_once_from_the_top_of_the_deck(table, act, events):
    state = buying(table, 6, market=["heal", "wings", "tanks"], deck_top=["energize", "frenzy"])
    act(state, "buy 2")
    assert ids(state, state.market) == ["heal", "energize", "tanks"]
    assert events(state, "buy", "reveal") == [("buy", 0, "wings", 2, 6), ("reveal", 2, "energize")]


def test_a_card_that_costs_more_than_your_energy_cannot_be_bought(table, snapshot):
    state = buying(table, 5, market=["wings", "heal", "tanks"])
    assert {a.text for a in state.legal} == {"done", "buy 2", "buy 3", "sweep"}
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match="'buy 1' is not legal"):
        state.apply("buy 1")
    assert snapshot(state) == before


def test_keep_cards_stay_in_front_of_their_owner(table, act):
    state = buying(table, 6, market=["wings", "heal", "tanks"])
    act(state, "buy 1")
    assert state.between_turns  # nothing else affordable: the turn is over; the card stays
    assert state.view(1).cards == (("wings",), ())
    assert ids(state, state.discard) == []


def test_discard_cards_go_to_the_discard_pile(table, act):
    state = buying(table, 4, market=["wings", "heal", "tanks"])
    act(state, "buy 3")
    assert ids(state, state.discard) == ["tanks"]
    assert state.owned[0] == []


def test_sweeping_costs_2_energy_and_reveals_three_new_cards(table, act, events):
    state = buying(table, 3, market=["wings", "heal", "tanks"], deck_top=["energize", "frenzy", "mimic", "jets"])
    act(state, "sweep")
    assert state.energy[0] == 1
    assert ids(state, state.market) == ["energize", "frenzy", "mimic"]
    assert ids(state, state.discard) == ["wings", "heal", "tanks"]
    assert events(state, "sweep") == [("sweep", 0)]


def test_sweeping_needs_2_energy(table, snapshot):
    # With 1 energy no card is affordable and sweeping is not either: nobody is asked.
    state = table(MonsterSetup("Alienoid", energy=1), "Kraken", deck="default", dice=[NO_CLAWS],
                  market=["wings", "heal", "tanks"])
    state.apply("stop")
    assert state.between_turns and state.energy[0] == 1
    assert [a.text for _, a in state.history] == ["stop"]
    before = snapshot(state)
    with pytest.raises(IllegalActionError):
        state.apply("sweep")
    assert snapshot(state) == before


def test_a_buy_step_with_nothing_to_buy_asks_nobody(table):
    # 1 energy: no card affordable, no sweep; ``done`` would be the only answer.
    poor = table(MonsterSetup("Alienoid", energy=1), "Kraken", deck="default", dice=[NO_CLAWS],
                 market=["wings", "heal", "tanks"])
    poor.apply("stop")
    assert poor.between_turns and poor.to_move == -1 and poor.active == 1
    assert all(action.text != "done" for _, action in poor.history)
    assert poor.energy[0] == 1
    # The same monster with enough energy for Heal is asked.
    rich = table(MonsterSetup("Alienoid", energy=3), "Kraken", deck="default", dice=[NO_CLAWS],
                 market=["wings", "heal", "tanks"])
    rich.apply("stop")
    assert rich.kind == "buy" and rich.to_move == 0
    assert {a.text for a in rich.legal} == {"done", "buy 2", "sweep"}


def test_a_buy_step_with_only_a_sweep_affordable_is_still_asked(table):
    state = buying(table, 2, market=["wings", "heal", "tanks"])  # 6, 3 and 4 energy
    assert state.to_move == 0
    assert {a.text for a in state.legal} == {"done", "sweep"}


def test_kraken_sweeps_then_buys_as_in_the_rulebook(table, act):
    # Seed 003: Kraken has 10 energy and likes none of the cards. It pays 2 to sweep
    # them, sees a card costing 3, buys it and draws a new one, and keeps 5 energy.
    state = buying(table, 10, market=["wings", "mimic", "nova_breath"],
                   deck_top=["energize", "heal", "frenzy", "jets"])
    act(state, "sweep")
    assert state.energy[0] == 8
    act(state, "buy 2")  # Heal, 3 energy
    assert state.energy[0] == 5
    assert ids(state, state.market) == ["energize", "jets", "frenzy"]
    act(state, "done")
    assert state.energy[0] == 5 and state.between_turns


def test_buy_then_sweep_then_buy_again_while_energy_lasts(table, act):
    state = buying(table, 9, market=["heal", "wings", "tanks"], deck_top=["jets", "energize", "frenzy", "rapid_healing"])
    act(state, "buy 1", "sweep", "buy 3")  # Heal (3), sweep (2), Rapid Healing (3)
    assert state.energy[0] == 1
    assert ids(state, state.owned[0]) == ["rapid_healing"]
    assert ids(state, state.discard) == ["heal", "jets", "wings", "tanks"]
    assert state.between_turns  # 1 energy buys nothing: the turn ended without asking
    assert state.history[-1][1].text == "buy 3"


def test_several_cards_may_be_bought_in_one_turn(table, act):
    state = buying(table, 12, market=["heal", "wings", "tanks"])
    act(state, "buy 1", "buy 2")
    assert state.energy[0] == 3
    assert ids(state, state.owned[0]) == ["wings"]


def test_done_ends_the_buy_step_and_the_turn(table, act):
    state = buying(table, 12)
    act(state, "done")
    assert state.between_turns and state.active == 1 and state.energy[0] == 12


def test_an_empty_deck_is_the_shuffled_discard_pile(table, act, events):
    assert RESHUFFLE_DISCARD_WHEN_THE_DECK_RUNS_OUT is True
    state = buying(table, 6, market=["heal", "wings", "tanks"])
    # Late in a game: every other card has been discarded.
    state.discard, state.deck = state.deck, []
    act(state, "buy 2")
    assert events(state, "reshuffle") == [("reshuffle", 63)]
    assert len(state.deck) == 62 and state.discard == []
    assert state.market[1] >= 0


def test_a_bought_discard_card_is_not_shuffled_back_into_the_market(table, act):
    # Ruling: the gap is refilled at once, before the bought card reaches the discard pile.
    assert REFILL_BEFORE_THE_BOUGHT_CARD_IS_PLAYED is True
    state = buying(table, 3, market=["heal", "wings", "tanks"])
    heal = state.market[0]
    state.discard, state.deck = state.deck, []
    act(state, "buy 1")
    assert state.discard == [heal]
    assert heal not in state.market and heal not in state.deck


def test_swept_cards_are_discarded_before_new_ones_are_revealed(table, act, events):
    # Ruling: with one card left in the deck, the other two new cards come from the
    # discard pile, which by then holds the three swept cards.
    assert SWEPT_CARDS_DISCARDED_BEFORE_REVEALING is True
    state = buying(table, 2, market=["heal", "wings", "tanks"], deck_top=["frenzy"])
    swept = set(state.market)
    state.deck = state.deck[-1:]
    act(state, "sweep")
    assert events(state, "reshuffle") == [("reshuffle", 3)]
    assert ids(state, state.market)[0] == "frenzy"
    assert set(state.market[1:]) | set(state.deck) == swept


def test_a_slot_stays_empty_when_deck_and_discard_pile_are_empty(table, act):
    state = buying(table, 20, market=["heal", "wings", "tanks"])
    state.deck = []
    act(state, "buy 2")
    assert ids(state, state.market) == ["heal", None, "tanks"]
    assert {a.text for a in state.legal} == {"done", "buy 1", "buy 3", "sweep"}


def test_an_eliminated_monsters_keep_cards_go_to_the_discard_pile(table, act):
    state = table("Alienoid", MonsterSetup("Kraken", health=1, tokyo="city", cards=["wings", "urbavore"]),
                  "Meka Dragon", deck="default", dice=["claw 1 2 3 1 2"])
    act(state, "stop")
    assert not state.alive[1]
    assert state.owned[1] == []
    assert ids(state, state.discard) == ["wings", "urbavore"]


def test_positions_put_named_cards_where_they_say(table):
    state = build_position(
        [MonsterSetup("Alienoid", cards=["extra_head"]), MonsterSetup("Kraken")],
        first="Alienoid", market=["heal", "Wings"], deck_top=["frenzy", "tanks"], begin=False,
    )
    assert ids(state, state.owned[0]) == ["extra_head"]
    assert ids(state, state.market) == ["heal", "wings", None]
    assert ids(state, state.deck[-2:]) == ["tanks", "frenzy"]  # frenzy is revealed next
    assert len(state.deck) + 3 == 66  # Extra Head, Heal and Wings are out of the deck


def test_deck_top_stays_on_the_deck_when_the_market_is_not_named():
    state = build_position([MonsterSetup("Alienoid"), MonsterSetup("Kraken")], first="Alienoid",
                           deck_top=["frenzy", "tanks"], begin=False)
    assert "frenzy" not in ids(state, state.market) and "tanks" not in ids(state, state.market)
    assert ids(state, state.deck[-2:]) == ["tanks", "frenzy"]
    assert all(c >= 0 for c in state.market)


@pytest.mark.parametrize(("setup", "message"), [
    ({"market": ["heal", "wings", "tanks", "jets"]}, "at most 3 face-up cards"),
    ({"market": ["nonsense"]}, "no card 'nonsense'"),
    ({"market": ["heal", "heal"]}, "no copy of 'Heal' is left"),
])
def test_positions_with_impossible_cards_are_refused(setup, message):
    with pytest.raises(PositionError, match=message):
        build_position([MonsterSetup("Alienoid"), MonsterSetup("Kraken")], first="Alienoid", **setup)


def test_discard_cards_cannot_be_kept_in_front_of_a_monster():
    with pytest.raises(PositionError, match="'Heal' is a discard card"):
        build_position([MonsterSetup("Alienoid", cards=["heal"]), MonsterSetup("Kraken")], first="Alienoid")
