"""What the installed bots declare, read one distribution at a time, without importing
any of them into the referee.

A plugin's import-time code is the bot author's code. The referee (every ``kotarena``
command, a night's coordinator and its workers) imports only kotarena and the
distributions it trusts. What the others declare is read, for each distribution with
``kotarena`` entry points (in this environment, and every bot of the bot store,
:mod:`kotarena.sandbox.botstore`), by a host process of its own in the sandbox
(``python -I -m kotarena.sandbox.host --catalogue --dist DIST``) that loads kotarena's
built-in plugins and that one distribution only. So a package can only speak for
itself: its bots' names, games, parameters and descriptions, the hooks its plugins
implement, and its import errors word for word. Which package and version each entry
belongs to is the referee's knowledge, from the installed metadata, never the process's.

The processes run side by side, and each answer is cached in the user's cache directory
(``platformdirs``), keyed by the distribution's identity: name, version, where its
metadata lies and when it last changed, the files it installed (or, for an editable
install, the newest file of its source tree), and kotarena's own version. A warm
``kotarena bots`` starts no process at all.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import resource
import socket
import subprocess
import sys
import time
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from urllib.parse import unquote, urlparse

from kotarena.sandbox import jail
from kotarena.sandbox.botstore import normal, stored
from kotarena.sandbox.jail import jail_command, python_paths
from kotarena.sandbox.protocol import ProtocolError, decode
from kotarena.sandbox.seat import read_line

#: Seconds one distribution's plugins may take to import.
CATALOGUE_SECONDS = 120.0
#: The entry point group of kotarena's plugins.
GROUP = "kotarena"
#: The hooks a package of the bot store may implement: it registers bots, nothing else.
STORE_HOOKS = frozenset({"register_bots"})
#: Bumped when what is cached changes shape.
CACHE_FORMAT = 2
#: Cache files kept (the oldest go beyond this).
CACHE_FILES = 500
#: Bounds on what a catalogue process may make the referee store or print.
_NAME_CHARS, _TEXT_CHARS, _MESSAGE_CHARS = 100, 300, 4000


class CatalogueError(RuntimeError):
    """The installed bots' declarations could not be read at all."""


@dataclass(frozen=True)
class Candidate:
    """A distribution whose catalogue is to be read: what the referee knows of it from
    its metadata alone."""

    name: str
    version: str
    #: Its ``kotarena`` entry points' names (the plugins it may speak for).
    plugins: tuple[str, ...]
    #: Its ``.dist-info`` (or ``.egg-info``) directory.
    info_dir: str
    #: Directories its sandbox puts first on ``sys.path`` (a stored bot's directory).
    path: tuple[str, ...] = ()
    #: Files whose change means it must be read again.
    sources: tuple[str, ...] = field(default=(), compare=False)


def read_catalogue(*, jailed: bool | None = None, skip: Iterable[str] = ()) -> dict:
    """What the untrusted distributions declare: ``{"bots": [...], "plugins": [...],
    "errors": [...]}``.

    Each bot is ``{"name", "package", "version", "plugin", "games", "description",
    "parameters", "path", "program"}`` (``path``: the directories its sandbox must put
    on ``sys.path``, ``[]`` for a bot of this environment; ``program``: whether it is a
    command-line bot); each plugin ``{"plugin",
    "package", "version", "hooks", "path"}``; each error ``{"plugin", "package",
    "message"}``. ``skip`` names distributions not to read (those the caller trusts
    and imports itself). Read in the sandbox (``jailed``, by default wherever it can be
    had), else in plain processes with a cleared environment: never by importing here.
    A distribution whose process fails is an error of its own; :class:`CatalogueError`
    only when no process can be started at all.
    """
    skipped = {normal(name) for name in skip}
    candidates = [c for c in candidates_here() if normal(c.name) not in skipped]
    result: dict = {"bots": [], "plugins": [], "errors": []}
    in_store, problems = store_candidates({normal(c.name) for c in candidates})
    result["errors"] += problems
    candidates += [c for c in in_store if normal(c.name) not in skipped]
    answers = _answers(candidates, jailed)
    for candidate in candidates:
        part = answers[candidate]
        for key in result:
            result[key] += part[key]
    return result


