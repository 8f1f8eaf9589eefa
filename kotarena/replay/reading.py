"""Reading replay files: every line's form is checked; playing them is :mod:`.playing`'s."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import IO

from kotarena.engine.actions import ActionError, parse_action
from kotarena.engine.events import EventTextError, event_from_text
from kotarena.engine.outcome import EngineError, Outcome, Termination
from kotarena.games import get_game
from kotarena.replay.model import (
    FIRST_BY_ROLLOFF,
    FIRST_CHOSEN,
    FORMAT_VERSION,
    HEADER_KEYS,
    MAGIC,
    OPTIONAL_KEYS,
    READ_VERSIONS,
    Replay,
    ReplayError,
)
from kotarena.replay.packed import unpacked_texts

_KEYWORD = re.compile(r"(\S+)\s*(.*)")
# ------------------------------------------------------------------ reading

def _strip_comment(text: str) -> str:
    """``text`` without a trailing ``# comment`` (a ``#`` inside a quoted string stays)."""
    if "#" not in text:
        return text.strip()
    quoted = escaped = False
    for index, char in enumerate(text):
        if escaped:
            escaped = False
        elif quoted and char == "\\":
            escaped = True
        elif char == '"':
            quoted = not quoted
        elif char == "#" and not quoted:
            return text[:index].strip()
    return text.strip()


def _numbered_lines(lines: Iterable[str]) -> Iterator[tuple[int, str]]:
    """``(line number, content)`` for each line that is not blank or a comment."""
    for number, raw in enumerate(lines, start=1):
        text = _strip_comment(raw.rstrip("\r\n"))
        if text:
            yield number, text


def read_replay(file: str | os.PathLike | IO[str]) -> Replay:
    """Read a replay file (a path or a text stream); raises :class:`ReplayError` if it is malformed.

    Reading checks the form of every line, not the game: :func:`reproduce` plays it.
    """
    if isinstance(file, str | os.PathLike):
        source = os.fspath(file)
        try:
            with open(file, encoding="utf-8-sig") as stream:  # -sig: forgive a byte order mark
                lines = stream.read().split("\n")
        except OSError as error:
            raise ReplayError(f"cannot read the file ({error.strerror or error})", source=source) from None
        except UnicodeDecodeError:
            raise ReplayError("not a text file in UTF-8", source=source) from None
    else:
        source = getattr(file, "name", None) or "<stream>"
        lines = file.read().split("\n")
    return _parse(lines, str(source))


def replay_from_text(text: str, *, source: str = "<replay>") -> Replay:
    """Read a replay held in a string (as the results database stores them)."""
    return _parse(text.split("\n"), source)


def _parse(lines: Sequence[str], source: str) -> Replay:
    def fail(message: str, line: int | None) -> ReplayError:
        return ReplayError(message, source=source, line=line)

    first = _strip_comment(lines[0]) if lines else ""
    words = first.split()
    if not words or words[0] != MAGIC:
        raise fail(f"not a kotarena replay: the first line should be '{MAGIC} {FORMAT_VERSION}'", 1)
    if len(words) != 2 or not words[1].isdigit():
        raise fail(f"bad first line {first!r}; expected '{MAGIC} {FORMAT_VERSION}'", 1)
    version = int(words[1])
    if version not in READ_VERSIONS:
        readable = " and ".join(map(str, READ_VERSIONS))
        raise fail(f"replay format version {words[1]}; this kotarena reads versions {readable}", 1)

    header: dict[str, tuple[int, str]] = {}
    log: list[tuple] = []
    numbers: list[int] = []
    outcome: Outcome | None = None
    result_line: int | None = None
    packed_line: int | None = None  # the first one
    last_line = 1
    content = [(number + 1, text) for number, text in _numbered_lines(lines[1:])]  # line 1 was the magic
    # A file cut short in the middle of a line does not end with a line end.
    cut_line = content[-1][0] if content and lines[-1].strip() else None
    for number, text in content:
        last_line = number
        keyword, rest = _KEYWORD.fullmatch(text).groups()
        if result_line is not None:
            raise fail(f"nothing may follow the result line (line {result_line}), found {keyword!r}", number)
        try:
            if keyword == "a":
                log.append(_action_line(rest, fail, number, _game_of(header)))
                numbers.append(number)
            elif keyword == "e":
                log.append(_event_line(rest, fail, number))
                numbers.append(number)
            elif keyword == "packed":
                if version < 2:
                    raise fail(f"a 'packed' line needs format version 2; the first line says {version}", number)
                if "game" not in header:
                    raise fail("a 'packed' line needs the 'game' header line before it (tokens are the game's)",
                               number)
                game_line, game_text = header["game"]
                try:
                    texts = unpacked_texts(_header_value("game", game_text, fail, game_line), rest)
                except ValueError as error:
                    raise fail(f"bad packed line: {error}", number) from None
                log.extend(("act", None, text) for text in texts)
                numbers.extend([number] * len(texts))
                packed_line = packed_line or number
            elif keyword == "result":
                outcome = _result_line(rest, fail, number, _game_of(header))
                result_line = number
            elif log and keyword in HEADER_KEYS:
                raise fail(f"header line {keyword!r} after the body began (line {numbers[0]})", number)
            elif log:
                raise fail(f"unknown line {keyword!r} in the body; body lines start with 'a', 'e', 'packed' "
                           "or 'result'", number)
            elif keyword not in HEADER_KEYS:
                raise fail(f"unknown header key {keyword!r}; known keys: {', '.join(HEADER_KEYS)}", number)
            elif keyword in header:
                raise fail(f"header key {keyword!r} given twice (first on line {header[keyword][0]})", number)
            else:
                header[keyword] = (number, rest)
        except ReplayError as error:
            if number != cut_line:
                raise
            raise fail(f"the file is truncated in the middle of its last line ({error.message})", number) from None
    if result_line is None:
        raise fail("the file is truncated: it ends without a 'result' line", last_line)
    if packed_line is not None and any(entry[0] != "act" for entry in log):
        # Packed actions have no seat to check against the events, and checking the
        # events is what a replay with events is for.
        raise fail("a replay with 'e' lines writes its actions as 'a SEAT ACTION' lines; "
                   "'packed' lines are for actions-only replays", packed_line)
    missing = [key for key in HEADER_KEYS if key not in header and key not in OPTIONAL_KEYS]
    if missing:
        body = numbers[0] if numbers else result_line
        raise fail(f"the header has no {', '.join(repr(key) for key in missing)} line", body)

    fields = {key: _header_value(key, rest, fail, number) for key, (number, rest) in header.items()}
    return Replay(
        game=fields["game"],
        rules_version=fields["rules-version"],
        players=fields["players"],
        seed=fields["seed"],
        deck=fields["deck"],
        first_player=fields["first"],
        bots=fields.get("bots"),
        created_with=fields.get("created-with"),
        log=tuple(log),
        outcome=outcome,
        source=source,
        lines=tuple(numbers),
        header_lines={key: number for key, (number, _) in header.items()},
        result_line=result_line,
    )


