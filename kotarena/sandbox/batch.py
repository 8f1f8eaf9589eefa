"""A Python bot's instance playing several games at once, its decisions sent in batches.

A worker that plays its matches in lockstep (:mod:`kotarena.tournament.lockstep`) asks
each instance of a Python bot (:mod:`kotarena.sandbox.instance`) for the decisions of
all the games it sits in at once: one message carries them, one message carries the
answers, so one wake-up of the instance's player serves many decisions. Which games
an instance serves is the slots' business: no two of them share a deal, so playing them
at once shows the bot nothing that playing them one after the other would not.

A :class:`Link` is the referee's side of one instance's connection (its player, in
the batch mode of :func:`kotarena.sandbox.host.play_batches`); a :class:`BatchSeat` is
one seat of one game played through it. The rules of one seat carry over to the batch:

* **CPU time.** A batch may take the sum of its steps' limits (a decision's limit for
  each decision, ten times that to start or to finish a game, which go in batches of
  their own so that no decision is given their time), counted on the
  instance's cgroup from its last answer to this one and judged while it thinks; a
  batch over its limit is a ``timeout`` forfeit of the seats it asked, in those games
  only.
* **Whatever a bot sends** is read as a stranger's: a line that is not an answer to
  the batch forfeits the seats the batch asked (``invalid``); a bot's error in one game
  forfeits that game's seat (``error``), the others go on. The error brings the game's
  lines up to it; a seat whose answer the referee refused (:meth:`BatchSeat.forfeit`)
  has its player asked for them (a ``forget`` step): each kept with the seat its step
  was for.
* **A failed player** (over its time, sending garbage, ended) is killed and its
  instance cleaned up (:meth:`~kotarena.sandbox.instance.ForkServer.reset`); the other
  games it was playing are greeted again, from where they stand, by a new player.
"""

from __future__ import annotations

import select
import socket
import time
from typing import Any

from kotarena.forfeits import CRASH, ERROR, INVALID, MEMORY, TIMEOUT, WALL_FACTOR, WALL_GRACE, BotFailure, clean_detail
from kotarena.sandbox.botlog import clip_log
from kotarena.sandbox.instance import _CREDENTIALS, ForkServer, _kill, _running, _sender
from kotarena.sandbox.protocol import LEGAL_LISTS, MAX_LINE, PROTOCOL, ProtocolError, decode, encode, view_changes

#: Times a decision's limit that starting a game, or finishing one, may take.
START_FACTOR = 10


