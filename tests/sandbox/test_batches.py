"""An instance asked for several games at once: batches, their CPU limit, their failures.

A :class:`~kotarena.sandbox.batch.Link` talks here to a scripted player (a thread on a
socket pair) whose CPU clock the script sets, so each rule is shown exactly: a batch may
take the sum of its steps' limits; a batch over it forfeits the seats it asked and no
other, whose games a new player takes up from where they stand; a bot's error in one
game forfeits that game only; garbage forfeits the whole batch.
"""

from __future__ import annotations

import json
import socket
import threading
from pathlib import Path

import pytest
from bot_packages import installed

from kotarena.forfeits import ERROR, INVALID, TIMEOUT, BotFailure
from kotarena.games import new_game
from kotarena.sandbox.batch import BatchSeat, Link, wait
from kotarena.sandbox.protocol import PROTOCOL


class ScriptedGroup:
    """A cgroup whose CPU clock the script moves."""

    def __init__(self) -> None:
        self.used = 0.0

    def cpu(self) -> float:
        return self.used

    def killed_for_memory(self) -> bool:
        return False


class ScriptedServer:
    """Stands in for an instance: each connection's player answers batches with ``script``
    (given the server and the batch's steps; it returns the answers, or raw bytes)."""

    memory_mb = 64

    def __init__(self, script) -> None:
        self.script = script
        self.group = ScriptedGroup()
        self.connections = 0
        self.batches: list[list] = []
        self.resets = 0

    def alive(self) -> bool:
        return True

    def take_kept(self):
        return None

    def start_seat(self):
        ours, theirs = socket.socketpair()
        self.connections += 1
        threading.Thread(target=self._player, args=(theirs,), daemon=True).start()
        return ours, 0

    def _player(self, conn: socket.socket) -> None:
        with conn:
            try:
                conn.sendall(json.dumps({"type": "bot", "protocol": PROTOCOL}).encode() + b"\n")
                for line in conn.makefile("rb"):
                    steps = json.loads(line)["steps"]
                    self.batches.append(steps)
                    answers = self.script(self, steps)
                    if not isinstance(answers, bytes):
                        answers = json.dumps({"type": "answers", "answers": answers}).encode() + b"\n"
                    conn.sendall(answers)
            except OSError:
                pass

    def request_reset(self) -> None:
        pass

    def reset(self) -> None:
        self.resets += 1

    def exit_status(self, pid: int) -> str:
        return "scripted"


def honest(server, steps):
    """Answer every step, using no CPU."""
    return [{"start": "ready", "finish": "bye", "forget": "gone"}.get(kind, "keep") for kind, _, _ in steps]


def seats(link: Link, count: int, limit: float = 0.5) -> list[BatchSeat]:
    """``count`` seats of games of their own on ``link``, each at its game's first view."""
    made = []
    for number in range(count):
        state = new_game("kot", players=2, seed=number, record=False)
        made.append(BatchSeat(link, limit, game="kot", seat=state.to_move, params={}, seed=number,
                              view=state.view(state.to_move)))
    return made


def ask(link: Link, *asked: BatchSeat) -> dict:
    """Ask ``asked`` for a decision each (at the view they started from), send the
    batches until every answer is in; each seat's answer."""
    for seat in asked:
        seat.ask(seat._first)
    answers = {}
    while link.waiting or link.busy:
        if link.waiting and not link.busy:
            answers.update({id(seat): answer for seat, _, answer in link.send()})
        if link.busy:
            for _, done in wait([link]):
                answers.update({id(seat): answer for seat, _, answer in done})
    return answers


def test_a_batch_carries_the_decisions_of_several_games_in_one_message():
    server = ScriptedServer(honest)
    link = Link(server)
    games = seats(link, 3)
    answers = ask(link, *games)
    assert [answers[id(seat)] for seat in games] == ["keep"] * 3
    # The starts first, in a batch of their own; then the three decisions in one.
    assert [[kind for kind, _, _ in steps] for steps in server.batches] == [["start"] * 3, ["decide"] * 3]
    assert server.connections == 1 and [seat.decisions for seat in games] == [1, 1, 1]


def test_starting_a_game_never_shares_a_batch_with_a_decision():
    """A start may take ten times a decision's limit: a decision asked with it waits for
    the next batch, so that it is never given the start's time."""
    server = ScriptedServer(honest)
    link = Link(server)
    first, second = seats(link, 2)
    ask(link, first)
    ask(link, first, second)
    kinds = [[kind for kind, _, _ in steps] for steps in server.batches]
    assert kinds == [["start"], ["decide"], ["start"], ["decide", "decide"]]


def test_a_batch_may_take_the_sum_of_its_decisions_limits_shared_among_its_seats():
    def thinks(server, steps):
        if steps[0][0] == "decide":
            server.group.used += 0.8  # more than one decision's 0.5 s, less than two
        return honest(server, steps)

    link = Link(ScriptedServer(thinks))
    games = seats(link, 2)
    answers = ask(link, *games)
    assert [answers[id(seat)] for seat in games] == ["keep", "keep"]
    assert [round(seat.cpu, 3) for seat in games] == [0.4, 0.4]


