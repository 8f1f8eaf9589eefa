"""Ladder files: a league night described in TOML, checked before anything is played.

A ladder file names the game, the table sizes, how many matches a night has, the
time limit, the format and the entrants (see ``docs/ladders.md`` for every key).
:func:`load_ladder` reads one into a :class:`Ladder`. Every mistake is reported as
one :class:`LadderError` line naming the file, the key and the problem::

    ladders/x.toml: bots[2].name: unknown bot 'rnadom' (installed: random, heuristic)

The checks are written out by hand rather than generated from a schema so that each
message can say what would have been right (the known keys, the installed bots, the
nearest valid number of games).
"""

from __future__ import annotations

import difflib
import hashlib
import json
import math
import re
import tomllib
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

from kotarena.bots import registry as _bots
from kotarena.games import UnknownDeckError, UnknownGameError, get_game, get_spec
from kotarena.ladder_names import name_problem

FREE_FOR_ALL = "free-for-all"
GAUNTLET = "gauntlet"
FORMATS = (FREE_FOR_ALL, GAUNTLET)
NO_DECK = "none"

#: Bots that cannot sit at a ladder table (they need a person at a terminal).
INTERACTIVE_BOTS = frozenset({"human"})

DEFAULT_PLAYERS = 4
DEFAULT_GAMES = 100
DEFAULT_TIME_LIMIT = 1.0
MIN_TIME_LIMIT = 0.001
MAX_TIME_LIMIT = 3600.0
MAX_GAMES = 1_000_000
MAX_SEED = 2**63 - 1

TOP_KEYS = (
    "name", "game", "deck", "players", "games", "time_limit", "format", "challenger",
    "duplicate", "seed", "workers", "allow_repeats", "bots", "params", "trusted",
)
BOT_KEYS = ("name", "label", "params", "trusted")


_T = TypeVar("_T")


class LadderError(ValueError):
    """A ladder file that cannot be used. The message is ``file: key: problem`` for one
    problem; for several, ``file: N problems:`` and then a line ``  key: problem`` for
    each. ``problems`` holds the ``(key, problem)`` pairs."""

    def __init__(self, message: str, problems: Sequence[tuple[str, str]] = ()) -> None:
        super().__init__(message)
        self.problems = list(problems)


@dataclass(frozen=True)
class Entrant:
    """One rated participant: a bot with its parameters, under a label.

    ``label`` is the entrant's name in schedules and ratings; ``bot`` the installed
    bot's name; ``params`` the keyword arguments the bot is made with; ``trusted``
    whether it may run in the coordinator's process (``None``: the runner decides).
    """

    label: str
    bot: str
    params: dict[str, Any] = field(default_factory=dict)
    trusted: bool | None = None


@dataclass(frozen=True)
class Ladder:
    """A checked ladder file. See ``docs/ladders.md`` for the meaning of each field.

    ``players`` is always a tuple of table sizes (one entry for a fixed size; several
    are cycled through). ``duplicate`` is ``False``, ``True`` (sets as large as the
    table) or a set size.
    """

    name: str
    entrants: list[Entrant]
    game: str = "kot"
    deck: str = "kot"
    players: tuple[int, ...] = (DEFAULT_PLAYERS,)
    games: int = DEFAULT_GAMES
    time_limit: float = DEFAULT_TIME_LIMIT
    format: str = FREE_FOR_ALL
    challenger: str | None = None
    duplicate: bool | int = False
    seed: int | None = None  #: None: each night draws a secret seed (a sealed night)
    workers: int | None = None
    allow_repeats: bool = False

    @property
    def labels(self) -> list[str]:
        """The entrants' labels, in file order."""
        return [entrant.label for entrant in self.entrants]

    def set_size(self, players: int) -> int:
        """How many matches share one dice seed at a table of ``players`` (1: no duplicate)."""
        if self.duplicate is True:
            return players
        if self.duplicate is False:
            return 1
        return int(self.duplicate)

    @property
    def sealed(self) -> bool:
        """Whether this ladder's nights are sealed: it names no seed, so each night draws
        a secret one (see ``docs/seeds.md``)."""
        return self.seed is None

    def fingerprint(self) -> str:
        """A hash of everything that decides what a night plays.

        A resumed night compares it with the one stored when the night began. The
        number of workers is left out: it changes how fast a night goes, not what it
        plays. A ladder that names no seed has the ``null`` seed here (a kotarena before
        sealed nights wrote 0 for it: see :meth:`legacy_fingerprint`).
        """
        content = {
            "version": 1,
            "name": self.name, "game": self.game, "deck": self.deck,
            "players": list(self.players), "games": self.games, "time_limit": float(self.time_limit),
            "format": self.format, "challenger": self.challenger,
            "duplicate": self.duplicate if isinstance(self.duplicate, bool) else int(self.duplicate),
            "seed": self.seed, "allow_repeats": self.allow_repeats,
            "entrants": [
                {"label": e.label, "bot": e.bot, "params": e.params, "trusted": e.trusted}
                for e in self.entrants
            ],
        }
        text = json.dumps(content, sort_keys=True, separators=(",", ":"), default=str)
        return hashlib.sha256(text.encode()).hexdigest()

    def legacy_fingerprint(self) -> str | None:
        """The fingerprint a kotarena before sealed nights gave this ladder, if it names no
        seed (it read the missing seed as 0), else ``None``: a night such a kotarena
        left unfinished resumes, with the seed it stored."""
        return replace(self, seed=0).fingerprint() if self.seed is None else None


