"""The ``kotarena play`` prompt at the cards' decisions: asked in words, ``?`` lists every
legal action with what it does, ``? CARD`` explains a card."""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

from kotarena.bots.human import HumanBot
from kotarena.cli import cli
from kotarena.games.kot.faces import scripted_dice
from kotarena.games.kot.position import MonsterSetup, build_position
from kotarena.games.kot.prompt import MOST_LISTED, card_help, legal_help
from kotarena.games.kot.table import decision_line
from kotarena.testing import random_game

# Answers for every decision, tried in turn until one is legal: a help request, buying
# Herd Culler, using it on a die, then what ends each of the usual decisions. "buy 1"
# comes again just before "done", so every buy step tries it first.
CYCLE = ["?", "? herd culler", "buy 1", *(f"use Herd Culler {p}" for p in range(2, 7)), "pass", "stop", "stay",
         "buy 1", "done"]


def test_a_person_buys_a_card_and_uses_it_at_the_dice_decision(monkeypatch):
    monkeypatch.setenv("KOTARENA_ASSUME_TTY", "1")
    result = CliRunner().invoke(cli, ["play", "--bot", "random", "--seed", "0", "--deck", "kot:herd_culler"],
                                input="\n".join(CYCLE * 300) + "\n", catch_exceptions=False)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Alienoid buys Herd Culler from market slot 1 for 3 energy" in out
    # The card decision is asked in words, and '?' lists its actions with what they do.
    assert "Your decision (Alienoid): use a card on the dice before they resolve, or pass?" in out
    assert "Legal actions (dice decision):\n  pass                   let the dice resolve as they are\n" in out
    assert "  use herd_culler 3      use Herd Culler: turn die 3 into a 1 (once a turn)" in out
    assert ("Herd Culler (herd_culler): 3 energy, keep card.\n"
            "  Once each turn, you may change one of your dice to a 1.") in out
    # The card named as printed was understood, used, and narrated in words.
    assert "Alienoid chooses to use Herd Culler: turn die " in out
    assert "(Herd Culler)" in out.split("Alienoid chooses to use Herd Culler", 1)[1].splitlines()[1]
    assert "wins" in out.splitlines()[-1]


def dice_decision():
    """Kraken's dice decision with Plot Twist, Stretchy and 5 energy; Meka Dragon holds Tokyo and Wings."""
    state = build_position(
        [MonsterSetup("Kraken", energy=5, cards=["plot_twist", "stretchy"]),
         MonsterSetup("Meka Dragon", energy=3, tokyo="city", cards=["wings"])],
        first="Kraken", market=["energize", "heal", "jets"], dice=scripted_dice(["1 2 3 claw claw heart"]),
    )
    state.apply("stop")
    assert state.kind == "dice"
    return state


def scripted(answers):
    shown: list[str] = []
    typed = iter(answers)
    return HumanBot(seed=1, ask=lambda prompt: next(typed), echo=shown.append), shown


def test_many_choices_of_one_card_are_one_pattern_with_the_values_each_argument_takes():
    text = legal_help(dice_decision().view(0))
    assert text.splitlines()[:4] == [
        "Legal actions (dice decision):",
        "  pass                   let the dice resolve as they are",
        "  use plot_twist N FACE  use Plot Twist: turn die N into a FACE (Plot Twist is then discarded)",
        "                         (N: 1 to 6; FACE: 1, 2, 3, energy, heart, claw; 30 choices)",
    ]
    assert "  use stretchy N FACE    use Stretchy: turn die N into a FACE for 2 energy" in text


def test_a_card_named_as_printed_is_used_and_a_wrong_card_is_explained():
    state = dice_decision()
    bot, shown = scripted(["use Wings", "use stretchy 9 claw", "stay", "use Plot Twist 1 claw"])
    assert bot.choose(state.view(0)).text == "use plot_twist 1 claw"
    assert shown[-3].endswith("the cards you can use now are Plot Twist, Stretchy. Type ? for the legal actions.")
    assert "Stretchy cannot do that now" in shown[-2]
    assert "this is a dice decision (pass, use)" in shown[-1]


def test_the_damage_decision_says_how_much_is_coming_and_from_whom():
    state = dice_decision()
    state.apply("pass")
    assert (state.kind, state.to_move) == ("damage", 1)
    view = state.view(1)
    assert decision_line(view, me=1) == ("Your decision (Meka Dragon): 2 damage is coming from Kraken: "
                                         "use a card against the damage, or pass to take it?")
    assert legal_help(view).splitlines()[1:3] == [
        "  pass                   take the damage",
        "  use wings              use Wings: pay 2 energy to take no damage for the rest of the turn",
    ]


def test_question_mark_and_a_card_explains_the_card_and_where_it_is():
    view = dice_decision().view(0)
    bot, shown = scripted(["? wings", "?Energize", "help no such card", "pass"])
    assert bot.choose(view).text == "pass"
    wings, energize, unknown = shown[-3:]
    assert wings.splitlines()[0] == "Wings (wings): 6 energy, keep card."
    assert "'use wings ...' in the damage decision" in wings and "Now in: Meka Dragon's cards." in wings
    assert energize.splitlines()[0] == "Energize (energize): 8 energy, discard card."
    assert "Now in: market slot 1." in energize
    assert unknown == "No card 'no such card' in this game's deck (kot); 'kotarena cards --deck kot' lists them."
    assert card_help(view, "Heal").startswith("Heal (heal): 3 energy, discard card.")


@pytest.mark.parametrize(("game", "deck"), [("kot", "kot"), ("kot", "kot-2e"), ("origins", "origins")])
def test_question_mark_shows_every_legal_action_of_every_decision(game, deck):
    rng = random.Random(7)
    kinds = set()

    def check_then_play(state, rng_):
        if state.legal:
            view = state.view(state.to_move)
            text = legal_help(view)
            kinds.add(state.kind)
            for action in state.legal:
                card = action.args[0] if action.kind == "use" else None
                shown = (f"  {action.text} " in text or f"  {action.text}\n" in text
                         or action.kind == "reroll" and "  reroll P ..." in text
                         or card is not None and f"  use {card} " in text)
                assert shown, f"{action.text} is missing from:\n{text}"
        card_actions = [a for a in state.legal if a.kind in ("use", "cure", "buy")]
        return rng.choice(card_actions if card_actions and rng.random() < 0.8 else state.legal)

    for seed in range(12):
        random_game(seed, 2 + seed % 3, deck, game=game, policy=check_then_play, check=None)
    assert {"roll", "buy"} <= kinds and kinds - {"roll", "buy", "yield"}, kinds
    assert MOST_LISTED >= 6  # a card's choice per die is listed one per line
