"""A bot's own lines for each game it plays: kept by its host, handed over with the game.

A sandboxed Python bot's standard output and error go to its log file
(``bot-logs/<ladder>/<bot>.log``), which holds all its games, interleaved when its
instance plays several at once. To show a game's lines with the game, the host (in the
sandbox, :mod:`kotarena.sandbox.host`) puts a :class:`GameLines` stream in place of
``sys.stdout`` and ``sys.stderr`` before it imports the bot (so a ``logging`` handler
made at import writes through it too): it still writes everything to the log file, and
keeps a bounded copy of what is written *while the bot works on one game's step* for
that game. The copy goes back to the referee with the bot's goodbye to that game (the
``bye`` message, or the answer to a batch's ``finish`` step), or with the end of a game
the bot forfeited while its player lives (its ``error``; the answer to ``forfeit``, or to
a batch's ``forget`` step, when the referee refused its answer), which are the only ways
a game's lines leave: each is the answer to one game's message or step, and the referee
keeps its lines with that game's seat. Nothing is parsed out of the text, so no line the
bot prints (a fake ``--- match 3 ---``) can move lines into another game or another
bot's record. A player killed (for time, or otherwise) takes its copy with it: those
lines are in the log file only. (The bot
runs in the host's process and could rewrite the host's own copies; what it could change
that way is what it says about its own games, which it answers for anyway.)

What is written by the process's file descriptors directly (a C extension, a child
process) or between steps (a thread of the bot's) goes to the log file only. The
referee bounds and cleans what it is handed (:func:`clip_log`) whatever the host sent.

The other bots' lines are kept the same way by the referee itself: a trusted bot's, in
the referee's process, by its seat (:class:`SeatLines`: the streams are swapped for each
call of the bot only), and a command-line bot's standard error, which comes to the
referee down a pipe of its own per game (:class:`ProgramLines`), read after each of the
program's answers.

**Steps.** Each line is kept with the step of the game it began in: ``start``, the
seat's ``k``-th decision (from 1, as its decision times count), or ``finish``. In the
text kept and stored, a line that is :data:`MARK` (a record separator) followed by the
step begins that step's lines; a bot's own record separators are taken out of its
text, so nothing it writes moves a line to another step. A text without marks (stored
before kotarena kept steps) is the game's lines, of no known step; :func:`log_steps`
reads a stored text back step by step, :func:`log_text` as the lines alone.
"""

from __future__ import annotations

import sys
import threading
from typing import Any

from kotarena.forfeits import _printable

#: The most lines, and characters, of a bot's output kept for one seat of one game.
LOG_LINES = 200
LOG_CHARS = 20_000
#: The mark after a game's lines where more were written than kept.
CUT = "[... more lines not kept]"
#: Begins a line that names the step of the game whose lines follow it (see the module's
#: text). A record separator: no bot's line holds one (:func:`clip_log` takes control
#: characters out of the bot's text, and a :class:`Book` out of what it keeps).
MARK = "\x1e"
#: The steps that are no decision: the bot set up for the game, and was told how it ended.
START, FINISH = "start", "finish"
#: The longest decision number a mark names (a host's garbage is no mark).
_NUMBER_DIGITS = 9

#: A step of a seat's game: ``START``, the seat's ``k``-th decision (from 1), ``FINISH``,
#: or ``None`` where it is not known (lines stored before kotarena kept steps, a
#: program's goodbye text).
Step = str | int | None


class _Kept:
    """What a book keeps of one game."""

    __slots__ = ("pieces", "chars", "breaks", "cut", "step", "ended")

    def __init__(self) -> None:
        self.pieces: list[str] = []
        self.chars = 0  #: the bot's characters kept (the marks not counted)
        self.breaks = 0  #: its line breaks
        self.cut = False  #: whether the bound was reached (nothing more is kept)
        self.step: Step = None  #: the step of the last line begun
        self.ended = True  #: whether what is kept ends with a whole line


