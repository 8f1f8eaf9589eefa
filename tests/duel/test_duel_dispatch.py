"""The turn calls its most frequent steps and answers by name, for speed: each name must
call the function the step tables (``STEPS``, ``ANSWERS``) give it, or a step changed
in the table would be played the old way."""

from __future__ import annotations

import ast
from pathlib import Path

from kotarena.games.duel import turn

#: The module's source (read from the checkout: a compiled module has none to inspect).
SOURCE = ast.parse((Path(__file__).parents[2] / "kotarena" / "games" / "duel" / "turn.py").read_text())


def _calls_by_name(function: str) -> dict[str, str]:
    """``{step name: function called}`` for each ``name == "..."`` branch of ``function``."""
    (definition,) = [node for node in SOURCE.body if isinstance(node, ast.FunctionDef) and node.name == function]
    found = {}
    for node in ast.walk(definition):
        if (isinstance(node, ast.If) and isinstance(node.test, ast.Compare)
                and isinstance(node.test.left, ast.Name) and node.test.left.id == "name"):
            (constant,) = node.test.comparators
            (statement,) = node.body
            found[constant.value] = statement.value.func.id
    return found


def test_every_step_called_by_name_is_the_one_its_table_names():
    by_name = _calls_by_name("advance")
    assert {"reroll", "buy", "turn", "resolve", "end"} <= set(by_name)
    for step, function in by_name.items():
        assert turn.STEPS[step] is getattr(turn, function), step


def test_every_answer_read_by_name_is_the_one_its_table_names():
    by_name = _calls_by_name("answer")
    assert set(by_name) == {"reroll", "buy"}
    for step, function in by_name.items():
        assert turn.ANSWERS[step] is getattr(turn, function), step
