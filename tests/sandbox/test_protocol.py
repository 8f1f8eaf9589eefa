"""The protocol, as the referee holds a bot to it: whatever arrives on the wire is JSON
lines of the documented shape, or the seat forfeits with its reason; never a hang.

These tests put a scripted peer (a thread writing the lines a test gives) at the other
end of a real socket, so every way of breaking the protocol can be tried, including
those the Python host never commits.
"""

from __future__ import annotations

import json
import socket
import threading
import time

import pytest

from kotarena.forfeits import BotFailure
from kotarena.games import get_game, new_game
from kotarena.sandbox.protocol import MAX_LINE, PROTOCOL, ViewReader, view_changes
from kotarena.sandbox.seat import SandboxedSeat


class ScriptedServer:
    """Stands in for a fork server: each seat gets a socket whose peer runs ``script``."""

    group = None
    memory_mb = 64

    def __init__(self, script):
        self.script = script
        self.received: list[dict] = []

    def start_seat(self):
        ours, theirs = socket.socketpair()
        threading.Thread(target=self._peer, args=(theirs,), daemon=True).start()
        return ours, 0

    def _peer(self, conn):
        lines = conn.makefile("rb")

        def read():
            line = lines.readline()
            if line:
                self.received.append(json.loads(line))
            return self.received[-1] if line else None

        try:
            self.script(conn, read)
        except OSError:
            pass
        finally:
            time.sleep(0.05)
            conn.close()

    def exit_status(self, pid):
        return "scripted"


def send(conn, message):
    conn.sendall((json.dumps(message) + "\n").encode())


def greet(conn, read):
    send(conn, {"type": "bot", "protocol": PROTOCOL})
    read()  # hello
    send(conn, {"type": "ready"})


def seat_for(script, limit=0.5):
    return SandboxedSeat(ScriptedServer(script), limit, game="kot", seat=0, params={"depth": 2})


def started(script, limit=0.5):
    state = new_game("kot", players=2, seed=3, record=False)
    seat = seat_for(script, limit)
    seat.start(11, state.view(0))
    seat.settle()
    return seat, state


def test_hello_carries_the_game_the_seat_its_seed_params_limits_and_the_whole_view():
    def script(conn, read):
        greet(conn, read)

    state = new_game("kot", players=2, seed=3, record=False)
    seat = seat_for(script)
    seat.start(11, state.view(0))
    seat.settle()
    hello = seat.server.received[0]
    assert hello["type"] == "hello" and hello["protocol"] == PROTOCOL
    assert (hello["game"], hello["seat"], hello["players"], hello["seed"]) == ("kot", 0, 2, 11)
    assert hello["params"] == {"depth": 2}
    assert hello["limits"]["decision_cpu_seconds"] == 0.5
    assert ViewReader(get_game("kot").view_type).read(hello["view"]) == state.view(0)


def test_a_legal_action_is_played_and_each_decision_sends_only_what_changed():
    def script(conn, read):
        send(conn, {"type": "bot", "protocol": PROTOCOL})
        view = dict(read()["view"])
        send(conn, {"type": "ready"})
        view.update(read()["view"])  # a bot merges each delta into its last view
        send(conn, {"type": "action", "action": view["legal"][0]})

    seat, state = started(script)
    view = state.view(state.to_move)
    action = seat.choose(view)
    assert action in view.legal and seat.decisions == 1
    decide = seat.server.received[1]
    assert decide["type"] == "decide"
    assert set(decide["view"]) < set(view._fields)  # a delta, not the whole view


