"""The package's shape: kotarena's packages in a declared layer order that every import
keeps (inside functions too), no import circle among its modules or its packages nor
inside a game package (imports inside functions counted), the game-neutral core imports
no game, and no module grows past about 600 lines."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import kotarena

PACKAGE = Path(kotarena.__file__).parent
MAX_LINES = 600


def _module_name(path: Path, package: Path = PACKAGE) -> str:
    parts = path.relative_to(package.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}

#: kotarena's packages and top-level modules, lowest layer first (CONTRIBUTING.md's
#: "Where things live" says the same). A module may import from its own layer and the
#: layers below, never from one above; ``kotarena`` is the package's ``__init__`` (the
#: public API, and ``__version__``).
LAYERS: tuple[tuple[str, ...], ...] = (
    ("engine", "decision_times", "free_for_all", "ladder_names", "plain_table", "ratings", "results", "seeds",
     "sprt"),  # pure
    ("hookspecs", "plugins"),  # finding plugins: games and bots come through them
    ("games",),
    ("bots",),
    ("kotarena", "decision_positions", "forfeits", "match", "replay", "scenario", "testing"),
    ("sandbox",),
    ("bench", "compare", "conformance"),
    ("storage",),
    ("tournament",),
    ("export", "pettingzoo", "site"),
    ("cli", "__main__"),
)
#: Modules named by a string that are not imports: kotarena's built-in plugins, loaded by
#: name like any plugin's entry point (the plugin manager is below the games and bots).
LOADED_AS_PLUGINS = {"kotarena.plugins": {"kotarena.games.builtin", "kotarena.bots.builtin", "kotarena.sandbox.builtin"}}


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


def _imported(name: str, node: ast.Import | ast.ImportFrom, modules=MODULES) -> set[str]:
    """The kotarena modules an import statement of module ``name`` names: a submodule
    for ``from package import submodule``, the package itself for any other name."""
    found = set()
    if isinstance(node, ast.Import):
        found.update(alias.name for alias in node.names)
    else:
        if node.level:
            package = name if modules[name].name == "__init__.py" else name.rpartition(".")[0]
            for _ in range(node.level - 1):
                package = package.rpartition(".")[0]
            base = f"{package}.{node.module}" if node.module else package
        else:
            base = node.module or ""
        for alias in node.names:
            found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base)
    return {module for module in found if module in modules}


_BY_NAME = {"import_module", "__import__", "find_spec"}


def _named(node: ast.AST, modules) -> str | None:
    """The kotarena module a string names, ``"kotarena.x.y"`` or ``"kotarena.x.y:attr"``
    (how a module is imported by name: ``importlib.import_module``, a lazy table), or
    the argument of ``import_module("kotarena")``."""
    if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
        function = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        if function in _BY_NAME and node.args[0].value in modules:
            return node.args[0].value
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and "." in node.value:
        module = node.value.partition(":")[0]
        if module in modules:
            return module
    return None


def every_import(name: str, tree: ast.Module, modules=MODULES):
    """``(line, module)`` for each kotarena module that module ``name`` imports anywhere:
    at its top level, in functions and methods, under ``if TYPE_CHECKING:`` (what a
    module names for its type hints is what it needs), and by name (a string naming a
    module, as ``importlib.import_module`` takes it)."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for module in _imported(name, node, modules):
                yield node.lineno, module
        elif (module := _named(node, modules)) is not None and module not in LOADED_AS_PLUGINS.get(name, ()):
            yield node.lineno, module


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


def _modules(package: Path) -> dict[str, Path]:
    return {_module_name(path, package): path for path in sorted(package.rglob("*.py"))}


def _top(module: str) -> str:
    """The package or top-level module ``module`` is in (``kotarena`` for the package's
    ``__init__``)."""
    return module.split(".")[1] if "." in module else "kotarena"


def _layer_of(top: str) -> int:
    return next(number for number, layer in enumerate(LAYERS) if top in layer)


