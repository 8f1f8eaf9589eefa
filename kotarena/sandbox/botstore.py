"""The bot store: where strangers' bots are installed, out of the operator's environment.

A bot the operator does not vouch for is not ``pip install``-ed where kotarena runs:
Python runs the ``import`` lines of every ``.pth`` file of an environment's
``site-packages`` at the start of each of its processes, so a package installed there
runs its code in every ``kotarena`` command, the coordinator and its workers included.
``kotarena bots install`` (:mod:`kotarena.sandbox.botinstall`) puts it instead in a
directory of its own, ``<store>/<dist>-<version>/``, with the dependencies the
environment lacks. No process of the referee ever has that directory on its path; only
that bot's sandboxes put it first on theirs (and Python reads no ``.pth`` file there).

The store is ``<user data dir>/kotarena/bot-store`` (``platformdirs``), or
``KOTARENA_BOT_STORE``. Beside each directory, ``<dist>-<version>.json`` records what it
was installed from. What the stored bots declare is read like any untrusted package's,
in the sandbox (:mod:`kotarena.sandbox.catalogue`).
"""

from __future__ import annotations

import json
import os
import re
import shutil
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

#: The environment variable that moves the store.
STORE_ENV = "KOTARENA_BOT_STORE"


class InstallError(ValueError):
    """A bot that cannot be stored (or removed); the message is one line for the operator."""


def normal(name: str) -> str:
    """A distribution name as pip compares them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower().strip()


def store_dir() -> Path:
    """The bot store's directory (it may not exist yet)."""
    override = os.environ.get(STORE_ENV)
    if override:
        return Path(override).expanduser().absolute()
    import platformdirs

    return platformdirs.user_data_path("kotarena") / "bot-store"


@dataclass(frozen=True)
class StoredBot:
    """A distribution of the bot store."""

    #: Its name as its metadata spells it, and its version.
    name: str
    version: str
    #: The directory it and its dependencies are installed in.
    directory: Path
    #: What it was installed from (a file, a directory, a requirement), if recorded.
    source: str = ""
    dist: metadata.Distribution | None = field(default=None, compare=False, repr=False)

    @property
    def record(self) -> Path:
        return record_path(self.directory)


def entry_name(name: str, version: str) -> str:
    """The store directory's name for a distribution and version (the version in its
    normal form, which has no ``-``: ``1.0-1`` is ``1.0.post1``)."""
    from packaging.version import InvalidVersion, Version

    try:
        version = str(Version(version))
    except InvalidVersion:
        pass  # (refused before anything is stored: see botinstall)
    return f"{normal(name)}-{version}"


def record_path(directory: Path) -> Path:
    """The record kept beside a stored bot's directory (outside what its sandbox binds)."""
    return directory.with_name(directory.name + ".json")


def stored() -> list[StoredBot]:
    """Every distribution of the bot store, by name (metadata only: nothing is imported)."""
    root = store_dir()
    if not root.is_dir():
        return []
    found = []
    for directory in sorted(root.iterdir()):
        if directory.name.startswith(".") or not directory.is_dir() or "-" not in directory.name:
            continue
        wanted = directory.name.rsplit("-", 1)[0]
        try:
            record = json.loads(record_path(directory).read_text())
        except (OSError, ValueError):
            record = {}
        for dist in metadata.distributions(path=[str(directory)]):
            if normal(dist.metadata["Name"] or "") == wanted:
                found.append(StoredBot(dist.metadata["Name"], dist.version, directory,
                                       str(record.get("source", "")) if isinstance(record, dict) else "", dist))
                break
    return found


def find_stored(name: str) -> list[StoredBot]:
    """The stored distributions called ``name`` (any version)."""
    return [bot for bot in stored() if normal(bot.name) == normal(name)]


def remove(bot: StoredBot) -> None:
    """Remove a stored distribution, its dependencies and its record."""
    shutil.rmtree(bot.directory, ignore_errors=True)
    record_path(bot.directory).unlink(missing_ok=True)


__all__ = ["InstallError", "STORE_ENV", "StoredBot", "entry_name", "find_stored", "normal", "record_path", "remove", "store_dir",
           "stored"]
