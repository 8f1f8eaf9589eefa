"""How fast a sandboxed night could be at best: the floor that one round trip a decision puts under it.

An untrusted bot answers every decision from its own process, so a sandboxed game costs
at least what the trusted game costs plus one round trip between two processes per
decision. This script measures both in one run, on the same games, and prints the best
ratio of sandboxed to trusted speed that any sandbox with a process per seat could reach
on this machine, with no set-up cost at all:

* ``trusted``: the games played in one process, the bots called directly (the engine,
  the views and the bots' own thinking; what ``bench league`` calls trusted, minus the
  runner);
* ``wire``: each decision's real message (the view's changes, as the protocol sends
  them) written to a child process over a socket pair, and a fixed answer line read back;
  the child only reads and answers;
* ``codec``: the same, with both ends doing the protocol's work: the referee encodes the
  view's changes and decodes the answer, the child decodes the message and rebuilds the
  view (``ViewReader``) before answering.

The ceiling is ``trusted / (trusted + decisions x round trip)`` a game. ``kotarena bench
league --untrusted`` measures the real thing (fork server, bubblewrap, cgroups, the
runner), which adds each seat's fresh process per game on top.

    python benchmarks/sandbox_ceiling.py                  # heuristic bots, 4 players, 200 games
    python benchmarks/sandbox_ceiling.py --bot random --games 400
"""

from __future__ import annotations

import argparse
import os
import socket
import time

from kotarena.bots.registry import get_bot
from kotarena.games import get_game, new_game
from kotarena.match import play
from kotarena.sandbox.protocol import ViewReader, decode, encode, view_changes

ANSWER = encode({"type": "action", "action": "keep"})


class Recorder:
    """Wraps a bot and keeps each decision's protocol message (the view's changes)."""

    def __init__(self, bot, messages: list) -> None:
        self.bot = bot
        self.name = bot.name
        self.messages = messages
        self.last = None

    def start(self, view) -> None:
        self.messages.append({"type": "hello", "view": view_changes(view, None)})
        self.last = view
        self.bot.start(view)

    def choose(self, view):
        self.messages.append({"type": "decide", "view": view_changes(view, self.last)})
        self.last = view
        return self.bot.choose(view)

    def finish(self, view) -> None:
        self.bot.finish(view)


def trusted(bot: str, games: int, players: int, game: str) -> tuple[float, int, list[list[dict]]]:
    """Seconds for ``games`` trusted games, their decisions, and each seat's messages."""
    info = get_bot(bot)
    started = time.perf_counter()
    for seed in range(games):
        state = new_game(game, players, seed=seed, record=False)
        play(state, [info.make(seed=seed * 10 + seat) for seat in range(players)])
    seconds = time.perf_counter() - started
    # The messages, recorded apart so that recording costs the trusted run nothing.
    streams: list[list[dict]] = []
    for seed in range(games):
        state = new_game(game, players, seed=seed, record=False)
        seats = [[] for _ in range(players)]
        play(state, [Recorder(info.make(seed=seed * 10 + seat), seats[seat]) for seat in range(players)])
        streams.extend(seats)
    decisions = sum(message["type"] == "decide" for stream in streams for message in stream)
    return seconds, decisions, streams


def _child(conn: socket.socket, view_type: type | None) -> None:
    buffer = b""
    reader = None
    while True:
        chunk = conn.recv(1 << 16)
        if not chunk:
            os._exit(0)
        buffer += chunk
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            if view_type is not None:
                message = decode(line)
                if message["type"] == "hello":
                    reader = ViewReader(view_type)
                reader.read(message["view"])  # type: ignore[union-attr]
                if message["type"] == "hello":
                    continue
            elif line.startswith(b'{"type": "hello"') or line.startswith(b'{"type":"hello"'):
                continue
            conn.sendall(ANSWER)


def round_trips(streams: list[list[dict]], view_type: type | None) -> tuple[float, int]:
    """Seconds for every decision's round trip to a child process, and their number.

    With ``view_type``, both ends do the protocol's work (encode, decode, rebuild the
    view); without, the lines are encoded beforehand and the child only answers.
    """
    ours, theirs = socket.socketpair()
    pid = os.fork()
    if pid == 0:
        ours.close()
        _child(theirs, view_type)
    theirs.close()
    trips = 0
    if view_type is None:
        lines = [[encode(message) for message in stream] for stream in streams]
        started = time.perf_counter()
        for stream in lines:
            for line in stream:
                ours.sendall(line)
                if not line.startswith(b'{"type": "hello"') and not line.startswith(b'{"type":"hello"'):
                    ours.recv(1 << 16)
                    trips += 1
    else:
        started = time.perf_counter()
        for stream in streams:
            for message in stream:
                ours.sendall(encode(message))
                if message["type"] == "decide":
                    decode(ours.recv(1 << 16).rstrip(b"\n"))
                    trips += 1
    seconds = time.perf_counter() - started
    ours.close()
    os.waitpid(pid, 0)
    return seconds, trips


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="heuristic")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--game", default="kot")
    args = parser.parse_args()
    from kotarena.engine import NATIVE

    seconds, decisions, streams = trusted(args.bot, args.games, args.players, args.game)
    wire, trips = round_trips(streams, None)
    codec, _ = round_trips(streams, get_game(args.game).view_type)
    per_game = seconds / args.games * 1e3
    per_decision = decisions / args.games
    print(f"{args.bot} bots, {args.players} players, {args.games} games ({'compiled' if NATIVE else 'pure'} engine)")
    print(f"trusted: {per_game:.2f} ms a game, {per_decision:.1f} decisions a game "
          f"({seconds / decisions * 1e6:.1f} us a decision, engine and bot)")
    for name, total in (("wire", wire), ("codec", codec)):
        trip = total / trips * 1e6
        floor = per_game + per_decision * trip / 1e3
        print(f"{name}: {trip:.1f} us a round trip; a sandboxed game costs at least {floor:.2f} ms: "
              f"at best {per_game / floor:.0%} of the trusted speed")


if __name__ == "__main__":
    main()
