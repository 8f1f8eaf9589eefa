"""Records that tell the truth: what is stored is the engine's outcome whatever a bot does
to what it is shown, a forfeit is never a win, and every listing says why a bot forfeited."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlmodel import Session, select

from kotarena.bots.random_bot import RandomBot
from kotarena.cli import cli
from kotarena.engine.outcome import Outcome
from kotarena.games import new_game
from kotarena.games.kot.end import STARS
from kotarena.match import play
from kotarena.storage import open_db
from kotarena.storage.models import Match, Seat
from kotarena.tournament.ladder import load_ladder
from kotarena.tournament.matches import DETAIL_LIMIT, clip_detail
from kotarena.tournament.night import run_night
from kotarena.tournament.runner import InlineExecutor, MatchJob, play_match
from kotarena.tournament.seats import SeatSpec


def inline(workers):
    return InlineExecutor()


def job(*bots: str, seed: int = 11, trusted: bool = True, **params) -> MatchJob:
    seats = tuple(SeatSpec(entrant=f"{bot}#{seat}", bot=bot, trusted=trusted,
                           params=tuple(sorted(params.items())) if seat == 0 else ()) for seat, bot in enumerate(bots))
    return MatchJob(index=0, key=f"t-{seed}", game="kot", deck="kot", seed=seed, first_player=0, seats=seats,
                    time_limit=1.0)


# ------------------------------------------------------------ what a bot is shown


def test_the_outcome_a_bot_is_shown_cannot_be_changed_even_past_a_frozen_dataclass():
    outcome = Outcome(1, STARS, (1, 0), 12)
    for write in (setattr, object.__setattr__):
        with pytest.raises((AttributeError, TypeError)):
            write(outcome, "winner", 0)
    assert outcome == (1, STARS, (1, 0), 12) and outcome.winner == 1


def test_a_bot_rewriting_its_final_view_changes_nothing_of_the_game(failbots):
    from kotarena.bots.registry import get_bot

    state = new_game(players=2, seed=3)
    cheat = get_bot("cheat-finish").make(seed=1)
    finished = play(state, [cheat, RandomBot(seed=2)])
    engine = new_game(players=2, seed=3)
    play(engine, [RandomBot(seed=1), RandomBot(seed=2)])  # the same bots' choices, no cheating
    assert finished.outcome == engine.outcome


@pytest.mark.parametrize("seed", range(6))
def test_a_stored_match_is_the_engines_whatever_a_bot_does_in_finish(failbots, seed):
    honest = play_match(job("random", "random", seed=seed))
    cheated = play_match(job("cheat-finish", "random", seed=seed))
    assert (cheated.winner_seat, cheated.termination, cheated.turns, cheated.replay.replace("cheat-finish", "random")
            ) == (honest.winner_seat, honest.termination, honest.turns, honest.replay)
    assert [seat.rank for seat in cheated.seats] == [seat.rank for seat in honest.seats]
    assert [seat.facts for seat in cheated.seats] == [seat.facts for seat in honest.seats]


# ------------------------------------------------------------ forfeits


def test_a_forfeited_seat_is_never_the_stored_winner_even_when_its_autopilot_won(failbots):
    from kotarena.replay import replay_from_text, reproduce

    autopilot_won = 0
    for seed in range(12):
        result = play_match(job("fail-raise", "random", seed=seed, fail_on=1))
        assert result.seats[0].forfeit == "error"
        engines = reproduce(replay_from_text(result.replay)).outcome.winner  # (the replay keeps the engine's)
        if engines == 0:
            autopilot_won += 1
            assert result.winner_seat is None
        else:
            assert result.winner_seat == engines
    assert autopilot_won  # (the autopilot does win some of these)


def test_an_errors_forfeit_keeps_its_traceback_last_frames(failbots):
    result = play_match(job("fail-raise", "random", "random", fail_on=1))
    detail = result.seats[0].forfeit_detail
    lines = detail.split("\n")
    assert lines[0] == "ValueError: this bot is broken on purpose"
    assert lines[1] == "Traceback (most recent call last):"
    assert "kotarena_failbots.py" in detail and "raise ValueError(\"this bot is broken on purpose\")" in detail
    assert "seats.py" not in detail  # (the frames are the bot's own)


def test_a_long_detail_keeps_its_first_line_and_its_last_frames():
    detail = "RecursionError: too deep\nTraceback (most recent call last):\n" + "".join(
        f'  File "bot.py", line {n}, in f\n' for n in range(2000)) + '  File "bot.py", line 9999, in last'
    clipped = clip_detail(detail)
    assert len(clipped) <= DETAIL_LIMIT
    assert clipped.startswith("RecursionError: too deep\n") and clipped.endswith("line 9999, in last")
    assert "[...]" in clipped
    assert clip_detail("short") == "short"


def test_a_bots_sys_exit_is_its_error_forfeit(failbots):
    result = play_match(job("fail-exit", "random", fail_on=2))
    assert result.seats[0].forfeit == "error"
    assert result.seats[0].forfeit_detail.startswith("SystemExit: the bot called sys.exit(0)")
    assert result.seats[1].forfeit is None


LADDER = """
name = "forfeits"
players = 2
games = 6
seed = 4
time_limit = 1.0

