"""The card framework: the damage pipeline, card decisions, card state in views and copies,
and random play with the whole deck.
"""

from __future__ import annotations

import os
import random

from kotarena.games import new_game
from kotarena.games.kot.cards.moments import MOMENTS
from kotarena.games.kot.position import MonsterSetup
from kotarena.testing import invariants, random_game, random_games

QUIET = "1 2 3 1 2 heart"


# ---------------------------------------------------------------- the damage pipeline


def test_all_targets_of_an_attack_take_their_damage_before_anybody_is_eliminated(table, events):
    # Five monsters, Bay open; Meka Dragon in the City at 2 health, Kraken in the Bay.
    # The claws eliminate Meka Dragon (5 -> 4 alive closes the Bay) but Kraken has
    # already taken its damage: the Bay closes after the whole attack landed.
    state = table("Alienoid", MonsterSetup("Kraken", tokyo="bay"), MonsterSetup("Meka Dragon", tokyo="city", health=2),
                  "The King", "Giga Zaur", dice=["claw claw claw 1 2 3"])
    state.apply("stop")
    kinds = [e[0] for e in events(state) if e[0] in ("damage", "eliminated", "bay closed")]
    assert kinds == ["damage", "damage", "eliminated", "bay closed"]
    assert state.health[1] == 7 and state.bay == -1


def test_monsters_eliminated_by_the_same_attack_tie(table):
    state = table(MonsterSetup("Alienoid", tokyo="city"), MonsterSetup("Kraken", health=1),
                  MonsterSetup("Meka Dragon", health=1), "The King", dice=["claw 1 2 3 heart heart"])
    state.apply("stop")
    assert state.eliminated_at[1] == state.eliminated_at[2]


def test_a_table_without_cards_shares_the_empty_hooks(table):
    state = table("Alienoid", "Kraken", deck="default", dice=[QUIET])
    assert not state.cards_act and not any(state.acting(moment) for moment in MOMENTS)


def test_hooks_are_rebuilt_when_cards_change_hands(at_buy):
    state = at_buy("spiked_tail")
    assert not state.acting("attack_bonus") and not state.cards_act
    state.apply("buy 1")
    assert state.acting("attack_bonus") == (state.owned[0][0],) and state.cards_act


def test_every_card_decision_offers_pass_first(table):
    state = table(MonsterSetup("Alienoid", energy=4, cards=["stretchy", "herd_culler", "metamorph"]), "Kraken",
                  deck="default", dice=[QUIET])
    state.apply("stop")
    assert state.kind == "dice" and state.legal[0].text == "pass"
    state.apply("pass")
    state.apply("done")
    assert state.kind == "end" and state.legal[0].text == "pass"


# ---------------------------------------------------------------- views and copies


def test_the_view_shows_tokens_and_counters(table):
    state = table(MonsterSetup("Alienoid", cards=["smoke_cloud", "giant_brain"]), MonsterSetup("Kraken", poison=2, shrink=1),
                  deck="default", dice=["1 2 3 1 2 energy"])
    view = state.view(1)
    assert view.poison == (0, 2) and view.shrink == (0, 1)
    assert view.counters == ((3, 0), ())
    data = view.to_json()
    assert data["poison"] == [0, 2] and data["counters"] == [[3, 0], []]


def test_a_clone_copies_card_state_independently(table):
    state = table(MonsterSetup("Alienoid", cards=["smoke_cloud"]), MonsterSetup("Kraken", poison=1),
                  deck="default", dice=[QUIET, "heart"])
    state.apply("stop")
    copy = state.clone()
    copy.apply("use smoke_cloud")
    assert state.counters[state.owned[0][0]] == 3 and copy.counters[copy.owned[0][0]] == 2
    copy.poison[1] = 5
    assert state.poison[1] == 1


def test_a_sampled_game_rebuilds_tokens_counters_and_turn_flags(table):
    state = table(MonsterSetup("Alienoid", cards=["smoke_cloud", "herd_culler"]), MonsterSetup("Kraken", poison=2),
                  deck="default", dice=["1 1 3 2 heart energy", "2"])
    state.apply("stop")
    state.apply("use herd_culler 3")
    sampled = state.view(0).sample_game(7)
    assert sampled.poison == [0, 2]
    assert sampled.view(0)[:27] == state.view(0)[:27]  # the public facts
    assert sampled.view(0).used == state.view(0).used == (("used", 0, "herd_culler"),)
    assert sorted(a.text for a in sampled.legal) == sorted(a.text for a in state.legal)


# ---------------------------------------------------------------- random play with the whole deck

SOAK_GAMES = int(os.environ.get("KOTARENA_CARD_SOAK_GAMES") or 1000)