class Book:
    """The lines kept for each game, from both streams in the order written: the first
    :data:`LOG_LINES` lines or :data:`LOG_CHARS` characters of each game, each line
    under a mark of the step it began in (:data:`MARK`)."""

    def __init__(self) -> None:
        self.game: object = None  #: the game whose step runs now (``None``: between steps)
        self.step: Step = None  #: that step (:data:`Step`)
        self._kept: dict[object, _Kept] = {}

    def at(self, game: object, step: Step = None) -> None:
        """What is written from now on is ``game``'s (``None``: no game's), written
        during ``step``."""
        self.game = game
        self.step = step

    def keep(self, text: str) -> None:
        game = self.game
        if game is None or not isinstance(text, str) or not text:
            return
        kept = self._kept.get(game)
        if kept is None:
            kept = self._kept[game] = _Kept()
        if kept.cut:
            return
        if MARK in text:
            text = text.replace(MARK, "")  # (the marks are the book's: a bot's own moves no line)
        step = self.step
        if step != kept.step and text:
            if not kept.ended:  # (a line belongs to the step it began in, to its end)
                end = text.find("\n") + 1
                if not end:
                    _add(kept, text)
                    return
                _add(kept, text[:end])
                text = text[end:]
                if not text or kept.cut:
                    return
            kept.pieces.append(f"{MARK}{'' if step is None else step}\n")
            kept.step = step
        if text:
            _add(kept, text)

    def take(self, game: object) -> str | None:
        """The lines kept for ``game``, which the book forgets (``None`` if it wrote none)."""
        kept = self._kept.pop(game, None)
        if kept is None:
            return None
        text = "".join(kept.pieces)
        if kept.cut:
            text += ("\n" if text and not text.endswith("\n") else "") + CUT
        return text or None

    def forget(self, game: object) -> None:
        self._kept.pop(game, None)


def _add(kept: _Kept, text: str) -> None:
    """Keep ``text`` in ``kept``, up to the bounds."""
    room = LOG_CHARS - kept.chars
    breaks = text.count("\n")
    if kept.breaks + breaks > LOG_LINES or len(text) > room:
        piece = "\n".join(text[:max(0, room)].split("\n")[:LOG_LINES - kept.breaks])
        kept.pieces.append(piece)
        kept.chars += len(piece)
        kept.cut = True
    else:
        kept.pieces.append(text)
        kept.chars += len(text)
        kept.breaks += breaks
        kept.ended = text.endswith("\n")


class GameLines:
    """A text stream that writes through to ``stream`` (the log file; none if ``None``)
    and gives what is written to ``book`` for the game being played (a :class:`Book`,
    or anything with its ``keep``)."""

    __slots__ = ("_stream", "_book")

    def __init__(self, stream: Any, book: Book | Calls) -> None:
        self._stream = stream
        self._book = book

    def write(self, text: str) -> int:
        stream = self._stream
        written = stream.write(text) if stream is not None else len(text)
        self._book.keep(text)
        return written

    def flush(self) -> None:
        if self._stream is not None:
            self._stream.flush()

    def __getattr__(self, name: str) -> Any:  # (encoding, fileno, isatty...: the file's own)
        return getattr(self._stream, name)


def install() -> Book:
    """Put :class:`GameLines` streams in place of ``sys.stdout`` and ``sys.stderr``; the
    book they keep their games' lines in."""
    book = Book()
    sys.stdout = GameLines(sys.stdout, book)  # type: ignore[assignment]
    sys.stderr = GameLines(sys.stderr, book)  # type: ignore[assignment]
    return book


class SeatLines:
    """One seat's lines of one game, for a trusted bot called in the referee's process
    (:class:`kotarena.tournament.seats.InProcessSeat`): what :data:`CALLS` is given
    while the seat's bot is called.

    ``seat`` counts its ``decisions`` so far: a line written while :attr:`phase` is
    ``None`` is its next decision's. (Read when the bot writes, so that a decision,
    which is most often silent, costs the seat nothing more than naming whose call it is.)
    """

    __slots__ = ("book", "phase", "thread", "_seat")

    def __init__(self, seat: Any) -> None:
        self.book: Book | None = None  #: made when the bot first writes (most never do)
        self.phase: Step = START  #: the step that is no decision, or ``None`` while deciding
        self.thread = threading.get_ident()  #: the thread the seat's game is played in
        self._seat = seat

    def keep(self, text: str) -> None:
        book = self.book
        if book is None:
            if self._seat is None:
                return  # (taken: the game is over for this seat)
            book = self.book = Book()
            book.game = 0
        book.step = self.phase if self.phase is not None else self._seat.decisions + 1
        book.keep(text)

    def take(self) -> str | None:
        """The game's lines as stored (:func:`clip_log`); the seat keeps no more."""
        book, self.book, self._seat = self.book, None, None
        return None if book is None else clip_log(book.take(0))


