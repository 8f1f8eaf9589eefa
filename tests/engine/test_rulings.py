"""The house style of every built-in game's rulings (docs/games.md, "House style"): every
constant of a game's ``rulings.py`` (King of Tokyo's, Duel's) is ``Final``, is read where
the engine decides, has one row in a rulings table of the game's docs that cites its
source and names tests that exist, and is asserted by a test; every test the rulings
sections name exists.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from types import ModuleType

import pytest

from kotarena.games.duel import rulings as duel_rulings
from kotarena.games.kot import rulings as kot_rulings

ROOT = Path(__file__).resolve().parents[2]
#: Each game package: its rulings module and the pages whose "Rulings" sections hold its table.
GAMES: dict[str, tuple[ModuleType, tuple[str, ...]]] = {
    "kot": (kot_rulings, ("rules.md", "origins.md", "cards.md")),
    "duel": (duel_rulings, ("duel.md",)),
}
RULINGS = [(game, name) for game, (module, _) in GAMES.items() for name in sorted(vars(module)) if name.isupper()]
PAGES = sorted({page for _, pages in GAMES.values() for page in pages})


def rulings_section(page: str) -> str:
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    section = text[text.index("## Rulings"):]
    following = re.search(r"^## ", section[3:], re.M)
    return section[:following.start() + 3] if following else section


def table_rows(game: str, name: str) -> list[tuple[str, str]]:
    """The rulings-table rows of ``name``, as ``(page, row)``."""
    return [(page, line) for page in GAMES[game][1] for line in rulings_section(page).splitlines()
            if line.startswith(f"| `{name}`")]


def asserted(name: str, value: object) -> str:
    """How a test asserts the constant's value: ``is`` for a switch (True, False, None),
    ``==`` for a number or a tuple."""
    return f"assert {name} is {value}" if value is None or isinstance(value, bool) else f"assert {name} == {value!r}"


@pytest.mark.parametrize("game", GAMES)
def test_there_are_rulings_to_check(game):
    assert len([name for g, name in RULINGS if g == game]) >= 8


@pytest.mark.parametrize(("game", "name"), RULINGS)
def test_a_ruling_is_a_final_constant(game, name):
    assert "Final" in str(GAMES[game][0].__annotations__[name])


@pytest.mark.parametrize(("game", "name"), RULINGS)
def test_a_ruling_is_read_where_the_engine_decides(game, name):
    sources = [path for path in (ROOT / "kotarena" / "games" / game).rglob("*.py") if path.name != "rulings.py"]
    assert any(re.search(rf"\b{name}\b", path.read_text(encoding="utf-8")) for path in sources)


@pytest.mark.parametrize(("game", "name"), RULINGS)
def test_a_ruling_has_one_row_citing_its_source_and_its_tests(game, name):
    # One row on each page whose game it decides (the roll-off's: classic and Origins).
    rows = table_rows(game, name)
    pages = [page for page, _ in rows]
    assert rows and len(pages) == len(set(pages)), rows
    for _, row in rows:
        constant, ruling, source, tests = (cell.strip() for cell in row.strip("|").split("|"))
        assert ruling and source and re.search(r"test_\w+\.py::test_\w+", tests)


@pytest.mark.parametrize(("game", "name"), RULINGS)
def test_a_ruling_is_asserted_by_a_test(game, name):
    wanted = asserted(name, getattr(GAMES[game][0], name))
    assert any(wanted in path.read_text(encoding="utf-8") for path in (ROOT / "tests").rglob("test_*.py")), wanted


def test_the_assertion_a_ruling_needs_fits_its_value():
    assert asserted("SWITCH", True) == "assert SWITCH is True"
    assert asserted("LIMIT", None) == "assert LIMIT is None"
    assert asserted("DISTANCES", (3, 4, 5)) == "assert DISTANCES == (3, 4, 5)"


def defined_tests(file_name: str) -> set[str]:
    [path] = [p for p in (ROOT / "tests").rglob(file_name)]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}


@pytest.mark.parametrize("page", PAGES)
def test_every_test_a_rulings_section_names_exists(page):
    named = re.findall(r"(test_\w+\.py)::(test_\w+)", rulings_section(page))
    assert named
    missing = [f"{file}::{test}" for file, test in named if test not in defined_tests(file)]
    assert not missing
