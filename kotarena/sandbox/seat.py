"""The referee's side of a sandboxed seat: the protocol, spoken with a bot's instance.

A :class:`SandboxedSeat` plays one seat of one game through an instance of its bot
(:mod:`kotarena.sandbox.instance`: a sandbox kept from game to game that never meets a
deal twice): it talks to the seat in JSON lines, counts its CPU time from outside (the
instance's cgroup, or ``/proc`` unsandboxed), and turns whatever goes wrong into a
:class:`~kotarena.forfeits.BotFailure`. Nothing a bot sends is ever unpickled or
imported here: a line is JSON or it is a forfeit.
"""

from __future__ import annotations

import os
import reprlib
import select
import socket
import struct
import time
from typing import Any

from kotarena.engine.actions import Action
from kotarena.forfeits import (
    CRASH,
    ERROR,
    INVALID,
    MEMORY,
    TIMEOUT,
    WALL_FACTOR,
    WALL_GRACE,
    BotFailure,
    as_action,
    clean_detail,
)
from kotarena.sandbox.botlog import FINISH, START, ProgramLines, Step, clip_log
from kotarena.sandbox.instance import (  # (the instances' names, as this module gave them before)
    _CREDENTIALS,
    FILE_MB,
    ForkServer,
    _kill,
    _running,
    _sender,
    close_servers,
    default_log_dir,
    read_line,
    seat_server,
)
from kotarena.sandbox.protocol import MAX_LINE, PROTOCOL, ProtocolError, decode, encode, view_changes

#: Address-space limit of a sandboxed bot's process.
DEFAULT_MEMORY_MB = 2048


