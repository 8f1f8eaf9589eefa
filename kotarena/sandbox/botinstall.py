"""``kotarena bots install``: a stranger's bot into the bot store (:mod:`kotarena.sandbox.botstore`).

What is installed is always a wheel: a wheel is unpacked, never run. A wheel given as a
file is taken as it is; a requirement is downloaded from the package index as a wheel
(``--only-binary :all:``); an sdist or a project directory is built into one *inside
the sandbox* (:mod:`kotarena.sandbox.wheelbuild`), where its build code cannot reach
the operator. Then, into a directory of its own:

* ``pip install --target DIR --no-deps`` the bot's wheel;
* its requirements that this environment does not already satisfy, as wheels only,
  level by level (``kotarena`` itself never: a bot that needs another kotarena than this
  one is refused);
* its catalogue is read in the sandbox, as every untrusted package's is: a package that
  cannot be imported there, registers no bot, or implements any hook but
  ``register_bots`` is refused;
* the directory takes its place in the store, replacing the distribution's other
  versions (ratings are kept by entrant label, not by version).

Nothing here imports the bot, and no pip command runs on a source in this process.
"""

from __future__ import annotations

import email.parser
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

from kotarena.sandbox.botstore import (
    InstallError,
    StoredBot,
    entry_name,
    find_stored,
    normal,
    record_path,
    remove,
    store_dir,
    stored,
)
from kotarena.sandbox.catalogue import STORE_HOOKS, candidate_of, read_one

#: How deep requirements of requirements are followed.
MAX_LEVELS = 20
#: The largest METADATA read (into this process) from a wheel.
MAX_METADATA_BYTES = 16 << 20
#: Seconds a pip command may take.
PIP_SECONDS = 600.0


@dataclass
class Installed:
    """What an install did."""

    bot: StoredBot
    bots: list[str]
    dependencies: list[str] = field(default_factory=list)
    replaced: list[StoredBot] = field(default_factory=list)


def install(source: str, *, find_links: Sequence[str] = (), no_index: bool = False, jailed: bool | None = None,
            say: Callable[[str], None] = lambda text: None) -> Installed:
    """Install the bot ``source`` (a wheel, an sdist, a project directory, or a
    requirement) into the bot store; :class:`InstallError` when it cannot be."""
    index = [*(f"--find-links={link}" for link in find_links), *(["--no-index"] if no_index else [])]
    root = store_dir()
    root.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".incoming-", dir=root) as work:
        wheel = _wheel_of(source, Path(work) / "wheel", index, jailed, say)
        name, version, requires = wheel_metadata(wheel)
        _check_name(name, version)
        _check_kotarena(name, version, requires)
        stage = Path(work) / entry_name(name, version)
        say(f"Installing {name} {version} from {wheel.name}")
        _pip(["install", "--target", str(stage), "--no-deps", "--no-compile", str(wheel)], index)
        dependencies = _install_requirements(stage, requires, Path(work), index, say)
        bots = _check_catalogue(stage, name, jailed)
        target = root / stage.name
        earlier = find_stored(name)
        for bot in earlier:
            if bot.directory == target:
                remove(bot)
        stage.rename(target)
        record_path(target).write_text(json.dumps({"dist": name, "version": version, "source": source,
                                                   "installed": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                                                   "dependencies": dependencies}))
    replaced = [bot for bot in earlier if bot.directory != target]
    for bot in replaced:
        remove(bot)
    here = next(bot for bot in stored() if bot.directory == target)
    return Installed(here, bots, dependencies, replaced)


def uninstall(name: str, *, jailed: bool | None = None) -> list[StoredBot]:
    """Remove the stored distribution ``name``, or the one that registers the bot
    ``name``; the removed distributions (:class:`InstallError` when none matches)."""
    matches = find_stored(name)
    if not matches:
        from kotarena.sandbox.catalogue import CatalogueError, read_catalogue

        try:
            packages = {normal(bot["package"]) for bot in read_catalogue(jailed=jailed)["bots"]
                        if bot["name"] == name and bot["path"]}
        except CatalogueError:
            packages = set()  # (the bots' names cannot be read here: only packages' names work)
        matches = [bot for bot in stored() if normal(bot.name) in packages]
    if not matches:
        names = ", ".join(sorted({bot.name for bot in stored()})) or "none"
        raise InstallError(f"no bot or package {name!r} in the bot store (stored: {names}; see 'kotarena bots list')")
    for bot in matches:
        remove(bot)
    return matches