def buyer(state, rng):
    """Buys whenever it can, uses cards half the time: puts many cards into play."""
    legal = state.legal
    buys = [a for a in legal if a.kind == "buy"]
    if buys:
        return buys[int(rng.random() * len(buys))]
    uses = [a for a in legal if a.kind in ("use", "cure")]
    if uses and rng.random() < 0.5:
        return uses[int(rng.random() * len(uses))]
    return legal[int(rng.random() * len(legal))]


def test_random_games_with_the_whole_deck_keep_every_invariant():
    games = list(random_games(SOAK_GAMES // 2, players=(2, 3, 4, 5, 6), decks=("default",), seed=5_000_000))
    assert all(game.outcome is not None for game in games)


def test_buying_random_games_with_the_whole_deck_keep_every_invariant():
    games = list(random_games(SOAK_GAMES // 2, players=(2, 3, 4, 5, 6), decks=("default",), seed=6_000_000,
                              policy=buyer))
    bought = {game.card(c).id for game in games for cards in game.owned for c in cards}
    assert len(bought) > 20  # many different cards were in play at the end of some game


def test_sampled_games_from_views_with_cards_play_on_soundly():
    rng = random.Random(3)
    for seed in range(60):
        game = new_game("kot", 2 + seed % 5, seed=7_000_000 + seed, record=False)
        steps = rng.randrange(20, 200)
        while game.outcome is None and steps:
            steps -= 1
            if game.between_turns:
                game.next_turn()
                continue
            game.apply(buyer(game, rng))
        if game.outcome is not None or game.between_turns:
            continue
        sampled = game.view(game.to_move).sample_game(seed)
        assert not invariants(sampled), invariants(sampled)
        assert sorted(a.text for a in sampled.legal) == sorted(a.text for a in game.legal)
        random_game_from(sampled, rng)


def random_game_from(state, rng):
    for _ in range(3000):
        if state.outcome is not None:
            return
        if state.between_turns:
            state.next_turn()
            continue
        state.apply(buyer(state, rng))
        assert not invariants(state), invariants(state)
    raise AssertionError("the sampled game did not end")


def test_replaying_seed_and_history_with_cards_gives_the_same_game():
    for seed in range(8_000_000, 8_000_040):
        played = random_game(seed, 2 + seed % 5, "default", record=True, check=None, policy=buyer)
        again = new_game("kot", 2 + seed % 5, seed=seed)
        for _, action in played.history:
            again.apply(action)
        assert again.log == played.log


def test_a_view_without_cards_has_the_default_card_fields():
    from kotarena.games.kot.view import View

    view = new_game("kot", 4, seed=1, deck=None).view(0)
    start = View._fields.index("private")
    assert tuple(view[start:]) == tuple(View._field_defaults[name] for name in View._fields[start:])


def test_every_card_action_offered_in_random_games_parses_back_as_itself():
    from kotarena.engine.actions import parse_action

    seen = set()

    def remember(state, rng):
        seen.update(state.legal)
        return buyer(state, rng)

    for _ in random_games(60, players=(3, 5), decks=("default",), seed=9_000_000, policy=remember, check=None):
        pass
    card_actions = {a for a in seen if a.kind in ("use", "pass", "cure")}
    assert len(card_actions) > 30
    for action in card_actions:
        assert parse_action(action.text) is action


def test_view_json_carries_the_card_fields(table):
    import json

    state = table(MonsterSetup("Alienoid", tokyo="city"), MonsterSetup("Kraken", energy=2, cards=["wings"]),
                  deck="default", dice=["claw claw 1 2 3 heart"])
    state.apply("stop")
    data = json.loads(json.dumps(state.view(1).to_json()))
    assert data["pending"][0] == [1, 2, 0, True] and data["kind"] == "damage"


def test_keeping_a_card_gives_the_hook_tables_a_rebuild_would():
    # Buying a keep card adds its hooks to the tables instead of rebuilding them; the
    # order in which hooks act must stay exactly the rebuild's (seat by seat, each
    # monster's cards in the order it got them). Checked after every action that kept
    # a card, against a copy whose tables are rebuilt from scratch. (Not by patching
    # State's method: the compiled engine calls its own methods directly.)
    tables = ("_hooks", "_mine", "_offer_hooks", "_my_offers", "_slow", "_flags", "_revealed")
    rng = random.Random(5)
    checked = 0
    for players in (2, 3, 4, 5, 6):
        for seed in range(12):
            state = new_game("kot", players, seed=7000 + 100 * players + seed, deck="default", record=False)
            while state.outcome is None:
                kept = sum(len(cards) for cards in state.owned)
                legal = state.legal
                buys = [a for a in legal if a.kind == "buy"]
                state.apply(rng.choice(buys) if buys and rng.random() < 0.9 else rng.choice(legal))
                if sum(len(cards) for cards in state.owned) > kept:
                    rebuilt = state.clone()
                    rebuilt.cards_changed()
                    assert {t: getattr(state, t) for t in tables} == {t: getattr(rebuilt, t) for t in tables}
                    checked += 1
    assert checked > 300