def _proc_cpu(pid: int) -> float:
    """CPU seconds of process ``pid`` and its waited-for children (``/proc``)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
    except OSError:
        return 0.0
    return sum(int(value) for value in fields[11:15]) / os.sysconf("SC_CLK_TCK")


class SandboxedSeat:
    """One bot at one seat of one game, played by a process of its instance (a
    :class:`~kotarena.tournament.hosts.SeatHost`).

    Whatever goes wrong while a seat is handled here (a message of any shape, a field
    of any type) is that seat's :class:`BotFailure`, never an error of the match.
    ``package`` is the bot's distribution and version as the referee knows them.
    """

    def __init__(self, server: ForkServer, time_limit: float, *, game: str, seat: int, params: dict,
                 package: tuple[str, str] = ("?", "?")) -> None:
        self.server = server
        self._package = package
        self.time_limit = time_limit
        self.game = game
        self.seat = seat
        self.params = params
        self.cpu = 0.0
        self.decisions = 0
        self.times: list[float] = []  #: each decision's CPU time, as judged against the limit
        self._used = 0.0  #: the last answer's CPU time
        self.timing = "cpu"  #: how the times were measured (:mod:`kotarena.decision_times`)
        #: What the bot wrote during the game (bounded): from its goodbye, or up to its
        #: forfeit where its player could still hand it over (its error, :meth:`_forfeit_lines`)
        self.log: str | None = None
        #: A command-line bot's standard error, read step by step (``None`` for a Python bot)
        self.lines: ProgramLines | None = None
        self._step: Step = START  #: the step asked for last (the lines read meanwhile are its)
        self.conn: socket.socket | None = None
        self.pid = 0  #: the seat's process, as this process numbers it
        self.inner_pid = 0  #: the seat's process, as its sandbox numbers it
        self._last: Any = None
        self._due: str | None = None  #: the answer owed to the last hello or finish
        self._buffer = bytearray()
        self._slice = 0.0  #: the receive timeout set on the connection
        self._mark = 0.0  #: the seat's CPU clock when it last answered
        self._clean = False  #: the bot said goodbye to this game: its connection may serve the next
        #: A Python bot's player answered its last decision with what the engine refuses
        #: (not an action, not a legal one) and waits: when the seat is let go of, it is
        #: asked for the game's lines (:meth:`_forfeit_lines`).
        self._refused = False

    # ------------------------------------------------------------ the game

    def request_seat(self) -> None:
        """Ask the instance for the seat's process now (:meth:`start` collects it): a
        match asks for all its seats first, so that they start at once."""
        self.server.request_seat()

    def start(self, seed: int, view: Any) -> None:
        self._handled(self._start, seed, view)

    def _start(self, seed: int, view: Any) -> None:
        limit = self.time_limit
        link = getattr(self.server, "batch_link", None)
        if link is not None:
            link.close()  # (its player takes this seat's connection next)
        take = getattr(self.server, "take_kept", None)
        kept = take() if take is not None else None
        if kept is not None:
            conn, self.pid, self.inner_pid, unread = kept
            self.conn = conn
            self._buffer += unread
        else:
            conn, self.inner_pid = self.server.start_seat()
            self.conn = conn
            take_lines = getattr(self.server, "take_lines", None)
            lines = take_lines() if take_lines is not None else None
            if lines is not None:
                self.lines = ProgramLines(lines, self.server.log_path, FILE_MB)
            if not select.select([conn], [], [], limit * 10 * WALL_FACTOR + WALL_GRACE)[0]:
                raise self._fail(TIMEOUT, "never greeted the referee")
            data, ancillary, _, _ = conn.recvmsg(MAX_LINE, socket.CMSG_SPACE(_CREDENTIALS.size))
            self.pid = _sender(ancillary)
            if not data:
                raise self._ended()
            self._buffer += data
        greeting = self._receive(limit * 10)
        if greeting.get("type") != "bot" or greeting.get("protocol") != PROTOCOL:
            raise self._fail(INVALID, f"greeted with {_shown(greeting)}, not protocol {PROTOCOL}")
        self._last = view
        self._mark = self._clock()
        self._send({"type": "hello", "protocol": PROTOCOL, "game": self.game, "seat": self.seat,
                    "players": len(view.names), "seed": seed, "params": self.params, "view": view_changes(view, None),
                    "limits": {"decision_cpu_seconds": limit, "start_cpu_seconds": limit * 10,
                               "memory_mb": self.server.memory_mb}})
        self._due = "ready"

    def settle(self) -> None:
        """Wait for the answer to ``hello`` or ``finish`` (a match sends them to every
        seat first, then waits: the seats set up and say goodbye at the same time)."""
        due, self._due = self._due, None
        if due == "ready":
            self._handled(self._answer, self.time_limit * 10, "ready")
        elif due == "bye":
            try:
                bye = self._handled(self._answer, self.time_limit * 10, "bye")
                lines, self.lines = self.lines, None
                self.log = clip_log(bye.get("log")) if lines is None else lines.take(FINISH, bye.get("log"))
                self._clean = True
            except BotFailure:
                pass  # the game is over: a bot failing to say goodbye changes nothing

    def choose(self, view: Any) -> Action:
        return self._handled(self._choose, view)

    def _choose(self, view: Any) -> Action:
        if self._due is not None:
            self.settle()
        changes = view_changes(view, self._last)
        self._last = view
        if self.lines is not None:
            self.lines.read(self._step)  # (what it wrote after its last answer is that step's)
        self._step = self.decisions + 1
        self._refused = False
        self._send({"type": "decide", "view": changes})
        reply = self._answer(self.time_limit, "action")
        self.decisions += 1
        self.times.append(self._used)
        # (a refused answer forfeits; its player, alive, is asked for the game's lines at close)
        self._refused = self.lines is None
        text = reply.get("action")
        if type(text) is not str:
            raise BotFailure(INVALID, f"answered {_shown(reply)}, which names no action")
        action = as_action(text, view)
        self._refused = self._refused and action not in view.legal  # (the engine refuses it: play_seated)
        return action

    def finish(self, view: Any) -> None:
        """Tell the bot how the game ended (:meth:`settle` waits for its goodbye)."""
        if self.conn is None:
            return
        try:
            if self._due is not None:
                self.settle()
            changes = view_changes(view, self._last)
            outcome = changes.get("outcome")
            if outcome is not None and hasattr(outcome, "to_json"):
                # (an outcome is a named tuple, which JSON would write as an array)
                changes["outcome"] = outcome.to_json()
            self._last = view
            if self.lines is not None:
                self.lines.read(self._step)
            self._step = FINISH
            self._refused = False
            self._handled(self._send, {"type": "finish", "view": changes})
            self._due = "bye"
        except BotFailure:
            pass

    def host_alive(self) -> bool:
        """Whether the seat's instance still runs (one killed during the game leaves
        the seat's answers unvouched for)."""
        return self.server.server_alive()

    def instances(self) -> tuple[ForkServer]:
        return (self.server,)

    def package(self) -> tuple[str, str]:
        return self._package

    def close(self) -> None:
        """The seat's game is over: a player that said goodbye keeps its connection for
        its instance's next game; any other seat's connection is closed."""
        lines, self.lines = self.lines, None
        if lines is not None:  # (a game that ended without a goodbye: the lines it wrote up to there)
            self.log = lines.take(self._step)
        elif self._refused and self.conn is not None and self.server.server_alive():
            self._refused = False
            self._forfeit_lines()
        conn, self.conn = self.conn, None
        if conn is None:
            return
        keep = getattr(self.server, "keep_seat", None)
        if self._clean and self._due is None and keep is not None:
            keep(conn, self.pid, self.inner_pid, bytes(self._buffer))
        else:
            conn.close()
        self._buffer.clear()

    def _forfeit_lines(self) -> None:
        """Ask a Python bot's player whose last answer was refused (:meth:`close`) for
        the game's lines (protocol: ``forfeit``, answered ``bye``), within a decision's
        limit. Its player held this game only, on this connection: the lines are this
        game's, whatever they say."""
        try:
            self._send({"type": "forfeit"})
            bye = self._receive(self.time_limit)
            if bye.get("type") == "bye":
                self.log = clip_log(bye.get("log"))
        except BotFailure:
            pass  # (no lines: the game is lost already)

    # ------------------------------------------------------------ the wire

    def _handled(self, step: Any, *args: Any) -> Any:
        """``step(*args)``, with whatever it raises besides a forfeit made this seat's
        forfeit (the seat's process ended, with it): a bot's bytes can only hurt the bot."""
        try:
            return step(*args)
        except BotFailure:
            raise
        except Exception as error:  # noqa: BLE001 - anything a bot's message set off here
            raise self._fail(INVALID, f"sent what the referee could not handle ({type(error).__name__})") from None

    def _send(self, message: dict) -> None:
        try:
            self.conn.sendall(encode(message))  # type: ignore[union-attr]
        except OSError:
            raise self._fail(CRASH, "its process ended (the connection is closed)") from None

    def _clock(self) -> float:
        group = self.server.group
        return group.cpu() if group is not None else _proc_cpu(self.pid)

    def _answer(self, cpu_limit: float, expected: str) -> dict:
        # A decision's CPU time runs from the seat's last answer to this one: what the
        # seat does between decisions (a thread thinking ahead) counts too.
        started = self._mark
        message = self._receive(cpu_limit, started)
        if self.lines is not None:
            self.lines.read(self._step)  # (written before the answer: this step's)
        self._mark = now = self._clock()
        used = self._used = now - started
        self.cpu += used
        if used > cpu_limit:
            raise self._fail(TIMEOUT, f"took {used:.2f}s of CPU time (limit {cpu_limit:g}s)")
        kind = message.get("type")
        if kind == expected:
            return message
        if kind == "error":  # (the bot's own words: cleaned and bounded before anyone shows them)
            if self.lines is None:  # (a Python bot's host sends the game's lines up to its error)
                self.log = clip_log(message.get("log"))
            text = message.get("message", "")
            text = clean_detail((text if isinstance(text, str) else _shown(text)) or "gave up")
            raise self._fail(MEMORY if message.get("kind") == "memory" else ERROR, text)
        raise self._fail(INVALID, f"sent {_shown(message)} when a {expected!r} message was due")

    def _receive(self, cpu_limit: float, started: float | None = None) -> dict:
        """The next message, within ``cpu_limit`` seconds of the seat's CPU time.

        The socket blocks in ``recv`` for at most a slice of the limit
        (``SO_RCVTIMEO``): one system call per answer, and between slices, and after
        each piece of a line that is not whole yet, the seat's CPU time is read and
        judged. (The instance's cgroup lets it run on ``CPUS`` processors' worth of time
        at most, so however many threads think, a slice hides at most that many slices.)
        """
        buffer = self._buffer
        end = buffer.find(b"\n")
        if end < 0:
            if started is None:
                started = self._clock()
            wall_limit = cpu_limit * WALL_FACTOR + WALL_GRACE
            began = time.monotonic()
            conn = self.conn
            slice_ = max(0.005, min(0.05, cpu_limit / 10))  # a tenth of the limit, within 5-50 ms
            if slice_ != self._slice:
                self._slice = slice_
                seconds = int(slice_)
                conn.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO,  # type: ignore[union-attr]
                                struct.pack("ll", seconds, int((slice_ - seconds) * 1e6)))
            recv = conn.recv  # type: ignore[union-attr]
            while end < 0:
                try:
                    chunk = recv(1 << 16)
                except BlockingIOError:  # the slice is up: judge the time used so far
                    chunk = None
                except OSError:
                    chunk = b""
                if chunk is None:
                    if self.lines is not None:
                        self.lines.read(self._step)  # (so that a chatty program never waits on its pipe long)
                    if not self._alive():  # gone, though a process it forked holds the connection
                        raise self._ended()
                elif not chunk:
                    raise self._ended()
                else:
                    buffer += chunk
                    end = buffer.find(b"\n")
                    if end >= 0:
                        break
                    if len(buffer) > MAX_LINE:
                        raise self._fail(INVALID, f"sent a line longer than {MAX_LINE} bytes")
                used = self._clock() - started
                if used > cpu_limit:
                    raise self._fail(TIMEOUT, f"no answer after {used:.2f}s of CPU time (limit {cpu_limit:g}s)")
                waited = time.monotonic() - began
                if waited > wall_limit:
                    raise self._fail(TIMEOUT, f"no answer after {waited:.1f}s of wall-clock time (hung, "
                                              f"{used:.2f}s of CPU used)")
        line = bytes(buffer[:end])
        del buffer[:end + 1]
        try:
            return decode(line)
        except ProtocolError as error:
            raise self._fail(INVALID, str(error)) from None

    def _alive(self) -> bool:
        """Whether the seat's own process still runs."""
        return not self.pid or _running(self.pid)

    def _ended(self) -> BotFailure:
        self._clean = False
        group = self.server.group
        if group is not None and group.killed_for_memory():
            return self._fail(MEMORY, f"killed by the kernel for using more than {self.server.memory_mb} MiB")
        self.close()
        return self._fail(CRASH, f"its process ended without answering ({self.server.exit_status(self.inner_pid)})")

    def _fail(self, kind: str, detail: str) -> BotFailure:
        """The forfeit, with the seat's process ended (whatever it was doing)."""
        self._refused = False
        if self.pid:
            _kill(self.pid)
        self._clean = False
        self.close()
        return BotFailure(kind, detail)


_SHOWN = reprlib.Repr()
_SHOWN.maxlevel, _SHOWN.maxdict, _SHOWN.maxlist, _SHOWN.maxstring, _SHOWN.maxother = 3, 6, 6, 60, 60


def _shown(message: object) -> str:
    """A short text of what a bot sent, whatever its shape (any nesting, any size)."""
    return _SHOWN.repr(message)[:200]


__all__ = ["DEFAULT_MEMORY_MB", "ForkServer", "SandboxedSeat", "close_servers", "default_log_dir", "read_line", "seat_server"]