def _wheel_of(source: str, directory: Path, index: list[str], jailed: bool | None,
              say: Callable[[str], None]) -> Path:
    """The wheel to install for ``source``, in ``directory``."""
    directory.mkdir()
    path = Path(source).expanduser()
    if path.is_file() and path.name.endswith(".whl"):
        return Path(shutil.copy(path, directory / path.name))
    if path.is_dir() or (path.is_file() and is_sdist(path)):
        from kotarena.sandbox.wheelbuild import build_wheel

        say(f"Building a wheel of {path} in the sandbox")
        return build_wheel(path, directory, jailed=jailed)
    if path.exists() or os.sep in source:
        raise InstallError(f"{source} is neither a wheel (.whl), an sdist (.tar.gz, .zip) nor a project directory")
    from packaging.requirements import InvalidRequirement, Requirement

    try:
        Requirement(source)
    except InvalidRequirement:
        raise InstallError(f"{source!r} is no file, directory or requirement") from None
    _requirement(source, repr(source))
    say(f"Downloading a wheel of {source}")
    try:
        _pip(["download", "--no-deps", "--only-binary", ":all:", "--dest", str(directory), source], index)
    except InstallError as error:
        raise InstallError(f"no wheel of {source} could be downloaded ({error}); a project published as an sdist "
                           "only: download the sdist and 'kotarena bots install FILE'") from None
    wheels = sorted(directory.glob("*.whl"))
    if not wheels:
        raise InstallError(f"pip downloaded no wheel of {source}")
    return wheels[0]


def is_sdist(path: Path) -> bool:
    return path.name.endswith((".tar.gz", ".tgz", ".tar.bz2", ".tar.xz", ".tar", ".zip"))


def wheel_metadata(wheel: Path) -> tuple[str, str, list[str]]:
    """A wheel's name, version and ``Requires-Dist``, read from its ``METADATA``."""
    try:
        with zipfile.ZipFile(wheel) as archive:
            names = [n for n in archive.namelist() if n.count("/") == 1 and n.endswith(".dist-info/METADATA")]
            if len(names) != 1:
                raise InstallError(f"{wheel.name} is not a wheel: it has {len(names)} .dist-info/METADATA files")
            if archive.getinfo(names[0]).file_size > MAX_METADATA_BYTES:  # (read here: no zip bomb)
                raise InstallError(f"{wheel.name} has a METADATA of more than {MAX_METADATA_BYTES >> 20} MiB")
            text = archive.read(names[0]).decode("utf-8", errors="replace")
    except (zipfile.BadZipFile, OSError) as error:
        raise InstallError(f"{wheel.name} is not a wheel: {error}") from None
    message = email.parser.Parser().parsestr(text, headersonly=True)
    name, version = message.get("Name"), message.get("Version")
    if not name or not version:
        raise InstallError(f"{wheel.name} has no name or version in its metadata")
    return str(name), str(version), [str(line) for line in message.get_all("Requires-Dist") or ()]


#: A distribution name as PEP 508 allows it (nothing that could be a path).
_NAME = re.compile(r"[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?")


def _check_name(name: str, version: str) -> None:
    # The store's directory is named from these: a '/' or '..' in either would have pip
    # write the wheel's files wherever the wheel says.
    from packaging.version import InvalidVersion, Version

    if not _NAME.fullmatch(name):
        raise InstallError(f"{name!r} is not a valid distribution name")
    try:
        Version(version)
    except InvalidVersion:
        raise InstallError(f"{name}: {version!r} is not a valid version") from None
    if "/" in version or "\\" in version or version.strip() != version:
        raise InstallError(f"{name}: {version!r} is not a valid version")
    if normal(name) == "kotarena":
        raise InstallError("kotarena itself is never installed in the bot store")
    try:
        here = metadata.distribution(name)
    except metadata.PackageNotFoundError:
        return
    raise InstallError(f"{name} {here.version} is installed in this environment (by pip, so trusted there); "
                       f"'pip uninstall {name}' first to keep {version} in the bot store instead")


def _check_kotarena(name: str, version: str, requires: list[str]) -> None:
    """Refuse a bot that needs another kotarena than this one."""
    from kotarena import __version__

    for line in requires:
        requirement = _requirement(line, f"{name} {version}")
        if normal(requirement.name) == "kotarena" and _applies(requirement) and \
                not requirement.specifier.contains(__version__, prereleases=True):
            raise InstallError(f"{name} {version} needs {requirement}; this is kotarena {__version__}")


def _requirement(line: str, owner: str):
    """``line`` of ``owner``'s requirements, parsed; refused if it names a URL (pip
    builds a directory or an sdist it points at to read its metadata, whatever
    ``--only-binary`` says: its build code would run here, outside the sandbox)."""
    from packaging.requirements import InvalidRequirement, Requirement

    try:
        requirement = Requirement(line)
    except InvalidRequirement:
        raise InstallError(f"{owner} has a requirement that cannot be read: {line[:200]!r}") from None
    if requirement.url is not None:
        raise InstallError(f"{owner} names a URL as a requirement ({requirement.name} @ ...): only requirements "
                           "from the package index are installed; build and install that one first if you trust it")
    return requirement


