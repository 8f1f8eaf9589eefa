"""The game seam: what a game offers, and all that the rest of kotarena asks of one.

Everything outside a game (the match loop, the seat hosts, the runner, replays,
scenarios, the bot checker, the CLI) talks to games through two things only:

* a :class:`Game`: its :class:`GameSpec`, a way to start a state, the type of its
  views, its verbs and endings, the facts a stored seat keeps, its replay tokens and
  its invariant checker, and what people are shown of it (its events in words, a
  state's ``snapshot`` for the site, its ``words`` for the terminal);
* a :class:`GameState`: one game in progress (``decision``, ``apply``, ``view``,
  ``clone``, ``child``, ``outcome``, ``history``, ``seed``).

Games are registered through the ``register_games`` plugin hook, the built-in ones
included (:mod:`kotarena.games` looks them up); this module knows no game.
"""

from __future__ import annotations

import abc
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from kotarena.engine.actions import Action, Verb
from kotarena.engine.decisions import Decision
from kotarena.engine.dice import ScriptedDice
from kotarena.engine.events import event_to_text
from kotarena.engine.outcome import Outcome, PositionError, UnknownDeckError, UnknownGameError
from kotarena.engine.words import Words

#: In a bot's ``games``: the bot plays every game (it reads nothing but the legal actions).
ANY_GAME = "*"


#: Between a game's name and its options in a configured game's name:
#: ``origins:two-player-variant=off``.
OPTIONS_MARK = ":"


@dataclass(frozen=True)
class GameOption:
    """One option a game takes (:attr:`Game.options`): its values, as text, the default
    first, and what it changes."""

    name: str
    values: tuple[str, ...]
    help: str
    #: The values as a listing shows them, where there are too many to list one by one.
    shown: str = ""

    @property
    def default(self) -> str:
        return self.values[0]


def split_game_name(text: str) -> tuple[str, dict[str, str]]:
    """A game name with options (``origins:two-player-variant=off,...``) as the game's
    name and the options' values (names and values lowercased, blanks ignored)."""
    name, mark, rest = text.strip().lower().partition(OPTIONS_MARK)
    if mark and not rest.strip(" ,"):
        raise UnknownGameError(f"no game options after {OPTIONS_MARK!r} in {text.strip()!r}: write "
                               f"{name.strip() or 'GAME'}{OPTIONS_MARK}NAME=VALUE, or the game's name alone")
    options: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, equals, value = item.partition("=")
        if not equals or not key.strip() or not value.strip():
            raise UnknownGameError(f"bad game option {item!r} in {text.strip()!r}: write NAME=VALUE")
        if key.strip() in options:
            raise UnknownGameError(f"game option {key.strip()!r} is given twice in {text.strip()!r}")
        options[key.strip()] = value.strip()
    return name.strip(), options


def configured_name(name: str, options: Mapping[str, str]) -> str:
    """The one name of a game with these options (sorted; the plain name without any)."""
    if not options:
        return name
    return name + OPTIONS_MARK + ",".join(f"{key}={options[key]}" for key in sorted(options))


@dataclass(frozen=True)
class GameSpec:
    """Static facts about a game: its name, seat counts, decks and rules version.

    ``rules_version`` is stamped on every replay and stored result; bump it whenever a
    change to the rules would make an old replay play differently. ``deck`` is the deck
    a game gets by default (``None``: the game is played without cards); ``decks`` every
    deck it can be played with.
    """

    name: str
    title: str
    min_players: int
    max_players: int
    deck: str | None
    rules_version: int
    aliases: tuple[str, ...] = ()
    decks: tuple[str, ...] = ()

    @property
    def players_text(self) -> str:
        """How many play it, in words: ``2 to 6 players``, ``2 players``."""
        if self.min_players == self.max_players:
            return f"{self.min_players} players"
        return f"{self.min_players} to {self.max_players} players"

    def check_players(self, count: int) -> None:
        """Raise :class:`PositionError` unless ``count`` players can play this game."""
        if not self.min_players <= count <= self.max_players:
            raise PositionError(
                f"{self.title} is for {self.players_text}, not {count}"
            )

    def answers_to(self, name: str) -> bool:
        """Whether ``name`` (any case, surrounding blanks ignored) is this game's name or an alias."""
        key = name.strip().lower()
        return key == self.name or key in self.aliases