class Calls:
    """Whose lines the trusted bots of this process write: while a trusted bot is
    called, :attr:`lines` is its seat's :class:`SeatLines`, else ``None``.

    While games with trusted seats are under way (from the first seat's :meth:`open` to
    the last one's :meth:`close`), ``sys.stdout`` and ``sys.stderr`` are
    :class:`GameLines` streams that write through to the streams they replaced and give
    what is written to :attr:`lines`: naming the seat is all a call of a bot costs (a
    swap of the streams at each call cost a league of fast bots a few per cent of its
    time). What is written between calls, by the referee or anyone, is nobody's; so is
    what another thread writes (a match is played in one thread: where two played at
    once in one process, a line would be lost, never put with the other's seat).
    """

    __slots__ = ("lines", "_seats", "_streams")

    def __init__(self) -> None:
        self.lines: SeatLines | None = None
        self._seats = 0  #: seats whose game is under way
        self._streams: tuple[GameLines, GameLines] | None = None  #: the streams put in place

    def keep(self, text: str) -> None:
        lines = self.lines
        if lines is not None and lines.thread == threading.get_ident():
            lines.keep(text)

    def open(self) -> None:
        """A trusted seat's game begins: the streams are put in place, if they are not
        (or were replaced since: by a test's capture, a command's runner)."""
        self._seats += 1
        mine = self._streams
        if mine is not None and sys.stdout is mine[0] and sys.stderr is mine[1]:
            return
        self._streams = (GameLines(self._under(sys.stdout), self), GameLines(self._under(sys.stderr), self))
        sys.stdout, sys.stderr = self._streams  # type: ignore[assignment]

    def close(self) -> None:
        """A trusted seat's game is over: after the last one, the streams that were
        there are put back (unless someone replaced ours since)."""
        self._seats -= 1
        if self._seats > 0:
            return
        self._seats = 0
        mine, self._streams = self._streams, None
        if mine is None:
            return
        if sys.stdout is mine[0]:
            sys.stdout = mine[0]._stream
        if sys.stderr is mine[1]:
            sys.stderr = mine[1]._stream

    def _under(self, stream: Any) -> Any:
        """The stream under ``stream`` if it is one of ours put in place before (never
        two of ours, one over the other)."""
        while isinstance(stream, GameLines) and stream._book is self:
            stream = stream._stream
        return stream


#: The trusted bots' lines of this process.
CALLS = Calls()


class ProgramLines:
    """A command-line bot's standard error for one game, read by the referee from the
    pipe its program writes it to (:mod:`kotarena.sandbox.program`).

    The referee reads what is there after each of the program's answers (and while it
    waits for one), so the lines read after a request up to its answer are that step's:
    the program wrote them before it answered. Everything read goes on to the bot's log
    file, as it would have without the pipe, up to the file's size limit (``file_mb``
    MiB, as the sandbox's own writes), and the game's lines are kept in a :class:`Book`.
    """

    __slots__ = ("fd", "book", "_log", "_room", "_decoder")

    #: Bytes read from the pipe at most per call of :meth:`read` (then the program
    #: waits, as for a slow log).
    READ_BYTES = 1 << 20

    def __init__(self, fd: int, log_path: Any, file_mb: int) -> None:
        import codecs
        import os

        os.set_blocking(fd, False)
        self.fd = fd
        self.book = Book()
        self.book.at(0, START)
        self._log: Any = None
        try:
            self._log = open(log_path, "ab")  # noqa: SIM115 - closed with the seat's game
            self._room = (file_mb << 20) - os.fstat(self._log.fileno()).st_size
        except OSError:
            self._room = 0
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")

    def read(self, step: Step) -> None:
        """Read what the program wrote so far, as written during ``step``."""
        import os

        if self.fd < 0:
            return
        self.book.step = step
        got = 0
        while got < self.READ_BYTES:
            try:
                data = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:
                self.close()
                return
            got += len(data)
            if self._log is not None and self._room > 0:
                try:
                    self._log.write(data[:self._room])
                    self._log.flush()
                except OSError:
                    self._room = 0
                self._room -= len(data)
            self.book.keep(self._decoder.decode(data))

    def take(self, step: Step = FINISH, goodbye: object = None) -> str | None:
        """The game's lines as stored (:func:`clip_log`), what is left in the pipe read
        as ``step``'s, then the text of the program's goodbye (``"log"``, which the
        protocol lets any bot send) as ``FINISH``'s; the pipe and log are closed."""
        self.read(step)
        self.close()
        text = self.book.take(0) or ""
        if isinstance(goodbye, str) and goodbye:
            text += ("\n" if text else "") + f"{MARK}{FINISH}\n" + goodbye
        return clip_log(text)

    def close(self) -> None:
        import os

        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1
        if self._log is not None:
            self._log.close()
            self._log = None


