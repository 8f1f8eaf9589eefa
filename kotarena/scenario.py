"""Scenario files: a described position, scripted turns, and what must hold after each.

A scenario is a rulebook example the engine can check: the table as the example
describes it, the dice each turn rolls, the choices made, and the facts that must hold
at the end of each turn. The file format (TOML) is documented in ``docs/scenarios.md``.
What a position holds and which facts can be checked are the game's: this module reads
the file, finds its ``game`` (``kot`` by default) and hands the rest to that game's
scenario format (:meth:`~kotarena.engine.game.Game.scenario_format`; King of Tokyo's
is :mod:`kotarena.games.kot.scenario`). What a format builds (checks, turns, failures,
the result) is :mod:`kotarena.engine.scenario`'s, below the games, which build on it.

>>> scenario = load_scenario("scenarios/seeds/gigazaur_roll.toml")   # doctest: +SKIP
>>> run_scenario(scenario).passed                                     # doctest: +SKIP
True

A file that cannot be run (bad TOML, an unknown key, a die face or card that does not
exist, an impossible position, an action that is not legal when it comes up, dice left
over) raises :class:`ScenarioError` with the file name and the problem on one line. A
file that runs but whose expectations do not hold gives a :class:`ScenarioResult`
with one :class:`Failure` per check that did not hold.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from kotarena.engine.outcome import EngineError
from kotarena.engine.scenario import (  # (the model lives with the game seam; its names are still read from here)
    Check,
    Failure,
    Problem,
    ScenarioError,
    ScenarioFormat,
    ScenarioResult,
    ScriptedAction,
    TurnScript,
    format_value,
)
from kotarena.games import get_game

__all__ = [
    "Check", "Failure", "ScenarioError", "ScenarioFormat", "ScenarioResult", "ScriptedAction",
    "TurnScript", "format_value", "load_scenario", "run_scenario",
]


def _format(game: str) -> ScenarioFormat:
    try:
        found = get_game(game)
    except EngineError as error:
        raise Problem(str(error)) from None
    scenarios = found.scenario_format()
    if scenarios is None:
        raise Problem(f"kotarena has no scenario format for {found.spec.title} yet")
    return scenarios


# ------------------------------------------------------------------ loading

def load_scenario(path: str | Path, *, name: str | None = None) -> Any:
    """Read and check a scenario file (a scenario of its game, e.g.
    :class:`kotarena.games.kot.scenario.Scenario`); ``name`` defaults to the file name
    without ``.toml``.

    Raises :class:`ScenarioError` for anything that makes the file unusable.
    """
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ScenarioError(path, f"cannot read the file ({error.strerror or error})") from None
    except UnicodeDecodeError:
        raise ScenarioError(path, "the file is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as error:
        raise ScenarioError(path, f"TOML syntax error: {error}") from None
    try:
        game = data.get("game", "kot")
        if not isinstance(game, str):
            raise Problem(f"game must be a string, not {game!r}")
        return _format(game).read(data, path, name or path.stem)
    except Problem as problem:
        raise ScenarioError(path, str(problem)) from None


def run_scenario(scenario: Any) -> ScenarioResult:
    """Set the position up, play every turn, and check each turn's expectations.

    Raises :class:`ScenarioError` when the file's script cannot be played as written
    (impossible position, illegal or misattributed action, dice that do not fit).
    """
    try:
        scenarios = _format(scenario.game)
    except Problem as problem:
        raise ScenarioError(scenario.path, str(problem)) from None
    return scenarios.run(scenario)
