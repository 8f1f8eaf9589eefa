"""King of Tokyo's scenarios: monsters, Tokyo, the market and the checks a file can make.

The format is ``docs/scenarios.md``'s; :mod:`kotarena.scenario` reads the file and
hands its tables here (``KingOfTokyo.scenario_format()``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from kotarena.engine.actions import ActionError
from kotarena.engine.dice import DiceError
from kotarena.engine.outcome import EngineError, IllegalActionError
from kotarena.engine.scenario import (
    EMPTY,
    NONE,
    Check,
    Failure,
    Problem,
    ScenarioError,
    ScenarioResult,
    ScriptedAction,
    TurnScript,
    string_list,
    table_of,
    unknown_keys,
)
from kotarena.games import get_game, get_spec
from kotarena.games.kot.cards import DECKS, UnknownDeckError, find_card
from kotarena.games.kot.events import event_lines
from kotarena.games.kot.faces import format_faces, parse_faces, scripted_dice
from kotarena.games.kot.position import MonsterSetup, build_position
from kotarena.games.kot.rules import CLASSIC
from kotarena.games.kot.state import State
from kotarena.games.kot.words import ENDINGS
from kotarena.games.vocabulary import read_action

_TOP_KEYS = ("description", "game", "deck", "seed", "first", "market", "deck_top", "monster", "turn", "expect")
_MONSTER_KEYS = ("name", "health", "max_health", "stars", "energy", "tokyo", "alive", "cards")
_TURN_KEYS = ("monster", "dice", "actions", "expect")


@dataclass(frozen=True)
class Scenario:
    """A loaded scenario file, checked for everything that can be checked without playing."""

    path: Path
    name: str
    description: str
    game: str
    deck: str | None
    seed: int
    monsters: tuple[MonsterSetup, ...]
    first: str
    market: tuple[str, ...] | None
    deck_top: tuple[str, ...]
    turns: tuple[TurnScript, ...]
    final_checks: tuple[Check, ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(m.name for m in self.monsters)


# ------------------------------------------------------------------ checks
#
# Each check knows how to read its value from a state and how to bring a value
# written in a file to the same form, so that a comparison is all a check does.

class _Reader:
    """What a loader needs while reading values: the monsters' names and the deck."""

    def __init__(self, names: Sequence[str], deck: str | None) -> None:
        self.names = tuple(names)
        self.deck = deck

    def monster(self, value: object, where: str, *, blank: str | None = None) -> str:
        if not isinstance(value, str):
            raise Problem(f"{where} must be a monster's name, not {value!r}")
        if blank is not None and value.strip().lower() in (EMPTY, NONE):
            return blank
        if value not in self.names:
            extra = f" or {blank!r}" if blank else ""
            raise Problem(f"{where}: no monster is called {value!r} (monsters: {', '.join(self.names)}{extra})")
        return value

    def card_name(self, value: object, where: str) -> str:
        if not isinstance(value, str):
            raise Problem(f"{where}: a card is named by its id or name, not {value!r}")
        if self.deck is None:
            raise Problem(f"{where} names card {value!r} but the scenario has deck = \"none\"")
        try:
            return find_card(self.deck, value).name
        except UnknownDeckError as error:
            raise Problem(f"{where}: {error}") from None


def _as_int(value: object, where: str, reader: _Reader) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise Problem(f"{where} must be a whole number, not {value!r}")
    return value


def _as_bool(value: object, where: str, reader: _Reader) -> bool:
    if not isinstance(value, bool):
        raise Problem(f"{where} must be true or false, not {value!r}")
    return value


def _as_place(value: object, where: str, reader: _Reader) -> str:
    place = value.strip().lower() if isinstance(value, str) else None
    if place not in ("city", "bay", NONE):
        raise Problem(f"{where} must be \"city\", \"bay\" or \"none\", not {value!r}")
    return place