# ------------------------------------------------------------------ loading


def load_ladder(path: str | Path, *, known_bots: Collection[str] | None = None,
                overrides: Mapping[str, tuple[object, str]] | None = None) -> Ladder:
    """Read and check the ladder file at ``path``.

    :param known_bots: the installed bots' names. Bot names are checked against it;
        ``None`` skips that check (but ``bots = "all"`` then asks the bot registry).
    :param overrides: ``{key: (value, where)}``: keys given elsewhere (the command
        line), checked as the file's; an error names both (``games (--games): ...``).
    :raises LadderError: for any problem in the file, with a one-line message.
    :raises OSError: if the file cannot be read.
    """
    path = Path(path)
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise LadderError(f"{path}: not UTF-8 text (byte {error.start})") from None
    return parse_ladder(text, source=str(path), default_name=path.stem, known_bots=known_bots, overrides=overrides)


def parse_ladder(
    text: str,
    *,
    source: str = "<ladder>",
    default_name: str = "ladder",
    known_bots: Collection[str] | None = None,
    overrides: Mapping[str, tuple[object, str]] | None = None,
) -> Ladder:
    """Check the TOML ``text`` of a ladder (see :func:`load_ladder`); ``source`` names it in errors."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise LadderError(f"{source}: {_toml_problem(str(error))}") from None
    data.update({key: value for key, (value, _) in (overrides or {}).items()})
    given = {key: where for key, (_, where) in (overrides or {}).items()}
    return _Checker(source, known_bots, given).ladder(data, default_name)


_WHERE = re.compile(r"^(?P<problem>.*?) \(at (?:line (?P<line>\d+), column (?P<column>\d+)|(?P<end>end of document))\)$")


def _toml_problem(message: str) -> str:
    """``Invalid value (at line 3, column 5)`` -> ``line 3, column 5: invalid value``."""
    match = _WHERE.match(message)
    if not match:
        return f"not valid TOML: {message}"
    problem = match["problem"][:1].lower() + match["problem"][1:]
    where = "end of file" if match["end"] else f"line {match['line']}, column {match['column']}"
    return f"{where}: not valid TOML: {problem}"


#: How an error names the types a bot's parameter may declare.
_TYPE_WORDS = {int: "an integer", float: "a number", str: "a string", bool: "true or false"}


def _fits(value: object, wanted: type) -> bool:
    """Whether a TOML ``value`` is of the declared type (an integer is a float too; a
    boolean is nothing but a boolean)."""
    if isinstance(value, bool):
        return wanted is bool
    if wanted is float:
        return isinstance(value, int | float)
    return isinstance(value, wanted)


def _declared_parameters(bot: str) -> Mapping[str, type] | None:
    """The parameters the installed ``bot`` declares; ``None`` if it declares none, or
    the registry does not know it."""
    from kotarena.bots.registry import UnknownBotError, get_bot

    try:
        return get_bot(bot).parameters
    except UnknownBotError:
        return None


def _games_refusal(bot: str, game: str) -> str | None:
    """Why the installed ``bot`` cannot play ``game`` (``None``: it can, or the registry
    does not know it)."""
    from kotarena.bots.registry import UnknownBotError, game_refusal, get_bot

    try:
        info = get_bot(bot)
    except UnknownBotError:
        return None
    return None if info.plays(game) else game_refusal(bot, info.games, game)


_KINDS = ((bool, "a boolean"), (int, "an integer"), (float, "a float"), (str, "a string"), (list, "an array"),
          (dict, "a table"))


def _kind(value: object) -> str:
    """A TOML user's name for the type of ``value`` (``_KINDS`` has booleans first: they are ints too)."""
    return next((words for kind, words in _KINDS if isinstance(value, kind)), f"a {type(value).__name__}")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _Checker:
    """Checks one file's data. Each check raises a :class:`LadderError` with the file's
    name in front; :meth:`ladder` notes them and goes on with the checks that do not
    depend on a failed one, so that a file's problems are reported together."""

    def __init__(self, source: str, known_bots: Collection[str] | None, given: Mapping[str, str] = {}) -> None:
        self.source = source
        self.given = dict(given)  #: keys given elsewhere than in the file, and where
        self.known_bots = list(known_bots) if known_bots is not None else None
        #: The ladder's game, once its ``game`` key is read (entrants must play it).
        self.game: str | None = None
        self.problems: list[LadderError] = []

    def fail(self, key: str, problem: str) -> LadderError:
        key = f"{key} ({self.given[key]})" if key in self.given else key
        return LadderError(f"{self.source}: {key}: {problem}", [(key, problem)])

    def attempt(self, check: Callable[[], _T], default: _T) -> _T:
        """``check()``; or, if it fails, ``default``, with the failure noted."""
        try:
            return check()
        except LadderError as error:
            self.problems.append(error)
            return default

    def report(self) -> None:
        """Raise the problems noted, if any: one as it is, several in one error."""
        if len(self.problems) == 1:
            raise self.problems[0]
        if self.problems:
            found = [pair for error in self.problems for pair in error.problems]
            raise LadderError(f"{self.source}: {len(found)} problems:\n"
                              + "\n".join(f"  {key}: {problem}" for key, problem in found), found)

    def unknown_keys(self, table: dict, allowed: Sequence[str], prefix: str = "") -> None:
        """Note every key of ``table`` that is not ``allowed``."""
        for key in table:
            if key not in allowed:
                hint = difflib.get_close_matches(key, allowed, n=1)
                suggestion = f"did you mean {hint[0]!r}? " if hint else ""
                self.problems.append(
                    self.fail(f"{prefix}{key}", f"unknown key ({suggestion}known keys: {', '.join(allowed)})"))

    def integer(self, data: dict, key: str, default: int | None, low: int, high: int) -> int | None:
        value = data.get(key, default)
        if value is None:
            return None
        if not _is_int(value):
            raise self.fail(key, f"must be an integer, not {_kind(value)}")
        if not low <= value <= high:
            raise self.fail(key, f"must be between {low} and {high}, not {value}")
        return value

    def boolean(self, data: dict, key: str, default: bool, prefix: str = "") -> bool:
        value = data.get(key, default)
        if not isinstance(value, bool):
            raise self.fail(f"{prefix}{key}", f"must be true or false, not {_kind(value)}")
        return value

    def string(self, data: dict, key: str, default: str | None, prefix: str = "") -> str | None:
        value = data.get(key, default)
        if value is None:
            return None
        if not isinstance(value, str):
            raise self.fail(f"{prefix}{key}", f"must be a string, not {_kind(value)}")
        if not value.strip():
            raise self.fail(f"{prefix}{key}", "must not be empty")
        return value

    # ---------------------------------------------------------- the file

    def ladder(self, data: dict, default_name: str) -> Ladder:
        def game_spec() -> Any:
            try:
                return get_spec(self.string(data, "game", "kot"))
            except UnknownGameError as error:
                raise self.fail("game", str(error)) from None

        def format_name() -> str | None:
            fmt = self.string(data, "format", FREE_FOR_ALL)
            if fmt not in FORMATS:
                raise self.fail("format", f"unknown format {fmt!r} (formats: {', '.join(FORMATS)})")
            return fmt

        self.unknown_keys(data, TOP_KEYS)
        name = self.attempt(lambda: self.ladder_name(data, default_name), default_name)
        spec = self.attempt(game_spec, None)
        self.game = spec.name if spec is not None else None
        deck = players = duplicate = None
        if spec is not None:  # (what a deck and a table may be depends on the game)
            deck = self.attempt(lambda: self.deck(data, spec), None)
            players = self.attempt(lambda: self.players(data, spec), None)
        games = self.attempt(lambda: self.integer(data, "games", DEFAULT_GAMES, 1, MAX_GAMES), None)
        time_limit = self.attempt(lambda: self.time_limit(data), None)
        fmt = self.attempt(format_name, None)
        challenger = self.attempt(lambda: self.string(data, "challenger", None), None)
        if players is not None:
            duplicate = self.attempt(lambda: self.duplicate(data, players), None)
        seed = self.attempt(lambda: self.integer(data, "seed", None, 0, MAX_SEED), 0)
        workers = self.attempt(lambda: self.integer(data, "workers", None, 0, 1024), None)
        allow_repeats = self.attempt(lambda: self.boolean(data, "allow_repeats", False), False)
        entrants = self.attempt(lambda: self.entrants(data), [])
        self.report()
        # Checks across keys, each of which is fine on its own from here on.
        assert spec is not None and players is not None and games is not None and time_limit is not None
        assert fmt is not None and duplicate is not None

        if fmt == GAUNTLET:
            if challenger is None:
                raise self.fail("challenger", "a gauntlet needs a challenger (challenger = \"LABEL\" of one entrant)")
            labels = [e.label for e in entrants]
            if challenger not in labels:
                raise self.fail("challenger", f"{challenger!r} is not an entrant (entrants: {', '.join(labels)})")
            field_size = len(entrants) - 1
            if field_size < 1:
                raise self.fail("bots", "a gauntlet needs at least one entrant besides the challenger")
            if not allow_repeats and max(players) - 1 > field_size:
                raise self.fail(
                    "players", f"a table of {max(players)} needs {max(players) - 1} opponents for the challenger "
                    f"but there are only {field_size} (add entrants or set allow_repeats = true)",
                )
        else:
            if challenger is not None:
                raise self.fail("challenger", "only a gauntlet has a challenger (set format = \"gauntlet\")")
            if not allow_repeats and max(players) > len(entrants):
                raise self.fail(
                    "players", f"a table of {max(players)} needs {max(players)} entrants but there are only "
                    f"{len(entrants)} (add entrants or set allow_repeats = true)",
                )
        self.check_whole_sets(games, players, duplicate)
        return Ladder(
            name=name, entrants=entrants, game=spec.name, deck=deck, players=players, games=games,
            time_limit=time_limit, format=fmt, challenger=challenger, duplicate=duplicate, seed=seed,
            workers=workers, allow_repeats=allow_repeats,
        )

    def ladder_name(self, data: dict, default_name: str) -> str:
        name = self.string(data, "name", default_name) or ""
        problem = name_problem(name)
        if problem is not None:
            given = "" if "name" in data else " (the file's name: the ladder names none)"
            raise self.fail("name", problem + given)
        return name

    def deck(self, data: dict, spec: Any) -> str:
        deck = self.string(data, "deck", spec.deck or NO_DECK)
        if deck and deck != NO_DECK:
            # A deck name, or a deck specification (a mix) the game can play.
            try:
                get_game(spec.name).check_deck(deck)
            except UnknownDeckError as error:
                raise self.fail("deck", str(error)) from None
        return deck

    def players(self, data: dict, spec: Any) -> tuple[int, ...]:
        value = data.get("players", DEFAULT_PLAYERS)
        sizes = value if isinstance(value, list) else [value]
        if isinstance(value, list) and not value:
            raise self.fail("players", "must list at least one table size")
        for position, size in enumerate(sizes):
            key = f"players[{position}]" if isinstance(value, list) else "players"
            if not _is_int(size):
                raise self.fail(key, f"must be an integer or an array of integers, not {_kind(size)}")
            if not spec.min_players <= size <= spec.max_players:
                raise self.fail(key, f"{spec.title} is for {spec.players_text}, not {size}")
        return tuple(sizes)

    def time_limit(self, data: dict) -> float:
        value = data.get("time_limit", DEFAULT_TIME_LIMIT)
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise self.fail("time_limit", f"must be a number of CPU seconds, not {_kind(value)}")
        if not math.isfinite(value) or not MIN_TIME_LIMIT <= value <= MAX_TIME_LIMIT:
            raise self.fail(
                "time_limit", f"must be between {MIN_TIME_LIMIT} and {MAX_TIME_LIMIT:g} CPU seconds per decision, "
                f"not {value}",
            )
        return float(value)

    def duplicate(self, data: dict, players: tuple[int, ...]) -> bool | int:
        value = data.get("duplicate", False)
        if isinstance(value, bool):
            return value
        if not _is_int(value):
            raise self.fail("duplicate", f"must be true, false or a set size, not {_kind(value)}")
        smallest = min(players)
        if not 2 <= value <= smallest:
            raise self.fail(
                "duplicate", f"a set size must be between 2 and the smallest table ({smallest}), not {value}"
            )
        return value

    def check_whole_sets(self, games: int, players: tuple[int, ...], duplicate: bool | int) -> None:
        """With duplicate sets, a night must end on a whole set: a cut set loses its balance."""
        if duplicate is False:
            return
        sizes = [players[i % len(players)] if duplicate is True else duplicate for i in range(games)]
        total = 0
        ends = []
        for size in sizes:
            total += size
            ends.append(total)
            if total >= games:
                break
        if total == games:
            return
        below = ends[-2] if len(ends) > 1 else None
        options = f"{below} or {total}" if below else f"{total}"
        raise self.fail("games", f"{games} does not end on a whole duplicate set; use {options}")

    # ---------------------------------------------------------- entrants

    def entrants(self, data: dict) -> list[Entrant]:
        if "bots" not in data:
            raise self.fail("bots", 'missing: list the entrants as [[bots]] tables, or write bots = "all"')
        value = data["bots"]
        if value == "all":
            return self.all_bots(self.bot_params(data), self.trusted_names(data))
        if "trusted" in data:
            raise self.fail("trusted", 'only a ladder with bots = "all" takes a trusted list; '
                                       "give [[bots]] entries their own trusted = true")
        if "params" in data:
            raise self.fail("params", 'only a ladder with bots = "all" takes [params.BOT] tables; '
                                      "give [[bots]] entries their own params")
        if not isinstance(value, list):
            raise self.fail("bots", f'must be an array of [[bots]] tables or "all", not {_kind(value)}')
        if not value:
            raise self.fail("bots", "lists no entrants")
        entrants: list[Entrant] = []
        seen: dict[str, int] = {}
        for position, entry in enumerate(value):
            try:
                entrant = self.entrant(entry, f"bots[{position}].")
            except LadderError as error:  # noted; the other entrants are checked all the same
                self.problems.append(error)
                continue
            if entrant.label in seen:
                other = seen[entrant.label]
                key = "label" if isinstance(entry, dict) and "label" in entry else "name"
                raise self.fail(
                    f"bots[{position}].{key}",
                    f"entrant {entrant.label!r} is already bots[{other}]; give one of them a different label",
                )
            seen[entrant.label] = position
            entrants.append(entrant)
        return entrants

    def entrant(self, entry: object, prefix: str) -> Entrant:
        if isinstance(entry, str):  # shorthand: bots = ["random", "heuristic"]
            entry = {"name": entry}
        if not isinstance(entry, dict):
            raise self.fail(prefix.rstrip("."), f"must be a table with a name, or a bot name, not {_kind(entry)}")
        self.unknown_keys(entry, BOT_KEYS, prefix)
        if "name" not in entry:
            raise self.fail(f"{prefix}name", "missing: which installed bot plays this entrant")
        bot = self.string(entry, "name", None, prefix)
        self.check_bot(bot, f"{prefix}name")
        refusal = _games_refusal(bot, self.game) if self.known_bots is not None and self.game else None
        if refusal:
            raise self.fail(f"{prefix}name", refusal)
        label = self.string(entry, "label", bot, prefix)
        params = entry.get("params", {})
        if not isinstance(params, dict):
            raise self.fail(f"{prefix}params", f"must be a table of bot parameters, not {_kind(params)}")
        self.check_params(bot, params, f"{prefix}params")
        trusted = entry.get("trusted")
        if trusted is not None and not isinstance(trusted, bool):
            raise self.fail(f"{prefix}trusted", f"must be true or false, not {_kind(trusted)}")
        return Entrant(label=label, bot=bot, params=dict(params), trusted=trusted)

    def check_params(self, bot: str, params: dict, key: str) -> None:
        """Refuse a parameter the installed ``bot`` does not declare, or a value of
        another type than it declares (:attr:`kotarena.bots.base.Bot.parameters`). Bots
        that declare nothing, and ladders not checked against the installed bots, are
        not checked."""
        declared = _declared_parameters(bot) if self.known_bots is not None else None
        if declared is None:
            return
        for name, value in params.items():
            if name not in declared:
                takes = ", ".join(sorted(declared)) or "none"
                raise self.fail(f"{key}.{name}", f"the {bot} bot has no such parameter (its parameters: {takes})")
            wanted = declared[name]
            if not _fits(value, wanted):
                raise self.fail(f"{key}.{name}", f"must be {_TYPE_WORDS.get(wanted, wanted.__name__)}, "
                                                 f"not {_kind(value)}")

    def check_bot(self, bot: str, key: str) -> None:
        if bot in INTERACTIVE_BOTS:
            raise self.fail(key, f"the {bot} bot needs a person at a terminal and cannot play in a ladder")
        if self.known_bots is not None and bot not in self.known_bots:
            refusal = _bots.refusal(bot)
            if refusal is None:  # (DIST:NAME of an installed bot)
                return
            usable = [name for name in self.known_bots if name not in INTERACTIVE_BOTS]
            raise self.fail(key, refusal or f"unknown bot {bot!r} (installed: {', '.join(usable) or 'none'})")

    def bot_params(self, data: dict) -> dict[str, dict]:
        """``[params.BOT]`` tables: parameters for installed bots when ``bots = "all"``.

        A bot that is not installed is skipped (the ladder must work whatever is
        installed), but each table must be a table.
        """
        value = data.get("params", {})
        if not isinstance(value, dict):
            raise self.fail("params", f"must hold [params.BOT] tables, not {_kind(value)}")
        for bot, params in value.items():
            if not isinstance(params, dict):
                raise self.fail(f"params.{bot}", f"must be a table of bot parameters, not {_kind(params)}")
        return value

    def trusted_names(self, data: dict) -> set[str]:
        """``trusted = [...]``: the bots of a ``bots = "all"`` ladder that run in the
        workers' processes instead of the sandbox (names not installed are skipped),
        each a plain name or ``DIST:NAME``; a plain name two distributions register is
        refused (trusting one would hand the other's code the referee's rights)."""
        value = data.get("trusted", [])
        if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
            raise self.fail("trusted", f"must be a list of bot names, not {_kind(value)}")
        if self.known_bots is not None:
            for name in value:
                if name not in self.known_bots and _bots.ambiguous(name):
                    raise self.fail("trusted", _bots.ambiguous(name))
        return set(value)

    def all_bots(self, params: dict[str, dict], trusted: set[str] = frozenset()) -> list[Entrant]:
        names = self.known_bots
        if names is None:
            from kotarena.bots.registry import bot_names

            names = bot_names()
        # Only the bots that play the ladder's game: "all" means all who can sit at this table.
        trusted = trusted | _bots.qualified(trusted) if self.known_bots is not None else trusted
        entrants = [Entrant(label=name, bot=name, params=dict(params.get(name, {})),
                            trusted=True if name in trusted or _bots.qualified({name}) & trusted else None)
                    for name in names if name not in INTERACTIVE_BOTS
                    and not (self.game and _games_refusal(name, self.game))]
        for entrant in entrants:
            self.check_params(entrant.bot, entrant.params, f"params.{entrant.bot}")
        if not entrants:
            game = f" {get_spec(self.game).title}" if self.game else ""
            raise self.fail("bots", f'"all" found no installed bots that can play{game} in a ladder')
        return entrants
