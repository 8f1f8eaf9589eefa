"""A plugin's game is played by a person, replayed in full and ends in its own words,
through the game seam alone: the Pig fixture (tests/fixtures/plugins/kotarena-pig)
declares its verbs (``roll``, ``hold``), its ending (``goal``) and nothing to draw, so
its table, help, ending and standings are the seam's defaults (``Game.words``)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from click.testing import CliRunner

from kotarena.cli import cli
from kotarena.engine.outcome import Termination
from kotarena.games import get_game, new_game
from kotarena.match import play
from kotarena.replay import read_replay

#: A person who rolls twice then holds, with a look at the help and one wrong word.
ANSWERS = "?\n? hold\nstop\nroll\nroll\nhold\n" * 60


@pytest.fixture
def pig(install, monkeypatch):
    install("kotarena-pig")
    monkeypatch.setenv("KOTARENA_TRUST", "kotarena-pig")
    return get_game("pig")


def invoke(*args: str, **kwargs):
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False, **kwargs)
    assert result.exit_code == 0, result.output
    return result.stdout


def test_a_person_plays_pig_at_the_terminal_and_it_ends_in_pigs_words(pig, monkeypatch, tmp_path):
    monkeypatch.setenv("KOTARENA_ASSUME_TTY", "1")
    saved = tmp_path / "pig.replay"
    out = invoke("play", "--game", "pig", "--bot", "pig-greedy", "--seed", "3", "--replay", str(saved), input=ANSWERS)
    assert "#  seat          banked\n" in out  # the seat facts, as columns
    assert "Your decision (Pig 1): roll the die again (roll), or bank this turn's points (hold)" in out
    assert ("  roll                   roll the die: a 1 loses this turn's points, any other face adds to them\n"
            "  hold                   bank this turn's points and pass the die on") in out  # '?'
    assert "hold: bank this turn's points and pass the die on" in out  # '? hold'
    assert "unknown action 'stop' (the actions: roll, hold). Type ? for the legal actions." in out
    last = out.splitlines()
    assert last[-1] == f"replay written to {saved}"
    assert last[-2] == "Pig 2 wins by banking 20 points after 6 turns. (seed 3)"
    assert "place  seat   banked" in out  # the standings
    replayed = invoke("replay", str(saved))
    assert "reproduced: yes" in replayed and "wins by banking 20 points" in replayed


def test_pig_ends_with_its_own_termination(pig):
    state = play(new_game("pig", players=2, seed=4), [get_bot_made("pig-greedy", seed) for seed in (1, 2)])
    assert state.outcome.termination is Termination("goal")
    assert state.outcome.termination.value in pig.endings
    assert pig.words.ending(state.outcome, state.names) == (
        f"{state.names[state.outcome.winner]} wins by banking 20 points after {state.outcome.turns} turns")


def get_bot_made(name: str, seed: int):
    from kotarena.bots.registry import get_bot

    return get_bot(name).make(seed=seed)


def test_a_full_pig_replay_is_written_by_match_and_read_where_pig_is_not_installed(pig, tmp_path):
    saved = tmp_path / "match.replay"
    invoke("match", "--game", "pig", "--bot", "pig-greedy", "--bot", "random", "--seed", "5", "--replay", str(saved))
    replay = read_replay(saved)
    assert replay.has_events and replay.first_player is None  # Pig's log has no turn events: it chooses again
    # The header says so in no game's words (not King of Tokyo's "rolloff").
    assert "first chosen" in saved.read_text().splitlines()
    assert ("act", 0, "roll") in replay.log and any(event[0] == "roll" for event in replay.log)
    assert "reproduced: yes" in invoke("replay", str(saved))
    # A fresh interpreter without the plugin still reads Pig's actions and ending.
    code = (f"from kotarena.replay import read_replay; r = read_replay({str(saved)!r}); "
            "print(r.outcome.termination, sorted({t for _, t in r.actions}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"KOTARENA_TRUST": "", "PATH": "/usr/bin:/bin"}).stdout
    assert out.strip() == "goal ['hold', 'roll']"