def _as_card_list(value: object, where: str, reader: _Reader) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise Problem(f"{where} must be a list of cards, not {value!r}")
    # Owned cards and the discard pile have no meaningful order for a check.
    return tuple(sorted(reader.card_name(v, where) for v in value))


def _as_market(value: object, where: str, reader: _Reader) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) != CLASSIC.market_size:
        raise Problem(f"{where} must list the {CLASSIC.market_size} market slots (a card or \"empty\"), not {value!r}")
    return tuple(EMPTY if isinstance(v, str) and v.strip().lower() == EMPTY else reader.card_name(v, where)
                 for v in value)


def _as_dice(value: object, where: str, reader: _Reader) -> str:
    if not isinstance(value, (str, list)):
        raise Problem(f"{where} must be dice faces such as \"2 2 2 claw\", not {value!r}")
    try:
        return format_faces(sorted(parse_faces([str(v) for v in value] if isinstance(value, list) else value)))
    except DiceError as error:
        raise Problem(f"{where}: {error}") from None


def _as_place_holder(value: object, where: str, reader: _Reader) -> str:
    return reader.monster(value, where, blank=EMPTY)


def _as_monster_or_none(value: object, where: str, reader: _Reader) -> str:
    return reader.monster(value, where, blank=NONE)


def _as_termination(value: object, where: str, reader: _Reader) -> str:
    known = [*ENDINGS, NONE]
    if not isinstance(value, str) or value.strip().lower() not in known:
        raise Problem(f"{where} must be one of {', '.join(known)}, not {value!r}")
    return value.strip().lower()


def _name(state: State, seat: int, blank: str) -> str:
    return state.names[seat] if seat is not None and seat >= 0 else blank


def _card_names(state: State, cards: Sequence[int]) -> tuple[str, ...]:
    return tuple(sorted(state.cards_info[c].name for c in cards))


_Normalize = Callable[[object, str, _Reader], object]

#: Checks on one monster: key -> (read the value written in a file, read the game).
MONSTER_CHECKS: dict[str, tuple[_Normalize, Callable[[State, int], object]]] = {
    "health": (_as_int, lambda s, p: s.health[p]),
    "max_health": (_as_int, lambda s, p: s.max_health[p]),
    "stars": (_as_int, lambda s, p: s.stars[p]),
    "energy": (_as_int, lambda s, p: s.energy[p]),
    "tokyo": (_as_place, lambda s, p: s.place_of(p) or NONE),
    "alive": (_as_bool, lambda s, p: s.alive[p]),
    "cards": (_as_card_list, lambda s, p: _card_names(s, s.owned[p])),
}

#: Checks on the whole table.
TABLE_CHECKS: dict[str, tuple[_Normalize, Callable[[State], object]]] = {
    "city": (_as_place_holder, lambda s: _name(s, s.city, EMPTY)),
    "bay": (_as_place_holder, lambda s: _name(s, s.bay, EMPTY)),
    "bay_open": (_as_bool, lambda s: s.bay_open),
    "over": (_as_bool, lambda s: s.is_over),
    "winner": (_as_monster_or_none, lambda s: _name(s, s.outcome.winner if s.outcome else None, NONE)),
    "termination": (_as_termination, lambda s: s.outcome.termination.value if s.outcome else NONE),
    "next": (_as_monster_or_none, lambda s: NONE if s.is_over else s.names[s.active]),
    "dice": (_as_dice, lambda s: format_faces(sorted(s.dice))),
    "market": (_as_market, lambda s: tuple(EMPTY if c < 0 else s.cards_info[c].name for c in s.market)),
    "discard": (_as_card_list, lambda s: _card_names(s, s.discard)),
}


def _evaluate(check: Check, state: State) -> object:
    if check.monster is None:
        return TABLE_CHECKS[check.key][1](state)
    return MONSTER_CHECKS[check.key][1](state, state.names.index(check.monster))