def read_one(candidate: Candidate, *, jailed: bool | None = None) -> dict:
    """One distribution's catalogue (read afresh, not from the cache): what
    :func:`read_catalogue` would hold of it."""
    if jailed is None:
        jailed = jail.sandbox_problem() is None
    return _checked(candidate, _ask(candidate, jailed))


def candidates_here() -> list[Candidate]:
    """The distributions of this environment (kotarena's ``sys.path``) with ``kotarena``
    entry points, but kotarena itself: the first of each name, as imports find it."""
    seen: set[str] = set()
    found = []
    for dist in metadata.distributions():
        name = dist.metadata["Name"] or ""
        if not name or normal(name) in seen:
            continue
        seen.add(normal(name))
        if normal(name) != "kotarena":
            candidate = candidate_of(dist)
            if candidate is not None:
                found.append(candidate)
    return found


def store_candidates(here: set[str] = frozenset()) -> tuple[list[Candidate], list[dict]]:
    """The bot store's distributions as candidates, and the problems of those that
    cannot be one (``here``: the normal names of this environment's distributions)."""
    found, problems = [], []
    for bot in stored():
        plugin = "?"
        if normal(bot.name) in here:
            problems.append({"plugin": plugin, "package": bot.name, "message": (
                f"is installed both here (pip) and in the bot store ({bot.directory}): the bot store's is ignored; "
                f"remove one ('kotarena bots uninstall {bot.name}' or 'pip uninstall {bot.name}')")})
            continue
        candidate = candidate_of(bot.dist, path=(str(bot.directory),)) if bot.dist is not None else None
        if candidate is None:
            problems.append({"plugin": plugin, "package": bot.name,
                             "message": f"declares no kotarena plugin (in the bot store, {bot.directory})"})
        else:
            found.append(candidate)
    return found, problems


def candidate_of(dist: metadata.Distribution, path: tuple[str, ...] = ()) -> Candidate | None:
    """The :class:`Candidate` for an installed distribution (``None`` without
    ``kotarena`` entry points), from its metadata: nothing of it is imported."""
    # (an entry point's name is printed: one with control characters speaks for nothing)
    plugins = tuple(sorted(ep.name for ep in dist.entry_points if ep.group == GROUP and _is_name(ep.name)))
    info_dir = getattr(dist, "_path", None)
    if not plugins or info_dir is None:
        return None
    return Candidate(dist.metadata["Name"], dist.version or "?", plugins, str(Path(info_dir).resolve()), path,
                     tuple(_source_files(dist, Path(info_dir))))


def _source_files(dist: metadata.Distribution, info_dir: Path) -> list[str]:
    """The files a change of which changes what the distribution declares: for an
    editable install its source tree, else the files it installed (its RECORD), else the
    modules its entry points name beside its metadata."""
    project = _editable_project(dist)
    if project is not None:
        return [str(path) for path in _tree(project)]
    files = [str(dist.locate_file(f)) for f in dist.files or () if not str(f).endswith(".pyc")]
    if files:
        return files
    found = []
    for ep in dist.entry_points:
        if ep.group == GROUP:
            top = ep.value.split(":")[0].split(".")[0].strip()
            module = info_dir.parent / top
            found += [str(module.with_suffix(".py"))] if module.with_suffix(".py").exists() else map(str, _tree(module))
    return found


def _editable_project(dist: metadata.Distribution) -> Path | None:
    """The source directory of an editable install (PEP 610's ``direct_url.json``)."""
    try:
        direct = json.loads(dist.read_text("direct_url.json") or "{}")
    except (ValueError, OSError):
        return None
    if not (isinstance(direct, dict) and isinstance(direct.get("dir_info"), dict) and direct["dir_info"].get("editable")):
        return None
    url = urlparse(str(direct.get("url", "")))
    return Path(unquote(url.path)) if url.scheme == "file" else None


