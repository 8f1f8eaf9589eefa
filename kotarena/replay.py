"""Replay files: a game written down line by line, and checked by playing it again.

A replay holds what is needed to play a game again (game, rules version, monsters,
seed, deck, who started) and everything that happened: each action (``a`` lines) and
each event (``e`` lines) in the order they happened, then the result. Playing the
actions again from the seed must give the very same events; :func:`reproduce` does
that and names the first line that differs. An actions-only replay (the league
stores those) may hold its actions as one ``packed`` line instead (format version 2).
The format is described in ``docs/replays.md``.

>>> import io
>>> from kotarena.games import new_game
>>> game = new_game("kot", 2, seed=7, deck=None)
>>> while not game.is_over:
...     game.apply(game.legal[0])
>>> buffer = io.StringIO()
>>> write_replay(game, buffer)
>>> replay = read_replay(io.StringIO(buffer.getvalue()))
>>> reproduce(replay).outcome == game.outcome
True
"""

from __future__ import annotations

import functools
import io
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO

from kotarena.engine.actions import ActionError, parse_action
from kotarena.engine.events import EventTextError, event_from_text, event_to_text
from kotarena.engine.outcome import TERMINATION_TEXT, EngineError, Outcome, Termination
from kotarena.games import get_spec, new_game
from kotarena.games.kot.cards import DECKS
from kotarena.games.kot.state import State
from kotarena.replay_lines import action_line, joined_replay, packed_token, unpacked_texts

#: The newest version of the file format (the number on the first line). A file is
#: written with the oldest version that holds it: 2 only when it has a ``packed`` line.
FORMAT_VERSION = 2
#: The versions this kotarena reads.
READ_VERSIONS = (1, 2)
MAGIC = "kotarena-replay"

#: Header keys in the order they are written; the informational ones may be missing.
HEADER_KEYS = ("game", "rules-version", "players", "bots", "seed", "deck", "first", "created-with")
OPTIONAL_KEYS = frozenset({"bots", "created-with"})

_KEYWORD = re.compile(r"(\S+)\s*(.*)")


class ReplayError(ValueError):
    """A replay file that cannot be read, or that does not play out as written.

    ``str(error)`` is one line: ``FILE:LINE: what is wrong``. ``source`` and ``line``
    say where (``line`` is ``None`` when no line is to blame); for a replay that does
    not reproduce, ``expected`` is the file's line and ``got`` what the engine gave.
    """

    def __init__(self, message: str, *, source: str = "<replay>", line: int | None = None,
                 expected: str | None = None, got: str | None = None) -> None:
        where = source if line is None else f"{source}:{line}"
        super().__init__(f"{where}: {message}")
        self.message = message
        self.source = source
        self.line = line
        self.expected = expected
        self.got = got