def _game_of(header: dict[str, tuple[int, str]]):
    """The game the header names, if this kotarena knows it (its verbs and endings check
    the body); ``None`` otherwise, and the body is read as any game's."""
    if "game" not in header:
        return None
    try:
        name = event_from_text(header["game"][1])
        return get_game(name[0]) if len(name) == 1 and isinstance(name[0], str) else None
    except (EventTextError, EngineError):
        return None


def _values(rest: str, fail, number: int) -> tuple:
    try:
        return event_from_text(rest)
    except EventTextError as error:
        raise fail(str(error), number) from None


def _header_value(key: str, rest: str, fail, number: int):
    if key == "created-with":
        return rest
    values = _values(rest, fail, number)

    def one(kind, what: str):
        if len(values) != 1 or not isinstance(values[0], kind) or isinstance(values[0], bool):
            raise fail(f"bad {key!r} value {rest!r}: expected {what}", number)
        return values[0]

    if key == "game":
        return one(str, "a game name such as 'kot'")
    if key == "rules-version":
        return one(int, "a whole number")
    if key == "seed":
        return one(int, "a whole number")
    if key == "deck":
        if values == (None,):
            return None
        return one(str, "a deck name such as 'kot', or 'none'")
    if key == "first":
        if values in ((FIRST_CHOSEN,), (FIRST_BY_ROLLOFF,)):
            return None
        return one(int, f"a seat number (from 0) or {FIRST_CHOSEN!r}")
    # players, bots: one name per seat
    if not values or not all(isinstance(v, str) or (key == "bots" and v is None) for v in values):
        raise fail(f"bad {key!r} value {rest!r}: expected one name per seat (quote names with spaces)", number)
    return values


def _action_line(rest: str, fail, number: int, game=None) -> tuple:
    seat_text, action_text = (rest.split(None, 1) + [""])[:2]
    try:
        seat = int(seat_text)
    except ValueError:
        raise fail(f"bad action line 'a {rest}': expected 'a SEAT ACTION', e.g. 'a 0 reroll 1 4'", number) from None
    try:
        action = parse_action(action_text, None if game is None else game.verbs)
    except ActionError as error:
        raise fail(f"bad action text: {error}", number) from None
    return ("act", seat, action.text)


def _event_line(rest: str, fail, number: int) -> tuple:
    event = _values(rest, fail, number)
    if not event or not isinstance(event[0], str):
        raise fail(f"bad event line 'e {rest}': an event starts with its kind, e.g. 'e turn 0 1'", number)
    if event[0] == "act":
        raise fail("actions are written as 'a SEAT ACTION' lines, not as 'e act' events", number)
    return event


def _result_line(rest: str, fail, number: int, game=None) -> Outcome | None:
    values = _values(rest, fail, number)
    if values == ("unfinished",):
        return None
    usage = "expected 'result unfinished' or 'result winner W termination T turns N ranks (R ...)'"
    if len(values) != 8 or values[0::2] != ("winner", "termination", "turns", "ranks"):
        raise fail(f"bad result line 'result {rest}': {usage}", number)
    winner, termination, turns, ranks = values[1::2]
    word = termination
    try:
        termination = Termination(word)
        if game is not None and game.endings and termination not in game.endings:
            raise ValueError(termination)
    except ValueError:
        endings = f" ({game.spec.title} ends with: {', '.join(game.endings)})" if game is not None and game.endings else ""
        raise fail(f"unknown termination {word!r}{endings}; {usage}", number) from None
    if not (winner is None or isinstance(winner, int)) or not isinstance(turns, int) or not (
            isinstance(ranks, tuple) and all(isinstance(rank, int) for rank in ranks)):
        raise fail(f"bad result line 'result {rest}': {usage}", number)
    return Outcome(winner, termination, ranks, turns)

