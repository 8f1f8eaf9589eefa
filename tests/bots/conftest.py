"""Fixtures for plugin tests: "install" real plugin projects without pip.

A project directory (a ``pyproject.toml`` plus its modules) becomes an installed
distribution the way ``importlib.metadata`` sees one: a ``<name>-<version>.dist-info``
directory with ``METADATA`` and ``entry_points.txt`` next to the modules, in a
temporary directory put on ``sys.path``. Entry-point discovery, ``EntryPoint.dist``,
versions and imports are then all real, and it takes milliseconds instead of a pip
install into a virtual environment.
"""

from __future__ import annotations

import shutil
import sys
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from kotarena import plugins

FIXTURE_PLUGINS = Path(__file__).resolve().parent.parent / "fixtures" / "plugins"


@pytest.fixture(autouse=True)
def _plugins_forgotten_after_each_test() -> Iterator[None]:
    """Tests here load plugins under their own ``KOTARENA_TRUST`` or ``sys.path``;
    what they loaded must not outlive them. (The bot registry kept the table of one that
    ran the CLI with no plugins allowed, and later tests in other directories saw only
    the built-in bots.)"""
    yield
    plugins.reset()


def install_project(project: Path, site: Path) -> str:
    """Make ``project`` discoverable and importable from ``site``; returns its distribution name."""
    meta = tomllib.loads((project / "pyproject.toml").read_text(encoding="utf-8"))
    name, version = meta["project"]["name"], meta["project"]["version"]
    dist_info = site / f"{name.replace('-', '_')}-{version}.dist-info"
    dist_info.mkdir()
    (dist_info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    lines = []
    for group, entries in meta["project"].get("entry-points", {}).items():
        lines.append(f"[{group}]")
        lines.extend(f"{key} = {value}" for key, value in entries.items())
    (dist_info / "entry_points.txt").write_text("\n".join(lines) + "\n")
    for module in meta["tool"]["setuptools"]["py-modules"]:
        shutil.copy(project / f"{module}.py", site / f"{module}.py")
    return name


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty site-packages directory on ``sys.path``, with plugins reloaded around the test."""
    path = tmp_path / "site-packages"
    path.mkdir()
    monkeypatch.syspath_prepend(str(path))
    monkeypatch.delenv("KOTARENA_TRACE_PLUGINS", raising=False)
    before = set(sys.modules)
    plugins.reset()
    yield path
    plugins.reset()
    # The next test installs modules of the same names from another directory.
    for name in set(sys.modules) - before:
        if name.startswith("kotarena_"):
            del sys.modules[name]


@pytest.fixture
def install(site: Path) -> Callable[..., list[str]]:
    """``install("kotarena-good", project_path, ...)``: install fixture plugins (by directory
    name under tests/fixtures/plugins) or any project directory; returns the distribution names."""

    def install_fixtures(*projects: str | Path) -> list[str]:
        installed = [install_project(FIXTURE_PLUGINS / p if isinstance(p, str) else p, site) for p in projects]
        plugins.reset()
        return installed

    return install_fixtures