[[bots]]
name = "random"
label = "random"

[[bots]]
name = "fail-raise"
label = "fail-raise"
params = { fail_on = 1 }
trusted = true
"""


@pytest.fixture
def forfeits_db(tmp_path: Path, failbots) -> Path:
    path = tmp_path / "forfeits.toml"
    path.write_text(LADDER)
    engine = open_db(tmp_path / "f.db")
    run_night(engine, load_ladder(path), executor_factory=inline)
    return tmp_path / "f.db"


def invoke(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


def test_matches_lists_each_forfeits_reason_and_never_a_forfeit_as_winner(forfeits_db):
    text = invoke("matches", "--db", str(forfeits_db))
    assert "forfeits (the whole reason: --json, or kotarena replay --match ID):" in text
    assert text.count("fail-raise: error: ValueError: this bot is broken on purpose") == 6
    listed = json.loads(invoke("matches", "--json", "--db", str(forfeits_db)))
    for match in listed:
        forfeiter = match["seats"][[s["entrant"] for s in match["seats"]].index("fail-raise")]
        assert forfeiter["forfeit"] == "error" and "Traceback" in forfeiter["forfeit_detail"]
        assert match["winner"] != "fail-raise"
    with Session(open_db(forfeits_db)) as session:
        forfeited = {(s.match_id, s.seat) for s in session.exec(select(Seat).where(Seat.forfeit.is_not(None)))}
        assert not [m for m in session.exec(select(Match)).all() if (m.id, m.winner_seat) in forfeited]


def test_replay_of_a_stored_match_says_who_forfeited_and_why(forfeits_db):
    text = invoke("replay", "--match", "1", "--db", str(forfeits_db))
    assert "Forfeits (the autopilot played each of these seats" in text
    assert ": error: ValueError: this bot is broken on purpose" in text
    assert "    Traceback (most recent call last):" in text
    quiet = invoke("replay", "--match", "1", "-q", "--db", str(forfeits_db))
    assert "forfeited (error)" in quiet
    data = json.loads(invoke("replay", "--match", "1", "--json", "--db", str(forfeits_db)))
    assert data["forfeits"][0]["forfeit"] == "error"
    with Session(open_db(forfeits_db)) as session:
        stored = session.exec(select(Seat).where(Seat.match_id == 1, Seat.forfeit.is_not(None))).first()
    # Shown from 1, in text and JSON alike; stored from 0.
    assert data["forfeits"][0]["seat"] == stored.seat + 1
    assert f"  seat {stored.seat + 1} ({stored.entrant}): error:" in text


def test_history_shows_the_matches_an_entrant_forfeited_and_why(forfeits_db):
    text = invoke("history", "fail-raise", "--db", str(forfeits_db))
    assert text.splitlines()[0].split() == ["ladder", "match", "mu", "sigma", "score", "forfeit"]
    assert text.count("error: ValueError: this bot is broken on purpose") == 6
    rows = json.loads(invoke("history", "fail-raise", "--json", "--db", str(forfeits_db)))
    assert all(row["forfeit"] == "error" and "Traceback" in row["forfeit_detail"] for row in rows)
    assert all(row["forfeit"] is None for row in json.loads(invoke("history", "random", "--json", "--db",
                                                                   str(forfeits_db))))


@pytest.mark.parametrize("kind", ["memory", "sandbox"])
def test_the_new_forfeit_kinds_are_listed_like_the_others(forfeits_db, kind):
    """``memory`` and ``sandbox`` forfeits (an isolated bot over its memory, or one its
    sandbox stopped) are stored and shown as every other kind."""
    engine = open_db(forfeits_db)
    with Session(engine) as session:
        seat = session.exec(select(Seat).where(Seat.forfeit.is_not(None)).order_by(Seat.id)).first()
        seat.forfeit, seat.forfeit_detail = kind, f"{kind}: stopped for the test"
        session.add(seat)
        session.commit()
        match_id = seat.match_id
    assert f"fail-raise: {kind}: {kind}: stopped for the test" in invoke("matches", "--db", str(forfeits_db))
    assert f"fail-raise): {kind}: {kind}: stopped for the test" in invoke("replay", "--match", str(match_id),
                                                                          "--db", str(forfeits_db))