#: Directories of a source tree that never hold what a plugin imports.
_PRUNED = {"__pycache__", "node_modules", "build", "dist"}


def _tree(root: Path, limit: int = 20000) -> list[Path]:
    """The files of a source tree, without hidden directories, virtual environments and
    build output (at most ``limit``)."""
    found: list[Path] = []
    for current, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in _PRUNED and not d.endswith(".egg-info")
                   and not os.path.exists(os.path.join(current, d, "pyvenv.cfg"))]
        found += [Path(current, name) for name in files if not name.endswith(".pyc")]
        if len(found) >= limit:
            break
    return found[:limit]


def identity(candidate: Candidate) -> str:
    """The cache key of a candidate: what it is, where, and when it last changed."""
    info = Path(candidate.info_dir)
    newest_meta = max((_mtime(path) for path in info.iterdir()), default=0) if info.is_dir() else _mtime(info)
    newest_source = max((_mtime(Path(path)) for path in candidate.sources), default=0)
    from kotarena import __version__

    key = [CACHE_FORMAT, normal(candidate.name), candidate.version, candidate.info_dir, newest_meta,
           len(candidate.sources), newest_source, list(candidate.path), __version__, _own_mtime(), sys.executable]
    return hashlib.sha256(json.dumps(key).encode()).hexdigest()[:32]


def _own_mtime() -> int:
    """The newest of kotarena's modules that shape a catalogue (an editable kotarena
    changes under the same version)."""
    here = Path(__file__).parent
    return max(_mtime(path) for path in (here / "host.py", here / "catalogue.py", here.parent / "plugins.py",
                                         here.parent / "bots" / "registry.py"))