@dataclass(frozen=True)
class Replay:
    """A parsed replay file (or a finished or unfinished game ready to be written).

    ``log`` is the game's event log, actions included as ``("act", seat, text)``
    events, exactly as ``state.log`` held it. The actions of a ``packed`` line have no
    seat: they are ``("act", None, text)``, the engine deciding who acts. ``lines``
    gives the file line of each log entry (empty for a replay built from a state).
    ``outcome`` is ``None`` for a game that was not over.
    """

    game: str
    rules_version: int
    players: tuple[str, ...]
    seed: int
    deck: str | None
    first_player: int | None  #: ``None``: the first player was found by the roll-off
    bots: tuple[str | None, ...] | None = None
    created_with: str | None = None
    log: tuple[tuple, ...] = ()
    outcome: Outcome | None = None
    source: str = "<replay>"
    lines: tuple[int, ...] = ()
    header_lines: dict[str, int] = field(default_factory=dict, compare=False, repr=False)
    result_line: int | None = None

    @classmethod
    def from_state(cls, state: State, *, bots: Sequence[str | None] | None = None) -> Replay:
        """The replay of a game begun with :func:`~kotarena.engine.new_game` and ``record=True``.

        The game may be over or still in progress. Raises :class:`ValueError` for a
        game that a seed cannot play again (no event log, scripted dice, a position).
        """
        log = state.log
        if log is None:
            raise ValueError("this game kept no event log; start it with new_game(..., record=True)")
        # Scripted dice are not drawn from the seed, so the seed cannot play them again.
        if getattr(state, "_script", None) is not None:
            raise ValueError("this game rolls scripted dice; only a game played from its seed can be replayed")
        start = next((index for index, event in enumerate(log) if event[0] == "turn"), None)
        if start is None or log[start][2] != 1:
            raise ValueError("this game's log does not start at turn 1; only a game from new_game() can be replayed")
        first_turn = log[start]
        # The market is dealt before the roll-off, so its events come first.
        rolloff = any(event[0] == "rolloff" for event in log[:start])
        if bots is not None and len(bots) != state.n:
            raise ValueError(f"{len(bots)} bot names for {state.n} seats")
        from kotarena import __version__

        created_with = f"kotarena {__version__}"
        # The lines the entries will have once written. Errors from reproduce() then point there.
        body = _first_body_line(bots)
        return cls(
            game=state.game,
            rules_version=get_spec(state.game).rules_version,
            players=tuple(state.names),
            seed=state.seed,
            deck=state.deck_name,
            first_player=None if rolloff else first_turn[1],
            bots=None if bots is None else tuple(bots),
            created_with=created_with,
            log=tuple(log),
            outcome=state.outcome,
            lines=tuple(range(body, body + len(log))),
            result_line=body + len(log),
        )

    @classmethod
    def actions_only(cls, state: State, *, first_player: int | None,
                     bots: Sequence[str | None] | None = None, packed: bool = False) -> Replay:
        """A replay holding only the actions (no events) of a game begun with
        :func:`~kotarena.engine.new_game` with ``first_player`` (``None``: roll-off).

        It needs no event log, so the game may be played with ``record=False`` at full
        speed (the league runner does); reproducing it regenerates the events and
        checks the result line. ``packed`` leaves the seats out, so the actions are
        written as one ``packed`` line (format version 2), as the league stores them.
        """
        from kotarena import __version__

        log = tuple(("act", None if packed else seat, action.text) for seat, action in state.history)
        body = _first_body_line(bots)
        # The lines the entries will have once written: a line each, or all on one packed line.
        packed = packed and bool(log)
        lines = (body,) * len(log) if packed else tuple(range(body, body + len(log)))
        return cls(
            game=state.game, rules_version=get_spec(state.game).rules_version, players=tuple(state.names),
            seed=state.seed, deck=state.deck_name, first_player=first_player,
            bots=None if bots is None else tuple(bots), created_with=f"kotarena {__version__}",
            log=log, outcome=state.outcome, lines=lines, result_line=body + (1 if packed else len(log)),
        )

    @property
    def format_version(self) -> int:
        """The oldest format version that holds this replay: 2 if it has packed actions."""
        return 2 if any(entry[0] == "act" and entry[1] is None for entry in self.log) else 1

    @property
    def has_events(self) -> bool:
        """False for an actions-only replay (see :meth:`actions_only`)."""
        return any(event[0] != "act" for event in self.log)

    @property
    def actions(self) -> list[tuple[int | None, str]]:
        """Every action as ``(seat, action text)``, in order (the seat ``None`` when packed)."""
        return [(event[1], event[2]) for event in self.log if event[0] == "act"]

    def header(self) -> dict:
        """The header as a JSON-ready dict."""
        return {
            "format": self.format_version,
            "game": self.game,
            "rules_version": self.rules_version,
            "players": list(self.players),
            "bots": None if self.bots is None else list(self.bots),
            "seed": self.seed,
            "deck": self.deck,
            "first_player": self.first_player,
            "created_with": self.created_with,
        }

    def to_json(self) -> dict:
        """Header, actions, events and outcome as JSON-ready data (seats count from 0)."""
        return {
            "header": self.header(),
            "actions": [{"seat": seat, "action": text} for seat, text in self.actions],
            "events": [list(_json_ready(event)) for event in self.log],
            "outcome": None if self.outcome is None else self.outcome.to_json(),
        }

    def text_lines(self) -> Iterator[str]:
        """The file's lines (without line ends)."""
        yield from self.head_lines(self.format_version)
        packed: list[str] = []  # the tokens of a run of actions without seats: one packed line
        for event in self.log:
            if event[0] == "act" and event[1] is None:
                packed.append(packed_token(parse_action(event[2])))
                continue
            if packed:
                yield "packed " + "".join(packed)
                packed = []
            yield entry_text(event)
        if packed:
            yield "packed " + "".join(packed)
        yield result_text(self.outcome)

    def head_lines(self, version: int = 1) -> Iterator[str]:
        """The lines before the body: the magic line (format ``version``), a comment, the header keys."""
        yield f"{MAGIC} {version}"
        yield "# A King of Tokyo game; the format is described in kotarena's docs/replays.md."
        values = {
            "game": _header_text((self.game,)),
            "rules-version": str(self.rules_version),
            "players": _header_text(tuple(self.players)),
            "bots": None if self.bots is None else _header_text(tuple(self.bots)),
            "seed": str(self.seed),
            "deck": _header_text((self.deck,)),
            "first": "rolloff" if self.first_player is None else str(self.first_player),
            "created-with": self.created_with,
        }
        for key in HEADER_KEYS:
            if values[key] is not None:
                yield f"{key} {values[key]}"