def layer_breaks(modules=MODULES) -> list[str]:
    """Every import of a module from a higher layer than its own, as ``file:line: ...``."""
    found = []
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for line, module in sorted(set(every_import(name, tree, modules))):
            if _layer_of(_top(module)) > _layer_of(_top(name)):
                found.append(f"{path}:{line}: {name} ({_top(name)}) imports {module} ({_top(module)}), a higher layer")
    return found


def package_graph(modules=MODULES) -> dict[str, set[str]]:
    """Each of kotarena's packages and top-level modules, and those it imports anywhere."""
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        graph.setdefault(_top(name), set()).update(_top(module) for _, module in every_import(name, tree, modules))
    return {top: imported - {top} for top, imported in graph.items()}


def test_every_package_and_top_level_module_has_one_layer():
    tops = {_top(name) for name in MODULES}
    declared = [top for layer in LAYERS for top in layer]
    assert len(declared) == len(set(declared)), "a name in two layers"
    assert tops == set(declared), f"not in a layer: {sorted(tops - set(declared))}; no such module: {sorted(set(declared) - tops)}"


def test_no_import_reaches_up_a_layer():
    breaks = layer_breaks()
    assert not breaks, "imports from a higher layer (tests/test_layout.py's LAYERS):\n" + "\n".join(breaks)


def test_no_import_circle_among_kotarenas_packages():
    cycles = _cycles(package_graph())
    assert not cycles, "packages that import each other in a circle: " + "; ".join(" -> ".join(c) for c in cycles)


def _tree(root: Path, files: dict[str, str]) -> dict[str, Path]:
    for name, text in files.items():
        path = root / "kotarena" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return _modules(root / "kotarena")


def test_an_import_inside_a_function_that_reaches_up_a_layer_is_a_break(tmp_path):
    modules = _tree(tmp_path, {
        "__init__.py": "",
        "engine/__init__.py": "",
        "engine/game.py": "def new():\n    from kotarena.games import get_game\n    return get_game\n",
        "games/__init__.py": "from kotarena.engine import game\n\ndef get_game():\n    return game\n",
    })
    assert layer_breaks(modules) == [
        f"{modules['kotarena.engine.game']}:2: kotarena.engine.game (engine) imports kotarena.games (games), a higher layer"]
    assert _cycles(package_graph(modules)) == [["engine", "games"]]


def test_imports_in_methods_under_type_checking_and_by_name_count_too(tmp_path):
    modules = _tree(tmp_path, {
        "__init__.py": "",
        "engine/__init__.py": "",
        "engine/a.py": ("from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from kotarena.bots import Bot\n\n"
                        "class A:\n    def f(self):\n        from ..games import g\n\n"
                        "def b():\n    import importlib\n    return importlib.import_module('kotarena.cli')\n"),
        "games/__init__.py": "g = 1\n",
        "bots/__init__.py": "class Bot: ...\n",
        "cli/__init__.py": "LAZY = {'play': 'kotarena.bots:Bot'}\n",
    })
    lines = [line.split(": ", 1)[1] for line in layer_breaks(modules)]
    assert lines == ["kotarena.engine.a (engine) imports kotarena.bots (bots), a higher layer",
                     "kotarena.engine.a (engine) imports kotarena.games (games), a higher layer",
                     "kotarena.engine.a (engine) imports kotarena.cli (cli), a higher layer"]
    assert package_graph(modules)["cli"] == {"bots"}


def test_no_import_circle_among_kotarenas_modules():
    cycles = _cycles(import_graph())
    assert not cycles, "modules that import each other in a circle: " + "; ".join(" -> ".join(c) for c in cycles)


def _type_checking_blocks(tree: ast.Module) -> set[int]:
    """The ids of the import statements under ``if TYPE_CHECKING:``."""
    return {id(inner) for node in ast.walk(tree) if isinstance(node, ast.If) and _is_type_checking(node.test)
            for statement in node.body for inner in ast.walk(statement)}


