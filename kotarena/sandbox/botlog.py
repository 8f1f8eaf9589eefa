"""A bot's own lines for each game it plays: kept by its host, handed over with the game.

A sandboxed Python bot's standard output and error go to its log file
(``bot-logs/<ladder>/<bot>.log``), which holds all its games, interleaved when its
instance plays several at once. To show a game's lines with the game, the host (in the
sandbox, :mod:`kotarena.sandbox.host`) puts a :class:`GameLines` stream in place of
``sys.stdout`` and ``sys.stderr`` before it imports the bot (so a ``logging`` handler
made at import writes through it too): it still writes everything to the log file, and
keeps a bounded copy of what is written *while the bot works on one game's step* for
that game. The copy goes back to the referee with the bot's goodbye to that game (the
``bye`` message, or the answer to a batch's ``finish`` step), which is the only way a
game's lines leave: nothing is parsed out of the text, so no line the bot prints (a fake
``--- match 3 ---``) can move lines into another game or another bot's record. (The bot
runs in the host's process and could rewrite the host's own copies; what it could change
that way is what it says about its own games, which it answers for anyway.)

What is written by the process's file descriptors directly (a C extension, a child
process) or between steps (a thread of the bot's) goes to the log file only. The
referee bounds and cleans what it is handed (:func:`clip_log`) whatever the host sent.
"""

from __future__ import annotations

from typing import Any

from kotarena.forfeits import _printable

#: The most lines, and characters, of a bot's output kept for one seat of one game.
LOG_LINES = 200
LOG_CHARS = 20_000
#: The mark after a game's lines where more were written than kept.
CUT = "[... more lines not kept]"


class Book:
    """The lines kept for each game, from both streams in the order written: the first
    :data:`LOG_LINES` lines or :data:`LOG_CHARS` characters of each game."""

    def __init__(self) -> None:
        self.game: object = None  #: the game whose step runs now (``None``: between steps)
        self._kept: dict[object, list] = {}  #: game -> [pieces, characters, line breaks, cut]

    def at(self, game: object) -> None:
        """What is written from now on is ``game``'s (``None``: no game's)."""
        self.game = game

    def keep(self, text: str) -> None:
        game = self.game
        if game is None or not isinstance(text, str) or not text:
            return
        kept = self._kept.setdefault(game, [[], 0, 0, False])
        if kept[3]:
            return
        room = LOG_CHARS - kept[1]
        breaks = text.count("\n")
        if kept[2] + breaks > LOG_LINES or len(text) > room:
            piece = "\n".join(text[:max(0, room)].split("\n")[:LOG_LINES - kept[2]])
            kept[0].append(piece)
            kept[1] += len(piece)
            kept[3] = True
        else:
            kept[0].append(text)
            kept[1] += len(text)
            kept[2] += breaks

    def take(self, game: object) -> str | None:
        """The lines kept for ``game``, which the book forgets (``None`` if it wrote none)."""
        kept = self._kept.pop(game, None)
        if kept is None:
            return None
        text = "".join(kept[0])
        if kept[3]:
            text += ("\n" if text and not text.endswith("\n") else "") + CUT
        return text or None

    def forget(self, game: object) -> None:
        self._kept.pop(game, None)


class GameLines:
    """A text stream that writes through to ``stream`` (the log file) and gives what is
    written to ``book`` for the game being played."""

    def __init__(self, stream: Any, book: Book) -> None:
        self._stream = stream
        self._book = book

    def write(self, text: str) -> int:
        written = self._stream.write(text)
        self._book.keep(text)
        return written

    def flush(self) -> None:
        self._stream.flush()

    def __getattr__(self, name: str) -> Any:  # (encoding, fileno, isatty...: the file's own)
        return getattr(self._stream, name)


def install() -> Book:
    """Put :class:`GameLines` streams in place of ``sys.stdout`` and ``sys.stderr``; the
    book they keep their games' lines in."""
    import sys

    book = Book()
    sys.stdout = GameLines(sys.stdout, book)  # type: ignore[assignment]
    sys.stderr = GameLines(sys.stderr, book)  # type: ignore[assignment]
    return book


def clip_log(text: object) -> str | None:
    """A game's lines as the referee stores them, whatever the host sent: text only,
    at most :data:`LOG_LINES` lines and :data:`LOG_CHARS` characters, cleaned of what a
    terminal or a page would act on (control characters, bidirectional overrides);
    ``None`` for nothing."""
    if not isinstance(text, str) or not text:
        return None
    text = _printable(str.__str__(text[:LOG_CHARS * 2]))
    text = text.rstrip("\n")
    lines = text.split("\n")
    if len(lines) > LOG_LINES or len(text) > LOG_CHARS:
        kept = "\n".join(lines[:LOG_LINES])
        if len(kept) > LOG_CHARS:
            kept = kept[:LOG_CHARS]
            kept = kept[:kept.rfind("\n")] if "\n" in kept else kept
        text = kept.rstrip("\n") + "\n" + CUT
    return text or None


__all__ = ["CUT", "LOG_CHARS", "LOG_LINES", "Book", "GameLines", "clip_log", "install"]
