"""A bot's own lines for each game it plays: kept by its host for the game being played,
handed over with its goodbye to that game, stored with the seat and shown by the replay
viewer with that game only (:mod:`kotarena.sandbox.botlog`)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from bot_packages import installed

from kotarena.sandbox.botlog import (
    CUT,
    FINISH,
    LOG_CHARS,
    LOG_LINES,
    MARK,
    START,
    Book,
    GameLines,
    clip_log,
    log_steps,
    log_text,
)
from kotarena.site.frames import viewer_data

LOGBOTS = Path(__file__).parent.parent / "fixtures" / "logbots"


@pytest.fixture
def logbots(monkeypatch, sandbox):
    """The logging bots (tests/fixtures/logbots), as an installed third-party package."""
    yield from installed(monkeypatch, LOGBOTS, "kotarena_logbots")


def _jobs(tmp_path, games: int, *, workers_alone: bool = False) -> list:
    from kotarena.tournament.night import load_sealed_ladder, night_jobs, night_seed

    path = tmp_path / "ladder.toml"
    path.write_text(f"""
name = "logs"
players = 3
games = {games}
seed = 9
time_limit = 1.0

[[bots]]
name = "log-honest"
label = "honest"
trusted = false

[[bots]]
name = "log-forger"
label = "forger"
trusted = false

[[bots]]
name = "random"
label = "plain"
""")
    ladder = load_sealed_ladder(path)
    jobs = list(night_jobs(ladder, night_seed(ladder.seed, 1)))
    return [job.__class__(**{**job.__dict__, "log_dir": str(tmp_path / "logs")}) for job in jobs]


def _seat_lines(result) -> dict[str, tuple[list[str], str | None, list[float | None], str | None]]:
    """Each entrant's chosen actions in the game (from the viewer's decisions), its
    stored lines, each of its decisions' time and how they were measured."""
    data, _ = viewer_data(1, result.replay, [seat.entrant for seat in result.seats],
                          [seat.times for seat in result.seats], [seat.log for seat in result.seats])
    found = {}
    for seat in result.seats:
        decisions = [decision for frame in data["frames"] for decision in frame["decisions"]
                     if decision["seat"] == seat.seat]
        found[seat.entrant] = ([decision["choice"] for decision in decisions], data["logs"][seat.seat],
                               [decision.get("time") for decision in decisions], data["timing"][seat.seat])
        if seat.entrant == "honest":
            # Each decision has its own lines: what the bot logged and printed it chose.
            logs = [decision.get("log") for decision in decisions]
            told = [log for log in logs if log is not None]
            assert told == [f"chose {d['choice']}\nprinted {d['choice']}" for d in decisions[:len(told)]]
            assert logs[len(told):] == [None] * (len(logs) - len(told))  # (past the bound: none)
    return found


def _kept(lines: list[str], expected: list[str], log: str) -> None:
    """``lines`` are ``expected``, or where the game's lines were cut at the bound, the
    first of them and the mark of the cut."""
    assert lines == expected[:len(lines)]
    assert len(lines) == len(expected) or log.endswith(CUT)


def _check(results) -> None:
    cut = 0
    for result in results:
        seats = _seat_lines(result)
        assert all(seat.forfeit is None for seat in result.seats)
        chosen, log, _, _ = seats["honest"]
        lines = log.split("\n")
        # Its lines and only its: every action it chose in this game, in order, once
        # printed and once logged; nothing of another game, nothing the forger printed.
        _kept([line for line in lines if line.startswith("printed ")], [f"printed {c}" for c in chosen], log)
        _kept([line for line in lines if line.startswith("chose ")], [f"chose {c}" for c in chosen], log)
        assert all(line.startswith(("printed ", "chose ")) or line == CUT for line in lines)
        chosen, log, _, _ = seats["forger"]
        lines = log.split("\n")
        # The forger's fake marks stay in its own lines of its own game: they move nothing.
        _kept([line for line in lines if line.startswith("printed ")], [f"printed {c}" for c in chosen], log)
        _kept([line for line in lines if line.startswith("chose ") and line != "chose forged"],
              [f"chose {c}" for c in chosen], log)
        assert "forged line for another game" in lines
        cut += log.endswith(CUT)
        assert seats["plain"][1] is None  # a trusted bot's output is not captured: no lines
    assert cut  # (the forger writes five lines a decision: some game of its went past the bound)


def test_a_bots_lines_of_a_lockstep_night_are_stored_with_each_game_and_its_seat_only(tmp_path, logbots):
    """Six tables in lockstep, one instance of each logging bot asked for all of them in
    each batch: each seat's stored lines are exactly what its bot wrote for that game."""
    from kotarena.sandbox.instance import close_servers
    from kotarena.tournament.lockstep import play_tables

    jobs = _jobs(tmp_path, 6)
    try:
        results = play_tables(jobs)
    finally:
        close_servers()
    _check(results)
    # (and the log file still has everything, forged marks included)
    text = "".join(path.read_text() for path in (tmp_path / "logs").glob("*.log"))
    assert "forged line for another game" in text and "chose " in text


