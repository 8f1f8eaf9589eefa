"""Packed replays (format version 2): one token per action, the seats left to the engine.

The league stores every match's replay this way (``actions_replay_text``). A packed
line must read back into the very actions that were played, play the game again to the
same end, and say clearly what is wrong with one that does not.
"""

from __future__ import annotations

import dataclasses
import json

import pytest
from click.testing import CliRunner

from kotarena.bots.random_bot import RandomBot
from kotarena.cli import cli
from kotarena.engine.actions import Action, parse_action
from kotarena.games import new_game
from kotarena.games.kot.tokens import PACKED_TOKENS
from kotarena.match import bot_seed, play
from kotarena.replay import Replay, ReplayError, actions_replay_text, read_replay, replay_from_text, reproduce
from kotarena.replay.packed import packed_body, packed_token, unpacked_texts


def played(seed: int, players: int = 4, deck: str | None = "default"):
    """A finished game between random bots, played without an event log, as the league plays."""
    state = new_game("kot", players, seed=seed, deck=deck, record=False)
    return play(state, [RandomBot(seed=bot_seed(seed, seat)) for seat in range(players)])


def packed_lines(seed: int = 11, players: int = 3) -> list[str]:
    return actions_replay_text(played(seed, players), first_player=None, bots=["random"] * players).split("\n")


def line_index(lines: list[str], prefix: str) -> int:
    return next(index for index, line in enumerate(lines) if line.startswith(prefix))


def reproduce_lines(lines: list[str]):
    return reproduce(replay_from_text("\n".join(lines), source="game.replay"))


# ------------------------------------------------------------------ the tokens

def test_each_token_stands_for_one_action_and_is_that_actions_token():
    assert len(set(PACKED_TOKENS.values())) == len(PACKED_TOKENS) == 64 + 8
    for token, text in PACKED_TOKENS.items():
        action = parse_action(text)
        assert action.text == text
        assert packed_token("kot", action) == token and unpacked_texts("kot", token) == [text]
        # One character that no line of the format gives another meaning: not a space,
        # a comment, a quote or escape, or a brace.
        assert len(token) == 1 and token.isascii() and token not in ' #"\\{}'


@pytest.mark.parametrize(("text", "token"), [
    ("stop", "A"),  # no die rerolled: the digit 0
    ("reroll 1", "B"),  # die 1 is bit 0: 1
    ("reroll 1 6", "h"),  # dice 1 and 6: 1 + 32 = 33
    ("reroll 2 3 4", "O"),  # 2 + 4 + 8 = 14
    ("reroll 1 2 3 4 5 6", "/"),  # 63
    ("stay", "="), ("yield", ">"), ("buy 1", "["), ("buy 2", "|"), ("buy 3", "]"),
    ("sweep", "*"), ("done", "."), ("pass", "-"),
])
def test_a_reroll_is_the_base_64_digit_of_its_dice_and_the_common_actions_have_a_sign(text, token):
    assert packed_token("kot", parse_action(text)) == token


@pytest.mark.parametrize("text", ["use stretchy 3 claw", "use rapid_healing", "cure 1 0", "reroll 1 7", "buy 4"])
def test_any_other_action_is_its_text_in_braces(text):
    action = parse_action(text)
    assert packed_token("kot", action) == "{" + text + "}"
    assert unpacked_texts("kot", "A{" + text + "}=") == ["stop", text, "stay"]


def test_an_action_holding_a_brace_is_refused_rather_than_packed_wrongly():
    with pytest.raises(ValueError, match=r"cannot be packed: it holds a brace"):
        packed_token("kot", Action.of("use", "some_card", "a}b"))  # (a card may build any arguments)


def test_a_history_packs_into_one_token_per_action():
    state = played(3, players=5)
    body = packed_body("kot", state.history)
    assert unpacked_texts("kot", body) == [action.text for _, action in state.history]
    assert body == "".join(packed_token("kot", action) for _, action in state.history)


@pytest.mark.parametrize(("packed", "message"), [
    ("AB€", r"character 3: '€' stands for no action"),
    ("A{use stretchy 3", r"character 2: '\{' without its '\}'"),
    ("{fly 3}", r"character 1: unknown action 'fly 3'"),
    ("={reroll}", r"character 2: 'reroll' needs dice positions"),
])
def test_a_packed_line_that_is_not_tokens_names_the_character(packed, message):
    with pytest.raises(ValueError, match=message):
        unpacked_texts("kot", packed)


# ------------------------------------------------------------------ packed replays

@pytest.mark.parametrize("players", [2, 3, 5, 6])
@pytest.mark.parametrize("deck", ["default", None])
def test_a_packed_replay_plays_the_game_again_to_the_same_end(players, deck):
    for seed in range(8):
        state = played(100 * players + seed, players, deck)
        text = actions_replay_text(state, first_player=None, bots=["random"] * players)
        replay = replay_from_text(text)
        assert replay.format_version == 2 and replay.header()["format"] == 2
        assert replay.actions == [(None, action.text) for _, action in state.history]
        again = reproduce(replay)
        assert again.outcome == replay.outcome == state.outcome
        assert (again.stars, again.health, again.energy, again.market) == (
            state.stars, state.health, state.energy, state.market)
        # The seats the packed line leaves out are the ones that acted.
        assert again.history == state.history
        # Written again, it is the same text; made in memory, the same replay, lines and all.
        assert "\n".join([*replay.text_lines(), ""]) == text
        made = Replay.actions_only(state, first_player=None, bots=["random"] * players)
        assert made == dataclasses.replace(replay, source="<replay>", header_lines={})