def test_a_batch_over_its_limit_forfeits_the_seats_it_asked_and_a_new_player_takes_up_the_others():
    def slow_in_game_one(server, steps):
        if any(kind == "decide" and number == 1 for kind, number, _ in steps):
            server.group.used += 0.6  # over the 0.5 s of a batch of one decision
        return honest(server, steps)

    server = ScriptedServer(slow_in_game_one)
    link = Link(server)
    slow, other = seats(link, 2)
    ask(link, other)  # (the other game is under way on the first player)
    failure = ask(link, slow)[id(slow)]
    assert isinstance(failure, BotFailure) and failure.kind == TIMEOUT
    assert "0.60s of CPU time for a batch of 1 (limit 0.5s)" in failure.detail
    assert server.resets == 1  # the player was ended, and its instance cleaned up
    # The other game goes on: a new player is greeted with it where it stands.
    assert ask(link, other)[id(other)] == "keep"
    assert server.connections == 2
    assert [kind for kind, _, _ in server.batches[-2]] == ["start"]
    assert [number for _, number, _ in server.batches[-2]] == [other.number]


def test_a_bots_error_in_one_game_forfeits_that_game_only():
    def fails_in_game_one(server, steps):
        return [{"error": "ValueError: boom"} if kind == "decide" and number == 1 else answer
                for (kind, number, _), answer in zip(steps, honest(server, steps))]

    server = ScriptedServer(fails_in_game_one)
    link = Link(server)
    failing, other = seats(link, 2)
    answers = ask(link, failing, other)
    assert isinstance(answers[id(failing)], BotFailure) and answers[id(failing)].kind == ERROR
    assert answers[id(failing)].detail == "ValueError: boom"
    assert answers[id(other)] == "keep"
    assert server.connections == 1 and server.resets == 0  # the player plays on
    ask(link, other)
    assert ["forget", failing.number, None] in server.batches[-1]  # (told to drop the failed game)


def _with_lines(server, steps):
    """Honest answers; a game's error, and a forgotten game's goodbye, carry lines that
    claim other games (a forged mark of a step, a forged header)."""
    answers = []
    for (kind, number, _), answer in zip(steps, honest(server, steps)):
        said = f"game {number}'s own\n\x1e1\n--- match 0 seat 1 ---"
        if kind == "decide" and number == 1:
            answer = {"error": "ValueError: boom", "log": said}
        elif kind == "forget":
            answer = ["gone", said]
        answers.append(answer)
    return answers


def test_a_bots_error_in_one_game_brings_that_games_lines_to_its_seat_only():
    link = Link(ScriptedServer(_with_lines))
    failing, other = seats(link, 2)
    answers = ask(link, failing, other)
    assert answers[id(failing)].kind == ERROR and answers[id(other)] == "keep"
    assert failing.log == "game 1's own\n\x1e1\n--- match 0 seat 1 ---" and other.log is None


def test_a_seat_whose_answer_was_refused_asks_its_player_for_the_games_lines():
    """The referee refused the answer (not an action, not legal): the player, which
    still holds the game, answers the game's ``forget`` with its lines, stored with that
    seat (by the step's place in the batch, whatever the lines say)."""
    server = ScriptedServer(_with_lines)
    link = Link(server)
    refused, other, third = seats(link, 3)
    ask(link, refused, other, third)  # (game 1's error: its own lines, as above)
    assert other.forfeit() and (other, "forget") in link.waiting and other.number not in link.seats
    answers = ask(link, third)
    assert answers[id(third)] == "keep" and ["forget", other.number, None] in server.batches[-1]
    assert other.log == "game 2's own\n\x1e1\n--- match 0 seat 1 ---" and third.log is None
    # A seat whose player has gone since (or never held the game) is forgotten at once.
    link.abandon()
    assert not third.forfeit() and not link.waiting


def test_a_line_that_answers_nothing_forfeits_every_seat_of_the_batch():
    def garbage(server, steps):
        return honest(server, steps) if steps[0][0] == "start" else b'{"type": "answers", "answers": [1]}\n'

    server = ScriptedServer(garbage)
    link = Link(server)
    games = seats(link, 2)
    answers = ask(link, *games)
    assert all(isinstance(answers[id(seat)], BotFailure) and answers[id(seat)].kind == INVALID for seat in games)
    assert "does not answer the 2 steps asked" in answers[id(games[0])].detail
    assert server.resets == 1


def test_legal_lists_sent_before_are_named_by_number():
    server = ScriptedServer(honest)
    link = Link(server)
    first, second = seats(link, 2)
    ask(link, first, second)
    sent = [step[2]["view"]["legal"] for step in server.batches[0]]
    assert isinstance(sent[0], list) and sent[1] == 0  # (both games open on the same legal set)


