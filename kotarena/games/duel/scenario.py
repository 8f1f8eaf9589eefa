"""Duel's scenario files: the two monsters, the tracks, hype tokens, the market, the
turns' dice and actions, and the facts checked after each turn (docs/duel.md#scenarios).

:mod:`kotarena.scenario` reads the TOML and hands its tables here; every problem that
makes a file unusable is a one-line :class:`~kotarena.scenario.ScenarioError`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from kotarena.engine.actions import ActionError, parse_action
from kotarena.engine.dice import DiceError, ScriptedDice
from kotarena.engine.outcome import EngineError
from kotarena.engine.scenario import (
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
from kotarena.games.duel.cards import card_named
from kotarena.games.duel.events import event_text
from kotarena.games.duel.faces import FACE_NAMES, parse_faces
from kotarena.games.duel.monsters import find_monster
from kotarena.games.duel.position import build_position
from kotarena.games.duel.track import TRACK_NAMES

_TOP_KEYS = ("description", "game", "first", "turn_number", "market", "deck_top", "monster", "track", "hype",
             "turn", "expect")
_MONSTER_KEYS = ("name", "health", "energy", "tokens", "cards")
_TURN_KEYS = ("monster", "dice", "actions", "expect")
#: What a check may name: a monster's facts (``"Gigazaur.health"``) and the table's.
MONSTER_FACTS = ("health", "energy", "tokens", "cards")
TABLE_FACTS = ("fame", "destruction", "winner", "termination", "market")


@dataclass(frozen=True)
class Scenario:
    path: Path
    name: str
    description: str
    game: str
    monsters: tuple[Mapping, ...]
    first: int
    turn_number: int
    market: tuple[str, ...]
    deck_top: tuple[str, ...]
    track: tuple[object, object]
    hype: Mapping[str, str]
    turns: tuple[TurnScript, ...]
    final_checks: tuple[Check, ...]


def _card(value: object, where: str) -> str:
    try:
        return card_named(str(value)).id
    except KeyError:
        raise Problem(f"{where}: no Duel card is called {value!r}") from None


def _read_monster(raw: object, index: int) -> dict:
    where = f"[[monster]] #{index}"
    table = table_of(raw, where)
    unknown_keys(table, _MONSTER_KEYS, where)
    if "name" not in table:
        raise Problem(f"{where} needs a name (one of the six Duel monsters)")
    try:
        monster = find_monster(str(table["name"]))
    except EngineError as error:
        raise Problem(f"{where}: {error}") from None
    found = {"name": monster.name}
    for key in ("health", "energy", "tokens"):
        if key in table:
            if not isinstance(table[key], int) or isinstance(table[key], bool):
                raise Problem(f"{where} {key} must be a whole number, not {table[key]!r}")
            found[key] = table[key]
    found["cards"] = [_card(card, where) for card in string_list(table.get("cards", []), f"{where} cards")]
    return found


def _check_value(key: str, value: object, where: str) -> object:
    if key in ("cards", "market"):
        return tuple(_card(card, where) if card != "empty" else "" for card in string_list(value, where))
    if key in ("fame", "destruction"):
        return value if isinstance(value, int) else str(value)
    return value


def _read_checks(raw: object, where: str, names: tuple[str, ...]) -> tuple[Check, ...]:
    checks = []
    for key, value in table_of(raw, where).items():
        monster, dot, fact = key.rpartition(".")
        if dot:
            if monster not in names:
                raise Problem(f"{where}: {key!r} names no monster of the scenario ({', '.join(names)})")
            if fact not in MONSTER_FACTS:
                raise Problem(f"{where}: {key!r}: a monster's facts are {', '.join(MONSTER_FACTS)}")
            checks.append(Check(monster, fact, _check_value(fact, value, where)))
        elif key in TABLE_FACTS:
            checks.append(Check(None, key, _check_value(key, value, where)))
        else:
            raise Problem(f"{where}: unknown check {key!r}; checks are MONSTER.{{{','.join(MONSTER_FACTS)}}} "
                          f"and {', '.join(TABLE_FACTS)}")
    return tuple(checks)


def _read_turn(raw: object, number: int, names: tuple[str, ...]) -> TurnScript:
    where = f"[[turn]] #{number}"
    table = table_of(raw, where)
    unknown_keys(table, _TURN_KEYS, where)
    dice = tuple(string_list(table.get("dice", []), f"{where} dice"))
    for group in dice:
        try:
            parse_faces(group)
        except DiceError as error:
            raise Problem(f"{where} dice {group!r}: {error}") from None
    actions = []
    for text in string_list(table.get("actions", []), f"{where} actions"):
        decider, colon, rest = text.rpartition(":") if ":" in text else ("", "", text)
        if decider and decider.strip() not in names:
            raise Problem(f"{where}: action {text!r} names no monster of the scenario")
        try:
            actions.append(ScriptedAction(decider.strip() or None, parse_action(rest), text))
        except ActionError as error:
            raise Problem(f"{where}: {error}") from None
    monster = table.get("monster")
    if monster is not None and monster not in names:
        raise Problem(f"{where}: monster {monster!r} is not in the scenario")
    return TurnScript(number, monster, dice, tuple(actions), _read_checks(table.get("expect", {}), where, names))


class Scenarios:
    """Duel's :class:`~kotarena.scenario.ScenarioFormat`."""

    def read(self, data: Mapping, path: Path, name: str) -> Scenario:
        unknown_keys(data, _TOP_KEYS, "the file")
        monsters = tuple(_read_monster(raw, i) for i, raw in enumerate(data.get("monster", []), start=1))
        if len(monsters) != 2:
            raise Problem(f"Duel is for 2 monsters: the file has {len(monsters)} [[monster]] tables")
        names = tuple(m["name"] for m in monsters)
        first = data.get("first", names[0])
        if first not in names:
            raise Problem(f"first = {first!r} is not one of the monsters ({', '.join(names)})")
        track = table_of(data.get("track", {}), "[track]")
        unknown_keys(track, TRACK_NAMES, "[track]")
        hype = table_of(data.get("hype", {}), "[hype]")
        turns = tuple(_read_turn(raw, i, names) for i, raw in enumerate(data.get("turn", []), start=1))
        if not turns:
            raise Problem("a scenario needs at least one [[turn]]")
        scenario = Scenario(
            path, name, str(data.get("description", "")), str(data.get("game", "duel")), monsters, names.index(first),
            int(data.get("turn_number", 2)),
            tuple(_card(c, "market") for c in string_list(data.get("market", []), "market")),
            tuple(_card(c, "deck_top") for c in string_list(data.get("deck_top", []), "deck_top")),
            (track.get("fame", 0), track.get("destruction", 0)), {str(k): str(v) for k, v in hype.items()},
            turns, _read_checks(data.get("expect", {}), "[expect]", names))
        try:
            self.start(scenario, ScriptedDice())
        except DiceError:
            pass  # the position is fine; its dice are checked when it runs
        except (EngineError, ValueError) as error:
            raise Problem(str(error)) from None
        return scenario

    def start(self, scenario: Scenario, dice: ScriptedDice):
        monsters = scenario.monsters
        return build_position(
            [m["name"] for m in monsters], active=scenario.first, turn=scenario.turn_number,
            health=[m.get("health", find_monster(m["name"]).health) for m in monsters],
            energy=[m.get("energy", 0) for m in monsters], tokens=[m.get("tokens", 0) for m in monsters],
            cards=[m["cards"] for m in monsters], market=scenario.market, deck=scenario.deck_top,
            markers=scenario.track, hype=scenario.hype, dice=dice, game=scenario.game, pause_between_turns=True)

    def run(self, scenario: Scenario) -> ScenarioResult:
        dice = ScriptedDice([parse_faces(group) for turn in scenario.turns for group in turn.dice], names=FACE_NAMES)
        result = ScenarioResult(scenario)
        names = tuple(m["name"] for m in scenario.monsters)
        try:
            state = self.start(scenario, dice)
            for turn in scenario.turns:
                if turn.monster is not None and state.outcome is None and names[state.active] != turn.monster:
                    raise ScenarioError(scenario.path, f"turn {turn.number} is {names[state.active]}'s, "
                                                       f"not {turn.monster}'s")
                for scripted in turn.actions:
                    if state.outcome is not None:
                        raise ScenarioError(scenario.path, f"turn {turn.number}: {scripted.source!r} comes after "
                                                           f"the game ended")
                    if scripted.decider is not None and names[state.to_move] != scripted.decider:
                        raise ScenarioError(scenario.path, f"turn {turn.number}: {scripted.source!r} is "
                                                           f"{names[state.to_move]}'s decision")
                    state.apply(scripted.action)
                if state.outcome is None and not state.between_turns:
                    raise ScenarioError(scenario.path, f"turn {turn.number} has not ended after its actions: "
                                                       f"{names[state.to_move]} must still decide ({state.kind})")
                result.failures += _failures(state, turn.checks, turn.number)
                if state.outcome is None and turn is not scenario.turns[-1]:
                    state.next_turn()
            if dice.remaining:
                raise ScenarioError(scenario.path, f"{dice.remaining} dice roll(s) left over after the last turn")
        except ScenarioError:
            raise
        except (EngineError, ValueError) as error:
            raise ScenarioError(scenario.path, str(error)) from None
        result.failures += _failures(state, scenario.final_checks, None)
        result.log = [event_text(event, names) for event in (state.log or []) if event[0] != "act"]
        return result


def _fact(state, check: Check) -> object:
    names = state.names
    if check.monster is not None:
        seat = names.index(check.monster)
        if check.key == "cards":
            return tuple(state.keeps[seat])
        return {"health": state.health, "energy": state.energy, "tokens": state.tokens}[check.key][seat]
    if check.key in TRACK_NAMES:
        token, k = state.board.markers[TRACK_NAMES.index(check.key)]
        return f"{token}:{k}" if token else k
    if check.key == "market":
        return tuple(state.market)
    if check.key == "winner":
        return "none" if state.outcome is None or state.outcome.winner is None else names[state.outcome.winner]
    return "none" if state.outcome is None else state.outcome.termination.value


def _failures(state, checks, turn: int | None) -> list[Failure]:
    found = []
    for check in checks:
        got = _fact(state, check)
        if got != check.expected:
            found.append(Failure(turn, check.label, check.expected, got))
    return found


SCENARIOS = Scenarios()