def clip_log(text: object) -> str | None:
    """A game's lines as the referee stores them, whatever the host sent: text only,
    at most :data:`LOG_LINES` lines and :data:`LOG_CHARS` characters (marks of steps not
    counted), cleaned of what a terminal or a page would act on (control characters,
    bidirectional overrides); ``None`` for nothing. The marks of steps are kept where
    they name one and are followed by a line (:func:`log_steps` reads them back)."""
    if not isinstance(text, str) or not text:
        return None
    text = str.__str__(text[:LOG_CHARS * 2 + LOG_LINES * (_NUMBER_DIGITS + 2)])
    stored: list[str] = []
    lines = chars = 0
    for step, body in _marked(text):
        body = _printable(body).rstrip("\n")
        if not body:
            continue
        group = body.split("\n")
        cut = lines + len(group) > LOG_LINES or chars + len(body) > LOG_CHARS
        if cut:
            body = "\n".join(group[:LOG_LINES - lines])
            if len(body) > LOG_CHARS - chars:
                body = body[:LOG_CHARS - chars]
                body = body[:body.rfind("\n")] if "\n" in body else body
            if not body.strip("\n") and stored:  # (no line of this step kept: the cut ends the last)
                stored[-1] += "\n" + CUT
                break
            body = body.rstrip("\n") + "\n" + CUT if body.strip("\n") else CUT
        if stored or step is not None:
            stored.append(f"{MARK}{'' if step is None else step}")
        stored.append(body)
        lines += len(group)
        chars += len(body)
        if cut:
            break
    return "\n".join(stored) or None


def _marked(text: str) -> list[tuple[Step, str]]:
    """``text`` split at its marks: each step's text (lines in one piece), in order;
    a mark that names no step is left out."""
    found: list[tuple[Step, str]] = []
    step: Step = None
    body: list[str] = []
    for line in text.split("\n"):
        if line.startswith(MARK):
            label = line[1:]
            if label in (START, FINISH) or label == "":
                named: Step = label or None
            elif label.isdigit() and label.isascii() and len(label) <= _NUMBER_DIGITS and int(label) > 0:
                named = int(label)
            else:
                continue  # (a host's garbage, not a bot's line)
            if body:
                found.append((step, "\n".join(body)))
            step, body = named, []
        else:
            body.append(line)
    if body:
        found.append((step, "\n".join(body)))
    return found


def log_steps(stored: str | None) -> list[tuple[Step, list[str]]]:
    """A stored game's lines (:func:`clip_log`'s text) by step, in the order written:
    ``(step, lines)``, the step a :data:`Step`. A log stored before kotarena kept steps
    is one ``(None, lines)``."""
    if not stored:
        return []
    return [(step, body.split("\n")) for step, body in _marked(stored)]


def log_text(stored: str | None) -> str | None:
    """A stored game's lines as one text, without the marks of their steps."""
    if not stored:
        return None
    if MARK not in stored:
        return stored
    return "\n".join(line for line in stored.split("\n") if not line.startswith(MARK)) or None


__all__ = ["CALLS", "CUT", "FINISH", "LOG_CHARS", "LOG_LINES", "MARK", "START", "Book", "Calls", "GameLines", "ProgramLines", "SeatLines", "Step", "clip_log",
           "install", "log_steps", "log_text"]
