"""Scenario files: every shipped scenario passes, and broken files fail clearly.

The shipped scenarios (``scenarios/``) are the rulebooks' worked examples and some
single rules written as files; each one is a test here. The rest of this module
checks what a scenario author sees when a file is wrong: one line naming the file
and the problem, or a readable diff when the engine disagrees with the file.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from kotarena.cli import cli
from kotarena.scenario import Failure, ScenarioError, load_scenario, run_scenario

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
SCENARIO_FILES = sorted(SCENARIOS.rglob("*.toml"))

# A complete small scenario: Alienoid attacks Kraken in Tokyo, Kraken stays.
GOOD = """\
deck = "none"
first = "Alienoid"

[[monster]]
name = "Alienoid"

[[monster]]
name = "Kraken"
tokyo = "city"

[[turn]]
dice = ["claw claw 1 2 3 heart", "1 energy"]
actions = ["Alienoid: reroll 3 4", "Alienoid: stop", "Kraken: stay"]

[turn.expect]
city = "Kraken"

[turn.expect.Kraken]
health = 8

[turn.expect.Alienoid]
energy = 1
"""


def write(tmp_path: Path, text: str, name: str = "case.toml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def error_of(path: Path) -> str:
    """The one-line message of the ScenarioError that loading or running ``path`` raises."""
    with pytest.raises(ScenarioError) as caught:
        run_scenario(load_scenario(path))
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: ")
    return message


# ------------------------------------------------------------------ shipped scenarios

def test_the_seeds_worked_examples_are_all_there():
    names = {p.name for p in (SCENARIOS / "seeds").glob("*.toml")}
    assert {"gigazaur_roll.toml", "kraken_shopping.toml", "tokyo_bay_5p.toml"} <= names


def test_every_origins_difference_is_a_scenario():
    names = {p.stem for p in (SCENARIOS / "origins").glob("*.toml")}
    assert {
        "gigarex_roll", "steel_spine_shopping",  # the seed's worked examples
        "first_player_enters_tokyo", "first_players_claws_hurt_nobody", "empty_tokyo_entered_without_claws",
        "leave_only_after_claws", "card_damage_empties_tokyo", "eliminated_monster_loses_cards_and_energy",
        "two_player_variant", "two_player_variant_off", "twenty_stars_win_at_end_of_turn",
    } <= names


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=lambda p: p.relative_to(SCENARIOS).as_posix())
def test_shipped_scenario_passes(path):
    result = run_scenario(load_scenario(path))
    assert result.passed, "\n".join(map(str, result.failures)) + "\n" + "\n".join(result.log)
    assert any(scripted.checks for scripted in result.scenario.turns) or result.scenario.final_checks


def test_a_good_scenario_passes_and_keeps_its_event_log(tmp_path):
    result = run_scenario(load_scenario(write(tmp_path, GOOD)))
    assert result.passed
    assert len(result.log) >= 5
    assert any("damage" in line for line in result.log)


# ------------------------------------------------------------------ failing expectations

def test_a_failing_expectation_reads_as_turn_key_expected_got(tmp_path):
    path = write(tmp_path, GOOD.replace("health = 8", "health = 7").replace('city = "Kraken"', 'city = "Alienoid"'))
    result = run_scenario(load_scenario(path))
    assert not result.passed
    assert [str(f) for f in result.failures] == [
        "turn 1, city: expected Alienoid, got Kraken",
        "turn 1, Kraken.health: expected 7, got 8",
    ]
    assert result.failures[1] == Failure(1, "Kraken.health", 7, 8)
    assert result.log  # the log comes along for context


def test_the_final_expect_is_checked_after_the_last_turn(tmp_path):
    path = write(tmp_path, GOOD + '\n[expect]\nover = true\nwinner = "Kraken"\n')
    result = run_scenario(load_scenario(path))
    assert [str(f) for f in result.failures] == [
        "end, over: expected true, got false",
        "end, winner: expected Kraken, got none",
    ]


def test_card_lists_compare_by_card_whatever_the_spelling(tmp_path):
    path = write(tmp_path, """\
        deck = "kot"
        first = "Kraken"
        market = ["heal", "Tanks", "energize"]

        [[monster]]
        name = "Kraken"
        cards = ["camouflage"]

        [[monster]]
        name = "Alienoid"

        [[turn]]
        dice = ["1 1 2 2 3 3"]
        actions = ["stop"]  # nothing to buy: the turn ends

        [turn.expect]
        market = ["Heal", "tanks", "Energize"]

        [turn.expect.Kraken]
        cards = ["Camouflage", "Wings"]
        """)
    result = run_scenario(load_scenario(path))
    assert [str(f) for f in result.failures] == ["turn 1, Kraken.cards: expected [Camouflage, Wings], got [Camouflage]"]


# ------------------------------------------------------------------ malformed files

def test_toml_syntax_error_is_one_line_with_the_file_name(tmp_path):
    message = error_of(write(tmp_path, 'deck = "none"\nfirst = ["Alienoid"\n'))
    assert "TOML syntax error" in message


@pytest.mark.parametrize(
    ("old", "new", "key", "where"),
    [
        ('first = "Alienoid"', 'first = "Alienoid"\nplayers = 2', "players", "the top level"),
        ('tokyo = "city"', 'tokyo = "city"\nhelth = 3', "helth", "[[monster]] #2"),
        ("[[turn]]", "[[turn]]\nroll = 1", "roll", "[[turn]] #1"),
        ("[turn.expect]", "[turn.expect]\nwiner = 1", "winer", "[[turn]] #1 expect"),
        ("health = 8", "health = 8\nhp = 8", "hp", "[[turn]] #1 expect.Kraken"),
    ],
)
def test_an_unknown_key_is_named_with_where_it_is(tmp_path, old, new, key, where):
    message = error_of(write(tmp_path, GOOD.replace(old, new, 1)))
    assert f"unknown key {key!r} in {where}" in message


def test_a_bad_die_face_is_an_error(tmp_path):
    message = error_of(write(tmp_path, GOOD.replace('"1 energy"', '"1 lightningbolt"')))
    assert "'lightningbolt'" in message and "[[turn]] #1 dice" in message


def test_an_unknown_card_is_an_error(tmp_path):
    text = GOOD.replace('deck = "none"', 'deck = "kot"\nmarket = ["Heal", "Laser Eyes"]')
    message = error_of(write(tmp_path, text))
    assert "market" in message and "'Laser Eyes'" in message


def test_a_scenario_may_play_a_mixed_deck(tmp_path):
    # Kraken stays in Tokyo with Origins' Bull Headed, in the classic deck with two Origins cards.
    text = GOOD.replace('deck = "none"', 'deck = "kot+origins:bull_headed,Supertower"').replace(
        'tokyo = "city"', 'tokyo = "city"\ncards = ["Bull Headed"]').replace(
        "[turn.expect.Kraken]\nhealth = 8", "[turn.expect.Kraken]\nhealth = 8\nstars = 1")
    assert run_scenario(load_scenario(write(tmp_path, text))).passed


def test_a_scenario_deck_with_an_unknown_card_is_an_error(tmp_path):
    message = error_of(write(tmp_path, GOOD.replace('deck = "none"', 'deck = "kot+origins:pizza"')))
    assert message.endswith("deck: no card 'pizza' in deck 'origins'")


def test_an_impossible_position_is_an_error(tmp_path):
    message = error_of(write(tmp_path, GOOD.replace('name = "Alienoid"', 'name = "Alienoid"\ntokyo = "city"')))
    assert "impossible position" in message and "Tokyo City already holds" in message


def test_an_illegal_action_lists_the_legal_ones(tmp_path):
    message = error_of(write(tmp_path, GOOD.replace('"Kraken: stay"', '"Kraken: buy 1"')))
    assert message.endswith("turn 1, action 'Kraken: buy 1': not legal now: Kraken must decide (yield); legal: stay, yield")


def test_an_action_prefixed_with_the_wrong_monster_is_an_error(tmp_path):
    message = error_of(write(tmp_path, GOOD.replace('"Kraken: stay"', '"Alienoid: stay"')))
    assert "the decision is Kraken's, not Alienoid's: Kraken must decide (yield); legal: stay, yield" in message


def test_scripted_dice_left_unused_by_a_turn_are_an_error(tmp_path):
    message = error_of(write(tmp_path, GOOD.replace('"1 energy"]', '"1 energy", "claw"]')))
    assert "turn 1: 1 scripted roll(s) left unused: 'claw'" in message


def test_a_turn_whose_actions_stop_before_its_end_names_the_pending_decision(tmp_path):
    message = error_of(write(tmp_path, GOOD.replace(', "Kraken: stay"', "")))
    assert "the actions ran out but the turn is not over: Kraken must decide (yield); legal: stay, yield" in message


def test_dice_that_do_not_fit_the_roll_are_an_error(tmp_path):
    message = error_of(write(tmp_path, GOOD.replace('"1 energy"', '"1 energy heart"')))
    assert "turn 1, action 'Alienoid: reroll 3 4'" in message and "3 faces" in message


def test_turns_after_the_end_of_the_game_are_an_error(tmp_path):
    text = GOOD.replace('tokyo = "city"', 'tokyo = "city"\nhealth = 2').replace(', "Kraken: stay"', "")
    text = text.replace("health = 8", "health = 0") + '\n[[turn]]\ndice = ["1 1 1 2 2 2"]\nactions = ["stop"]\n'
    message = error_of(write(tmp_path, text))
    assert "the game ended during turn 1 (Alienoid wins, last_standing)" in message


def test_a_turn_said_to_be_another_monsters_is_an_error(tmp_path):
    text = GOOD + '\n[[turn]]\nmonster = "Alienoid"\ndice = ["1 1 1 2 2 2"]\nactions = ["stop"]\n'
    message = error_of(write(tmp_path, text))
    assert "turn 2 is Kraken's turn, not Alienoid's" in message


# ------------------------------------------------------------------ the command line

def test_cli_passes_a_directory_and_exits_0(tmp_path):
    write(tmp_path, GOOD, "a.toml")
    (tmp_path / "more").mkdir()
    write(tmp_path / "more", GOOD, "b.toml")
    result = CliRunner().invoke(cli, ["scenario", "run", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == ["PASS a", "PASS more/b", "2 scenarios: 2 passed, 0 failed, 0 errors"]


def test_cli_reports_fail_and_error_and_runs_the_others(tmp_path):
    write(tmp_path, GOOD, "a_good.toml")
    write(tmp_path, GOOD.replace("health = 8", "health = 6"), "b_wrong.toml")
    write(tmp_path, GOOD.replace("[[turn]]", "[[turn]]\nroll = 1"), "c_broken.toml")
    result = CliRunner().invoke(cli, ["scenario", "run", str(tmp_path)])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0] == "PASS a_good"
    assert lines[1:3] == ["FAIL b_wrong", "    turn 1, Kraken.health: expected 6, got 8"]
    assert "    log:" in lines
    assert any(line.startswith("ERROR c_broken: unknown key 'roll' in [[turn]] #1") for line in lines)
    assert lines[-1] == "3 scenarios: 1 passed, 1 failed, 1 error"


def test_cli_json_output(tmp_path):
    good = write(tmp_path, GOOD, "good.toml")
    wrong = write(tmp_path, GOOD.replace("energy = 1", "energy = 2"), "wrong.toml")
    result = CliRunner().invoke(cli, ["scenario", "run", "--json", str(good), str(wrong)])
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert data["summary"] == {"total": 2, "passed": 1, "failed": 1, "errors": 0}
    assert [s["status"] for s in data["scenarios"]] == ["pass", "fail"]
    assert data["scenarios"][1]["failures"] == [{"turn": 1, "key": "Alienoid.energy", "expected": 2, "got": 1}]


def test_cli_runs_the_shipped_scenarios(tmp_path):
    result = CliRunner().invoke(cli, ["scenario", "run", str(SCENARIOS)])
    assert result.exit_code == 0, result.output
    assert f"{len(SCENARIO_FILES)} scenarios: {len(SCENARIO_FILES)} passed" in result.output


def test_cli_without_scenario_files_is_a_one_line_error(tmp_path):
    result = CliRunner().invoke(cli, ["scenario", "run", str(tmp_path)])
    assert result.exit_code == 1
    assert result.output.strip() == f"Error: no scenario files (*.toml) under {tmp_path}"


# ------------------------------------------------------------------ the documentation

def test_the_complete_example_in_the_docs_passes(tmp_path):
    docs = (SCENARIOS.parent / "docs" / "scenarios.md").read_text(encoding="utf-8")
    example = docs.split("```toml\n", 1)[1].split("```", 1)[0]
    result = run_scenario(load_scenario(write(tmp_path, example)))
    assert result.passed, [str(f) for f in result.failures]
    assert len(result.scenario.turns) == 2 and result.scenario.final_checks
