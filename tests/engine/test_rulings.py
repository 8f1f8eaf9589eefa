"""The house style of King of Tokyo's rulings (docs/games.md, "House style"): every
constant of ``kotarena/games/kot/rulings.py`` is ``Final``, is read where the engine
decides, has one row in a rulings table of the docs that cites its source and names
tests that exist, and is asserted by a test; every test the rulings sections name
exists.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from kotarena.games.duel import rulings as duel_rulings
from kotarena.games.kot import rulings

ROOT = Path(__file__).resolve().parents[2]
PAGES = ("rules.md", "origins.md", "cards.md")
CONSTANTS = sorted(name for name in vars(rulings) if name.isupper())


def rulings_section(page: str) -> str:
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    section = text[text.index("## Rulings"):]
    following = re.search(r"^## ", section[3:], re.M)
    return section[:following.start() + 3] if following else section


def table_rows(name: str) -> list[tuple[str, str]]:
    """The rulings-table rows of ``name``, as ``(page, row)``."""
    return [(page, line) for page in PAGES for line in rulings_section(page).splitlines()
            if line.startswith(f"| `{name}`")]


def test_there_are_rulings_to_check():
    assert len(CONSTANTS) >= 10


@pytest.mark.parametrize("name", CONSTANTS)
def test_a_ruling_is_a_final_constant(name):
    assert "Final" in str(rulings.__annotations__[name])


@pytest.mark.parametrize("name", CONSTANTS)
def test_a_ruling_is_read_where_the_engine_decides(name):
    sources = [path for path in (ROOT / "kotarena" / "games" / "kot").rglob("*.py") if path.name != "rulings.py"]
    assert any(re.search(rf"\b{name}\b", path.read_text(encoding="utf-8")) for path in sources)


@pytest.mark.parametrize("name", CONSTANTS)
def test_a_ruling_has_one_row_citing_its_source_and_its_tests(name):
    # One row on each page whose game it decides (the roll-off's: classic and Origins).
    rows = table_rows(name)
    pages = [page for page, _ in rows]
    assert rows and len(pages) == len(set(pages)), rows
    for _, row in rows:
        constant, ruling, source, tests = (cell.strip() for cell in row.strip("|").split("|"))
        assert ruling and source and re.search(r"test_\w+\.py::test_\w+", tests)


@pytest.mark.parametrize("name", CONSTANTS)
def test_a_ruling_is_asserted_by_a_test(name):
    value = getattr(rulings, name)
    wanted = f"assert {name} is {value}"
    assert any(wanted in path.read_text(encoding="utf-8") for path in (ROOT / "tests").rglob("test_*.py"))


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


DUEL_CONSTANTS = sorted(name for name in vars(duel_rulings) if name.isupper())


@pytest.mark.parametrize("name", DUEL_CONSTANTS)
def test_a_duel_ruling_is_a_final_constant_with_a_row_in_duels_table(name):
    assert "Final" in str(duel_rulings.__annotations__[name])
    assert f"| `{name}` |" in (ROOT / "docs" / "duel.md").read_text(encoding="utf-8")
