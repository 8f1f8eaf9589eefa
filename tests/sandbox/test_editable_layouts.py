"""The bot author's path, as docs/writing-bots.md tells it: ``kotarena bots new NAME``,
``pip install -e`` the project, and the bot plays untrusted in a sealed night.

Every layout setuptools installs editable is tried: the single module ``bots new``
writes (mapped by setuptools' editable finder to the module's path without its
suffix), a package beside ``pyproject.toml`` (mapped by the finder to its directory)
a ``src`` layout (a ``.pth`` file that puts ``src`` on ``sys.path``), and a package
installed in strict mode (a tree of links to the sources, on ``sys.path`` by a ``.pth``). The projects
lie in a directory the referee writes nothing in, and are installed into this test's own
environment for the test's length (then uninstalled).
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlmodel import Session, select

from kotarena import plugins
from kotarena.cli import cli
from kotarena.storage.db import open_db
from kotarena.storage.models import Seat
from kotarena.tournament.night import load_sealed_ladder, run_night

LAYOUTS = {"module": "Editable Module", "package": "Editable Package", "src": "Editable Src",
           "strict": "Editable Strict"}


def _as_package(project: Path, module: str) -> None:
    (project / module).mkdir()
    (project / f"{module}.py").rename(project / module / "__init__.py")
    _set_layout(project, f'packages = ["{module}"]')


def _as_src_layout(project: Path, module: str) -> None:
    (project / "src" / module).mkdir(parents=True)
    (project / f"{module}.py").rename(project / "src" / module / "__init__.py")
    _set_layout(project, f'package-dir = {{"" = "src"}}\npackages = ["{module}"]')


def _set_layout(project: Path, layout: str) -> None:
    pyproject = project / "pyproject.toml"
    lines = [layout if line.startswith("py-modules") else line for line in pyproject.read_text().splitlines()]
    pyproject.write_text("\n".join(lines) + "\n")


def _builds_without_isolation() -> bool:
    """Whether this environment's setuptools can build an editable wheel by itself
    (it needs ``wheel`` before setuptools 70.1)."""
    version = tuple(int(part) for part in importlib.metadata.version("setuptools").split(".")[:2])
    return version >= (70, 1) or importlib.util.find_spec("wheel") is not None


@pytest.fixture
def editable_bots(tmp_path, sandbox):
    """The three projects, made by ``bots new`` and installed with ``pip install -e``."""
    projects = {}
    for layout, name in LAYOUTS.items():
        result = CliRunner().invoke(cli, ["bots", "new", name, "--dir", str(tmp_path)])
        assert result.exit_code == 0, result.output
        slug = name.lower().replace(" ", "-")
        project, module = tmp_path / f"kotarena-{slug}", f"kotarena_{slug.replace('-', '_')}"
        if layout in ("package", "strict"):
            _as_package(project, module)
        elif layout == "src":
            _as_src_layout(project, module)
        projects[slug] = project
    isolation = ["--no-build-isolation", "--no-index"] if _builds_without_isolation() else []
    pip = [sys.executable, "-m", "pip", "--isolated", "--disable-pip-version-check"]
    lenient = [arg for slug, project in projects.items() if slug != "editable-strict" for arg in ("-e", str(project))]
    installs = [subprocess.run([*pip, "install", "-q", "--no-deps", *isolation, *lenient], capture_output=True,
                               text=True),
                subprocess.run([*pip, "install", "-q", "--no-deps", *isolation, "--config-settings",
                                "editable_mode=strict", "-e", str(projects["editable-strict"])],
                               capture_output=True, text=True)]
    try:
        assert [install.stderr for install in installs if install.returncode] == []
        plugins.reset()
        yield projects
    finally:
        subprocess.run([*pip, "uninstall", "-q", "-y", *(project.name for project in projects.values())],
                       capture_output=True)
        plugins.reset()


def test_every_editable_layout_made_from_bots_new_plays_untrusted_in_a_sealed_night(tmp_path, editable_bots):
    site = Path(sys.prefix)
    # How setuptools maps each layout (what the sandbox must bind): a finder for the
    # module and the package, a path in a .pth file for the src layout.
    finders = "".join(path.read_text() for path in site.glob("lib/python*/site-packages/__editable___*_finder.py"))
    assert str(editable_bots["editable-module"] / "kotarena_editable_module") + "'" in finders
    assert str(editable_bots["editable-package"] / "kotarena_editable_package") + "'" in finders
    pth = "".join(path.read_text() for path in site.glob("lib/python*/site-packages/__editable__.*.pth"))
    assert str(editable_bots["editable-src"] / "src") in pth
    # (strict mode: a tree of links to the sources, its directory in a .pth file)
    assert str(editable_bots["editable-strict"] / "build" / "__editable__.kotarena_editable_strict-0.1.0") in pth

    ladder = tmp_path / "authors.toml"
    ladder.write_text('name = "authors"\nplayers = 5\ngames = 3\n\n[[bots]]\nname = "random"\n\n'
                      + "".join(f'[[bots]]\nname = "{slug}"\n\n' for slug in editable_bots))
    engine = open_db(tmp_path / "results.db")
    report = run_night(engine, load_sealed_ladder(ladder), workers=0)
    assert report.finished and report.played == 3
    with Session(engine) as session:
        seats = session.exec(select(Seat)).all()
    assert {seat.entrant for seat in seats} >= set(editable_bots)
    assert [(seat.entrant, seat.forfeit, seat.forfeit_detail) for seat in seats if seat.forfeit] == []
