"""The action vocabulary: one canonical text per action, forgiving parsing, clear refusals.

Bots, the human prompt, replays and scenario files all speak these texts, so every
legal action must survive ``parse_action(str(action))`` as the very same object, and
a wrong action must be refused without touching the game.
"""

from __future__ import annotations

import pickle
import random
import subprocess
import sys

import pytest

from kotarena.engine import Action, ActionError, GameOverError, IllegalActionError, parse_action
from kotarena.engine.actions import Verb
from kotarena.games import new_game
from kotarena.games.vocabulary import SHARED_VERBS, read_action, reroll_table
from kotarena.testing import random_game, random_games


def _seen_actions():
    """Every distinct legal action offered during some random games."""
    seen = set()

    def remember_everything(state, rng):
        seen.update(state.legal)
        return state.legal[int(rng.random() * len(state.legal))]

    for _ in random_games(30, seed=300, policy=remember_everything, check=None):
        pass
    return seen


def test_every_legal_action_of_random_games_reads_back_as_itself():
    seen = _seen_actions()
    # The classic vocabulary is all there (cards add their own kinds: pass, use, cure).
    assert {a.kind for a in seen} >= {"stop", "reroll", "stay", "yield", "buy", "sweep", "done"}
    assert {a.text for a in seen} >= {"stop", "stay", "yield", "buy 1", "buy 2", "buy 3", "sweep", "done"}
    assert sum(1 for a in seen if a.kind == "reroll") >= 63
    for action in seen:
        assert parse_action(str(action)) is action
        assert str(parse_action(str(action))) == str(action) == action.text


@pytest.mark.parametrize("dice", range(1, 9))
def test_every_reroll_of_up_to_eight_dice_reads_back_as_itself(dice):
    table = reroll_table(dice)
    assert table[0].text == "stop" and len(table) == 2**dice
    for action in table:
        assert parse_action(action.text) is action


def test_the_canonical_text_lists_reroll_positions_in_order():
    # The family's grammar orders them (the games read text with it); the core, which
    # knows no game's verbs, reads the words as written.
    assert str(read_action("reroll 6 2 4")) == "reroll 2 4 6" == str(parse_action("reroll 6 2 4", SHARED_VERBS))
    assert read_action("reroll 6 2 4").args == (2, 4, 6)
    assert parse_action("reroll 6 2 4").args == (6, 2, 4)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("REROLL 4  1", "reroll 1 4"),
        ("  Reroll\t3 1 2 ", "reroll 1 2 3"),
        ("STOP", "stop"),
        (" stay\n", "stay"),
        ("Yield", "yield"),
        ("BUY   2", "buy 2"),
        ("Sweep", "sweep"),
        ("dOnE", "done"),
    ],
)
def test_parsing_forgives_case_spacing_and_order(text, canonical):
    assert read_action(text) is parse_action(canonical)
    assert str(read_action(text)) == canonical


