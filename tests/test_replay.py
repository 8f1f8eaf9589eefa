"""Replays: events read back exactly, files round-trip, and a replay plays out as written."""

from __future__ import annotations

import dataclasses
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from kotarena.bots.random_bot import RandomBot
from kotarena.cli import cli
from kotarena.engine.events import EventTextError, event_from_text, event_to_text
from kotarena.games import get_spec, new_game
from kotarena.games.kot.events import format_event
from kotarena.games.kot.faces import scripted_dice
from kotarena.match import bot_seed, play
from kotarena.replay import (
    Replay,
    ReplayError,
    actions_replay_text,
    read_replay,
    replay_from_text,
    replay_text,
    reproduce,
    write_replay,
)

GOLDEN = Path(__file__).parent / "replays"
NAMES = ("Alienoid", "Cyber Bunny", "Giga Zaur")


def played(seed: int, players: int = 4, deck: str | None = "default", **options):
    """A finished game between random bots, as `kotarena match` plays it."""
    state = new_game("kot", players, seed=seed, deck=deck, **options)
    return play(state, [RandomBot(seed=bot_seed(seed, seat)) for seat in range(players)])


def lines_of(state, **options) -> list[str]:
    return replay_text(state, **options).split("\n")


def first_line(lines: list[str], prefix: str) -> int:
    """The index of the first line starting with ``prefix``."""
    return next(i for i, line in enumerate(lines) if line.startswith(prefix))


def reproduce_text(lines: list[str]):
    return reproduce(replay_from_text("\n".join(lines), source="game.replay"))


# ------------------------------------------------------------------ events in English

@pytest.mark.parametrize(("event", "line"), [
    (("rolloff", ((0, 2), (1, 1), (2, 0))), "Roll-off for the first turn: Alienoid 2 claws, Cyber Bunny 1 claw, Giga Zaur 0 claws"),
    (("turn", 2, 7), "Turn 7: Giga Zaur"),
    (("roll", 2, (0, 1, 2, 2, 4, 3), ()), "Giga Zaur rolls 1 2 3 3 heart energy"),
    (("roll", 2, (1, 1, 2, 2, 1, 5), (1, 2, 5, 6)), "Giga Zaur rerolls 1 2 5 6 -> 2 2 3 3 2 claw"),
    (("act", 0, "reroll 1 4"), "Alienoid chooses to reroll dice 1 and 4"),
    (("stars", 2, 1, "take tokyo"), "Giga Zaur gains 1 star for taking Tokyo"),
    (("stars", 2, 2, "start in tokyo"), "Giga Zaur gains 2 stars for starting the turn in Tokyo"),
    (("stars", 0, 3, "dice"), "Alienoid gains 3 stars from the dice"),
    (("energy", 1, 2), "Cyber Bunny gains 2 energy"),
    (("heal", 1, 2), "Cyber Bunny heals 2"),
    (("damage", 1, 1, 2), "Cyber Bunny takes 1 damage from Giga Zaur"),
    (("eliminated", 1), "Cyber Bunny is eliminated"),
    (("enter", 2, "city"), "Giga Zaur enters Tokyo City"),
    (("enter", 2, "bay"), "Giga Zaur enters Tokyo Bay"),
    (("leave", 1, "city", "yield"), "Cyber Bunny leaves Tokyo City (yields)"),
    (("leave", 1, "bay", "bay closed"), "Cyber Bunny leaves Tokyo Bay (Tokyo Bay closes)"),
    (("bay closed",), "Tokyo Bay closes: fewer than 5 monsters are left"),
    (("buy", 0, "energize", 2, 8), "Alienoid buys Energize from market slot 2 for 8 energy"),
    (("sweep", 0), "Alienoid sweeps the market"),
    (("reveal", 3, "armor_plating"), "Armor Plating is revealed in market slot 3"),
    (("reshuffle", 12), "The discard pile (12 cards) is shuffled into a new deck"),
    (("over", 1, "stars"), "Game over: Cyber Bunny wins by reaching 20 stars"),
    (("over", 0, "last_standing"), "Game over: Alienoid wins as the last monster standing"),
    (("over", None, "all_eliminated"),
     "Game over: nobody wins (the last monsters were eliminated together)"),
])
def test_each_event_reads_as_one_plain_line(event, line):
    assert format_event(event, NAMES) == line