class BatchSeat:
    """One seat of one game, played through its instance's :class:`Link`.

    The lockstep driver asks it for a decision (:meth:`ask`) or tells it how the game
    ended (:meth:`finish`); the answer comes back through :meth:`Link.collect`.
    ``cpu`` and ``decisions`` are the seat's share of its batches' CPU time and its
    decisions, as a match stores them; ``package`` is the bot's distribution and version
    as the referee knows them.
    """

    def __init__(self, link: Link, time_limit: float, *, game: str, seat: int, params: dict, seed: int,
                 view: Any, package: tuple[str, str] = ("?", "?")) -> None:
        self.link = link
        self._package = package
        self.server = link.server
        self.time_limit = time_limit
        self.game = game
        self.seat = seat
        self.params = params
        self.seed = seed
        self.number = link.enter(self)
        self.cpu = 0.0
        self.decisions = 0
        #: Each decision's share of its batch's CPU time (only a batch's is measured).
        self.times: list[float] = []
        self.timing = "share"  #: how the times were measured (:mod:`kotarena.decision_times`)
        self._share = 0.0  #: the share of the last batch answered
        self.log: str | None = None  #: what the bot wrote during the game, from its goodbye (bounded)
        self.started = False  #: whether the player playing this game now has been greeted with it
        self.finished = False  #: whether the player was told the game is over
        self._first = view  #: the view the bot starts from (the game's first, or where it stands after a new player)
        self._last: Any = None  #: the view the player knows
        self.view: Any = None  #: the view of the step in flight

    def ask(self, view: Any) -> None:
        """Ask for a decision at ``view`` (with the next batch of the link)."""
        self.view = view
        self.link.queue(self, "decide")

    def finish(self, view: Any) -> None:
        """Tell the bot how the game ended."""
        self.view = view
        self.link.queue(self, "finish")

    def restart(self) -> None:
        """The game's player was replaced: greet the new one from the view the bot last saw."""
        if self._last is not None:
            self._first = self._last
        self.started = False
        self._last = None

    def step(self, kind: str) -> tuple[list, float]:
        """The message of this seat's next step (``start``: greet the player with the
        game), with its CPU limit."""
        limit = self.time_limit
        if kind == "start":
            view = self._first
            self._last = view
            self.started = True
            # ("decided": a new player's game goes on from the seat's decisions so far,
            # which number the steps its bot's lines are kept under)
            return (["start", self.number, {
                "protocol": PROTOCOL, "game": self.game, "seat": self.seat, "players": len(view.names),
                "seed": self.seed, "params": self.params, "view": self.link.numbered(view_changes(view, None), view),
                "limits": {"decision_cpu_seconds": limit, "start_cpu_seconds": limit * START_FACTOR,
                           "memory_mb": self.server.memory_mb}, "decided": self.decisions}], limit * START_FACTOR)
        if kind == "forget":
            return ["forget", self.number, None], limit
        changes = self.link.numbered(view_changes(self.view, self._last), self.view)
        if kind == "finish":
            outcome = changes.get("outcome")
            if outcome is not None and hasattr(outcome, "to_json"):
                changes["outcome"] = outcome.to_json()  # (a named tuple, which JSON would write as an array)
        self._last = self.view
        self.finished = kind == "finish"
        return [kind, self.number, changes], limit * (START_FACTOR if kind == "finish" else 1)

    def leave(self) -> None:
        """The game is over for this seat (finished, or forfeited): the link forgets it."""
        self.link.leave(self)

    def forfeit(self) -> bool:
        """The seat forfeited on an answer the referee refused (not an action, or not a
        legal one) while its player still holds the game: the player is asked for the
        game's lines (a ``forget`` step, queued, whose answer carries them). Whether it
        was asked; if not, the game is forgotten at once (:meth:`leave`)."""
        link = self.link
        if link.seats.get(self.number) is not self or not self.started or self.finished or link.conn is None:
            self.leave()
            return False
        del link.seats[self.number]  # (a player replaced meanwhile answers "gone": the lines died with the old one)
        link.queue(self, "forget")
        return True

    def package(self) -> tuple[str, str]:
        return self._package


