"""A replay as data: its header, its log of actions and events, and its lines of text."""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from kotarena.engine.actions import parse_action
from kotarena.engine.events import event_to_text
from kotarena.engine.game import GameState
from kotarena.engine.outcome import Outcome
from kotarena.games import get_spec
from kotarena.replay.packed import action_line, packed_token

#: The newest version of the file format (the number on the first line). A file is
#: written with the oldest version that holds it: 2 only when it has a ``packed`` line.
FORMAT_VERSION = 2
#: The versions this kotarena reads.
READ_VERSIONS = (1, 2)
MAGIC = "kotarena-replay"

#: Header keys in the order they are written; the informational ones may be missing.
HEADER_KEYS = ("game", "rules-version", "players", "bots", "seed", "deck", "first", "created-with")
OPTIONAL_KEYS = frozenset({"bots", "created-with"})
#: The ``first`` header's word for a first player the game chose itself (by its own
#: means, from the seed: King of Tokyo's roll-off). Files written before it say
#: ``rolloff`` (:data:`FIRST_BY_ROLLOFF`), which reads the same.
FIRST_CHOSEN = "chosen"
FIRST_BY_ROLLOFF = "rolloff"


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
    first_player: int | None  #: ``None``: the game chose its first player (King of Tokyo's roll-off)
    bots: tuple[str | None, ...] | None = None
    created_with: str | None = None
    log: tuple[tuple, ...] = ()
    outcome: Outcome | None = None
    source: str = "<replay>"
    lines: tuple[int, ...] = ()
    header_lines: dict[str, int] = field(default_factory=dict, compare=False, repr=False)
    result_line: int | None = None

    @classmethod
    def from_state(cls, state: GameState, *, bots: Sequence[str | None] | None = None) -> Replay:
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
        if start is not None and log[start][2] != 1:
            raise ValueError("this game's log does not start at turn 1; only a game from new_game() can be replayed")
        # The market is dealt before King of Tokyo's roll-off, so its events come first. A
        # game whose log has no turn events (a plugin's) chose its first player from the
        # seed: the replay lets it choose again, as a roll-off's.
        rolloff = start is None or any(event[0] == "rolloff" for event in log[:start])
        first_player = None if start is None or rolloff else log[start][1]
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
            first_player=first_player,
            bots=None if bots is None else tuple(bots),
            created_with=created_with,
            log=tuple(log),
            outcome=state.outcome,
            lines=tuple(range(body, body + len(log))),
            result_line=body + len(log),
        )

    @classmethod
    def actions_only(cls, state: GameState, *, first_player: int | None,
                     bots: Sequence[str | None] | None = None) -> Replay:
        """A replay holding only the actions (no events) of a game begun with
        :func:`~kotarena.games.new_game` with ``first_player`` (``None``: the game chose).

        It needs no event log, so the game may be played with ``record=False`` at full
        speed (the league runner does); reproducing it regenerates the events and
        checks the result line. The actions have no seats (the engine knows who acts):
        they are written as one ``packed`` line (format version 2), the one body an
        actions-only replay is written with. (Replays with ``a SEAT ACTION`` lines and no
        events, which older kotarenas wrote, still read and play.)
        """
        from kotarena import __version__

        log = tuple(("act", None, action.text) for _, action in state.history)
        body = _first_body_line(bots)
        return cls(
            game=state.game, rules_version=get_spec(state.game).rules_version, players=tuple(state.names),
            seed=state.seed, deck=state.deck_name, first_player=first_player,
            bots=None if bots is None else tuple(bots), created_with=f"kotarena {__version__}",
            log=log, outcome=state.outcome, lines=(body,) * len(log), result_line=body + (1 if log else 0),
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
                packed.append(packed_token(self.game, parse_action(event[2])))
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
        yield f"# A {_title(self.game)} game; the format is described in kotarena's docs/replays.md."
        values = {
            "game": _header_text((self.game,)),
            "rules-version": str(self.rules_version),
            "players": _header_text(tuple(self.players)),
            "bots": None if self.bots is None else _header_text(tuple(self.bots)),
            "seed": str(self.seed),
            "deck": _header_text((self.deck,)),
            "first": FIRST_CHOSEN if self.first_player is None else str(self.first_player),
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


def _title(game: str) -> str:
    """The game's title for the comment line (its name, for a game this kotarena does not know)."""
    try:
        return get_spec(game).title
    except ValueError:
        return game


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
    return _result_text(outcome.winner, outcome.termination.value, outcome.turns, tuple(outcome.ranks))


@functools.lru_cache(maxsize=4096)  # a league writes one per match: 2 in 5 repeat (random bots)
def _result_text(winner: int | None, termination: str, turns: int, ranks: tuple[int, ...]) -> str:
    return "result " + event_to_text(("winner", winner, "termination", termination, "turns", turns, "ranks", ranks))