def _first_body_line(bots: Sequence[str | None] | None) -> int:
    """The number of the line a written replay's body starts on: the one after the
    magic line, the comment line, the required header keys, ``bots`` if given, and
    ``created-with``."""
    return 2 + sum(1 for key in HEADER_KEYS if key not in OPTIONAL_KEYS) + (bots is not None) + 1 + 1


@functools.lru_cache(maxsize=256)
def _header_text(values: tuple) -> str:
    # The league writes a replay for every match, mostly with the same names and bots.
    return event_to_text(values)


def _json_ready(value):
    if isinstance(value, tuple | list):
        return [_json_ready(item) for item in value]
    return value


def entry_text(event: tuple) -> str:
    """The body line of one log entry: ``a SEAT ACTION`` for an action, else ``e EVENT``."""
    if len(event) == 3 and event[0] == "act":
        return action_line(event[1], event[2])
    return f"e {event_to_text(event)}"


def result_text(outcome: Outcome | None) -> str:
    """The result line: ``result winner 2 termination stars turns 23 ranks (1 0 2 3)``."""
    if outcome is None:
        return "result unfinished"
    return _result_text(outcome.winner, TERMINATION_TEXT[outcome.termination], outcome.turns, tuple(outcome.ranks))


@functools.lru_cache(maxsize=4096)  # a league writes one per match: 2 in 5 repeat (random bots)
def _result_text(winner: int | None, termination: str, turns: int, ranks: tuple[int, ...]) -> str:
    return "result " + event_to_text(("winner", winner, "termination", termination, "turns", turns, "ranks", ranks))


# ------------------------------------------------------------------ writing