class Scenarios:
    """King of Tokyo's :class:`~kotarena.scenario.ScenarioFormat`."""

    def read(self, data: Mapping, path: Path, name: str) -> Scenario:
        return _read(data, path, name)

    def run(self, scenario: Scenario) -> ScenarioResult:
        return _Run(scenario).run()


SCENARIOS = Scenarios()


# ------------------------------------------------------------------ loading

def _read(data: Mapping, path: Path, name: str) -> Scenario:
    unknown_keys(data, _TOP_KEYS, "the top level")
    description = data.get("description", "")
    if not isinstance(description, str):
        raise Problem("description must be a string")
    game = data.get("game", "kot")
    if not isinstance(game, str):
        raise Problem(f"game must be a string, not {game!r}")
    try:
        spec = get_spec(game)
    except EngineError as error:
        raise Problem(str(error)) from None
    if "deck" not in data:
        raise Problem(f"deck is required: \"none\" (no cards) or a deck name ({', '.join(sorted(DECKS))})")
    deck_value = data["deck"]
    if not isinstance(deck_value, str):
        raise Problem(f"deck must be \"none\" or one of {', '.join(sorted(DECKS))}, not {deck_value!r}")
    deck = None if deck_value.lower() == NONE else deck_value
    if deck is not None:
        try:
            get_game(spec.name).check_deck(deck)
        except EngineError as error:
            raise Problem(f"deck: {error}") from None
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise Problem(f"seed must be a whole number of 0 or more, not {seed!r}")

    monsters = _read_monsters(data.get("monster"), deck)
    names = tuple(m.name for m in monsters)
    reader = _Reader(names, deck)
    if "first" not in data:
        raise Problem("first is required: the name of the monster whose turn starts")
    first = reader.monster(data["first"], "first")

    market = None
    if "market" in data:
        market = tuple(reader.card_name(v, "market") for v in string_list(data["market"], "market"))
    deck_top = tuple(reader.card_name(v, "deck_top") for v in string_list(data.get("deck_top", []), "deck_top"))

    raw_turns = data.get("turn")
    if not isinstance(raw_turns, list) or not raw_turns:
        raise Problem("a scenario needs at least one [[turn]] (the first roll happens as the position is set up)")
    turns = tuple(_read_turn(raw, number, reader) for number, raw in enumerate(raw_turns, start=1))
    if turns[0].monster is not None and turns[0].monster != first:
        raise Problem(f"[[turn]] #1 says monster = {turns[0].monster!r} but first = {first!r}")
    final = _read_checks(data.get("expect", {}), "[expect]", reader)
    # The game's own player count check, here so the message names the scenario.
    try:
        spec.check_players(len(monsters))
    except EngineError as error:
        raise Problem(str(error)) from None
    return Scenario(
        path=path, name=name, description=description, game=spec.name, deck=deck, seed=seed,
        monsters=monsters, first=first, market=market, deck_top=deck_top, turns=turns, final_checks=final,
    )


def _read_monsters(raw: object, deck: str | None) -> tuple[MonsterSetup, ...]:
    if not isinstance(raw, list) or not raw:
        raise Problem("the scenario needs [[monster]] tables, one per monster in seat order")
    monsters = []
    for number, table in enumerate(raw, start=1):
        where = f"[[monster]] #{number}"
        table = table_of(table, where)
        unknown_keys(table, _MONSTER_KEYS, where)
        if not isinstance(table.get("name"), str) or not table["name"].strip():
            raise Problem(f"{where} needs a name")
        name = table["name"]
        where = f"[[monster]] {name!r}"
        reader = _Reader((), deck)
        values = {}
        for key in ("health", "max_health", "stars", "energy"):
            if key in table:
                values[key] = _as_int(table[key], f"{where} {key}", reader)
        if "alive" in table:
            values["alive"] = _as_bool(table["alive"], f"{where} alive", reader)
        if "tokyo" in table:
            place = _as_place(table["tokyo"], f"{where} tokyo", reader)
            values["tokyo"] = None if place == NONE else place
        if "cards" in table:
            values["cards"] = tuple(reader.card_name(c, f"{where} cards")
                                    for c in string_list(table["cards"], f"{where} cards"))
        # An eliminated monster has 0 health; saying alive = false is enough.
        if values.get("alive") is False and "health" not in values:
            values["health"] = 0
        monsters.append(MonsterSetup(name, **values))
    names = [m.name for m in monsters]
    for name in names:
        if names.count(name) > 1:
            raise Problem(f"two monsters are called {name!r}")
    return tuple(monsters)