def test_a_damage_line_says_only_what_the_event_holds():
    # The health left is not part of the event, so the line does not guess it.
    assert "left" not in format_event(("damage", 1, 3, 0), NAMES)


def test_an_event_of_an_unknown_kind_is_shown_in_its_text_form():
    assert format_event(("poison", 1, 2, (0, None)), NAMES) == "poison 1 2 (0 none)"


def test_a_known_kind_with_an_unexpected_shape_is_shown_in_its_text_form():
    assert format_event(("damage", 1, 3, 0, "acid"), NAMES) == "damage 1 3 0 acid"
    assert format_event(("roll", 0, 5, ()), NAMES) == "roll 0 5 ()"
    assert format_event(("turn", 9, 1), NAMES) == "Turn 1: seat 10"  # a seat past the names, from 1


# ------------------------------------------------------------------ events as text

@pytest.mark.parametrize(("event", "text"), [
    (("turn", 0, 1), "turn 0 1"),
    (("roll", 2, (0, 1, 2, 2, 4, 3), ()), "roll 2 (0 1 2 2 4 3) ()"),
    (("stars", 2, 1, "take tokyo"), 'stars 2 1 "take tokyo"'),
    (("bay closed",), '"bay closed"'),
    (("over", None, "all_eliminated"), "over none all_eliminated"),
    (("rolloff", ((0, 2), (1, 1))), "rolloff ((0 2) (1 1))"),
    (("future", "none", "True", True, False, -3, [1, (2,)], ""), 'future "none" "True" true false -3 [1 (2)] ""'),
    (("quote", 'say "hi" # not a comment\n', "Zaur\u00e9"), r'quote "say \"hi\" # not a comment\n" "Zaur\u00e9"'),
])
def test_the_text_form_of_an_event_reads_back_exactly(event, text):
    assert event_to_text(event) == text
    assert event_from_text(text) == event


values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.tuples(inner, inner) | st.lists(inner, max_size=3).map(tuple) | st.lists(inner, max_size=3),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None, database=None)
@given(st.text(min_size=1), st.lists(values, max_size=5))
def test_any_event_of_any_kind_round_trips_on_one_line(kind, fields):
    event = (kind, *fields)
    text = event_to_text(event)
    assert "\n" not in text and "\r" not in text and text.isascii()
    assert event_from_text(text) == event
    assert all(type(a) is type(b) for a, b in zip(event_from_text(text), event))


@pytest.mark.parametrize("text", ["roll 1 (2 3", "roll 1 2)", "roll (1 2]", 'stars "open', "x 1.5", "x 12ab",
                                  "x (1)(2)", "x $"])
def test_text_that_is_not_an_event_is_refused(text):
    with pytest.raises(EventTextError):
        event_from_text(text)


def test_an_event_holding_a_float_has_no_text_form():
    with pytest.raises(TypeError, match="float"):
        event_to_text(("odd", 1.5))


# ------------------------------------------------------------------ writing and reading

def test_a_replay_reads_back_as_written(tmp_path):
    state = played(7)
    path = tmp_path / "game.replay"
    write_replay(state, path, bots=["random"] * 4)
    replay = read_replay(path)
    assert replay == dataclasses.replace(Replay.from_state(state, bots=["random"] * 4), source=str(path))
    assert replay.log == tuple(state.log)
    assert replay.outcome == state.outcome
    assert replay.players == state.names and replay.seed == 7 and replay.deck == "kot"
    assert replay.first_player is None and replay.rules_version == get_spec("kot").rules_version
    assert replay.actions == [(seat, action.text) for seat, action in state.history]
    assert replay.bots == ("random",) * 4 and replay.created_with.startswith("kotarena ")
    assert path.read_text().startswith("kotarena-replay 1\n")


def test_a_replay_made_in_memory_knows_the_lines_it_will_have():
    state = played(14, players=3)
    for bots in (None, ["random"] * 3):
        replay = Replay.from_state(state, bots=bots)
        assert replay == dataclasses.replace(replay_from_text(replay_text(state, bots=bots)), header_lines={})


def test_a_replay_can_be_written_to_a_stream_and_read_from_one():
    state = played(8, players=3, deck=None)
    buffer = io.StringIO()
    write_replay(state, buffer)
    text = buffer.getvalue()
    assert "\ndeck none\n" in text and "\nbots " not in text
    replay = read_replay(io.StringIO(text))
    assert replay.deck is None and replay.bots is None and replay.source == "<stream>"
    assert reproduce(replay).outcome == state.outcome