class Link:
    """The referee's side of one instance's player in batch mode: one connection, the
    steps waiting for the next batch, the batch in flight."""

    def __init__(self, server: ForkServer) -> None:
        self.server = server
        self.conn: socket.socket | None = None
        self.pid = 0  #: the player's process, as this process numbers it
        self.inner_pid = 0  #: the player's process, as the sandbox numbers it
        self.seats: dict[int, BatchSeat] = {}  #: the games the instance plays now, by number
        self._numbers = 0
        self._forgotten: list[int] = []  #: games given up while the player held them: it is told to drop them
        self.waiting: list[tuple[BatchSeat, str]] = []  #: steps for the next batch
        self.flight: list[tuple[BatchSeat, str, float]] = []  #: steps sent, with their limits
        self._buffer = bytearray()
        #: The legal lists sent whole on this connection, numbered in order (the player numbers them alike).
        self._legals: dict[tuple, int] = {}
        self._mark = 0.0  #: the instance's CPU clock at its last answer
        self._limit = 0.0  #: the batch in flight's CPU limit
        self._sent = 0.0  #: when it was sent (``time.monotonic``)
        self._checked = 0.0  #: when its CPU time was last judged
        self.slice = 0.05
        self.batches = 0  #: batches sent (a count, for tests and benchmarks)
        self._answered = 0  #: batches answered (or failed)
        self._alive_at = -1  #: the answer after which the host was last seen running...
        self._alive = True  #: ...and whether it was
        self.most = 0  #: the most games played at once

    # ------------------------------------------------------------ games

    def enter(self, seat: BatchSeat) -> int:
        self._numbers += 1
        self.seats[self._numbers] = seat
        self.most = max(self.most, len(self.seats))
        return self._numbers

    def leave(self, seat: BatchSeat) -> None:
        """Forget ``seat``'s game; a player that still holds it is told to drop it."""
        if self.seats.pop(seat.number, None) is not None and seat.started and not seat.finished and self.conn:
            self._forgotten.append(seat.number)

    def queue(self, seat: BatchSeat, kind: str) -> None:
        self.waiting.append((seat, kind))

    @property
    def busy(self) -> bool:
        return bool(self.flight)

    def numbered(self, changes: dict, view: Any) -> dict:
        """``changes`` with its legal list replaced by its number if it was sent before
        (the engine hands out the same few legal tuples all game)."""
        texts = changes.get("legal")
        if texts is not None:
            number = self._legals.get(view.legal)
            if number is not None:
                changes["legal"] = number
            elif len(self._legals) < LEGAL_LISTS:
                self._legals[view.legal] = len(self._legals)
        return changes

    # ------------------------------------------------------------ the wire

    def send(self) -> list[tuple[BatchSeat, str, object]]:
        """Send the waiting steps as one batch. Returns the answers known at once: the
        failures of its seats if the player cannot be reached."""
        waiting = self.waiting
        try:
            if self.conn is None:
                self._connect(waiting[0][0].time_limit)
        except BotFailure as failure:
            self.waiting = []
            return [(seat, kind, failure) for seat, kind in waiting]
        # Starting and finishing games may take ten times a decision's limit: they go in
        # batches of their own, so that no decision is given their time.
        if any(not seat.started or kind == "finish" for seat, kind in waiting):
            asked = [(seat, "start" if not seat.started else kind) for seat, kind in waiting
                     if not seat.started or kind == "finish"]
            self.waiting = [(seat, kind) for seat, kind in waiting if not seat.started or kind != "finish"]
        else:
            asked, self.waiting = waiting, []
        steps: list[list] = [["forget", number, None] for number in self._forgotten]
        flight: list[tuple[BatchSeat | None, str, float]] = [(None, "forget", 0.0)] * len(steps)
        self._forgotten = []
        for seat, kind in asked:
            step, limit = seat.step(kind)
            steps.append(step)
            flight.append((seat, kind, limit))
        try:
            self.conn.sendall(encode({"type": "batch", "steps": steps}))  # type: ignore[union-attr]
        except OSError:
            self.flight = flight  # type: ignore[assignment]
            return self._failed(self._fail(CRASH, "its process ended (the connection is closed)"))
        except ValueError as error:  # (a view the encoder refuses: not the bot's doing)
            raise RuntimeError(f"cannot send a batch: {error}") from None
        self.flight = flight  # type: ignore[assignment]
        self.batches += 1
        self._limit = sum(limit for _, _, limit in flight)
        self._sent = self._checked = time.monotonic()
        self.slice = max(0.005, min(0.05, self._limit / 10))
        return []

    def fileno(self) -> int:
        return self.conn.fileno()  # type: ignore[union-attr]

    def collect(self, readable: bool) -> list[tuple[BatchSeat, str, object]] | None:
        """The answers to the batch in flight, each ``(seat, kind, answer)`` with the
        answer's text or the seat's :class:`BotFailure`, once they are all in; ``None``
        while they are not. ``readable``: the connection has bytes (else the batch's
        time is judged, if a slice has passed)."""
        try:
            message = self._read(readable)
        except BotFailure as failure:
            return self._failed(failure)
        if message is None:
            return None
        return self._answers(message)

    def _read(self, readable: bool) -> dict | None:
        buffer = self._buffer
        end = buffer.find(b"\n")
        if end < 0 and readable:
            try:
                chunk = self.conn.recv(1 << 16, socket.MSG_DONTWAIT)  # type: ignore[union-attr]
            except BlockingIOError:
                chunk = None
            except OSError:
                chunk = b""
            if chunk == b"":
                raise self._ended()
            if chunk:
                buffer += chunk
                end = buffer.find(b"\n")
                if end < 0 and len(buffer) > MAX_LINE:
                    raise self._fail(INVALID, f"sent a line longer than {MAX_LINE} bytes")
        now = time.monotonic()
        if end < 0:
            if now - self._checked >= self.slice:
                self._checked = now
                used = self._clock() - self._mark
                if used > self._limit:
                    raise self._fail(TIMEOUT, f"no answer after {used:.2f}s of CPU time (limit {self._limit:g}s "
                                              f"for a batch of {len(self.flight)})")
                if now - self._sent > self._limit * WALL_FACTOR + WALL_GRACE:
                    raise self._fail(TIMEOUT, f"no answer after {now - self._sent:.1f}s of wall-clock time (hung, "
                                              f"{used:.2f}s of CPU used)")
                if self.pid and not _running(self.pid):
                    raise self._ended()
            return None
        line = bytes(buffer[:end])
        del buffer[:end + 1]
        started, self._mark = self._mark, self._clock()
        used = self._mark - started
        self._share(used)
        if used > self._limit:
            raise self._fail(TIMEOUT, f"took {used:.2f}s of CPU time for a batch of {len(self.flight)} (limit "
                                      f"{self._limit:g}s)")
        try:
            return decode(line)
        except ProtocolError as error:
            raise self._fail(INVALID, str(error)) from None

    def _share(self, used: float) -> None:
        """Each seat of the batch gets its share of the batch's CPU time (by its limit)."""
        if self._limit > 0:
            for seat, _, limit in self.flight:
                if seat is not None:
                    seat._share = share = used * limit / self._limit
                    seat.cpu += share

    def _answers(self, message: dict) -> list[tuple[BatchSeat, str, object]]:
        self._answered += 1
        answers = message.get("answers")
        if message.get("type") != "answers" or type(answers) is not list or len(answers) != len(self.flight):
            if message.get("type") == "error":  # (the player's own words, for a failure it met outside a game)
                text = message.get("message", "")
                return self._failed(self._fail(ERROR, clean_detail(text if isinstance(text, str) else "gave up")))
            shown = str(message.get("type"))[:40]
            return self._failed(self._fail(INVALID, f"sent a {shown!r} message that does not answer the "
                                                    f"{len(self.flight)} steps asked"))
        flight, self.flight = self.flight, []
        results: list[tuple[BatchSeat, str, object]] = []
        for (seat, kind, _), answer in zip(flight, answers):
            if seat is None:
                continue
            if kind == "decide":
                seat.decisions += 1
                seat.times.append(seat._share)
            elif type(answer) is list and len(answer) == 2 and kind in ("finish", "forget") and answer[0] == _DUE[kind]:
                answer, seat.log = answer[0], clip_log(answer[1])  # (the bot's lines of the game)
            if type(answer) is dict and "log" in answer:  # (a bot's error in this game: its lines up to it)
                seat.log = clip_log(answer["log"])
            result = _answer(kind, answer)
            if isinstance(result, BotFailure):
                self.leave(seat)
            if kind != "start" or isinstance(result, BotFailure):
                results.append((seat, self._asked(seat, kind), result))
        return results

    def _failed(self, failure: BotFailure) -> list[tuple[BatchSeat, str, object]]:
        """Every seat the batch asked fails with ``failure``."""
        self._answered += 1
        flight, self.flight = self.flight, []
        results = []
        for seat, kind, _ in flight:
            if seat is not None:
                self.seats.pop(seat.number, None)
                results.append((seat, self._asked(seat, kind), failure))
        return results

    def _asked(self, seat: BatchSeat, kind: str) -> str:
        """What ``seat``'s table waits for: the step asked, or after a start the step
        still waiting (which is dropped: the seat has failed if this is asked)."""
        if kind != "start":
            return kind
        for index, (other, waiting) in enumerate(self.waiting):
            if other is seat:
                del self.waiting[index]
                return waiting
        return "decide"

    # ------------------------------------------------------------ the player

    def _connect(self, limit: float) -> None:
        """Have the instance hand a player a new connection, and read its greeting."""
        server = self.server
        kept = server.take_kept()
        if kept is not None:
            kept[0].close()  # (a player waiting for a game on its own connection: it takes this one next)
        if not server.alive():
            raise BotFailure(CRASH, "its instance is gone (see its log)")
        conn, self.inner_pid = server.start_seat()
        self.conn = conn
        self._legals = {}
        wait = limit * START_FACTOR * WALL_FACTOR + WALL_GRACE
        if not select.select([conn], [], [], wait)[0]:
            raise self._fail(TIMEOUT, "never greeted the referee")
        try:
            data, ancillary, _, _ = conn.recvmsg(MAX_LINE, socket.CMSG_SPACE(_CREDENTIALS.size))
        except OSError:
            data, ancillary = b"", []
        self.pid = _sender(ancillary)
        if not data:
            raise self._ended()
        self._buffer += data
        self._mark = self._clock()
        end = self._buffer.find(b"\n")
        try:
            greeting = decode(bytes(self._buffer[:end])) if end >= 0 else {}
        except ProtocolError as error:
            raise self._fail(INVALID, str(error)) from None
        del self._buffer[:end + 1]
        if greeting.get("type") != "bot" or greeting.get("protocol") != PROTOCOL:
            raise self._fail(INVALID, f"greeted with {str(greeting)[:100]}, not protocol {PROTOCOL}")

    def _clock(self) -> float:
        group = self.server.group
        if group is not None:
            return group.cpu()
        from kotarena.sandbox.seat import _proc_cpu

        return _proc_cpu(self.pid)

    def _ended(self) -> BotFailure:
        group = self.server.group
        if group is not None and group.killed_for_memory():
            return self._fail(MEMORY, f"killed by the kernel for using more than {self.server.memory_mb} MiB")
        status = self.server.exit_status(self.inner_pid) if self.inner_pid else "never started"
        return self._fail(CRASH, f"its process ended without answering ({status})")

    def _fail(self, kind: str, detail: str) -> BotFailure:
        """The failure, with the player ended and its instance cleaned up: the games it
        was playing and the batch did not ask are greeted again by the next player."""
        if self.pid:
            _kill(self.pid)
        self.pid = self.inner_pid = 0
        if self.conn is not None:
            self.conn.close()
            self.conn = None
        self._buffer.clear()
        self._forgotten = []
        for seat in self.seats.values():
            seat.restart()
        self.server.request_reset()
        self.server.reset()
        return BotFailure(kind, detail)

    def server_alive(self) -> bool:
        """Whether the instance's host still runs, as of the last answer (looked at once
        per answer: a seat that kills its host does so before it answers)."""
        if self._alive_at != self._answered:
            self._alive_at = self._answered
            self._alive = self.server.server_alive()
        return self._alive

    def abandon(self) -> None:
        """Drop everything in flight: the player is ended (the next batch gets a new one)."""
        if self.flight or self.waiting:
            self.flight, self.waiting = [], []
            self._fail(CRASH, "abandoned")
        self.seats.clear()

    def close(self) -> None:
        """Close the connection (the player goes back to waiting for a connection)."""
        if self.conn is not None:
            self.conn.close()
            self.conn = None


