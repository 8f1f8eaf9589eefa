"""Everything that takes a game takes Duel: games, play (tracks drawn in text), match,
cards, bench, scenario run, replay; bad input is a one-line error."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from kotarena.cli import cli
from kotarena.games import get_game
from kotarena.games.duel.position import build_position, duel_dice
from kotarena.games.duel.table import track_lines

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios" / "duel"
# Whatever is legal: no tokens, keep the dice, decline, buy nothing, resolve the roll's parts.
ANSWERS = ("spend 0\nstop\npass\ndone\nresolve power\nresolve cards\nresolve fame\nresolve destruction\n"
           "resolve heart\nresolve claw\n") * 400


def invoke(args, **kwargs):
    return CliRunner().invoke(cli, args, catch_exceptions=False, **kwargs)


def one_line_error(result) -> str:
    assert result.exit_code != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: ")
    return lines[0]


def test_games_lists_duel_for_two_players():
    data = json.loads(invoke(["games", "--json"]).stdout)
    duel = next(g for g in data["games"] if g["name"] == "duel")
    assert (duel["min_players"], duel["max_players"], duel["title"]) == (2, 2, "King of Tokyo: Duel")
    assert len(duel["options"]["monsters"]["values"]) == 2 + 6 * 5  # drawn, choice, every ordered pair


def test_the_games_table_sums_up_duels_monster_pairs_in_one_short_entry():
    row = next(line for line in invoke(["games"]).stdout.splitlines() if line.startswith("duel "))
    assert row.rstrip().endswith("monsters=drawn|choice|FIRST/SECOND (two of gigazaur, xenoid, space_penguin, "
                                 "mekadragon, cyber_kitty, the_king)")


def test_a_person_plays_a_whole_duel_at_the_terminal(monkeypatch):
    monkeypatch.setenv("KOTARENA_ASSUME_TTY", "1")
    result = invoke(["play", "--game", "duel", "--bot", "random", "--seed", "6", "--monster", "The King"],
                    input="?\n" + ANSWERS)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "You are The King (seat 1)" in out
    assert "Legal actions:" in out  # the ? answer
    assert "fame           V   .   S   S   S   .   .   @" in out
    assert "wins" in out.splitlines()[-1] and "(seed 6)" in out.splitlines()[-1]


def test_without_bots_named_a_person_plays_duel_against_one_random_bot(monkeypatch):
    monkeypatch.setenv("KOTARENA_ASSUME_TTY", "1")
    result = invoke(["play", "--game", "duel", "--seed", "6"], input=ANSWERS)
    assert result.exit_code == 0, result.output
    assert "Opponents: " in result.stdout and "(random)." in result.stdout
    assert result.stdout.count("(random)") == 1


def test_a_person_asks_what_a_duel_card_does_by_its_name(monkeypatch):
    from kotarena.games.duel.cards import CARDS

    card = CARDS[0]
    monkeypatch.setenv("KOTARENA_ASSUME_TTY", "1")
    result = invoke(["play", "--game", "duel", "--bot", "random", "--seed", "6"],
                    input=f"? {card.name}\n? no such card\n" + ANSWERS)
    assert result.exit_code == 0, result.output
    assert f"{card.name} ({card.cost} energy, {card.type}" in result.stdout and card.text in result.stdout
    assert "Nothing in Duel is called 'no such card'" in result.stdout
    tesla = invoke(["play", "--game", "duel", "--bot", "random", "--seed", "6"], input="? tesla impulse\n" + ANSWERS)
    assert "Tesla Impulse (6 energy, discard, with the Penguin hype token (" in tesla.stdout


def test_without_monster_names_play_and_match_draw_the_monsters_from_the_seed(monkeypatch):
    from kotarena.games import new_game

    monkeypatch.setenv("KOTARENA_ASSUME_TTY", "1")
    for seed in (6, 7, 8):
        drawn = new_game("duel", 2, seed=seed).names
        played = invoke(["play", "--game", "duel", "--bot", "random", "--seed", str(seed)], input=ANSWERS)
        matched = json.loads(invoke(["match", "--game", "duel", "--seed", str(seed), "--json"]).stdout)
        assert f"You are {drawn[0]} (seat 1). Opponents: {drawn[1]} (random)." in played.stdout
        assert [seat["monster"] for seat in matched["seats"]] == list(drawn)


def test_match_with_chosen_monsters_lets_each_bot_choose_among_all_six(monkeypatch):
    from kotarena.bots.random_bot import RandomBot

    offered = []
    real_choose = RandomBot.choose

    def choose(self, view):
        if view.kind == "monster":
            offered.append(len(view.legal))
        return real_choose(self, view)

    monkeypatch.setattr(RandomBot, "choose", choose)
    result = invoke(["match", "--game", "duel:monsters=choice", "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert offered == [6, 5]


def test_the_tracks_are_drawn_with_markers_tokens_and_printed_spaces():
    state = build_position(["Gigazaur", "The King"], markers=(-2, "king_block_1"),
                           hype={"fish_heal": "fame 4", "alien_shortcut": "fame -7 -5", "king_block_1": "destruction 1"},
                           dice=duel_dice("heart heart heart heart heart heart"))
    lines = track_lines(state.view(0))
    assert lines[1] == "fame           V   o   S   S   @   .   .   .   .   S   h   S   .   V"  # the shortcut: 14 spaces
    assert lines[2] == "             -7' -6'  -4  -3  -2  -1   0   1   2   3  4'   5   6   7"
    assert lines[3] == "destruction    V   .   S   S   S   .   .   .   @   .   S   S   S   .   V"
    assert lines[4] == "              -7  -6  -5  -4  -3  -2  -1   0  1'   2   3   4   5   6   7"


def test_match_and_replay_of_a_duel(tmp_path):
    path = tmp_path / "duel.replay"
    result = invoke(["match", "--game", "duel", "--bot", "heuristic", "--bot", "random", "--seed", "2",
                     "--replay", str(path)])
    assert result.exit_code == 0, result.output
    replayed = invoke(["replay", str(path)])
    assert replayed.exit_code == 0, replayed.output
    assert "reproduced: yes" in replayed.stdout


def test_cards_lists_the_fifty_duel_cards_with_their_hype_tokens():
    data = json.loads(invoke(["cards", "--game", "duel", "--json"]).stdout)
    assert len(data["cards"]) == 50
    assert sum(1 for c in data["cards"] if c["hype"]) == 33  # duel_components.md: 33 carry a hype symbol


def test_bench_engine_times_duel():
    result = invoke(["bench", "engine", "--game", "duel", "--players", "2", "--games", "3", "--warmup", "0",
                     "--deck"])
    assert result.exit_code == 0, result.output
    assert "King of Tokyo: Duel" in result.output


def test_the_duel_scenarios_pass():
    result = invoke(["scenario", "run", str(SCENARIOS)])
    assert result.exit_code == 0, result.output
    assert "0 failed, 0 errors" in result.stdout


def test_three_players_for_duel_is_a_one_line_error():
    line = one_line_error(invoke(["match", "--game", "duel", "--bot", "random", "--bot", "random", "--bot", "random"]))
    assert "Duel is for 2 players" in line


def test_an_impossible_track_position_is_a_one_line_error(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('game = "duel"\n[[monster]]\nname = "Gigazaur"\n[[monster]]\nname = "Xenoid"\n'
                    '[track]\nfame = 9\n[[turn]]\ndice = ["claw claw claw claw claw claw"]\nactions = ["stop"]\n')
    result = invoke(["scenario", "run", str(path)])
    assert result.exit_code == 1
    assert "ERROR bad: the fame marker cannot stand on space 9" in result.stdout


def test_a_duel_card_in_a_classic_scenario_is_a_one_line_error(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('deck = "kot"\nfirst = "Gigazaur"\n[[monster]]\nname = "Gigazaur"\ncards = ["photoshoot"]\n'
                    '[[monster]]\nname = "Alienoid"\n[[turn]]\ndice = ["1 1 1 2 2 2"]\nactions = ["stop"]\n')
    result = invoke(["scenario", "run", str(path)])
    assert result.exit_code == 1
    assert "no card 'photoshoot' in deck 'kot'" in result.stdout


# ------------------------------------------------- every decision explained in words


def _human(answers):
    from kotarena.bots.human import HumanBot

    shown: list[str] = []
    return HumanBot(ask=lambda prompt: answers.pop(0), echo=shown.append), shown


def test_the_superpower_step_says_what_each_choice_does():
    state = build_position(("Gigazaur", "Space Penguin"), dice=duel_dice("power power heart heart energy energy"))
    state.apply("stop")
    assert state.kind == "power"
    help_text = get_game("duel").words.help(state.view(0))
    assert "power fame               Blockbuster: pull the fame marker 1 space toward your end" in help_text
    assert "power destruction        Blockbuster: pull the destruction marker 1 space toward your end" in help_text
    assert "pass                     leave Blockbuster unused and resolve the dice" in help_text


def test_a_superpower_named_in_the_table_is_explained_by_name():
    state = build_position(("Gigazaur", "Space Penguin"), dice=duel_dice("claw claw heart heart energy energy"))
    view = state.view(0)
    assert "Blockbuster" in get_game("duel").words.table(view, me=0)  # shown in the table...
    bot, shown = _human(["? Blockbuster", "? space penguin", "? cat", "stop"])
    assert bot.choose(view).text == "stop"
    assert shown[-3] == ("Blockbuster, Gigazaur's superpower: Each pair of power faces: pull the fame or the "
                         "destruction marker 1.")  # ... and explained by name
    assert shown[-2].startswith("Space Penguin: a monster with 13 health; its superpower Cryo-Gadgets: ")
    assert shown[-1] == "the Cat hype token (smash)"


def test_two_destruction_faces_are_said_to_move_nothing_before_stopping():
    state = build_position(("Gigazaur", "Space Penguin"),
                           dice=duel_dice("destruction destruction heart heart energy claw"))
    words, view = get_game("duel").words, state.view(0)
    said = "2 destruction: 1 short of pulling the destruction marker, so it does not move"
    assert said in words.table(view, me=0).splitlines()[-1]
    assert f"stop                     keep the dice and resolve them ({said}; 1 claw; 2 hearts; 1 energy)" in (
        words.help(view))
    state.apply("stop")
    assert state.board.markers[1] == ("", 0)  # and indeed nothing moved
    three = build_position(("Gigazaur", "Space Penguin"), dice=duel_dice("destruction destruction destruction "
                                                                         "heart energy claw"))
    assert "3 destruction: pull the destruction marker 1 toward you" in words.question(three.view(0))