def running_graph(package: str, modules=MODULES) -> dict[str, set[str]]:
    """Each module of ``package`` and the modules of the same package it imports in code
    that runs: at its top level and inside functions, not under ``if TYPE_CHECKING:`` (a
    name for the type checker, as the step modules name the state they are handed)."""
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        if name != package and not name.startswith(package + "."):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        typing_only = _type_checking_blocks(tree)
        graph[name] = {module for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
                       and id(node) not in typing_only for module in _imported(name, node, modules)
                       if module.startswith(package + ".")} - {name}
    return graph


GAME_PACKAGES = sorted(name for name, path in MODULES.items()
                       if name.count(".") == 2 and name.startswith("kotarena.games.") and path.name == "__init__.py")


def test_the_built_in_game_packages_are_checked():
    assert {"kotarena.games.duel", "kotarena.games.kot"} <= set(GAME_PACKAGES)


@pytest.mark.parametrize("package", GAME_PACKAGES)
def test_no_import_circle_inside_a_game_package_even_inside_functions(package):
    # docs/games.md, "A game package": the state calls the turn's steps, which reach it
    # through the state they are handed; what goes "upward" goes through a table.
    cycles = _cycles(running_graph(package))
    assert not cycles, "modules that import each other in a circle: " + "; ".join(" -> ".join(c) for c in cycles)


def test_no_import_circle_among_any_modules_even_inside_functions():
    # Not only the games: the sandbox, the tournament and the rest import one another's
    # modules in one order too, counting imports inside functions (type-only ones aside).
    cycles = _cycles(running_graph("kotarena"))
    assert not cycles, "modules that import each other in a circle: " + "; ".join(" -> ".join(c) for c in cycles)


def test_a_function_level_import_closes_a_circle_and_a_type_checking_one_does_not(tmp_path):
    modules = _tree(tmp_path, {
        "__init__.py": "",
        "games/__init__.py": "",
        "games/g/__init__.py": "",
        "games/g/state.py": "from kotarena.games.g import turn\n",
        "games/g/turn.py": ("from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
                            "    from kotarena.games.g.state import State\n\n"
                            "def begin():\n    from kotarena.games.g import game\n    return game\n"),
        "games/g/game.py": "from kotarena.games.g.state import turn\n",
    })
    assert _cycles(running_graph("kotarena.games.g", modules)) == [["kotarena.games.g.game", "kotarena.games.g.state",
                                                                      "kotarena.games.g.turn"]]
    (tmp_path / "kotarena" / "games" / "g" / "turn.py").write_text(
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from kotarena.games.g.state import State\n")
    assert _cycles(running_graph("kotarena.games.g", modules)) == []


def test_the_circle_finder_finds_a_circle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_the_core_imports_no_game():
    graph = import_graph()
    core = [name for name in graph if name.startswith("kotarena.engine")]
    assert core
    for name in core:
        assert not {m for m in graph[name] if m.startswith("kotarena.games")}, name


def test_the_core_has_no_import_circle_even_counting_imports_inside_functions():
    # The core is the bottom layer every game builds on: its modules are ordered too, by
    # every import (in functions, for type hints and by name), not only those that run.
    core = {name: path for name, path in MODULES.items() if name.startswith("kotarena.engine")}
    graph = {name: {module for _, module in every_import(name, ast.parse(path.read_text(encoding="utf-8")), MODULES)
                    if module in core} - {name} for name, path in core.items()}
    cycles = _cycles(graph)
    assert not cycles, "core modules that import each other in a circle: " + "; ".join(" -> ".join(c) for c in cycles)


def test_no_module_is_longer_than_about_600_lines():
    long = {name: n for name, path in MODULES.items() if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, f"modules over {MAX_LINES} lines: {long}"


def test_contributing_lists_the_same_layers():
    text = (Path(__file__).resolve().parents[1] / "CONTRIBUTING.md").read_text(encoding="utf-8")
    listed = re.findall(r"^(\d+)\. (.+(?:\n   .+)*)", text.partition("## Where things live")[2], re.MULTILINE)
    layers = [set(re.findall(r"`([\w.]+)`", entry)) for _, entry in listed]
    assert layers == [set(layer) for layer in LAYERS]