def test_a_bots_lines_of_a_match_played_alone_come_with_its_goodbye(tmp_path, logbots):
    from kotarena.sandbox.instance import close_servers
    from kotarena.tournament.matches import play_match

    jobs = _jobs(tmp_path, 2)
    try:
        results = [play_match(job) for job in jobs]
    finally:
        close_servers()
    _check(results)


def test_each_decision_has_its_time_stored_and_in_the_viewer(tmp_path, logbots):
    """Every decision a bot answered has a time in the viewer's data, as measured: a
    lockstep seat's are its batches' shares (and add up to the seat's CPU total), a
    trusted seat's the guard's readings."""
    from kotarena.sandbox.instance import close_servers
    from kotarena.tournament.lockstep import play_tables

    try:
        results = play_tables(_jobs(tmp_path, 3))
    finally:
        close_servers()
    for result in results:
        seats = _seat_lines(result)
        for seat in result.seats:
            chosen, _, times, how = seats[seat.entrant]
            assert len(times) == len(chosen) == seat.decisions > 0
            assert all(type(time) is float and time >= 0 for time in times)
            assert how == ("tick" if seat.entrant == "plain" else "share")
            if how == "share":
                assert sum(times) <= seat.cpu_seconds + 1e-6 * (len(times) + 1)


def test_lines_kept_for_a_game_are_bounded_and_the_cut_is_marked():
    book = Book()
    stream = GameLines(io.StringIO(), book)
    book.at(1)
    for number in range(LOG_LINES + 50):
        stream.write(f"line {number}\n")
    kept = book.take(1)
    assert kept.count("\n") == LOG_LINES and kept.endswith(CUT)
    book.at(2)
    stream.write("x" * (LOG_CHARS * 3))
    assert len(book.take(2)) <= LOG_CHARS + len(CUT) + 1
    assert book.take(3) is None


def test_what_a_bot_writes_between_games_steps_belongs_to_none_and_both_streams_keep_their_order():
    book = Book()
    out, err = GameLines(io.StringIO(), book), GameLines(io.StringIO(), book)
    book.at(4)
    out.write("four\n")
    err.write("four on stderr\n")
    book.at(None)
    err.write("nobody's\n")
    book.at(5)
    err.write("five\n")
    book.at(None)
    assert book.take(4) == "four\nfour on stderr\n" and book.take(5) == "five\n"
    assert "nobody's" in err._stream.getvalue()  # (the log file still has everything)


def test_the_referee_bounds_and_cleans_whatever_the_host_sends():
    assert clip_log(None) is None and clip_log(["not", "text"]) is None and clip_log("") is None
    assert clip_log("a\x1b[2Jb\u202ec\n") == "abc"
    long = clip_log("\n".join(f"line {n}" for n in range(5000)))
    assert long.count("\n") == LOG_LINES and long.endswith(CUT)
    assert len(clip_log("y" * 10**6)) <= LOG_CHARS + len(CUT) + 1


def test_each_line_is_kept_under_the_step_it_began_in():
    book = Book()
    stream = GameLines(io.StringIO(), book)
    book.at(7, START)
    stream.write("setting up\n")
    book.at(7, 1)
    stream.write("thinking about ")  # (a line begun in the first decision...)
    book.at(7, 2)
    stream.write("the first\nthe second\n")  # (...and ended in the second: the first's)
    book.at(7, FINISH)
    stream.write("done\n")
    assert log_steps(clip_log(book.take(7))) == [(START, ["setting up"]), (1, ["thinking about the first"]),
                                                 (2, ["the second"]), (FINISH, ["done"])]


def test_a_mark_a_bot_writes_moves_none_of_its_lines():
    book = Book()
    stream = GameLines(io.StringIO(), book)
    book.at(1, 3)
    stream.write(f"{MARK}9\nstill the third\n{MARK}finish\n")
    assert log_steps(clip_log(book.take(1))) == [(3, ["9", "still the third", "finish"])]


def test_the_referee_keeps_the_marks_of_steps_and_no_other():
    text = f"{MARK}start\nup\n{MARK}1\none\n{MARK}x\n{MARK}1234567890\n{MARK}0\nstill one\n{MARK}finish\nbye"
    stored = clip_log(text)
    assert log_steps(stored) == [(START, ["up"]), (1, ["one", "still one"]), (FINISH, ["bye"])]
    assert log_text(stored) == "up\none\nstill one\nbye"
    # A step with no line is no step; the bound counts the bot's lines, not the marks.
    assert log_steps(clip_log(f"{MARK}1\n{MARK}2\ntwo")) == [(2, ["two"])]
    many = clip_log("".join(f"{MARK}{n}\nline {n}\n" for n in range(1, 400)))
    assert len(log_steps(many)) == LOG_LINES and log_text(many).count("\n") == LOG_LINES
    assert log_text(many).endswith(CUT)


def test_lines_stored_before_steps_were_kept_read_as_the_games_only():
    assert log_steps("one\ntwo") == [(None, ["one", "two"])]
    assert log_text("one\ntwo") == "one\ntwo"
    assert log_steps(None) == [] and log_text(None) is None
