"""``kotarena export``: a season as JSON lines, seats and places from 1, replays that play,
each seat's decision times and its bot's lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from site_nights import play_nights

from kotarena.cli import cli
from kotarena.replay import replay_from_text, reproduce
from kotarena.storage import open_db
from kotarena.storage.queries import leaderboard


def export(*args: str):
    return CliRunner().invoke(cli, ["export", *args])


def records(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


def test_a_season_is_its_ladder_nights_bots_matches_and_ratings_one_json_object_a_line(season_db):
    result = export("four", "--db", season_db)
    assert result.exit_code == 0, result.output
    lines = records(result.stdout)
    assert [line["record"] for line in lines] == (["ladder"] + ["night"] * 2 + ["bot"] * 5 + ["match"] * 16
                                                  + ["rating"] * 5)
    assert "exported ladder 'four': 1 ladder, 2 nights, 5 bots, 16 matches, 5 ratings" in result.stderr
    ratings = [line for line in lines if line["record"] == "rating"]
    assert [row["entrant"] for row in ratings] == [row["entrant"] for row in leaderboard(open_db(season_db), "four")]


def test_seats_and_places_count_from_one_and_the_winner_is_in_first_place(season_db):
    matches = [line for line in records(export("four", "--db", season_db).stdout) if line["record"] == "match"]
    for match in matches:
        assert [seat["seat"] for seat in match["seats"]] == [1, 2, 3, 4]
        places = {seat["seat"]: seat["place"] for seat in match["seats"]}
        assert min(places.values()) == 1
        if match["winner"] is not None:
            assert places[match["winner_seat"]] == 1
            assert match["seats"][match["winner_seat"] - 1]["entrant"] == match["winner"]
        assert all(seat["bot"] == "random" and seat["version"] for seat in match["seats"])
        assert all(seat["mu_after"] is not None for seat in match["seats"])


def test_each_exported_replay_plays_out_to_the_exported_result(season_db):
    for match in records(export("duo", "--db", season_db).stdout):
        if match["record"] == "match":
            state = reproduce(replay_from_text(match["replay"]))
            assert state.outcome.turns == match["turns"]
            winner = None if state.outcome.winner is None else state.outcome.winner + 1
            assert winner == match["winner_seat"]


def test_without_replays_into_a_file_and_every_ladder_when_none_is_named(season_db, tmp_path):
    out = tmp_path / "all.jsonl"
    result = export("--no-replays", "-o", str(out), "--db", season_db)
    assert result.exit_code == 0 and result.stdout == ""
    lines = records(out.read_text())
    assert {line["ladder"] for line in lines} == {"four", "duo", "duel", "forfeits"}
    assert not any("replay" in line for line in lines)


def test_a_ladder_that_is_not_stored_is_an_error(season_db):
    result = export("nowhere", "--db", season_db)
    assert result.exit_code == 1
    assert "no ladder named 'nowhere'" in result.stderr


def test_a_forfeit_is_exported_with_its_kind_and_what_happened(season_db):
    matches = [line for line in records(export("forfeits", "--db", season_db).stdout) if line["record"] == "match"]
    broken = [seat for match in matches for seat in match["seats"] if seat["entrant"] == "broken"]
    assert broken and all(seat["forfeit"] == "error" for seat in broken)
    assert all("broken on purpose" in seat["forfeit_reason"] for seat in broken)
    assert all(match["winner"] != "broken" for match in matches)


LOGBOTS = Path(__file__).parent.parent / "fixtures" / "logbots"

TALK = """
name = "talk"
players = 3
games = 2
seed = 4
time_limit = 1.0

[[bots]]
name = "log-steps"
label = "trusted-steps"
trusted = true

[[bots]]
name = "log-steps"
label = "sandboxed-steps"
trusted = false

[[bots]]
name = "random"
label = "quiet"
"""


@pytest.fixture(scope="module")
def talk_db(tmp_path_factory, sandbox):
    """A night of the step-logging bot (tests/fixtures/logbots), trusted at one seat and
    in the sandbox at another."""
    folder = tmp_path_factory.mktemp("talk")
    db = str(folder / "talk.db")
    path = folder / "talk.toml"
    path.write_text(TALK)
    play_nights(db, [(path, 1)], LOGBOTS, "kotarena_logbots")
    return db


def test_each_seat_has_each_of_its_decisions_time_and_how_it_was_measured(season_db):
    for flags in ((), ("--no-replays",)):
        matches = [line for line in records(export("four", "--db", season_db, *flags).stdout)
                   if line["record"] == "match"]
        for seat in (seat for match in matches for seat in match["seats"]):
            assert seat["timing"] == "tick"  # (trusted bots, timed by the referee's guard)
            assert len(seat["decision_times"]) == seat["decisions"] > 0
            assert all(type(time) is float and time >= 0 for time in seat["decision_times"])
            assert seat["log"] is None  # (the random bot writes nothing)


def test_each_seat_has_its_bots_lines_with_the_step_each_was_written_in(talk_db):
    for flags in ((), ("--no-replays",)):
        result = export("talk", "--db", talk_db, *flags)
        assert result.exit_code == 0, result.output
        matches = [line for line in records(result.stdout) if line["record"] == "match"]
        assert len(matches) == 2
        for match in matches:
            for seat in match["seats"]:
                if seat["entrant"] == "quiet":
                    assert seat["log"] is None
                    continue
                lines = seat["log"]
                assert lines[0] == {"step": "start", "decision": None, "line": "starting"}
                assert lines[-1] == {"step": "finish", "decision": None, "line": "finished"}
                decided = lines[1:-1]
                # Three lines a decision, each under its number, counted as decision_times are.
                assert [line["decision"] for line in decided] == [n for n in range(1, seat["decisions"] + 1)
                                                                  for _ in range(3)]
                assert all(line["step"] == "decision" for line in decided)
                assert [line["line"] for line in decided[1::3]] == ["99"] * seat["decisions"]
                assert len(seat["decision_times"]) == seat["decisions"]
                assert seat["timing"] == ("tick" if seat["entrant"] == "trusted-steps" else "share")


def test_lines_stored_before_their_steps_were_kept_are_exported_without_one():
    from kotarena.export import _lines

    assert _lines("one\ntwo") == [{"step": None, "decision": None, "line": "one"},
                                  {"step": None, "decision": None, "line": "two"}]
    assert _lines(None) is None
