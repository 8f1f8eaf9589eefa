"""The package's shape: no import circle among kotarena's modules, the game-neutral core
imports no game, and no module grows past about 600 lines."""

from __future__ import annotations

import ast
from pathlib import Path

import kotarena

PACKAGE = Path(kotarena.__file__).parent
MAX_LINES = 600


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _module_level_imports(tree: ast.Module):
    """The import statements that run when the module is imported: its top level,
    including ``if``/``try`` blocks, but not ``if TYPE_CHECKING:`` blocks, functions or
    classes' methods."""
    todo = list(tree.body)
    while todo:
        node = todo.pop(0)
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.If):
            if not _is_type_checking(node.test):
                todo.extend(node.body)
            todo.extend(node.orelse)
        elif isinstance(node, ast.Try):
            todo.extend(node.body + node.orelse + node.finalbody)
            for handler in node.handlers:
                todo.extend(handler.body)
        elif isinstance(node, ast.ClassDef):
            todo.extend(item for item in node.body if not isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)))


def _imported(name: str, node: ast.Import | ast.ImportFrom) -> set[str]:
    """The kotarena modules an import statement of module ``name`` names: a submodule
    for ``from package import submodule``, the package itself for any other name."""
    found = set()
    if isinstance(node, ast.Import):
        found.update(alias.name for alias in node.names)
    else:
        if node.level:
            package = name if MODULES[name].name == "__init__.py" else name.rpartition(".")[0]
            for _ in range(node.level - 1):
                package = package.rpartition(".")[0]
            base = f"{package}.{node.module}" if node.module else package
        else:
            base = node.module or ""
        for alias in node.names:
            found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base)
    return {module for module in found if module in MODULES}


def import_graph() -> dict[str, set[str]]:
    """Each kotarena module and the kotarena modules its module-level imports name."""
    graph = {}
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        graph[name] = {module for node in _module_level_imports(tree) for module in _imported(name, node)} - {name}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One import circle through each strongly connected group of modules (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def test_no_import_circle_among_kotarenas_modules():
    cycles = _cycles(import_graph())
    assert not cycles, "modules that import each other in a circle: " + "; ".join(" -> ".join(c) for c in cycles)


def test_the_circle_finder_finds_a_circle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_the_core_imports_no_game():
    graph = import_graph()
    core = [name for name in graph if name.startswith("kotarena.engine")]
    assert core
    for name in core:
        assert not {m for m in graph[name] if m.startswith("kotarena.games")}, name


def test_no_module_is_longer_than_about_600_lines():
    long = {name: n for name, path in MODULES.items() if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, f"modules over {MAX_LINES} lines: {long}"
