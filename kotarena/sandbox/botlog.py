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


class GameLines:
    """A text stream that writes through to ``stream`` and keeps, for the game being
    played (:attr:`game`, ``None`` between steps), the first :data:`LOG_LINES` lines or
    :data:`LOG_CHARS` characters written."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self.game: object = None
        self._kept: dict[object, list] = {}  #: game -> [pieces, characters, line breaks, cut]

    def write(self, text: str) -> int:
        written = self._stream.write(text)
        game = self.game
        if game is not None and isinstance(text, str) and text:
            kept = self._kept.setdefault(game, [[], 0, 0, False])
            if kept[3]:
                return written
            room = LOG_CHARS - kept[1]
            breaks = text.count("\n")
            if room <= 0 or kept[2] + breaks > LOG_LINES or len(text) > room:
                lines_room = LOG_LINES - kept[2]
                piece = "\n".join(text[:room].split("\n")[:lines_room])
                kept[0].append(piece)
                kept[1] += len(piece)
                kept[3] = True
            else:
                kept[0].append(text)
                kept[1] += len(text)
                kept[2] += breaks
        return written

    def take(self, game: object) -> str | None:
        """The lines kept for ``game``, which it forgets (``None`` if it wrote none)."""
        kept = self._kept.pop(game, None)
        if kept is None:
            return None
        text = "".join(kept[0])
        return text + ("\n" if text and not text.endswith("\n") else "") + CUT if kept[3] else text

    def forget(self, game: object) -> None:
        self._kept.pop(game, None)

    def flush(self) -> None:
        self._stream.flush()

    def __getattr__(self, name: str) -> Any:  # (encoding, fileno, isatty...: the file's own)
        return getattr(self._stream, name)


class Book:
    """The host's two streams (stdout and stderr), steered to one game at a time."""

    def __init__(self, *streams: GameLines) -> None:
        self.streams = streams

    def at(self, game: object) -> None:
        """What is written from now on is ``game``'s (``None``: no game's)."""
        for stream in self.streams:
            stream.game = game

    def take(self, game: object) -> str:
        """Everything ``game`` wrote, stdout's then stderr's (``""`` for nothing)."""
        return "".join(text for text in (stream.take(game) for stream in self.streams) if text)

    def forget(self, game: object) -> None:
        for stream in self.streams:
            stream.forget(game)


def install() -> Book:
    """Put :class:`GameLines` streams in place of ``sys.stdout`` and ``sys.stderr``."""
    import sys

    sys.stdout = out = GameLines(sys.stdout)  # type: ignore[assignment]
    sys.stderr = err = GameLines(sys.stderr)  # type: ignore[assignment]
    return Book(out, err)


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
