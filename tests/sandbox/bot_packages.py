"""Bot packages for the sandbox's tests: wheels made here with ``zipfile`` (as a build
backend writes them, RECORD and all) and project directories, so no test reaches a
package index; and the fixture packages of ``tests/fixtures`` made visible as installed
(:func:`installed`)."""

from __future__ import annotations

import base64
import hashlib
import os
import sys
import textwrap
import zipfile
from collections.abc import Iterator
from pathlib import Path

from kotarena import plugins

#: A bot module: one bot, playing like the random bot, and an optional extra line run
#: at import (``{extra}``).
BOT_MODULE = '''\
from kotarena.bots.base import Bot
from kotarena.hookspecs import hookimpl
{extra}

class StoreBot(Bot):
    """{description}"""

    name = "{bot}"
    games = frozenset({{"*"}})

    def choose(self, view):
        return self.pick(view.legal)


@hookimpl
def register_bots(register):
    register(StoreBot)
'''


def module_name(dist: str) -> str:
    return dist.replace("-", "_")


def bot_source(bot: str, *, extra: str = "", description: str = "A bot of the bot store's tests.") -> str:
    return BOT_MODULE.format(bot=bot, extra=extra, description=description)


def make_wheel(directory: Path, dist: str, version: str, files: dict[str, str], *, entry_points: str = "",
               requires: tuple[str, ...] = ()) -> Path:
    """A wheel of ``dist`` holding ``files`` (archive path -> text), with its metadata."""
    module = module_name(dist)
    info = f"{module}-{version}.dist-info"
    metadata = f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n"
    metadata += "".join(f"Requires-Dist: {line}\n" for line in requires)
    contents = {**files, f"{info}/METADATA": metadata,
                f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
    if entry_points:
        contents[f"{info}/entry_points.txt"] = textwrap.dedent(entry_points).lstrip()
    record = []
    for path, text in contents.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(text.encode())}")
    record.append(f"{info}/RECORD,,")
    contents[f"{info}/RECORD"] = "\n".join(record) + "\n"
    directory.mkdir(parents=True, exist_ok=True)
    wheel = directory / f"{module}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for path, text in contents.items():
            archive.writestr(path, text)
    return wheel


def bot_wheel(directory: Path, dist: str, version: str = "0.1", *, bot: str | None = None, extra: str = "",
              requires: tuple[str, ...] = (), more: dict[str, str] | None = None, module: str | None = None) -> Path:
    """A wheel of a one-bot package: ``module`` (by default the bot module) and ``more`` files."""
    name = module_name(dist)
    source = module if module is not None else bot_source(bot or dist.removeprefix("kotarena-"), extra=extra)
    return make_wheel(directory, dist, version, {f"{name}.py": source, **(more or {})},
                      entry_points=f"[kotarena]\n{dist.removeprefix('kotarena-')} = {name}\n", requires=requires)


def library_wheel(directory: Path, dist: str, version: str = "1.0", *, value: str = "from the store") -> Path:
    """A plain library (no plugin): one module with a ``VALUE``."""
    return make_wheel(directory, dist, version, {f"{module_name(dist)}.py": f"VALUE = {value!r}\n"})


def bot_project(directory: Path, dist: str, *, bot: str, setup_extra: str = "", backend: str | None = None,
                version: str = "'0.1'") -> Path:
    """A setuptools project directory of a one-bot package (``setup.py`` runs
    ``setup_extra`` first: build code; ``version`` is a Python expression it may use)."""
    project = directory / dist
    project.mkdir(parents=True)
    module = module_name(dist)
    (project / f"{module}.py").write_text(bot_source(bot))
    build_system = f'[build-system]\nrequires = ["setuptools"]\nbuild-backend = "{backend or "setuptools.build_meta"}"\n'
    (project / "pyproject.toml").write_text(build_system)
    (project / "setup.py").write_text(
        f"{setup_extra}\nfrom setuptools import setup\n"
        f"setup(name={dist!r}, version={version}, py_modules=[{module!r}], "
        f"entry_points={{'kotarena': [{bot + ' = ' + module!r}]}})\n")
    return project


def installed(monkeypatch, directory: Path, module: str, *, trust: str | None = None) -> Iterator[Path]:
    """Make the fixture package in ``directory`` (a module beside its ``.dist-info``)
    visible as an installed third-party package for one test, untrusted unless ``trust``
    names its distribution; forget it after (a fixture's body: ``yield from installed(...)``)."""
    monkeypatch.syspath_prepend(str(directory))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(directory), os.environ.get("PYTHONPATH")])))
    if trust is None:
        monkeypatch.delenv("KOTARENA_TRUST", raising=False)
    else:
        monkeypatch.setenv("KOTARENA_TRUST", trust)
    plugins.reset()
    yield directory
    plugins.reset()
    sys.modules.pop(module, None)
