"""The docs cannot drift from the code.

Every hook in kotarena.hookspecs has a heading in docs/hooks.md written exactly as its
signature and a ``test_hook_<name>...`` test in tests/bots/test_plugins.py; every
command and subcommand of ``kotarena`` has help text and is mentioned somewhere under
docs/. (datasette's and sqlite-utils' test_docs.py are the models.)

Commands are found by walking the real command tree, lazily loaded commands included.
A command whose module does not import yet (someone is still writing it) is left out:
only commands that exist are held to these rules.
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import click
import pluggy
import pytest
from click.testing import CliRunner

from kotarena import hookspecs
from kotarena.cli import COMMANDS, cli

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PLUGIN_TESTS = ROOT / "tests" / "bots" / "test_plugins.py"


def hook_signatures() -> dict[str, str]:
    """Hook name -> ``name(arg1, arg2)``, from the pluggy specs themselves."""
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    return {
        name: f"{name}({', '.join(caller.spec.argnames)})"
        for name, caller in vars(pm.hook).items()
        if not name.startswith("_")
    }


HOOKS = hook_signatures()


def importable_commands() -> dict[str, click.Command]:
    """Top-level commands whose modules import, by name."""
    found = {}
    for name, target in COMMANDS.items():
        module_name, attribute = target.split(":")
        try:
            found[name] = getattr(importlib.import_module(module_name), attribute)
        except Exception:  # noqa: BLE001 - not written yet; see the module docstring
            continue
    return found


def command_paths() -> list[tuple[str, ...]]:
    """Every command and subcommand, as ``("bots", "check")``."""
    paths = []

    def walk(command: click.Command, path: tuple[str, ...]) -> None:
        paths.append(path)
        if isinstance(command, click.Group):
            context = click.Context(command)
            for name in command.list_commands(context):
                walk(command.get_command(context, name), (*path, name))

    for name, command in importable_commands().items():
        walk(command, (name,))
    return paths


COMMAND_PATHS = command_paths()


def docs_text() -> str:
    return "\n".join(path.read_text(encoding="utf-8") for path in sorted(DOCS.rglob("*.md")))


def test_hooks_exist():
    assert set(HOOKS) == {"register_bots", "register_commands", "register_games", "seat_program"}


@pytest.mark.parametrize("name", sorted(HOOKS))
def test_hook_has_a_heading_with_its_exact_signature(name):
    headings = re.findall(r"^#{1,6}\s+`?([^`\n]+?)`?\s*$", (DOCS / "hooks.md").read_text(), re.MULTILINE)

    assert HOOKS[name] in headings, f"docs/hooks.md needs the heading '## {HOOKS[name]}'"


@pytest.mark.parametrize("name", sorted(HOOKS))
def test_hook_has_a_test(name):
    tree = ast.parse(PLUGIN_TESTS.read_text())
    tests = [node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)]

    assert any(test.startswith(f"test_hook_{name}") for test in tests), (
        f"tests/bots/test_plugins.py needs a test named test_hook_{name}...")


def test_the_bot_author_commands_are_among_those_checked():
    assert {("bots",), ("bots", "check"), ("bots", "new"), ("plugins",)} <= set(COMMAND_PATHS)


@pytest.mark.parametrize("path", COMMAND_PATHS, ids=" ".join)
def test_command_has_help_text(path):
    result = CliRunner().invoke(cli, [*path, "--help"])

    assert result.exit_code == 0, result.output
    command = cli
    for name in path:
        command = command.get_command(click.Context(command), name)
    assert (command.help or "").strip(), f"'kotarena {' '.join(path)}' has no help text"


@pytest.mark.parametrize("path", COMMAND_PATHS, ids=" ".join)
def test_command_is_mentioned_in_the_docs(path):
    spelled = " ".join(path)
    mentioned = re.search(rf"(kotarena |`){re.escape(spelled)}\b", docs_text()) is not None

    assert mentioned, f"no file under docs/ mentions 'kotarena {spelled}'"