class GameState(Protocol):
    """One game in progress, as everything outside the game sees it.

    Between two calls of :meth:`apply` a state waits on one seat's decision (``to_move``,
    ``kind``, ``legal``), is over (``outcome`` set, ``to_move`` is -1), or is paused
    between two turns (``between_turns``; only when ``pause_between_turns`` was set,
    as replays and scenarios do to check a position after each turn).
    """

    game: str
    n: int
    names: tuple[str, ...]
    seed: int | None
    deck_name: str | None
    #: The turn being played, from 1.
    turn: int
    outcome: Outcome | None
    history: list[tuple[int, Action]]
    log: list[tuple] | None
    to_move: int
    kind: str | None
    legal: tuple[Action, ...]
    pause_between_turns: bool
    between_turns: bool

    @property
    def is_over(self) -> bool: ...

    @property
    def decision(self) -> Decision | None: ...

    def apply(self, action: Action | str) -> None: ...

    def next_turn(self) -> None: ...

    def view(self, player: int) -> Any: ...

    def clone(self, *, record: bool = False) -> GameState: ...

    def child(self, action: Action | str) -> GameState: ...


def _json_value(value: object) -> object:
    return [_json_value(item) for item in value] if isinstance(value, (tuple, list)) else value


class Game(abc.ABC):
    """A game kotarena can play. One instance per game, registered through the
    ``register_games`` hook; see ``docs/games.md`` for how one is put together."""

    #: The game's static facts.
    spec: GameSpec
    #: The type of :meth:`GameState.view`'s answer: an immutable snapshot of what one seat
    #: may see, which pickles and has ``player``, ``kind``, ``legal``, ``outcome`` and
    #: ``to_json()`` (JSON-ready data, actions as their text).
    view_type: type
    #: The decision kinds the game may ask, each with what it asks (for people and docs).
    decision_kinds: Mapping[str, str]
    #: The keys of :meth:`seat_facts`, in the order a table shows them.
    seat_fact_names: tuple[str, ...]
    #: The names seats get when none are given, in seat order (at least ``max_players``).
    default_names: tuple[str, ...]
    #: The options the game takes, by name (none by default); see :meth:`configured`.
    options: Mapping[str, GameOption] = {}
    #: The verbs of the game's actions, by word (:class:`~kotarena.engine.actions.Verb`:
    #: usage, what it does, how its arguments read): King of Tokyo's ``stop``,
    #: ``reroll``, ``buy``, ... (the family's, :mod:`kotarena.games.vocabulary`), Duel's
    #: ``power``, a plugin's ``bet``. A person's answers are read with them; the core
    #: parses any game's actions without them. None declared (the default): any ``verb
    #: arg ...`` reads as :func:`~kotarena.engine.actions.parse_action` reads it.
    verbs: Mapping[str, Verb] = {}
    #: The ways the game ends: each termination word (its :class:`Outcome`'s
    #: ``termination``, any word the game chooses) and how the winner won, in words that
    #: follow "X wins" ("by reaching 20 stars").
    endings: Mapping[str, str] = {}

    @property
    def name(self) -> str:
        return self.spec.name

    @abc.abstractmethod
    def new_state(
        self,
        players: int | Sequence[str],
        *,
        seed: int | None = None,
        deck: str | None = "default",
        first_player: int | None = None,
        dice: ScriptedDice | None = None,
        record: bool = True,
    ) -> GameState:
        """Set up a game and run it to its first decision.

        :param players: a number of players, or the monsters' names in seat order.
        :param seed: fixes every shuffle and die roll; ``None`` picks one (``state.seed``).
        :param deck: ``"default"`` for the game's deck, a deck name, or ``None`` for a
            game without cards (where the game allows it).
        :param first_player: skip the choice of the first player and let this seat start.
        :param dice: scripted dice instead of random ones.
        :param record: keep the event log (full replays need it; search copies do not).
        """

    def configured(self, options: Mapping[str, str]) -> Game:
        """This game with ``options`` (option name -> value, as in :attr:`options`).

        Options at their defaults are left out; with none left this is the game itself.
        Otherwise the answer is a game whose ``spec.name`` is
        :func:`configured_name` (``origins:two-player-variant=off``), which every state,
        replay, stored result and ladder records, and which ``kotarena.games.get_game``
        reads back; its aliases are this game's name and aliases, so a bot that plays
        the game plays it with any options. Raises :class:`UnknownGameError` for an
        option or value the game does not take.
        """
        chosen: dict[str, str] = {}
        for key, value in options.items():
            option = self.options.get(key)
            if option is None:
                known = ", ".join(sorted(self.options)) or "none"
                raise UnknownGameError(f"{self.spec.title} has no option {key!r} (its options: {known})")
            if value not in option.values:
                raise UnknownGameError(f"option {key!r} of {self.spec.title} is one of "
                                       f"{', '.join(option.values)}, not {value!r}")
            if value != option.default:
                chosen[key] = value
        if not chosen:
            return self
        return self.with_options(chosen)

    def with_options(self, options: Mapping[str, str]) -> Game:
        """The game with ``options``, already checked and none at its default (what
        :meth:`configured` builds; a game with :attr:`options` implements it)."""
        raise UnknownGameError(f"{self.spec.title} takes no options")

    @abc.abstractmethod
    def seat_facts(self, state: GameState, seat: int) -> dict[str, object]:
        """The facts a stored result keeps about ``seat`` at the end (JSON-ready, keyed
        by :attr:`seat_fact_names`), beside the rank, bot and forfeit every game keeps."""

    @abc.abstractmethod
    def replay_tokens(self) -> Mapping[str, str]:
        """The one-character tokens of a packed replay line and the action text each
        stands for. Part of the replay format: a token's meaning never changes."""

    @abc.abstractmethod
    def invariants(self, state: GameState) -> list[str]:
        """Every rule of the game that ``state`` breaks, one sentence each (empty: none)."""

    def event_text(self, event: tuple, names: Sequence[str]) -> str:
        """One event of the log as a sentence a person reads (``kotarena replay``, ``match
        -v``, ``play``); ``names`` are the seats' names. A sentence names monsters (and
        whatever else the game has: cards), never a seat by its number. The default is
        the event's text form, for a game that has not written its sentences yet."""
        return event_to_text(event)

    def event_lines(self, events: Sequence[tuple], names: Sequence[str]) -> list[str]:
        """The lines that narrate ``events`` (``match -v``, ``play``, scenario logs): by
        default one :meth:`event_text` per event."""
        return [self.event_text(event, names) for event in events]

    def event_data(self, event: tuple) -> list:
        """One event of the log as JSON-ready data for output (``kotarena replay --json``):
        its kind, then its fields, with seats counted from 1 as every command shows them
        (``None`` for nobody). The default gives the event as logged (tuples as lists),
        which suits a game whose events hold no seats; a game whose events do overrides it."""
        return [_json_value(value) for value in event]

    def snapshot(self, state: GameState) -> dict[str, Any]:
        """A plain-data picture of ``state`` for people to look at (the site's replay
        viewer shows one after every turn), JSON-ready:

        * ``"seats"``: one dict per seat, in seat order, of what a person would want to
          see about it (``{"health": 7, "stars": 3, "cards": ["Acid Attack"]}``): each key
          a label in words, each value a number, a bool, a string or a list of strings;
        * ``"table"``: the same for what belongs to no seat (the dice, a market);
        * ``"active"``: the seat whose turn it is, or ``None``;
        * ``"out"``: the seats out of the game.

        The default shows each seat's :meth:`seat_facts` and nothing else, which is
        enough for a game to be followed; a game overrides it to show its whole table.
        """
        turn_of = state.to_move if state.to_move >= 0 else None
        return {"seats": [self.seat_facts(state, seat) for seat in range(state.n)], "table": {},
                "active": turn_of, "out": []}

    @functools.cached_property
    def words(self) -> Words:
        """Everything a person reads of the game (:class:`~kotarena.engine.words.Words`):
        the table, the decision and help for it, help for a named thing (a card, a
        monster, ...), a person's answer read as an action, the ending, the standings
        and the card list (``kotarena play``, ``cards``, ``replay``, the human bot,
        PettingZoo's ``render``). The default draws any game from its seats' facts, its
        legal actions, decision kinds, verbs and endings; a game overrides it (as a
        property or class attribute) with a subclass of its own."""
        return Words(self)

    def purchases(self, events: Sequence[tuple]) -> list[tuple[int, str]]:
        """What each seat bought in the events of a game's log, in order, as ``(seat, what
        it bought, in words)`` (the site's per-card statistics). The default, for a game
        where nothing is bought: none."""
        return []

    def check_deck(self, deck: str) -> None:
        """Raise :class:`UnknownDeckError`, with a one-line reason, unless the game can be
        played with the deck called ``deck`` (ladders and replays check with this before
        playing). The default knows the decks ``spec.decks`` names."""
        if deck not in self.spec.decks:
            raise UnknownDeckError(f"unknown deck {deck!r}; known decks: {', '.join((*self.spec.decks, 'none'))}")

    def scenario_format(self) -> Any | None:
        """The game's scenario format (a :class:`kotarena.engine.scenario.ScenarioFormat`: how a
        scenario file's position and checks read, and how one is played), or ``None`` for
        a game that has none yet."""
        return None


__all__ = [
    "ANY_GAME", "OPTIONS_MARK", "Game", "GameOption", "GameSpec", "GameState", "UnknownDeckError", "UnknownGameError",
    "configured_name", "split_game_name",
]