def test_the_body_has_an_a_line_per_action_and_an_e_line_per_event_in_order():
    state = played(9, players=2)
    body = [line for line in lines_of(state) if line[:2] in ("a ", "e ")]
    assert len(body) == len(state.log)
    for line, event in zip(body, state.log):
        if event[0] == "act":
            assert line == f"a {event[1]} {event[2]}"
        else:
            assert line == "e " + event_to_text(event)
    assert lines_of(state)[-2].startswith("result winner ")


def test_a_chosen_first_player_is_written_and_replayed():
    state = played(10, players=3, first_player=2)
    text = replay_text(state)
    assert "\nfirst 2\n" in text
    assert reproduce(replay_from_text(text)).log == state.log


def test_comments_and_blank_lines_are_ignored():
    lines = lines_of(played(11, players=2))
    lines.insert(3, "   # a comment line")
    lines.insert(5, "")
    index = first_line(lines, "a ")
    lines[index] = lines[index].replace(" ", "\t", 2) + "   # the first decision"
    assert reproduce_text(lines).log == played(11, players=2).log


def test_an_unfinished_game_is_replayed_up_to_its_pending_decision():
    state = new_game("kot", 4, seed=12)
    bots = [RandomBot(seed=seat) for seat in range(4)]
    for _ in range(40):
        state.apply(bots[state.to_move].choose(state.view(state.to_move)))
    text = replay_text(state)
    assert text.endswith("result unfinished\n")
    again = reproduce(replay_from_text(text))
    assert again.outcome is None
    assert (again.to_move, again.kind, again.legal, again.dice, again.log) == (
        state.to_move, state.kind, state.legal, state.dice, state.log)


def test_a_game_paused_between_turns_is_replayed_to_the_same_pause():
    state = new_game("kot", 2, seed=13, deck=None)
    state.pause_between_turns = True
    while not state.between_turns:
        state.apply(state.legal[0])
    again = reproduce(replay_from_text(replay_text(state)))
    assert again.between_turns and again.log == state.log
    again.next_turn()
    state.next_turn()
    assert again.log == state.log


def test_only_a_recorded_game_from_its_seed_can_be_written():
    with pytest.raises(ValueError, match="record=True"):
        replay_text(new_game("kot", 2, seed=1, record=False))
    with pytest.raises(ValueError, match="scripted dice"):
        replay_text(new_game("kot", 2, seed=1, first_player=0, dice=scripted_dice(["1 1 1 2 2 2"])))
    with pytest.raises(ValueError, match="bot names"):
        replay_text(new_game("kot", 2, seed=1), bots=["random"])


# ------------------------------------------------------------------ reproducing many games

@pytest.mark.parametrize("deck", ["default", None])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_reproduce_from_their_replays(players, deck):
    for seed in range(25):
        state = played(1000 * players + seed, players, deck)
        text = replay_text(state, bots=["random"] * players)
        again = reproduce(replay_from_text(text))
        assert again.log == state.log and again.outcome == state.outcome
        assert (again.health, again.stars, again.energy, again.market) == (
            state.health, state.stars, state.energy, state.market)
        # Reading the file back and matching it with the engine's log checked every
        # event's text form; the English form must exist for each of them too.
        assert all(format_event(event, state.names) for event in state.log)


@pytest.mark.parametrize("first_player", [None, 1])
@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_leagues_actions_only_text_is_the_packed_replay_and_plays_the_game_again(players, first_player):
    # The league writes this text for every match from cached pieces; it must be
    # exactly what the replay object writes, whatever the seats, bots and seed.
    for seed in range(6):
        state = new_game("kot", players, seed=500 + seed, deck="default", first_player=first_player, record=False)
        play(state, [RandomBot(seed=bot_seed(seed, seat)) for seat in range(players)])
        for bots in (None, [f"bot-{seat}" for seat in range(players)]):
            text = actions_replay_text(state, first_player=first_player, bots=bots)
            replay = Replay.actions_only(state, first_player=first_player, bots=bots)
            assert text == "\n".join([*replay.text_lines(), ""])
            assert text.startswith("kotarena-replay 2\n") and "\npacked " in text
            again = reproduce(replay_from_text(text))
            assert again.outcome == state.outcome and again.stars == state.stars


# ------------------------------------------------------------------ tampered files