@pytest.mark.parametrize(("reply", "kind", "words"), [
    (b"this is not json\n", "invalid", "not JSON"),
    (b"[1, 2, 3]\n", "invalid", "not a JSON object"),
    (b'{"type": "action", "action": 7}\n', "invalid", "names no action"),
    (b'{"type": "action", "action": "fly to the moon"}\n', "invalid", "not an action"),
    (b'{"type": "ready"}\n', "invalid", "when a 'action' message was due"),
    (b'{"type": "error", "message": "I give up"}\n', "error", "I give up"),
    (b'{"type": "error", "kind": "memory", "message": "out"}\n', "memory", "out"),
    (b"x" * (MAX_LINE + 10), "invalid", "longer than"),
    (b"", "crash", "ended without answering"),
])
def test_a_bad_answer_is_a_forfeit_with_its_reason(reply, kind, words):
    def script(conn, read):
        greet(conn, read)
        read()
        if reply:
            conn.sendall(reply)
        time.sleep(0.3)

    seat, state = started(script)
    with pytest.raises(BotFailure) as failure:
        seat.choose(state.view(state.to_move))
    assert failure.value.kind == kind and words in failure.value.detail


def test_a_bot_that_speaks_another_version_forfeits_before_the_game():
    def script(conn, read):
        send(conn, {"type": "bot", "protocol": PROTOCOL + 1})
        time.sleep(0.2)

    state = new_game("kot", players=2, seed=3, record=False)
    seat = seat_for(script)
    with pytest.raises(BotFailure) as failure:
        seat.start(11, state.view(0))
    assert failure.value.kind == "invalid" and f"not protocol {PROTOCOL}" in failure.value.detail


def test_silence_is_a_timeout_on_the_wall_clock_not_a_hang(monkeypatch):
    monkeypatch.setattr("kotarena.sandbox.seat.WALL_FACTOR", 1.0)
    monkeypatch.setattr("kotarena.sandbox.seat.WALL_GRACE", 0.3)

    def script(conn, read):
        greet(conn, read)
        read()
        time.sleep(3)

    seat, state = started(script, limit=0.2)
    began = time.monotonic()
    with pytest.raises(BotFailure) as failure:
        seat.choose(state.view(state.to_move))
    assert failure.value.kind == "timeout" and "wall-clock" in failure.value.detail
    assert time.monotonic() - began < 2


def test_views_cross_the_wire_unchanged_through_whole_games():
    """Every view of several random games, sent as deltas, is rebuilt exactly."""
    import random

    for game_seed in range(6):
        state = new_game("kot", players=2 + game_seed % 5, seed=game_seed, record=False)
        readers = [ViewReader(get_game("kot").view_type) for _ in range(state.n)]
        last = [None] * state.n
        rng = random.Random(game_seed)
        while state.outcome is None:
            if state.to_move < 0:
                state.next_turn()
                continue
            seat = state.to_move
            view = state.view(seat)
            wire = json.loads(json.dumps(view_changes(view, last[seat]), default=lambda o: o.to_json()))
            assert readers[seat].read(wire) == view
            last[seat] = view
            state.apply(rng.choice(view.legal))


def test_a_bot_written_against_the_documented_protocol_plays_whole_games():
    """The example of docs/protocol.md, a separate program on standard input and output,
    plays games to their end with every answer legal."""
    import subprocess
    import sys
    from pathlib import Path

    from kotarena.tournament.seats import play_seated

    example = Path(__file__).parents[2] / "docs" / "examples" / "protocol_random_bot.py"

    class ProgramServer(ScriptedServer):
        def start_seat(self):
            ours, theirs = socket.socketpair()
            self.programs.append(subprocess.Popen([sys.executable, str(example)], stdin=theirs, stdout=theirs))
            theirs.close()
            return ours, 0

    for game_seed in range(3):
        server = ProgramServer(None)
        server.programs = []
        state = new_game("kot", players=3, seed=game_seed, record=False)
        seats = [SandboxedSeat(server, 2.0, game="kot", seat=seat, params={}) for seat in range(3)]
        for seat, host in enumerate(seats):
            host.start(100 + seat, state.view(seat))
        failures = [None] * 3
        play_seated(state, seats, failures)
        for seat, host in enumerate(seats):
            host.finish(state.view(seat))
            host.settle()
            host.close()
        assert state.outcome is not None and failures == [None, None, None]
        assert sum(host.decisions for host in seats) == len(state.history)
        for program in server.programs:
            assert program.wait(timeout=10) == 0