def _read_turn(raw: object, number: int, reader: _Reader) -> TurnScript:
    where = f"[[turn]] #{number}"
    table = table_of(raw, where)
    unknown_keys(table, _TURN_KEYS, where)
    monster = reader.monster(table["monster"], f"{where} monster") if "monster" in table else None
    if "dice" not in table:
        raise Problem(f"{where} needs dice: one string per roll, such as [\"1 2 3 3 heart energy\", \"2 2 2 claw\"]")
    dice = string_list(table["dice"], f"{where} dice")
    if not dice:
        raise Problem(f"{where} dice is empty, but every turn starts with a roll")
    for group in dice:
        try:
            parse_faces(group)
        except DiceError as error:
            raise Problem(f"{where} dice {group!r}: {error}") from None
    actions = tuple(
        _read_action(text, f"{where} action {text!r}", reader)
        for text in string_list(table.get("actions", []), f"{where} actions")
    )
    checks = _read_checks(table.get("expect", {}), f"{where} expect", reader)
    return TurnScript(number, monster, tuple(dice), actions, checks)


def _read_action(text: str, where: str, reader: _Reader) -> ScriptedAction:
    decider = None
    body = text
    if ":" in text:
        prefix, body = text.split(":", 1)
        decider = reader.monster(prefix.strip(), where)
    try:
        action = read_action(body)
    except ActionError as error:
        raise Problem(f"{where}: {error}") from None
    return ScriptedAction(decider, action, text)


def _read_checks(raw: object, where: str, reader: _Reader) -> tuple[Check, ...]:
    table = table_of(raw, where)
    checks = []
    for key, value in table.items():
        if isinstance(value, dict) and key in reader.names:
            inner = f"{where}.{key}"
            unknown_keys(value, tuple(MONSTER_CHECKS), inner)
            for monster_key, expected in value.items():
                normalize = MONSTER_CHECKS[monster_key][0]
                checks.append(Check(key, monster_key, normalize(expected, f"{inner} {monster_key}", reader)))
        elif key in TABLE_CHECKS:
            checks.append(Check(None, key, TABLE_CHECKS[key][0](value, f"{where} {key}", reader)))
        else:
            raise Problem(
                f"unknown key {key!r} in {where}; known keys: {', '.join(TABLE_CHECKS)}, "
                f"or a monster's name ({', '.join(reader.names)}) for a table of its checks"
            )
    return tuple(checks)



# ------------------------------------------------------------------ running