def _applies(requirement) -> bool:
    return requirement.marker is None or requirement.marker.evaluate({"extra": ""})


def _install_requirements(stage: Path, requires: list[str], work: Path, index: list[str],
                          say: Callable[[str], None]) -> list[str]:
    """Install, as wheels, the requirements (and theirs) that this environment and the
    stage do not satisfy yet; the ``name==version`` of each installed."""
    installed: list[str] = []
    pending = [(line, "the bot") for line in requires]
    for level in range(MAX_LEVELS):
        wanted = []
        for line, owner in pending:
            requirement = _requirement(line, owner)
            if not _applies(requirement) or normal(requirement.name) == "kotarena":
                continue  # (kotarena was checked: the bot runs on this one)
            if _satisfied(requirement, stage) or any(normal(r.name) == normal(requirement.name) for r in wanted):
                continue
            wanted.append(requirement)
        if not wanted:
            return installed
        say(f"Installing its requirements: {', '.join(map(str, wanted))}")
        batch = work / f"level-{level}"
        _pip(["install", "--target", str(batch), "--no-deps", "--no-compile", "--only-binary", ":all:",
              *map(str, wanted)], index)
        pending = []
        for dist in metadata.distributions(path=[str(batch)]):
            installed.append(f"{dist.metadata['Name']}=={dist.version}")
            pending += [(line, f"its requirement {dist.metadata['Name']}") for line in dist.requires or []]
        _merge(batch, stage)
    raise InstallError(f"its requirements go more than {MAX_LEVELS} levels deep")


def _satisfied(requirement, stage: Path) -> bool:
    """Whether the stage or this environment has a version ``requirement`` accepts."""
    for dist in (*metadata.distributions(path=[str(stage)]), *_environment(requirement.name)):
        if normal(dist.metadata["Name"] or "") == normal(requirement.name):
            return requirement.specifier.contains(dist.version, prereleases=True)
    return False


def _environment(name: str) -> list[metadata.Distribution]:
    try:
        return [metadata.distribution(name)]
    except metadata.PackageNotFoundError:
        return []


def _merge(source: Path, target: Path) -> None:
    """Move what ``source`` holds into ``target`` (what ``target`` has already stays)."""
    for entry in source.iterdir():
        destination = target / entry.name
        if not destination.exists():
            entry.rename(destination)
        elif entry.is_dir() and destination.is_dir():
            _merge(entry, destination)


def _check_catalogue(stage: Path, name: str, jailed: bool | None) -> list[str]:
    """The bots the staged package registers, read in the sandbox; refused unless it
    imports there and registers bots and nothing else."""
    dist = next((d for d in metadata.distributions(path=[str(stage)]) if normal(d.metadata["Name"] or "") == normal(name)),
                None)
    candidate = candidate_of(dist, path=(str(stage),)) if dist is not None else None
    if candidate is None:
        raise InstallError(f"{name} declares no kotarena plugin (an entry point of the 'kotarena' group)")
    if jailed is None:
        from kotarena.sandbox.jail import sandbox_problem

        problem = sandbox_problem()
        if problem is not None:
            raise InstallError(f"{name} cannot be checked without the sandbox: {problem}")
    found = read_one(candidate, jailed=jailed)
    if found["errors"]:
        raise InstallError(f"{name} is refused: {found['errors'][0]['message']}".splitlines()[0][:500])
    extra = sorted({hook for plugin in found["plugins"] for hook in plugin["hooks"]} - STORE_HOOKS)
    if extra:
        raise InstallError(f"{name} is refused: a stored package may only register bots; it implements {', '.join(extra)}")
    if not found["bots"]:
        raise InstallError(f"{name} is refused: it registers no bot")
    return [bot["name"] for bot in found["bots"]]


def _pip(arguments: list[str], index: list[str]) -> None:
    """Run pip in a process of its own (on wheels only: pip never builds here)."""
    command = [sys.executable, "-m", "pip", *arguments, *index, "--disable-pip-version-check", "--no-input",
               "--quiet"]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=PIP_SECONDS,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise InstallError(f"pip {arguments[0]} took more than {PIP_SECONDS:.0f} s") from None
    if done.returncode != 0:
        lines = [line.strip() for line in (done.stderr or done.stdout).splitlines() if line.strip()]
        errors = [line for line in lines if line.lower().startswith("error")] or lines
        raise InstallError(f"pip {arguments[0]} failed: {errors[0] if errors else done.returncode}")


__all__ = ["InstallError", "Installed", "install", "is_sdist", "uninstall", "wheel_metadata"]