def change_first_die(lines: list[str]) -> tuple[int, tuple]:
    """Turn the first die of the first roll to another face; returns the line index and the true event."""
    index = first_line(lines, "e roll ")
    event = event_from_text(lines[index][2:])
    dice = list(event[2])
    dice[0] = (dice[0] + 1) % 6
    lines[index] = "e " + event_to_text((*event[:2], tuple(dice), event[3]))
    return index, event


def test_a_changed_die_is_reported_at_its_line():
    lines = lines_of(played(21))
    index, event = change_first_die(lines)
    with pytest.raises(ReplayError) as caught:
        reproduce_text(lines)
    error = caught.value
    assert error.line == index + 1
    assert error.expected == lines[index]
    assert error.got == "e " + event_to_text(event)
    assert str(error).startswith(f"game.replay:{index + 1}: the game does not reproduce")
    assert "\n" not in str(error)


def test_a_missing_event_line_is_reported_where_it_was():
    lines = lines_of(played(22))
    index = first_line(lines, "e stars ")
    removed = lines.pop(index)
    with pytest.raises(ReplayError) as caught:
        reproduce_text(lines)
    assert caught.value.line == index + 1 and caught.value.got == removed


def test_an_illegal_action_is_reported_at_its_line():
    lines = lines_of(played(23))
    index = first_line(lines, "a ")
    seat = lines[index].split()[1]
    lines[index] = f"a {seat} buy 3"  # the first decision is a roll: nothing can be bought yet
    with pytest.raises(ReplayError, match=rf"^game.replay:{index + 1}: illegal action: 'buy 3' is not legal"):
        reproduce_text(lines)


def test_an_action_by_the_wrong_seat_is_reported_at_its_line():
    lines = lines_of(played(24, players=3))
    index = first_line(lines, "a ")
    _, seat, action = lines[index].split(" ", 2)
    lines[index] = f"a {(int(seat) + 1) % 3} {action}"
    with pytest.raises(ReplayError, match=rf"^game.replay:{index + 1}: seat \d acts .* decision \(roll\)"):
        reproduce_text(lines)


def test_an_action_that_is_not_an_action_is_reported_when_reading():
    lines = lines_of(played(25))
    index = first_line(lines, "a ")
    lines[index] = "a 0 jump"
    with pytest.raises(ReplayError, match=rf"^game.replay:{index + 1}: bad action text: unknown action 'jump'"):
        replay_from_text("\n".join(lines), source="game.replay")


def test_a_changed_result_is_reported_at_the_result_line():
    lines = lines_of(played(26))
    index = first_line(lines, "result ")
    lines[index] = lines[index].replace("turns ", "turns 1")
    with pytest.raises(ReplayError) as caught:
        reproduce_text(lines)
    assert caught.value.line == index + 1 and caught.value.expected == lines[index]


