"""``kotarena play`` and ``kotarena match``, the table renderer and the human bot."""

from __future__ import annotations

import importlib.util
import json

import pytest
from click.testing import CliRunner

from kotarena.bots.human import HumanBot, NoTerminalError, require_terminal
from kotarena.bots.random_bot import RandomBot
from kotarena.cli import cli
from kotarena.games import get_game, new_game
from kotarena.games.kot.events import event_lines
from kotarena.games.kot.faces import scripted_dice
from kotarena.games.kot.position import MonsterSetup, build_position
from kotarena.games.kot.table import dice_line
from kotarena.match import bot_seed, play


def invoke(args, **kwargs):
    return CliRunner().invoke(cli, args, catch_exceptions=False, **kwargs)


def one_line_error(result) -> str:
    assert result.exit_code != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: ")
    return lines[0]


# ------------------------------------------------------------------ match

def test_match_prints_seed_winner_and_every_seat():
    result = invoke(["match", "--bot", "random", "--bot", "random", "--bot", "random", "--seed", "7"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.splitlines()[0] == "seed: 7"
    assert "winner: " in out and "termination: " in out and "turns: " in out
    for name in ("Alienoid", "Cyber Bunny", "Giga Zaur"):
        assert name in out
    assert "Kraken" not in out  # three seats, three monsters


def test_match_json_parses_and_the_seed_goes_to_stderr():
    result = invoke(["match", "--bot", "random", "--bot", "random", "--seed", "11", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert "seed: 11" in result.stderr
    assert data["seed"] == 11
    assert [s["seat"] for s in data["seats"]] == [1, 2]
    assert {s["bot"] for s in data["seats"]} == {"random"}
    if data["winner"] is not None:
        winner = data["seats"][data["winner"] - 1]
        assert winner["rank"] == 1 and winner["monster"] == data["winner_monster"]
    assert data["termination"] in ("stars", "last_standing", "all_eliminated")


def test_same_seed_same_match():
    args = ["match", "--bot", "random", "--players", "4", "--seed", "123", "--json"]
    assert json.loads(invoke(args).stdout) == json.loads(invoke(args).stdout)


def test_match_games_counts_wins_per_bot_over_derived_seeds():
    result = invoke(["match", "--bot", "random", "--players", "3", "--seed", "5", "--games", "6", "--json",
                     "--no-deck"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["games"] == 6
    assert [r["seed"] for r in data["results"]] == [5, 6, 7, 8, 9, 10]
    (bot,) = data["bots"]
    assert bot["bot"] == "random" and bot["seats"] == 3
    assert bot["wins"] + data["no_winner"] == 6 == sum(data["seat_wins"]) + data["no_winner"]
    assert all(r["deck"] is None for r in data["results"])


def test_match_games_text_summary_lists_each_bot():
    result = invoke(["match", "--bot", "random", "--seed", "1", "--games", "3"])
    assert result.exit_code == 0
    assert "3 games, 4 players" in result.stdout
    assert "wins by seat" in result.stdout


def test_match_verbose_prints_the_games_events():
    result = invoke(["match", "--bot", "random", "--bot", "random", "--seed", "3", "-v"])
    state = new_game(players=2, seed=3)
    play(state, [RandomBot(seed=bot_seed(3, seat)) for seat in range(2)])
    narration = event_lines(state.log, state.names)
    printed = result.stdout.splitlines()
    assert printed[1:1 + len(narration)] == narration
    assert any(event[0] == "roll" for event in state.log) and len(narration) > 10


def test_unknown_bot_is_a_one_line_error():
    line = one_line_error(invoke(["match", "--bot", "random", "--bot", "no-such-bot"]))
    assert "unknown bot 'no-such-bot'" in line and "random" in line


@pytest.mark.parametrize("args, words", [
    (["--players", "7"], "2 to 6"),
    (["--bot", "random", "--bot", "random", "--players", "3"], "one --bot per seat"),
    (["--seed", "soon"], "bad seed"),
    (["--seed", "-4"], "bad seed"),
    (["--bot", "human", "--bot", "random"], "kotarena play"),
    (["--bot", "random", "--games", "2", "--replay", "x.jsonl"], "one game"),
])
def test_bad_match_input_is_a_one_line_error(args, words):
    assert words in one_line_error(invoke(["match", *args]))


def test_match_replay_writes_the_file(tmp_path):
    path = tmp_path / "game.jsonl"
    result = invoke(["match", "--bot", "random", "--bot", "random", "--seed", "9", "--replay", str(path)])
    if importlib.util.find_spec("kotarena.replay") is None:
        assert "kotarena.replay" in one_line_error(result)
        assert not path.exists()
    else:
        assert result.exit_code == 0, result.output
        assert path.stat().st_size > 0


# ------------------------------------------------------------------ play

ANSWERS = "keep 1 2\nstop\ndone\nstay\n" * 200  # one bad answer, then whatever is legal


def test_play_against_a_bot_with_scripted_answers(monkeypatch):
    monkeypatch.setenv("KOTARENA_ASSUME_TTY", "1")
    result = invoke(["play", "--bot", "random", "--seed", "4", "--no-deck", "--seat", "2"], input=ANSWERS)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("seed: 4\n")
    assert "You are Cyber Bunny (seat 2)" in out
    assert "Your decision (Cyber Bunny)" in out
    assert "unknown action 'keep 1 2'" in out  # the bad answer was refused, and play went on
    assert event_lines([("act", 1, "stop")], ["Alienoid", "Cyber Bunny"])[0] in out
    assert "(seed 4)" in out.splitlines()[-1]
    assert "wins" in out.splitlines()[-1]


def test_play_refuses_to_prompt_without_a_terminal(monkeypatch):
    monkeypatch.delenv("KOTARENA_ASSUME_TTY", raising=False)
    monkeypatch.setenv("CI", "true")
    line = one_line_error(invoke(["play", "--bot", "random"], input="stop\n"))
    assert "terminal" in line


def test_human_bot_refuses_to_start_without_a_terminal(monkeypatch):
    monkeypatch.delenv("KOTARENA_ASSUME_TTY", raising=False)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(NoTerminalError):
        require_terminal()


@pytest.mark.parametrize("args, words", [
    (["--seat", "3", "--bot", "random"], "not a seat"),
    (["--bot", "random"] * 6, "2 to 6"),
    (["--bot", "nobody"], "unknown bot"),
    (["--monster", "Kraken", "--monster", "kraken"], "same"),
])
def test_bad_play_input_is_a_one_line_error(monkeypatch, args, words):
    monkeypatch.setenv("KOTARENA_ASSUME_TTY", "1")
    assert words in one_line_error(invoke(["play", *args]))


# ------------------------------------------------------------------ the human bot

def buy_decision():
    """Kraken's buy step with 2 energy and Energize (8), Heal (3), Jets (5) for sale."""
    state = build_position(
        [MonsterSetup("Kraken", energy=2), MonsterSetup("Meka Dragon")],
        first="Kraken",
        market=["energize", "heal", "jets"],
        dice=scripted_dice(["1 2 3 1 2 3"]),
    )
    state.apply("stop")
    assert state.kind == "buy"
    return state


def scripted_human(answers):
    shown: list[str] = []
    typed = iter(answers)
    bot = HumanBot(seed=1, ask=lambda prompt: next(typed), echo=shown.append)
    return bot, shown


def test_human_refuses_an_unaffordable_card_then_takes_a_legal_answer():
    state = buy_decision()
    bot, shown = scripted_human(["buy 1", "sweep"])
    action = bot.choose(state.view(0))
    assert action.text == "sweep"
    assert "Energize costs 8 energy and you have 2" in shown[-1]


def test_human_explains_unknown_words_and_wrong_decisions():
    state = buy_decision()
    bot, shown = scripted_human(["smash", "reroll 1 2", "done"])
    assert bot.choose(state.view(0)).text == "done"
    assert "unknown action 'smash'" in shown[-2]
    assert "'reroll 1 2' is not legal now: this is a buy decision" in shown[-1]


def test_question_mark_lists_the_legal_actions():
    state = buy_decision()
    bot, shown = scripted_human(["?", "done"])
    bot.choose(state.view(0))
    help_text = shown[-1]
    assert help_text.startswith("Legal actions (buy decision):")
    assert "sweep" in help_text and "done" in help_text and "buy 1" not in help_text


def test_human_sees_the_table_before_the_prompt():
    state = buy_decision()
    bot, shown = scripted_human(["done"])
    bot.choose(state.view(0))
    table = shown[1]
    assert "Kraken* (you)" in table
    assert "[1] Energize (8)  [2] Heal (3)  [3] Jets (5)" in table
    assert "Dice: [1] 1  [2] 2  [3] 3  [4] 1  [5] 2  [6] 3" in table
    assert "Your decision (Kraken): buy a card" in table


# ------------------------------------------------------------------ rendering

def test_dice_are_shown_with_their_positions():
    assert dice_line([0, 5, 4, 3]) == "[1] 1  [2] claw  [3] heart  [4] energy"


def test_table_shows_tokyo_and_who_is_out():
    state = build_position(
        [MonsterSetup("Kraken", tokyo="city", health=7), MonsterSetup("The King", alive=False, health=0),
         MonsterSetup("Alienoid")],
        first="Alienoid", deck=None, dice=scripted_dice(["1 1 1 2 2 heart"]),
    )
    text = get_game(state.game).words.table(state)
    assert "Tokyo City: Kraken" in text
    assert "Market: none" in text
    kraken, king = (next(line for line in text.splitlines() if line.startswith(f"{n} ")) for n in ("1", "2"))
    assert "7/10" in kraken and "City" in kraken
    assert king.rstrip().endswith("out")


def test_every_event_of_a_game_reads_as_a_line():
    state = new_game(players=5, seed=2)
    while not state.is_over:
        state.apply(state.legal[-1])
    lines = event_lines(state.log, state.names)
    assert len(lines) > state.outcome.turns
    assert all(isinstance(line, str) and line for line in lines)


def test_narration_skips_choices_whose_effect_is_logged():
    names = ["Kraken", "The King"]
    assert event_lines([("act", 0, "reroll 1 4"), ("act", 0, "buy 2"), ("act", 1, "yield")], names) == []
    assert len(event_lines([("act", 0, "stop"), ("act", 1, "stay")], names)) == 2