def seated(state) -> Replay:
    """The actions-only replay of ``state`` with an ``a SEAT ACTION`` line per action, as
    kotarena wrote them before packed lines (format version 1); they still read and play."""
    replay = Replay.actions_only(state, first_player=None)
    return dataclasses.replace(replay, log=tuple(("act", seat, action.text) for seat, action in state.history),
                               lines=())


def test_an_actions_only_replay_of_a_lines_as_older_kotarenas_wrote_still_reads_and_plays():
    state = played(7, players=3)
    text = "\n".join(seated(state).text_lines()) + "\n"
    assert text.startswith("kotarena-replay 1\n") and "\npacked " not in text
    replay = replay_from_text(text)
    assert replay.actions == [(seat, action.text) for seat, action in state.history]
    assert reproduce(replay).outcome == state.outcome


def test_a_packed_line_is_less_than_a_fifth_of_the_a_lines_it_replaces():
    state = played(5, players=4)
    packed = [line for line in actions_replay_text(state, first_player=None).split("\n") if line.startswith("packed ")]
    lines = [line for line in seated(state).text_lines() if line.startswith("a ")]
    assert len(packed) == 1 and len(lines) == len(state.history)
    assert len(packed[0]) * 5 < len("\n".join(lines))


def test_a_lines_and_packed_lines_can_share_an_actions_only_body():
    state = played(12, players=4)
    history = state.history
    half = len(history) // 2
    text = "\n".join(seated(state).text_lines()).replace("kotarena-replay 1", "kotarena-replay 2")
    lines = text.split("\n")
    start = line_index(lines, "a ")
    result = line_index(lines, "result ")
    mixed = [*lines[:start + half], f"packed {packed_body('kot', history[half:half + 10])}",
             *lines[start + half + 10:result], f"packed {packed_body('kot', [])}", lines[result]]
    replay = replay_from_text("\n".join(mixed))
    assert [seat for seat, _ in replay.actions] == [seat for seat, _ in history[:half]] + [None] * 10 + [
        seat for seat, _ in history[half + 10:]]
    assert reproduce(replay).outcome == state.outcome


@pytest.mark.parametrize(("change", "message"), [
    (lambda lines: ["kotarena-replay 1", *lines[1:]], r"game.replay:11: a 'packed' line needs format version 2"),
    (lambda lines: [line + "€" if line.startswith("packed ") else line for line in lines],
     r"game.replay:11: bad packed line: character \d+: '€' stands for no action"),
    (lambda lines: [*lines[:10], "e turn 0 1", *lines[10:]],
     r"game.replay:12: a replay with 'e' lines writes its actions as 'a SEAT ACTION' lines"),
    # The tokens are the game's, so the game must be known before the packed line.
    (lambda lines: [line for line in lines if not line.startswith("game ")],
     r"game.replay:10: a 'packed' line needs the 'game' header line before it"),
    (lambda lines: [line.replace("game kot", "game chess") for line in lines],
     r"game.replay:11: bad packed line: unknown game 'chess'"),
])
def test_a_malformed_packed_replay_is_refused_at_its_line(change, message):
    with pytest.raises(ReplayError, match=message):
        replay_from_text("\n".join(change(packed_lines())), source="game.replay")


def test_an_illegal_packed_action_is_reported_with_its_place_on_the_line():
    lines = packed_lines()
    index = line_index(lines, "packed ")
    body = lines[index][len("packed "):]
    lines[index] = "packed " + body[:2] + "]" + body[3:]  # the third action: buy 3 in the middle of a roll
    with pytest.raises(ReplayError, match=rf"^game.replay:{index + 1}: illegal action \(action 3 of the packed line\): "
                                          r"'buy 3' is not legal"):
        reproduce_lines(lines)


def test_an_action_packed_after_the_end_is_reported():
    lines = packed_lines()
    index = line_index(lines, "packed ")
    count = len(unpacked_texts("kot", lines[index][len("packed "):]))
    lines[index] += "A"
    with pytest.raises(ReplayError, match=rf"action 'stop' after the game is over \(action {count + 1} of the packed"):
        reproduce_lines(lines)


def test_a_packed_replay_with_another_result_does_not_reproduce():
    lines = packed_lines()
    index = line_index(lines, "result ")
    lines[index] = lines[index].replace("turns ", "turns 1")
    with pytest.raises(ReplayError, match="does not reproduce") as caught:
        reproduce_lines(lines)
    assert caught.value.line == index + 1 and caught.value.expected == lines[index]


def test_the_command_replays_a_packed_file_with_the_seats_the_engine_gave(tmp_path):
    state = played(21, players=3)
    path = tmp_path / "game.replay"
    path.write_text(actions_replay_text(state, first_player=None, bots=["random"] * 3))
    assert read_replay(path).format_version == 2
    runner = CliRunner()
    shown = runner.invoke(cli, ["replay", str(path)])
    assert shown.exit_code == 0 and "reproduced: yes" in shown.stdout and "Turn 1: " in shown.stdout
    quiet = runner.invoke(cli, ["replay", "-q", str(path)])
    assert quiet.exit_code == 0 and f"{len(state.history)} actions" in quiet.stdout
    data = json.loads(runner.invoke(cli, ["replay", "--json", str(path)]).stdout)
    assert [(a["seat"], a["action"]) for a in data["actions"]] == [(s + 1, a.text) for s, a in state.history]