def test_a_truncated_file_is_refused():
    lines = lines_of(played(27))
    with pytest.raises(ReplayError, match=r"truncated: it ends without a 'result' line"):
        replay_from_text("\n".join(lines[:len(lines) // 2]) + "\n", source="game.replay")
    index = first_line(lines, "e rolloff ")
    cut = "\n".join(lines[:index] + [lines[index][:-4]])  # no line end: cut inside the line
    with pytest.raises(ReplayError, match=rf"^game.replay:{index + 1}: the file is truncated in the middle"):
        replay_from_text(cut, source="game.replay")


def test_a_replay_cut_short_at_a_line_end_but_given_a_result_does_not_reproduce():
    lines = lines_of(played(28))
    index = first_line(lines, "result ")
    short = lines[:index - 5] + lines[index:]
    with pytest.raises(ReplayError, match="does not reproduce") as caught:
        reproduce_text(short)
    assert caught.value.line == index - 4  # the result line, now five lines up


@pytest.mark.parametrize(("change", "message"), [
    (lambda lines: ["kotarena-replay 3", *lines[1:]], r":1: replay format version 3; this kotarena reads versions 1 and 2"),
    (lambda lines: ["# hello", *lines], r":1: not a kotarena replay"),
    (lambda lines: [lines[0], "colour red", *lines[1:]], r":2: unknown header key 'colour'"),
    (lambda lines: [line for line in lines if not line.startswith("seed ")], r"the header has no 'seed' line"),
    (lambda lines: [line.replace("seed ", "seed seven") if line.startswith("seed ") else line for line in lines],
     r"bad 'seed' value 'seven.*': expected a whole number"),
    (lambda lines: [*lines[:3], lines[2], *lines[3:]], r":4: header key 'game' given twice \(first on line 3\)"),
    (lambda lines: [*lines[:-1], "e turn 0 99"], r"nothing may follow the result line"),
    (lambda lines: [*lines[:-2], "seed 3", *lines[-2:]], r"header line 'seed' after the body began"),
    (lambda lines: [*lines[:-2], "x 1", *lines[-2:]], r"unknown line 'x' in the body"),
    (lambda lines: [*lines[:-2], "result winner 0 termination won turns 3 ranks (0 1)"], r"unknown termination 'won'"),
    (lambda lines: [*lines[:-2], "e act 0 stop", *lines[-2:]], r"actions are written as 'a SEAT ACTION' lines"),
])
def test_a_malformed_file_is_refused_with_its_line(change, message):
    lines = lines_of(played(29, players=2))
    with pytest.raises(ReplayError, match=message) as caught:
        replay_from_text("\n".join(change(lines)), source="game.replay")
    assert str(caught.value).startswith("game.replay:") and "\n" not in str(caught.value)


def test_a_replay_from_other_rules_is_refused_at_the_rules_line():
    lines = [line if not line.startswith("rules-version ") else "rules-version 99" for line in lines_of(played(30))]
    with pytest.raises(ReplayError, match=r"^game.replay:4: .*rules version 99; this kotarena plays version"):
        reproduce_text(lines)


def with_rules_version(lines: list[str], version: int) -> list[str]:
    return [line if not line.startswith("rules-version ") else f"rules-version {version}" for line in lines]


@pytest.mark.parametrize("path", sorted((Path(__file__).parent / "replays").glob("*.replay")), ids=lambda p: p.name)
def test_a_replay_from_older_rules_still_replays_when_its_game_met_no_changed_rule(path):
    """Marked as written under the rules version before today's (version 6 changed only
    Orb of Doom, an Origins card the classic deck does not hold), the golden replays
    still play out: their games meet no rule that changed."""
    older = with_rules_version(path.read_text().splitlines(), get_spec("kot").rules_version - 1)
    state = reproduce_text(older)
    assert state.outcome is not None


def test_a_replay_from_older_rules_that_plays_differently_says_which_rules_it_was_written_under():
    lines = with_rules_version(lines_of(played(30)), get_spec("kot").rules_version - 1)
    result = next(i for i, line in enumerate(lines) if line.startswith("result "))
    turns = lines[result].split(" turns ")[1].split()[0]
    lines[result] = lines[result].replace(f" turns {turns} ", f" turns {int(turns) + 1} ")  # not what was played
    with pytest.raises(ReplayError, match=r"does not reproduce.*written under rules version \d+; this kotarena plays"):
        reproduce_text(lines)


def test_a_header_the_engine_refuses_is_reported_at_its_line():
    lines = [line if not line.startswith("players ") else "players A B C D E F G" for line in lines_of(played(31))]
    with pytest.raises(ReplayError, match=r"^game.replay:5: cannot set up the game: .* 2 to 6 players, not 7"):
        reproduce_text(lines)


@pytest.mark.parametrize(("key", "value", "message"), [
    ("deck", "tarot", r"unknown deck 'tarot'"),
    ("first", "4", r"first player 4 is not a seat"),
    ("game", "chess", r"unknown game 'chess'"),
])
def test_a_header_value_the_engine_does_not_know_is_reported_at_its_line(key, value, message):
    lines = lines_of(played(32, players=2))
    index = first_line(lines, key + " ")
    lines[index] = f"{key} {value}"
    with pytest.raises(ReplayError, match=rf"^game.replay:{index + 1}: {message}"):
        reproduce_text(lines)


def test_a_file_that_does_not_exist_is_a_replay_error(tmp_path):
    with pytest.raises(ReplayError, match=r"missing.replay: cannot read the file"):
        read_replay(tmp_path / "missing.replay")


# ------------------------------------------------------------------ golden replays

GOLDEN_FILES = sorted(GOLDEN.glob("*.replay"))


def test_the_golden_replays_are_there():
    assert len(GOLDEN_FILES) >= 3


def test_a_first_player_the_game_chose_is_written_chosen_and_the_old_word_rolloff_still_reads():
    game = new_game("kot", 3, seed=12, deck=None)  # no first player given: the roll-off decides
    while not game.is_over:
        game.apply(game.legal[0])
    written = replay_text(game)
    assert "first chosen" in written.splitlines()
    assert read_replay(io.StringIO(written)).first_player is None
    old = written.replace("\nfirst chosen\n", "\nfirst rolloff\n")  # as the golden files, written before
    assert old != written and reproduce(replay_from_text(old)).outcome == game.outcome
    with pytest.raises(ReplayError, match="a seat number \\(from 0\\) or 'chosen'"):
        replay_from_text(written.replace("\nfirst chosen\n", "\nfirst dice\n"))


@pytest.mark.parametrize("path", GOLDEN_FILES, ids=lambda path: path.name)
def test_a_golden_replay_still_plays_out_as_recorded(path):
    # If this fails after a rules change, bump rules_version and regenerate the files
    # with the commands in docs/replays.md; if the rules were not meant to change,
    # the engine has a bug.
    replay = read_replay(path)
    state = reproduce(replay)
    assert state.outcome is not None and state.outcome == replay.outcome


# ------------------------------------------------------------------ the command

@pytest.fixture
def replay_file(tmp_path):
    path = tmp_path / "game.replay"
    write_replay(played(41, players=3), path, bots=["random"] * 3)
    return path


def test_the_command_prints_the_game_turn_by_turn(replay_file):
    result = CliRunner().invoke(cli, ["replay", str(replay_file)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith(f"Replay {replay_file}: kot (rules version {get_spec('kot').rules_version}), seed 41")
    assert "Setup" in lines and "Turn 1: " in result.output
    assert any(line.startswith("  ") and " rolls " in line for line in lines)
    assert lines[-2].startswith("Outcome: ") and lines[-1] == "reproduced: yes"
    # Seats are shown from 1, as every command shows them (the file counts from 0).
    replay = read_replay(replay_file)
    seats = lines.index("Seats:")
    assert lines[seats + 1].startswith(f"  1: {replay.players[0]}")


def test_the_command_checks_quietly_in_one_line(replay_file):
    result = CliRunner().invoke(cli, ["replay", "-q", str(replay_file)])
    assert result.exit_code == 0
    assert result.output.count("\n") == 1 and "reproduced: yes" in result.output


def test_the_command_prints_json(replay_file):
    result = CliRunner().invoke(cli, ["replay", "--json", str(replay_file)])
    assert result.exit_code == 0
    data = json.loads(result.output)
    replay = read_replay(replay_file)
    assert set(data) == {"header", "actions", "events", "lines", "outcome", "reproduced"}
    assert data["header"]["players"] == list(replay.players) and data["header"]["seed"] == 41
    assert len(data["events"]) == len(data["lines"]) == len(replay.log) and data["reproduced"] is True
    # Seats and places count from 1, as every command shows them; the file counts from 0.
    assert data["actions"][0] == {"seat": replay.actions[0][0] + 1, "action": replay.actions[0][1]}
    assert data["outcome"] == {**replay.outcome.to_json(), "winner": replay.outcome.winner + 1,
                               "ranks": [rank + 1 for rank in replay.outcome.ranks]}
    turn = next(i for i, event in enumerate(replay.log) if event[0] == "turn")
    assert data["events"][turn] == ["turn", replay.log[turn][1] + 1, replay.log[turn][2]]
    assert data["lines"][turn] == f"Turn 1: {replay.players[replay.log[turn][1]]}"


def test_the_command_reads_standard_input(replay_file):
    result = CliRunner().invoke(cli, ["replay", "-q", "-"], input=replay_file.read_text())
    assert result.exit_code == 0 and "<stdin>: reproduced: yes" in result.output


def test_the_command_reports_a_bad_file_in_one_line(replay_file):
    lines = replay_file.read_text().split("\n")
    index, _ = change_first_die(lines)
    replay_file.write_text("\n".join(lines))
    result = CliRunner().invoke(cli, ["replay", str(replay_file)])
    assert result.exit_code == 1
    assert result.output.startswith(f"Error: {replay_file}:{index + 1}: the game does not reproduce")
    assert result.output.count("\n") == 1 and "Traceback" not in result.output


@pytest.mark.parametrize("args", [["missing.replay"], ["-q", "missing.replay"]])
def test_the_command_reports_a_missing_file_in_one_line(args):
    result = CliRunner().invoke(cli, ["replay", *args])
    assert result.exit_code == 1
    assert result.output.startswith("Error: missing.replay: cannot read the file")
