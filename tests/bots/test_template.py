"""`kotarena bots new` writes a bot project that installs, registers, passes its own tests
and the conformance check (the template is tested, like llm-plugin's cookiecutter)."""

from __future__ import annotations

import importlib.util
import json
import tomllib
from importlib.resources import files
from pathlib import Path

import pytest
from click.testing import CliRunner

from kotarena.cli import cli
from kotarena.cli.bots import TEMPLATE_FILES, project_names
from kotarena.conformance import check_bot


def new(*args: str):
    return CliRunner().invoke(cli, ["bots", "new", *args])


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("KOTARENA_TRUST", "")
    result = new("Smash Bot", "--dir", str(tmp_path))
    assert result.exit_code == 0, result.output
    return tmp_path / "kotarena-smash-bot"


def test_new_writes_the_whole_project(project):
    files_written = sorted(str(p.relative_to(project)) for p in project.rglob("*") if p.is_file())

    assert files_written == ["README.md", "kotarena_smash_bot.py", "pyproject.toml", "tests/test_smash_bot.py"]
    for path in project.rglob("*.*"):
        assert "{{" not in path.read_text(), f"unfilled placeholder in {path.name}"


def test_every_shipped_template_file_is_used():
    shipped = {entry.name for entry in files("kotarena").joinpath("templates", "bot").iterdir()}

    assert shipped == set(TEMPLATE_FILES)


def test_pyproject_declares_the_entry_point_in_the_kotarena_group(project):
    meta = tomllib.loads((project / "pyproject.toml").read_text())

    assert meta["project"]["name"] == "kotarena-smash-bot"
    assert meta["project"]["entry-points"]["kotarena"] == {"smash-bot": "kotarena_smash_bot"}
    assert meta["project"]["dependencies"] == ["kotarena"]
    assert meta["tool"]["setuptools"]["py-modules"] == ["kotarena_smash_bot"]


def test_readme_says_how_to_install_check_and_play(project):
    readme = (project / "README.md").read_text()

    for step in ("pip install -e", "kotarena bots", "kotarena bots check smash-bot",
                 "kotarena play --bot smash-bot"):
        assert step in readme


def test_the_generated_tests_pass(project, site, monkeypatch):
    # Run the project's own tests (the conformance check and the position test) in this
    # process, as `python -m pytest` in the project would.
    monkeypatch.syspath_prepend(str(project))
    path = project / "tests" / "test_smash_bot.py"
    spec = importlib.util.spec_from_file_location("generated_test_smash_bot", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    tests = [getattr(module, name) for name in dir(module) if name.startswith("test_")]

    assert len(tests) == 2
    for test in tests:
        test()


def test_the_installed_bot_is_listed_and_passes_kotarena_bots_check(project, install, monkeypatch):
    install(project)
    monkeypatch.setenv("KOTARENA_TRUST", "kotarena-smash-bot")

    listed = json.loads(CliRunner().invoke(cli, ["bots", "--json"]).output)
    result = CliRunner().invoke(cli, ["bots", "check", "smash-bot", "--games", "1"])

    smash = next(bot for bot in listed["bots"] if bot["name"] == "smash-bot")
    assert (smash["package"], smash["version"]) == ("kotarena-smash-bot", "0.1.0")
    assert smash["description"] == "Leaves Tokyo when hurt, otherwise plays a random legal action."
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "8 passed, 0 failed"


def test_the_bot_class_passes_check_bot_before_it_is_installed(project, site, monkeypatch):
    monkeypatch.syspath_prepend(str(project))
    from kotarena_smash_bot import SmashBot

    report = check_bot(SmashBot, games=1, worker=False)

    assert report.ok, report.text()
    assert "not installed (class checked directly)" in report.check("registration").detail


def test_new_refuses_to_overwrite_an_existing_directory(project):
    (project / "README.md").write_text("my notes")

    result = new("Smash Bot", "--dir", str(project.parent))

    assert result.exit_code == 1
    assert result.output == f"Error: {project} already exists; choose another name or --dir\n"
    assert (project / "README.md").read_text() == "my notes"


@pytest.mark.parametrize(("typed", "slug", "module", "class_name"), [
    ("Smash Bot", "smash-bot", "kotarena_smash_bot", "SmashBot"),
    ("greedy", "greedy", "kotarena_greedy", "GreedyBot"),
    ("kotarena-Cautious_v2", "cautious-v2", "kotarena_cautious_v2", "CautiousV2Bot"),
])
def test_names_are_derived_from_what_the_author_typed(typed, slug, module, class_name):
    names = project_names(typed)

    assert (names["slug"], names["module"], names["class_name"]) == (slug, module, class_name)
    assert names["package"] == f"kotarena-{slug}"


@pytest.mark.parametrize(("typed", "message"), [
    ("9lives", "Error: a bot name must start with a letter, not '9lives'\n"),
    ("!!!", "Error: '!!!' is not a usable bot name; use letters, digits and spaces, e.g. 'Smash Bot'\n"),
    ("random", "Error: a bot named 'random' is already installed; choose another name\n"),
])
def test_unusable_names_are_one_line_errors(typed, message, tmp_path, monkeypatch):
    monkeypatch.setenv("KOTARENA_TRUST", "")

    result = new(typed, "--dir", str(tmp_path))

    assert (result.exit_code, result.output) == (1, message)
    assert list(tmp_path.iterdir()) == []
