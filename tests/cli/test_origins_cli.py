"""Everything that takes a game takes Origins: games, play, match, cards, bench, scenario
run, replay, bots check; and bad input is a one-line error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kotarena.cli import cli
from kotarena.games import get_game, new_game
from kotarena.games.kot.table import tokyo_line

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios" / "origins"
ANSWERS = "stop\ndone\nstay\n" * 300  # whatever is legal: stop rolling, buy nothing, stay in Tokyo


def invoke(args, **kwargs):
    return CliRunner().invoke(cli, args, catch_exceptions=False, **kwargs)


def one_line_error(result) -> str:
    assert result.exit_code != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: ")
    return lines[0]


def test_games_lists_origins_with_its_option():
    data = json.loads(invoke(["games", "--json"]).stdout)
    origins = next(g for g in data["games"] if g["name"] == "origins")
    assert (origins["min_players"], origins["max_players"], origins["title"]) == (2, 4, "King of Tokyo: Origins")
    assert origins["options"]["two-player-variant"]["values"] == ["on", "off"]


@pytest.mark.parametrize("players", [2, 4])
def test_a_person_plays_origins_at_the_terminal(monkeypatch, players):
    monkeypatch.setenv("KOTARENA_ASSUME_TTY", "1")
    bots = ["--bot", "random"] * (players - 1)
    result = invoke(["play", "--game", "origins", *bots, "--seed", "4", "--deck", "kot"], input=ANSWERS)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "King of Tokyo: Origins, turn 1" in out and "Your decision (Alienoid)" in out
    assert "Tokyo Bay" not in out
    gains = "+1 energy" if players == 2 else "+1 star"
    assert f"(entering {gains}," in out
    assert "wins" in out.splitlines()[-1]


@pytest.mark.parametrize(("game", "players"), [("origins", 2), ("origins", 4), ("origins:two-player-variant=off", 2)])
def test_match_plays_origins_between_the_example_bots(game, players):
    bots = ["--bot", "heuristic", "--bot", "mcts"] + ["--bot", "random"] * (players - 2)
    result = invoke(["match", "--game", game, *bots, "--seed", "3", "--json", "--deck", "kot"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["game"] == game and data["deck"] == "kot" and len(data["seats"]) == players


def test_cards_lists_the_deck_origins_plays():
    data = json.loads(invoke(["cards", "--game", "origins", "--json"]).stdout)
    assert data["game"] == "origins" and data["deck"] in ("origins", "kot") and data["cards"]


def test_bench_engine_times_origins():
    result = invoke(["bench", "engine", "--game", "origins", "--players", "4", "--deck", "--games", "3",
                     "--warmup", "0", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["game"] == "origins"


def test_scenario_run_plays_the_origins_scenarios():
    result = invoke(["scenario", "run", str(SCENARIOS)])
    assert result.exit_code == 0, result.output
    assert "0 failed, 0 errors" in result.stdout


def test_an_origins_replay_with_options_plays_back(tmp_path):
    path = tmp_path / "duel.replay"
    written = invoke(["match", "--game", "origins:two-player-variant=off", "--bot", "heuristic", "--bot", "random",
                      "--seed", "8", "--replay", str(path)])
    assert written.exit_code == 0, written.output
    assert 'game "origins:two-player-variant=off"' in path.read_text(encoding="utf-8")
    shown = invoke(["replay", str(path)])
    assert shown.exit_code == 0 and "reproduced: yes" in shown.stdout


def test_bots_check_plays_origins_too():
    result = invoke(["bots", "check", "heuristic", "--games", "1", "--json"])
    assert result.exit_code == 0, result.output
    assert "origins" in result.stdout


@pytest.mark.parametrize(("args", "words"), [
    (["match", "--game", "monopoly", "--bot", "random"], "unknown game 'monopoly'"),
    (["match", "--game", "origins", "--players", "5", "--bot", "random"], "Origins is for 2 to 4 players"),
    (["match", "--game", "origins", "--bot", "random", "--deck", "tarot"], "unknown deck 'tarot'"),
    (["match", "--game", "origins:speed=fast", "--bot", "random"], "has no option 'speed'"),
    (["match", "--game", "origins", "--bot", "random", "--deck", "kot", "--no-deck"], "choose one"),
    (["bench", "engine", "--game", "origins", "--players", "5"], "2 to 4 players"),
    (["bench", "engine", "--game", "nope"], "unknown game 'nope'"),
    (["cards", "--game", "origins", "--deck", "tarot"], "unknown deck 'tarot'"),
    (["cards", "--game", "nope"], "unknown game 'nope'"),
])
def test_bad_origins_input_is_a_one_line_error(args, words):
    assert words in one_line_error(invoke(args))


@pytest.mark.parametrize(("args", "words"), [
    (["--bot", "random"] * 4, "Origins is for 2 to 4 players"),
    (["--bot", "random", "--deck", "tarot"], "unknown deck 'tarot'"),
])
def test_bad_origins_play_input_is_a_one_line_error(monkeypatch, args, words):
    monkeypatch.setenv("KOTARENA_ASSUME_TTY", "1")
    assert words in one_line_error(invoke(["play", "--game", "origins", *args], input="stop\n"))


def test_the_table_says_what_tokyo_gives_in_each_game():
    assert tokyo_line(new_game("kot", 2, seed=1, deck=None).view(0), get_game("kot")).endswith(
        "(entering +1 star, starting a turn there +2 stars)")
    assert tokyo_line(new_game("origins", 2, seed=1, deck=None).view(0), get_game("origins")).endswith(
        "(entering +1 energy, starting a turn there +2 energy)")
    four = get_game("origins").words.table(new_game("origins", 4, seed=1, deck=None))
    assert four.startswith("King of Tokyo: Origins, turn 1") and "Tokyo Bay" not in four


def test_compare_plays_origins_deals():
    result = invoke(["compare", "random", "heuristic", "--game", "origins", "--max-games", "20", "--seed", "1",
                     "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["game"] == "origins" and data["games"] == 20


def test_a_league_night_of_origins_is_stored_and_replays(tmp_path):
    ladder = tmp_path / "origins-smoke.toml"
    ladder.write_text('game = "origins"\nplayers = [2, 4]\ngames = 4\nallow_repeats = true\n'
                      'bots = ["random", "heuristic"]\n', encoding="utf-8")
    night = invoke(["league", "run", str(ladder), "--workers", "0"])
    assert night.exit_code == 0, night.output
    assert "4 matches played now" in night.output
    shown = invoke(["replay", "--match", "1"])
    assert shown.exit_code == 0 and "Replay match 1: origins " in shown.stdout and "reproduced: yes" in shown.stdout


def test_the_hearts_question_offers_only_what_the_table_allows():
    from kotarena.games.kot.faces import scripted_dice
    from kotarena.games.kot.position import MonsterSetup, build_position

    def hearts_decision(**alienoid):
        state = build_position([MonsterSetup("Alienoid", cards=["biofuel"], **alienoid), MonsterSetup("Kraken")],
                               game="origins", deck="origins", first="Alienoid",
                               dice=scripted_dice(["heart heart 1 2 3 1"]))
        state.apply("stop")
        assert state.kind == "hearts"
        return get_game("origins").words.table(state.view(0), me=0).splitlines()[-1]

    # In Tokyo, hearts neither heal nor buy off tokens: only the card and passing are offered.
    assert hearts_decision(tokyo="city").endswith(
        "2 hearts to spend: spend hearts on a card, or pass (in Tokyo hearts do not heal)?")
    assert hearts_decision(health=6, poison=1).endswith(
        "2 hearts to spend: spend hearts on tokens or on a card, or pass to heal?")