#: The answer due to each kind of step that is not a decision.
_DUE = {"start": "ready", "finish": "bye", "forget": "gone"}


def _answer(kind: str, answer: object) -> object:
    """A step's answer: its text, or the seat's failure."""
    expected = _DUE.get(kind)
    if type(answer) is dict:
        text = answer.get("error")
        text = clean_detail((text if isinstance(text, str) else "gave up") or "gave up")
        return BotFailure(MEMORY if answer.get("kind") == "memory" else ERROR, text)
    if type(answer) is not str:
        return BotFailure(INVALID, f"answered {str(answer)[:100]}, which names no action")
    if expected is not None and answer != expected:
        return BotFailure(INVALID, f"answered {answer[:100]!r} where {expected!r} was due")
    return answer


def link_of(server: ForkServer) -> Link:
    """The instance's link, kept on it from one set of games to the next."""
    link = getattr(server, "batch_link", None)
    if link is None:
        link = server.batch_link = Link(server)  # type: ignore[attr-defined]
    return link


def wait(links: list[Link]) -> list[tuple[Link, list[tuple[BatchSeat, str, object]]]]:
    """Wait until at least one of ``links``' batches is answered (or failed); each
    link judges its batch's time while it waits."""
    while True:
        timeout = min(link.slice for link in links)
        try:
            readable = set(select.select(links, [], [], timeout)[0])
        except (OSError, ValueError):
            readable = set(links)
        done = []
        for link in links:
            answers = link.collect(link in readable)
            if answers is not None:
                done.append((link, answers))
        if done:
            return done


__all__ = ["START_FACTOR", "BatchSeat", "Link", "link_of", "wait"]