def write_replay(state: State, file: str | os.PathLike | IO[str], *,
                 bots: Sequence[str | None] | None = None) -> None:
    """Write the replay of ``state`` to a path or a text stream.

    ``state`` comes from :func:`~kotarena.engine.new_game` with ``record=True`` (any
    seed); it may be over or not. ``bots`` names the bot in each seat (for readers
    only: a replay plays the recorded actions, not the bots).
    """
    text = "\n".join(Replay.from_state(state, bots=bots).text_lines()) + "\n"
    if isinstance(file, str | os.PathLike):
        with open(file, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
    else:
        file.write(text)


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
                log.append(_action_line(rest, fail, number))
                numbers.append(number)
            elif keyword == "e":
                log.append(_event_line(rest, fail, number))
                numbers.append(number)
            elif keyword == "packed":
                if version < 2:
                    raise fail(f"a 'packed' line needs format version 2; the first line says {version}", number)
                try:
                    texts = unpacked_texts(rest)
                except ValueError as error:
                    raise fail(f"bad packed line: {error}", number) from None
                log.extend(("act", None, text) for text in texts)
                numbers.extend([number] * len(texts))
                packed_line = packed_line or number
            elif keyword == "result":
                outcome = _result_line(rest, fail, number)
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
        if values == ("rolloff",):
            return None
        return one(int, "a seat number (from 0) or 'rolloff'")
    # players, bots: one name per seat
    if not values or not all(isinstance(v, str) or (key == "bots" and v is None) for v in values):
        raise fail(f"bad {key!r} value {rest!r}: expected one name per seat (quote names with spaces)", number)
    return values


def _action_line(rest: str, fail, number: int) -> tuple:
    seat_text, action_text = (rest.split(None, 1) + [""])[:2]
    try:
        seat = int(seat_text)
    except ValueError:
        raise fail(f"bad action line 'a {rest}': expected 'a SEAT ACTION', e.g. 'a 0 reroll 1 4'", number) from None
    try:
        action = parse_action(action_text)
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


def _result_line(rest: str, fail, number: int) -> Outcome | None:
    values = _values(rest, fail, number)
    if values == ("unfinished",):
        return None
    usage = "expected 'result unfinished' or 'result winner W termination T turns N ranks (R ...)'"
    if len(values) != 8 or values[0::2] != ("winner", "termination", "turns", "ranks"):
        raise fail(f"bad result line 'result {rest}': {usage}", number)
    winner, termination, turns, ranks = values[1::2]
    try:
        termination = Termination(termination)
    except ValueError:
        raise fail(f"unknown termination {termination!r}; {usage}", number) from None
    if not (winner is None or isinstance(winner, int)) or not isinstance(turns, int) or not (
            isinstance(ranks, tuple) and all(isinstance(rank, int) for rank in ranks)):
        raise fail(f"bad result line 'result {rest}': {usage}", number)
    return Outcome(winner, termination, ranks, turns)


# ------------------------------------------------------------------ reproducing

def reproduce(replay: Replay) -> State:
    """Play the replay's actions again from its seed and check every event.

    Returns the game as the replay leaves it (over, or waiting on the decision after
    the last action; a replay that stops between two turns leaves the state with
    ``between_turns`` set: call ``next_turn()`` to go on). Raises :class:`ReplayError`
    naming the first line that the engine does not reproduce, with the line the file
    has (``expected``) and the line the engine gives (``got``); an action that is not
    legal where it stands; or a header the engine refuses.
    """
    source = replay.source

    def header_line(key: str) -> int | None:
        return replay.header_lines.get(key)

    try:
        spec = get_spec(replay.game)
    except EngineError as error:
        raise ReplayError(str(error), source=source, line=header_line("game")) from None
    if replay.rules_version != spec.rules_version:
        raise ReplayError(
            f"the replay was written under {spec.title} rules version {replay.rules_version}; "
            f"this kotarena plays version {spec.rules_version}",
            source=source, line=header_line("rules-version"))
    if replay.deck is not None and replay.deck not in DECKS:
        raise ReplayError(f"unknown deck {replay.deck!r}; known decks: {', '.join(sorted(DECKS))}, none",
                          source=source, line=header_line("deck"))
    if replay.first_player is not None and not 0 <= replay.first_player < len(replay.players):
        raise ReplayError(f"first player {replay.first_player} is not a seat (seats count from 0)",
                          source=source, line=header_line("first"))
    try:
        state = new_game(spec.name, list(replay.players), seed=replay.seed,
                         deck=replay.deck, first_player=replay.first_player, record=True)
    except ValueError as error:
        raise ReplayError(f"cannot set up the game: {error}", source=source, line=header_line("players")) from None
    # Stop between turns, so a replay written while a game was paused there ends there too.
    state.pause_between_turns = True
    log = state.log
    if not replay.has_events:
        return _reproduce_actions(replay, state)
    done = 0  # how many of the engine's events have been matched with the file
    lines = replay.lines or (None,) * len(replay.log)

    def mismatch(line: int | None, expected: str, got: str) -> ReplayError:
        return ReplayError(f"the game does not reproduce: the file has {expected!r}, the engine gives {got!r}",
                           source=source, line=line, expected=expected, got=got)

    for number, entry in zip(lines, replay.log):
        if done == len(log) and state.between_turns:
            state.next_turn()
        if entry[0] == "act":
            if done < len(log):
                raise mismatch(number, entry_text(entry), entry_text(log[done]))
            _apply(state, entry, source, number)
        elif done == len(log):
            raise mismatch(number, entry_text(entry), _waiting(state))
        if log[done] != entry:
            raise mismatch(number, entry_text(entry), entry_text(log[done]))
        done += 1
    end = replay.result_line
    if done < len(log):
        raise mismatch(end, result_text(replay.outcome), entry_text(log[done]))
    if state.outcome != replay.outcome:
        raise mismatch(end, result_text(replay.outcome), result_text(state.outcome))
    state.pause_between_turns = False
    return state


def _reproduce_actions(replay: Replay, state: State) -> State:
    """Play an actions-only replay; only its result line can be checked."""
    lines = replay.lines or (None,) * len(replay.log)
    on_line = 0  # the entry's place among those of its line (a packed line holds many)
    for at, (number, entry) in enumerate(zip(lines, replay.log)):
        on_line = on_line + 1 if at and number is not None and lines[at - 1] == number else 1
        if state.between_turns:
            state.next_turn()
        _apply(state, entry, replay.source, number, on_line)
    if state.outcome != replay.outcome:
        raise ReplayError(
            f"the game does not reproduce: the file has {result_text(replay.outcome)!r}, "
            f"the engine gives {result_text(state.outcome)!r}",
            source=replay.source, line=replay.result_line,
            expected=result_text(replay.outcome), got=result_text(state.outcome))
    state.pause_between_turns = False
    return state


def _waiting(state: State) -> str:
    """What the engine does instead of logging another event."""
    if state.outcome is not None:
        return "nothing more: the game is over"
    if state.between_turns:
        return "nothing more"
    return f"nothing more until {state.names[state.to_move]} (seat {state.to_move}) decides ({state.kind})"


def _apply(state: State, entry: tuple, source: str, number: int, on_line: int = 1) -> None:
    _, seat, text = entry
    # A packed line's actions share its line number: say which of them is to blame.
    which = f" (action {on_line} of the packed line)" if seat is None else ""
    if state.outcome is not None:
        raise ReplayError(f"action {text!r} after the game is over{which}", source=source, line=number)
    if seat is not None and seat != state.to_move:
        mover = state.names[state.to_move]
        raise ReplayError(f"seat {seat} acts ({text!r}) but it is {mover}'s (seat {state.to_move}) "
                          f"decision ({state.kind})", source=source, line=number)
    try:
        state.apply(text)
    except EngineError as error:
        raise ReplayError(f"illegal action{which}: {error}", source=source, line=number) from None


def actions_replay_text(state: State, *, first_player: int | None,
                        bots: Sequence[str | None] | None = None) -> str:
    """The packed actions-only replay of ``state`` as a string (format version 2; see
    :meth:`Replay.actions_only` with ``packed=True``).

    The league stores one for every match, so the text is put together from pieces
    that repeat: the header around the seed line is the same for every match with the
    same monsters and bots, and each action's token is worked out once.
    """
    before, after = _head_around_seed(state.game, tuple(state.names), state.deck_name, first_player,
                                      None if bots is None else tuple(bots))
    return joined_replay(before, state.seed, after, state.history, result_text(state.outcome))


@functools.lru_cache(maxsize=4096)  # a night seats its bots in a few hundred orders
def _head_around_seed(game: str, players: tuple, deck: str | None, first_player: int | None,
                      bots: tuple | None) -> tuple[str, str]:
    """The header lines of an actions-only replay before and after its seed line."""
    from kotarena import __version__

    replay = Replay(game=game, rules_version=get_spec(game).rules_version, players=players, seed=0, deck=deck,
                    first_player=first_player, bots=bots, created_with=f"kotarena {__version__}", log=(),
                    outcome=None, lines=(), result_line=0)
    lines = list(replay.head_lines(2))
    at = lines.index("seed 0")
    return "\n".join(lines[:at]), "\n".join(lines[at + 1:])


def replay_text(state: State, *, bots: Sequence[str | None] | None = None) -> str:
    """The replay of ``state`` as a string (what :func:`write_replay` writes)."""
    buffer = io.StringIO()
    write_replay(state, buffer, bots=bots)
    return buffer.getvalue()


__all__ = [
    "FORMAT_VERSION", "READ_VERSIONS", "Replay", "ReplayError", "read_replay", "replay_from_text", "replay_text",
    "reproduce", "write_replay",
]