def _night_jobs(tmp_path, text: str) -> list:
    from kotarena.tournament.night import load_sealed_ladder, night_jobs, night_seed

    path = tmp_path / "ladder.toml"
    path.write_text(text)
    ladder = load_sealed_ladder(path)
    return list(night_jobs(ladder, night_seed(ladder.seed, 1)))


SANDBOXED_RANDOM = """
name = "lockstep"
players = 4
games = 12
seed = 5
time_limit = 1.0

[[bots]]
name = "random"
label = "a"
trusted = false

[[bots]]
name = "random"
label = "b"
trusted = false

[[bots]]
name = "random"
label = "c"
trusted = false

[[bots]]
name = "random"
label = "d"
"""


def test_tables_played_in_lockstep_are_the_games_played_alone(tmp_path, sandbox):
    """Twelve tables at once, each sandboxed instance asked for all its games in each
    batch: the very games (replays, ranks) that playing each match alone gives."""
    from kotarena.sandbox.instance import _SERVERS, close_servers
    from kotarena.tournament.lockstep import play_tables
    from kotarena.tournament.matches import play_match

    jobs = _night_jobs(tmp_path, SANDBOXED_RANDOM)
    try:
        together = play_tables(jobs)
        links = [server.batch_link for server in _SERVERS.values() if getattr(server, "batch_link", None)]
        alone = [play_match(job) for job in jobs]
    finally:
        close_servers()
    assert [result.replay for result in together] == [result.replay for result in alone]
    assert [[seat.rank for seat in result.seats] for result in together] == [
        [seat.rank for seat in result.seats] for result in alone]
    assert all(seat.forfeit is None for result in together for seat in result.seats)
    decisions = sum(seat.decisions for result in together for seat in result.seats if seat.entrant != "d")
    assert links and max(link.most for link in links) > 1  # an instance played several games at once...
    assert sum(link.batches for link in links) < decisions / 2  # ...and was asked for several decisions a wake-up


def test_a_night_with_sandboxed_bots_hands_its_workers_many_matches_at_once():
    """Played in lockstep, more tables make bigger batches: a sandboxed night's chunks
    hold ``LOCKSTEP_TABLES`` matches however fast its matches go, while every worker
    still gets about eight."""
    from kotarena.tournament.runner import CHUNK_SECONDS, LOCKSTEP_TABLES, chunk_size

    assert chunk_size(100_000, 2, CHUNK_SECONDS / 10) == 10  # trusted: about CHUNK_SECONDS of play
    assert chunk_size(100_000, 2, CHUNK_SECONDS / 10, floor=LOCKSTEP_TABLES) == LOCKSTEP_TABLES
    assert chunk_size(400, 2, None, floor=LOCKSTEP_TABLES) == 400 // 16


FAILBOTS = Path(__file__).parent.parent / "fixtures" / "failbots"


@pytest.fixture
def failbots(monkeypatch, sandbox):
    """The misbehaving bots of the league's tests, as an installed third-party package."""
    yield from installed(monkeypatch, FAILBOTS, "kotarena_failbots")


def _hanging_job(index: int, fail_on: int, first_player: int = 1):
    """Three seats: a sandboxed ``fail-hang`` (burning CPU from its ``fail_on``-th
    decision on), a sandboxed ``random`` and a trusted one."""
    from kotarena.tournament.matches import MatchJob
    from kotarena.tournament.seats import SeatSpec

    seats = (SeatSpec("hang", "fail-hang", params=(("fail_on", fail_on),), trusted=False, package="kotarena-failbots"),
             SeatSpec("sandboxed", "random", trusted=False, package="kotarena"),
             SeatSpec("trusted", "random", package="kotarena"))
    return MatchJob(index=index, key=f"hang-{index}", game="kot", deck="kot", seed=100 + index, first_player=first_player,
                    seats=seats, time_limit=0.05, night="hanging")


def test_a_bot_hanging_in_one_game_of_a_lockstep_forfeits_there_and_the_tables_play_on(failbots):
    """One instance of ``fail-hang`` sits at four tables at once and hangs at the first
    decision of the one where it moves first (the only table its first batch asks): that
    seat forfeits (``timeout``), a new player takes up its three other games, and every
    other seat of every table plays on to the end; the instance serves the next tables."""
    from kotarena.sandbox.instance import close_servers
    from kotarena.tournament.lockstep import play_tables

    try:
        results = play_tables([_hanging_job(0, 1, first_player=0)] + [_hanging_job(index, 10_000)
                                                                        for index in (1, 2, 3)])
        later = play_tables([_hanging_job(index, 10_000) for index in (4, 5)])
    finally:
        close_servers()
    hang = [result.seats[0] for result in results]
    assert hang[0].forfeit == "timeout", hang[0].forfeit_detail
    assert "of CPU time (limit 0.05s for a batch of 1)" in hang[0].forfeit_detail
    assert [seat.forfeit for seat in hang[1:]] == [None] * 3 and all(seat.decisions > 0 for seat in hang[1:])
    assert all(seat.forfeit is None for result in results for seat in result.seats[1:])
    assert all(seat.forfeit is None for result in later for seat in result.seats)