class _Run:
    """One run of a scenario: the state, its scripted dice, and the failures so far."""

    def __init__(self, scenario: Scenario) -> None:
        self.scenario = scenario
        self.script = scripted_dice()
        self.state: State | None = None
        self.result = ScenarioResult(scenario)

    def fail(self, problem: str) -> ScenarioError:
        return ScenarioError(self.scenario.path, problem)

    def run(self) -> ScenarioResult:
        scenario = self.scenario
        turns = scenario.turns
        self.script.extend(map(parse_faces, turns[0].dice))  # the first roll happens while the position is set up
        try:
            self.state = build_position(
                list(scenario.monsters),
                first=scenario.first,
                game=scenario.game,
                deck=scenario.deck,
                market=scenario.market,
                deck_top=scenario.deck_top,
                dice=self.script,
                seed=scenario.seed,
                pause_between_turns=True,
            )
        except DiceError as error:
            raise self.fail(f"turn 1, first roll: {error}") from None
        except EngineError as error:
            raise self.fail(f"impossible position: {error}") from None
        for index, turn in enumerate(turns):
            if index:
                self._start(turn)
            self._check_monster(turn)
            self._play(turn)
            self._check(turn.checks, turn.number)
        self._check(scenario.final_checks, None)
        self._render_log()
        return self.result

    def _start(self, turn: TurnScript) -> None:
        state = self.state
        if state.is_over:
            raise self.fail(
                f"the game ended during turn {turn.number - 1} ({_outcome_text(state)}), "
                f"but the scenario goes on to turn {turn.number}"
            )
        self.script.extend(map(parse_faces, turn.dice))  # next_turn() makes the turn's first roll
        try:
            state.next_turn()
        except DiceError as error:
            raise self.fail(f"turn {turn.number}, first roll: {error}") from None

    def _check_monster(self, turn: TurnScript) -> None:
        active = self.state.names[self.state.active]
        if turn.monster is not None and turn.monster != active:
            raise self.fail(f"turn {turn.number} is {active}'s turn, not {turn.monster}'s")

    def _play(self, turn: TurnScript) -> None:
        state = self.state
        names = state.names
        for step in turn.actions:
            where = f"turn {turn.number}, action {step.source!r}"
            if state.is_over:
                raise self.fail(f"{where}: the game is already over ({_outcome_text(state)})")
            if state.between_turns:
                raise self.fail(f"{where}: {names[_last_active(state)]}'s turn is already over "
                                f"(next up: {names[state.active]}); the turn needs no more actions")
            decider = names[state.to_move]
            if step.decider is not None and step.decider != decider:
                raise self.fail(f"{where}: the decision is {decider}'s, not {step.decider}'s: {_pending_text(state)}")
            try:
                state.apply(step.action)
            except IllegalActionError:
                raise self.fail(f"{where}: not legal now: {_pending_text(state)}") from None
            except DiceError as error:
                raise self.fail(f"{where}: {error}") from None
        if not (state.between_turns or state.is_over):
            raise self.fail(
                f"turn {turn.number}: the actions ran out but the turn is not over: {_pending_text(state)}"
            )
        if self.script.remaining:
            left = self.script.groups[self.script.used:]
            raise self.fail(
                f"turn {turn.number}: {len(left)} scripted roll(s) left unused: "
                + ", ".join(repr(format_faces(g)) for g in left)
            )

    def _check(self, checks: Sequence[Check], turn: int | None) -> None:
        for check in checks:
            got = _evaluate(check, self.state)
            if got != check.expected:
                self.result.failures.append(Failure(turn, check.label, check.expected, got))

    def _render_log(self) -> None:
        self.result.log = event_lines(self.state.log or (), self.state.names)


def _last_active(state: State) -> int:
    """The monster whose turn just ended (``active`` already names the next one)."""
    for event in reversed(state.log or ()):
        if event[0] == "turn":
            return event[1]
    return state.active


def _pending_text(state: State) -> str:
    """Who must decide what, and every legal answer (rerolls summed up)."""
    legal = [a.text for a in state.legal if a.kind != "reroll"]
    rerolls = [a for a in state.legal if a.kind == "reroll"]
    if rerolls:
        legal.append(f"reroll any of dice 1-{len(state.dice)}")
    extra = ""
    if state.kind == "roll":
        extra = f", dice {format_faces(state.dice)}, {state.rolls_left} reroll(s) left"
    return f"{state.names[state.to_move]} must decide ({state.kind}{extra}); legal: {', '.join(legal)}"


def _outcome_text(state: State) -> str:
    outcome = state.outcome
    winner = "nobody" if outcome.winner is None else state.names[outcome.winner]
    return f"{winner} wins, {outcome.termination.value}"