def _mtime(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return 0


def cache_dir() -> Path:
    """Where catalogues are cached: ``<user cache dir>/kotarena/catalogue``."""
    import platformdirs

    return platformdirs.user_cache_path("kotarena") / "catalogue"


def _answers(candidates: list[Candidate], jailed: bool | None) -> dict[Candidate, dict]:
    """Each candidate's checked catalogue: from the cache, else read (side by side)."""
    found: dict[Candidate, dict] = {}
    missing = []
    for candidate in candidates:
        cached = _cached(candidate)
        if cached is None:
            missing.append(candidate)
        else:
            found[candidate] = cached
    if not missing:
        return found
    auto = jailed is None
    if auto:
        jailed = jail.sandbox_problem() is None  # (probed only when something must be read)
    if not jailed and auto:
        # A bot of the store runs nowhere but in the sandbox unless the caller says so.
        for candidate in [c for c in missing if c.path]:
            missing.remove(candidate)
            found[candidate] = _checked(candidate, {"type": "failed", "message": f"no sandbox here ({jail.sandbox_problem()})"})
        if not missing:
            return found
    if jailed and jail.bwrap_path() is None:
        # (one clear line when the sandbox cannot start, not one error per package)
        raise CatalogueError("could not read the installed bots: bubblewrap (bwrap) is not installed")
    workers = max(1, min(len(missing), os.cpu_count() or 2, 8))
    with ThreadPoolExecutor(workers) as pool:
        for candidate, raw in zip(missing, pool.map(lambda c: _ask(c, jailed), missing)):
            found[candidate] = _checked(candidate, raw)
            if raw.get("type") == "catalogue" or raw.get("keep") is True:
                _store(candidate, found[candidate])
    return found


def _cached(candidate: Candidate) -> dict | None:
    try:
        return json.loads((cache_dir() / f"{identity(candidate)}.json").read_text())
    except (OSError, ValueError):
        return None


def _store(candidate: Candidate, part: dict) -> None:
    directory = cache_dir()
    try:
        directory.mkdir(parents=True, exist_ok=True)
        target = directory / f"{identity(candidate)}.json"
        temporary = target.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(json.dumps(part))
        temporary.replace(target)
        entries = sorted(directory.glob("*.json"), key=_mtime)
        for old in entries[:-CACHE_FILES]:
            old.unlink(missing_ok=True)
    except OSError:
        pass  # (a cache that cannot be written is read again next time)


def _ask(candidate: Candidate, jailed: bool) -> dict:
    """The raw answer of ``candidate``'s catalogue process, or ``{"type": "failed",
    "message": ...}``."""
    ours, theirs = socket.socketpair()
    path = [*candidate.path, *python_paths()]
    command = [sys.executable, "-I", "-m", "kotarena.sandbox.host", "--catalogue", "--dist", candidate.name,
               "--control", str(theirs.fileno()), "--path", json.dumps(path)]
    with ours:
        try:
            streams = {"stdin": subprocess.DEVNULL, "stdout": subprocess.DEVNULL, "stderr": subprocess.PIPE}
            if jailed:
                process = start_jailed(command, paths=candidate.path, pass_fds=(theirs.fileno(),),
                                       start_new_session=True, **streams)
            else:
                process = subprocess.Popen(command, pass_fds=(theirs.fileno(),), start_new_session=True,
                                           env={"PATH": "/usr/bin:/bin"}, **streams)
        except OSError as error:
            return {"type": "failed", "message": f"could not start: {error}"}
        finally:
            theirs.close()
        hung = False
        try:
            line = read_line(ours, bytearray(), time.monotonic() + CATALOGUE_SECONDS)
        except TimeoutError:
            line, reason, hung = None, f"no answer within {CATALOGUE_SECONDS:.0f} s", True
        except OSError as error:
            line, reason = None, str(error)
        else:
            reason = "no answer"
        finally:
            if process.poll() is None:
                process.kill()
            _, err = process.communicate()
            release(process)
    if hung:  # (kept in the cache: a package that hangs costs its wait once, not in every command)
        return {"type": "failed", "message": reason, "keep": True}
    if not line:
        last = err.decode(errors="replace").strip().splitlines()[-1:]
        return {"type": "failed", "message": last[0] if last else reason}
    try:
        message = decode(line)  # (the line is the package's to write: any nesting, any bytes)
    except ProtocolError:
        message = None
    if message is None or message.get("type") != "catalogue":
        return {"type": "failed", "message": f"answered {bytes(line[:200])!r}"}
    return message


#: What a process started by :func:`start_jailed` may have, as a seat: memory (MiB) and processes.
JAILED_MB, JAILED_PIDS = 2048, 64
_GROUPS = itertools.count()


def start_jailed(command: list[str], *, paths: Iterable[str] = (), scratch_mb: int = 64, memory_mb: int = JAILED_MB,
                 **popen) -> subprocess.Popen:
    """Start ``command`` in the sandbox, with ``paths`` bound read-only too, held to
    ``memory_mb`` and :data:`JAILED_PIDS` processes as a seat is (a cgroup of its own,
    and an address-space limit): the package's code runs there, and a memory or fork
    bomb at import must not take the machine. Hand the process to :func:`release`
    when it is done."""
    from kotarena.sandbox.cgroups import SeatGroup

    try:
        group = SeatGroup(f"jailed{next(_GROUPS)}", memory_mb=memory_mb, max_pids=JAILED_PIDS)
    except OSError:
        group = None  # (the rlimits still hold memory; sandbox_problem requires cgroups for nights)
    before = popen.pop("preexec_fn", None)
    size = memory_mb << 20

    def prepare() -> None:
        if before is not None:
            before()
        if group is not None:
            group.join()
        resource.setrlimit(resource.RLIMIT_AS, (size, size))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    try:
        process = jail_command(command, paths=paths, scratch_mb=scratch_mb).start(preexec_fn=prepare, **popen)
    except BaseException:
        if group is not None:
            group.remove()
        raise
    process.kotarena_group = group  # type: ignore[attr-defined]
    return process


def release(process: subprocess.Popen) -> None:
    """Remove the cgroup of a process :func:`start_jailed` started (once it has ended)."""
    group = getattr(process, "kotarena_group", None)
    if group is None:
        return
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline:
        try:
            left = group.pids()
        except OSError:
            break
        if not left:
            break
        for pid in left:
            try:
                os.kill(pid, 9)
            except OSError:
                pass
        time.sleep(0.01)
    group.remove()


def _checked(candidate: Candidate, raw: dict) -> dict:
    """What the referee keeps of a catalogue process's answer: only entries of the
    candidate's own plugins, bounded, with package and version from its metadata."""
    package, version, path = candidate.name, candidate.version, list(candidate.path)
    own = set(candidate.plugins)
    plugin_of = candidate.plugins[0] if len(candidate.plugins) == 1 else ",".join(candidate.plugins)
    errors: list[dict] = []

    def error(plugin: str, message: str) -> None:
        errors.append({"plugin": plugin, "package": package, "message": message[:_MESSAGE_CHARS]})

    if raw.get("type") != "catalogue":
        error(plugin_of, f"its bots could not be read: {_text(raw.get('message'), _MESSAGE_CHARS)}")
        return {"bots": [], "plugins": [], "errors": errors}
    for entry in _list(raw.get("errors")):
        if isinstance(entry, dict):
            plugin = _text(entry.get("plugin"), _NAME_CHARS)
            error(plugin if plugin in own else plugin_of, _text(entry.get("message"), _MESSAGE_CHARS, lines=True))
    plugins = []
    for entry in _list(raw.get("plugins")):
        if isinstance(entry, dict) and isinstance(entry.get("plugin"), str) and entry["plugin"] in own:
            hooks = sorted({_text(h, _NAME_CHARS) for h in _list(entry.get("hooks"))})
            plugins.append({"plugin": entry["plugin"], "package": package, "version": version, "hooks": hooks,
                            "path": path})
    if candidate.path:
        # A stored package registers bots and nothing else: no games, commands or hooks
        # that would want the referee to import it.
        for plugin in plugins:
            extra = [hook for hook in plugin["hooks"] if hook not in STORE_HOOKS]
            if extra:
                error(plugin["plugin"], f"a package of the bot store may only register bots; it implements "
                                        f"{', '.join(extra)}: its bots are not offered")
                return {"bots": [], "plugins": plugins, "errors": errors}
    bots = []
    for entry in _list(raw.get("bots")):
        if not isinstance(entry, dict):
            continue
        name, plugin = entry.get("name"), entry.get("plugin")
        if not isinstance(name, str) or not _is_name(name) or len(name) > _NAME_CHARS or not isinstance(plugin, str) \
                or plugin not in own:
            error(plugin_of, f"declared a bot the referee cannot take: {_text(name, _NAME_CHARS)!r}")
            continue
        games = [game for game in _list(entry.get("games")) if isinstance(game, str) and _is_name(game)
                 and len(game) <= _NAME_CHARS]
        declared = entry.get("parameters")
        parameters = None if not isinstance(declared, dict) else {
            _text(key, _NAME_CHARS): _text(kind, _NAME_CHARS) for key, kind in list(declared.items())[:100]}
        bots.append({"name": name, "package": package, "version": version, "plugin": plugin, "games": games[:100],
                     "description": _text(entry.get("description"), _TEXT_CHARS), "parameters": parameters,
                     "path": path, "program": entry.get("program") is True})
    return {"bots": bots, "plugins": plugins, "errors": errors}


def _list(value: object) -> list:
    return value[:1000] if isinstance(value, list) else []


def _text(value: object, limit: int, *, lines: bool = False) -> str:
    """``value`` as text the referee may print and store: bounded, without terminal
    escapes, control or format characters (a bidirectional override), on one line
    unless ``lines``."""
    from kotarena.forfeits import _printable

    text = _printable((value if isinstance(value, str) else str(value))[:limit * 2])
    return (text if lines else " ".join(text.split()))[:limit]


def _is_name(name: str) -> bool:
    """Whether ``name`` may name a bot or a game: printable, no spaces, no line breaks."""
    return bool(name) and name.isprintable() and not any(char.isspace() for char in name)


__all__ = ["CATALOGUE_SECONDS", "Candidate", "CatalogueError", "STORE_HOOKS", "cache_dir", "candidate_of",
           "candidates_here", "identity", "read_catalogue", "read_one", "release", "start_jailed", "store_candidates"]