def test_parsing_forgives_any_mix_of_case_spacing_and_order_for_every_reroll():
    rng = random.Random(9)
    for action in reroll_table(6)[1:]:
        for _ in range(3):
            positions = [str(p) for p in action.args]
            rng.shuffle(positions)
            word = "".join(c.upper() if rng.random() < 0.5 else c for c in "reroll")
            spaces = [" " * rng.randint(1, 3) + ("\t" if rng.random() < 0.2 else "") for _ in positions]
            text = " " * rng.randint(0, 2) + word + "".join(s + p for s, p in zip(spaces, positions)) + "  "
            assert read_action(text) is action, text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty action"),
        ("   ", "empty action"),
        ("dance!", "unknown action 'dance!'"),
        ("bet 3%", "unknown action 'bet 3%': '3%' is not a number or a word"),
        ("buy", "'buy' takes one market slot, e.g. 'buy 2'"),
        ("buy 1 2", "'buy' takes one market slot"),
        ("buy two", "'buy' takes numbers, got 'two'"),
        ("reroll", "'reroll' needs dice positions, e.g. 'reroll 1 4'; use 'stop' to keep all dice"),
        ("reroll 1 1", "'reroll' names a die twice"),
        ("reroll 2 x", "'reroll' takes numbers"),
        ("stop 1", "'stop' takes no arguments"),
        ("yield now", "'yield' takes no arguments"),
    ],
)
def test_bad_text_is_refused_with_a_helpful_message(text, message):
    with pytest.raises(ActionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_action(text)


def test_an_action_error_is_a_value_error_and_so_is_an_illegal_action():
    assert issubclass(ActionError, ValueError)
    assert issubclass(IllegalActionError, ValueError)


def test_actions_are_immutable_interned_values_that_pickle_as_themselves():
    action = parse_action("reroll 1 3")
    assert action is Action.of("reroll", 1, 3)
    assert action == Action("reroll", (1, 3)) and hash(action) == hash(Action("reroll", (1, 3)))
    assert pickle.loads(pickle.dumps(action)) is action
    with pytest.raises(AttributeError):
        action.text = "stop"
    assert repr(action) == "Action('reroll 1 3')"


# ----------------------------------------------------- well-formed but illegal


def _state_at(kind: str):
    """A game waiting on a decision of ``kind``."""
    game = new_game("kot", 5, seed=61)
    rng = random.Random(61)
    while game.kind != kind:
        game.apply(game.legal[int(rng.random() * len(game.legal))])
    return game


def _snapshot(game):
    """Everything an action could change, to check that a refused one changed nothing."""
    return (
        [game.view(p) for p in range(game.n)],
        game.to_move, game.kind, game.legal,
        list(game.deck), list(game.discard), [list(c) for c in game.owned],
        list(game.history), list(game.log), game._rng.getstate(),
    )


@pytest.mark.parametrize(
    ("kind", "text", "reason"),
    [
        ("roll", "buy 1", "not legal"),
        ("roll", "stay", "not legal"),
        ("roll", "done", "not legal"),
        ("roll", "reroll 7", "not legal"),
        ("roll", "reroll 0 1", "not legal"),
        ("yield", "stop", "not legal"),
        ("yield", "reroll 1 2", "not legal"),
        ("yield", "sweep", "not legal"),
        ("buy", "reroll 1", "not legal"),
        ("buy", "stay", "not legal"),
        ("buy", "buy 4", "not legal"),
        ("buy", "buy 0", "not legal"),
    ],
)
def test_a_well_formed_illegal_action_is_refused_and_changes_nothing(kind, text, reason):
    game = _state_at(kind)
    before = _snapshot(game)
    with pytest.raises(IllegalActionError, match=reason) as raised:
        game.apply(text)
    # The message says who was asked what, and what would have been legal.
    message = str(raised.value)
    assert game.names[game.to_move] in message and f"({kind})" in message and "legal: " in message
    assert _snapshot(game) == before
    with pytest.raises(IllegalActionError):
        game.apply(parse_action(text))
    assert _snapshot(game) == before


def test_buying_a_card_one_cannot_afford_is_refused_and_changes_nothing():
    for seed in range(200):
        game = new_game("kot", 4, seed=seed)
        while game.outcome is None and game.kind != "buy":
            game.apply("stop" if game.kind == "roll" else game.legal[0])
        costs = [game.cards_info[c].cost for c in game.market]
        if game.kind == "buy" and game.energy[game.to_move] < min(costs):
            break
    else:
        raise AssertionError("no buy step with too little energy for every card in 200 games")
    slot = costs.index(min(costs)) + 1
    before = _snapshot(game)
    with pytest.raises(IllegalActionError, match=f"'buy {slot}' is not legal"):
        game.apply(f"buy {slot}")
    assert _snapshot(game) == before


def test_the_text_of_an_action_is_as_good_as_the_action():
    game, twin = new_game("kot", 3, seed=4), new_game("kot", 3, seed=4)
    game.apply(parse_action("reroll 2 5"))
    twin.apply("  REROLL 5 2 ")
    assert twin.log == game.log and twin.history == game.history
    assert twin.history[-1][1] is parse_action("reroll 2 5")


def test_bad_text_given_to_a_game_is_refused_and_changes_nothing():
    game = new_game("kot", 3, seed=4)
    before = _snapshot(game)
    for text in ("", "reroll 1 1", "buy"):
        with pytest.raises(ActionError):
            game.apply(text)
    with pytest.raises(IllegalActionError, match="'dance'"):  # an action, of no game's: not legal here
        game.apply("dance")
    assert _snapshot(game) == before


def test_no_action_is_accepted_once_the_game_is_over():
    game = random_game(3, 3, record=True)
    before = _snapshot(game)
    for text in ("stop", "done", "stay"):
        with pytest.raises(GameOverError, match="the game is over"):
            game.apply(text)
    assert _snapshot(game) == before


def test_no_action_is_accepted_while_the_game_is_paused_between_turns():
    game = new_game("kot", 3, seed=4, deck=None)
    game.pause_between_turns = True
    while not game.between_turns:
        game.apply("stop" if game.kind == "roll" else game.legal[0])
    before = _snapshot(game)
    with pytest.raises(IllegalActionError, match="next_turn"):
        game.apply("stop")
    assert _snapshot(game) == before


# ------------------------------------------------------------- any game's verbs


def test_any_verb_and_its_arguments_parse_without_the_game_that_declares_it():
    # A fresh interpreter, so nothing was interned before: the core knows no game's verbs.
    code = ("from kotarena.engine.actions import parse_action as p; "
            "a = p('bet 3'); b = p('Power  CLAW claw'); c = p('hype fame 4 3'); "
            "print(repr(a), a.args, b.args, c.args)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "Action('bet 3') (3,) ('claw', 'claw') ('fame', 4, 3)"


def test_the_family_verbs_parse_without_any_game_loaded_to_the_actions_the_games_offer():
    # A fresh interpreter that never imports a game: the canonical text of King of Tokyo's
    # actions (a replay's, a bot's answer) reads as any verb's, with the same arguments
    # the game's own grammar gives, so it is the very action the game lists.
    code = ("import sys; from kotarena.engine.actions import parse_action as p; "
            "texts = ['stop', 'reroll 1 4', 'buy 2', 'cure 1 0', 'use stretchy 3 claw', 'pass', 'yield']; "
            "print([(a.kind, a.args) for a in map(p, texts)]); "
            "print(sorted(m for m in sys.modules if m.startswith('kotarena.games')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.splitlines()
    texts = ["stop", "reroll 1 4", "buy 2", "cure 1 0", "use stretchy 3 claw", "pass", "yield"]
    assert out[0] == repr([(a.kind, a.args) for a in (parse_action(t, SHARED_VERBS) for t in texts)])
    assert out[1] == "[]"


def test_a_games_verbs_refuse_a_verb_it_lacks_and_check_their_arguments():
    verbs = {"bet": Verb("bet", "bet N", "stake N chips", lambda rest: (int(rest[0]),) if rest == ["3"] else
                         (_ for _ in ()).throw(ActionError("'bet' takes a stake, e.g. 'bet 3'"))),
             **SHARED_VERBS}
    assert parse_action("bet 3", verbs) is parse_action("bet 3")
    with pytest.raises(ActionError, match="'bet' takes a stake"):
        parse_action("bet lots", verbs)
    with pytest.raises(ActionError, match=r"unknown action 'fold' \(the actions: bet, stop, reroll"):
        parse_action("fold", verbs)
    assert parse_action("reroll 4 1", verbs) is parse_action("reroll 1 4")  # the shared grammar still applies


def test_duels_verbs_are_declared_by_duel_and_checked_by_its_readers():
    from kotarena.games import get_game

    verbs = get_game("duel").verbs
    assert {"spend", "power", "hype", "block", "pick"} <= set(verbs)
    assert parse_action("hype fame 4 3", verbs).args == ("fame", 4, 3)
    for text, message in (("hype moon 3", "'hype' takes a track"), ("block 3 fame 1", "'block' takes a token"),
                          ("spend", "'spend' takes one count"), ("pick", "'pick' names a monster")):
        with pytest.raises(ActionError, match=message):
            parse_action(text, verbs)
    with pytest.raises(ActionError, match="unknown action 'cure 1 0'"):  # a King of Tokyo verb, not Duel's
        parse_action("cure 1 0", verbs)
