"""What a scenario file becomes, whichever game it is of: the checks, the scripted turns,
the failures and the result, and the protocol of a game's scenario format
(:meth:`~kotarena.engine.game.Game.scenario_format`) with the helpers formats read
their tables with. Reading the file and finding its game is :mod:`kotarena.scenario`'s.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from kotarena.engine.actions import Action

__all__ = [
    "EMPTY", "NONE", "Check", "Failure", "Problem", "ScenarioError", "ScenarioFormat", "ScenarioResult",
    "ScriptedAction", "TurnScript", "format_value", "string_list", "table_of", "unknown_keys",
]

EMPTY = "empty"
NONE = "none"


class ScenarioError(ValueError):
    """A scenario file that cannot be run; ``str()`` is one line naming the file."""

    def __init__(self, path: str | Path, problem: str) -> None:
        self.path = str(path)
        self.problem = " ".join(str(problem).split())  # one line, whatever the cause said
        super().__init__(f"{self.path}: {self.problem}")


class Problem(Exception):
    """A problem found while reading a file; :func:`load_scenario` adds the file name."""


# ------------------------------------------------------------------ the model

@dataclass(frozen=True)
class Check:
    """One expected fact: a monster's (``monster`` set) or the table's (``monster`` None).

    ``expected`` is already in the form the check reads from the game (card names,
    sorted dice, ``"empty"`` for an empty place), so checking is a plain comparison.
    """

    monster: str | None
    key: str
    expected: object

    @property
    def label(self) -> str:
        return f"{self.monster}.{self.key}" if self.monster else self.key


@dataclass(frozen=True)
class ScriptedAction:
    """One action of a turn; ``decider`` is the monster named before the colon, if any."""

    decider: str | None
    action: Action
    source: str  #: the text as the file wrote it, for messages


@dataclass(frozen=True)
class TurnScript:
    """One ``[[turn]]``: its dice, its actions and the checks at its end."""

    number: int
    monster: str | None
    dice: tuple[str, ...]
    actions: tuple[ScriptedAction, ...]
    checks: tuple[Check, ...]


@dataclass(frozen=True)
class Failure:
    """An expectation that did not hold. ``turn`` is None for the final ``[expect]``."""

    turn: int | None
    key: str
    expected: object
    got: object

    def __str__(self) -> str:
        where = "end" if self.turn is None else f"turn {self.turn}"
        return f"{where}, {self.key}: expected {format_value(self.expected)}, got {format_value(self.got)}"

    def to_json(self) -> dict:
        return {"turn": self.turn, "key": self.key, "expected": _jsonable(self.expected), "got": _jsonable(self.got)}


@dataclass
class ScenarioResult:
    """What running a scenario found: the failed checks and the game's event log."""

    scenario: Any  #: the game's scenario (with ``path``, ``name``, ``description``, ``game``)
    failures: list[Failure] = field(default_factory=list)
    log: list[str] = field(default_factory=list)  #: the event log, one readable line per event

    @property
    def passed(self) -> bool:
        return not self.failures

    def to_json(self) -> dict:
        return {
            "name": self.scenario.name,
            "path": str(self.scenario.path),
            "status": "pass" if self.passed else "fail",
            "failures": [f.to_json() for f in self.failures],
            "log": list(self.log),
        }


def format_value(value: object) -> str:
    """A checked value as a scenario file would write it: ``6``, ``true``, ``[Heal, Tanks]``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(format_value(v) for v in value) + "]"
    if value is None:
        return NONE
    return str(value)


def _jsonable(value: object) -> object:
    return list(value) if isinstance(value, tuple) else value


class ScenarioFormat(Protocol):
    """A game's scenarios: how to read a file's tables into a scenario, and how to play one.

    ``read`` raises :class:`Problem` for what makes the file unusable; ``run`` raises
    :class:`ScenarioError` when the script cannot be played as written. A scenario has at
    least ``path``, ``name``, ``description`` and ``game``.
    """

    def read(self, data: Mapping, path: Path, name: str) -> Any: ...

    def run(self, scenario: Any) -> ScenarioResult: ...


# ------------------------------------------------------------------ reading helpers for formats

def unknown_keys(table: Mapping, known: Sequence[str], where: str) -> None:
    for key in table:
        if key not in known:
            raise Problem(f"unknown key {key!r} in {where}; known keys: {', '.join(known)}")


def table_of(value: object, where: str) -> Mapping:
    if not isinstance(value, dict):
        raise Problem(f"{where} must be a table, not {value!r}")
    return value


def string_list(value: object, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise Problem(f"{where} must be a list of strings, not {value!r}")
    return value

