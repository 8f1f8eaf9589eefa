"""The sandbox a bot runs in: bubblewrap namespaces, a read-only filesystem, no network.

:func:`jail_command` wraps a command in ``bwrap`` (Debian's ``bubblewrap``) and
:meth:`Jail.start` starts it, so that it runs

* in new user, process, network, IPC, UTS and cgroup namespaces: no network at all
  (not even loopback to the referee), no process of the machine in sight, killed with
  everything it started when its parent (the worker) dies;
* under a seccomp filter (:mod:`kotarena.sandbox.seccomp`) that denies what two
  sandboxes could meet through: file locks, file-change notification, keyrings, and
  other calls that reach outside the namespaces;
* on a filesystem that holds only what Python needs to import kotarena and the bot, all
  read-only: the system's ``/usr`` and libraries, the interpreter's prefixes, the
  installations' own directories on ``sys.path`` (``site-packages``, the standard
  library) and the sources editable installs map; of any other directory on
  ``sys.path`` (a project directory, ``PYTHONPATH``), only its Python entries (modules,
  packages, ``.pth`` files, metadata), so that a database, a log or a ladder beside a
  module is never there, nor anything written beside it later. Plus a private
  ``/scratch`` and ``/tmp`` of ``scratch_mb`` each, emptied before every game, and a
  minimal ``/dev`` and ``/proc``;
* with nothing of the referee: bubblewrap itself starts with an empty environment and
  reads its options from a descriptor (so ``/proc/1/environ`` and ``/proc/1/cmdline``
  inside show no referee path or secret), no descriptor but the ones the caller keeps;
* with no capabilities, as user ``nobody`` of its own namespace.

What the caller names in ``hide`` (the results database, its side files, the bot-log
directory) is never in the sandbox, wherever it lies, even where it does not exist yet:
a directory of a bound tree that holds a hidden name is bound entry by entry without it.

Caps on memory, processes and CPU time are the cgroups' (:mod:`kotarena.sandbox.cgroups`)
and the host's own limits (:mod:`kotarena.sandbox.host`). :func:`sandbox_problem` says
why the sandbox cannot be had on this machine, if it cannot.
"""

from __future__ import annotations

import ast
import functools
import importlib.machinery
import os
import resource
import shutil
import stat
import subprocess
import sys
import sysconfig
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

#: System directories every Python needs (those that exist are bound read-only).
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
#: Files of ``/etc`` the dynamic loader and Python read; nothing else of ``/etc``.
ETC_FILES = ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/localtime", "/etc/nsswitch.conf", "/etc/passwd",
             "/etc/group")
#: Where a seat may write (each a private tmpfs).
SCRATCH = ("/scratch", "/tmp")
#: Names of the directories installers put packages in (bound whole).
SITE_DIRS = ("site-packages", "dist-packages")
#: What a directory on ``sys.path`` may hold that Python reads: the ends of module files
#: (``.py``, ``.pyc``, extension modules) and of ``.pth`` files and metadata.
MODULE_SUFFIXES = tuple(importlib.machinery.all_suffixes())
ENTRY_SUFFIXES = (*MODULE_SUFFIXES, ".pth", ".dist-info", ".egg-info", ".egg", ".egg-link")


def bwrap_path() -> str | None:
    """The ``bwrap`` program, or ``None`` when bubblewrap is not installed."""
    return shutil.which("bwrap")


def python_paths() -> list[str]:
    """The directories of this process's ``sys.path`` (the sandboxed host puts them on
    its own, so that it imports what this process would)."""
    return [entry for entry in dict.fromkeys(sys.path) if entry and os.path.isdir(entry)]


# ---------------------------------------------------------------- what is bound

def _inside(path: str, roots: Iterable[str]) -> bool:
    return any(path == root or path.startswith(root.rstrip("/") + "/") for root in roots)


def _outermost(paths: Iterable[str], *, resolve: bool = True) -> list[str]:
    """``paths`` (resolved, unless ``resolve`` is false) without those inside another of
    them (binding the outer one is enough)."""
    kept: list[str] = []
    for path in sorted({os.path.realpath(p) if resolve else p for p in paths}):
        if not _inside(path, kept):
            kept.append(path)
    return kept


def _prefixes() -> set[str]:
    """The interpreter's own trees: its prefixes and the directory of its program."""
    prefixes = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix,
                str(Path(sys.executable).resolve().parent)}
    return {os.path.realpath(prefix) for prefix in prefixes if prefix and os.path.isdir(prefix)}


def _installation_dirs() -> set[str]:
    """The standard library's and the installers' directories of this interpreter."""
    names = ("stdlib", "platstdlib", "purelib", "platlib")
    found = {os.path.realpath(path) for path in (sysconfig.get_paths().get(name) for name in names) if path}
    return {path for path in found if os.path.isdir(path)}


def _is_installation(path: str, prefixes: set[str], installed: set[str]) -> bool:
    """Whether a directory of ``sys.path`` is an installation's own (bound whole)."""
    return (os.path.basename(path) in SITE_DIRS or path in installed or _inside(path, prefixes)
            or _inside(path, SYSTEM_DIRS))


def _is_package(path: str, depth: int = 2) -> bool:
    """Whether directory ``path`` can be imported as a package (a regular one, or a
    namespace package holding modules or packages)."""
    if not os.path.basename(path).isidentifier():
        return False
    try:
        entries = list(os.scandir(path))
    except OSError:
        return False
    for entry in entries:
        if entry.name.endswith(MODULE_SUFFIXES) and entry.is_file():
            return True
        if depth > 1 and entry.is_dir() and _is_package(entry.path, depth - 1):
            return True
    return False


def _python_entries(directory: str) -> list[str]:
    """What Python reads of a directory on ``sys.path``: its modules, packages, ``.pth``
    files and metadata; not a database, a log or anything else lying beside them."""
    try:
        entries = sorted(os.scandir(directory), key=lambda entry: entry.name)
    except OSError:
        return []
    kept = []
    for entry in entries:
        if entry.name.endswith(ENTRY_SUFFIXES) or entry.name == "__pycache__":
            kept.append(entry.path)
        elif entry.is_dir() and _is_package(entry.path):
            kept.append(entry.path)
    return kept


def _editable_sources(site_dirs: Iterable[str]) -> tuple[set[str], set[str]]:
    """Where the editable installs of ``site_dirs`` import from, read from their files
    (never imported): the sources setuptools' finders map (``MAPPING``, ``NAMESPACES``
    of each ``__editable___*_finder.py``: a package's directory, or a module's path
    without its suffix), and the directories their ``.pth`` files add to ``sys.path``
    (compat mode, ``setup.py develop``). Returns (files and packages to bind whole,
    directories to bind by their Python entries)."""
    sources: set[str] = set()
    path_dirs: set[str] = set()
    for site in site_dirs:
        try:
            names = sorted(os.listdir(site))
        except OSError:
            continue
        for name in names:
            path = os.path.join(site, name)
            if name.startswith("__editable__") and name.endswith("_finder.py"):
                for value in _finder_targets(path):
                    if os.path.isdir(value) or os.path.isfile(value):
                        sources.add(value)
                    # a single module is mapped without its suffix
                    sources.update(value + suffix for suffix in MODULE_SUFFIXES if os.path.isfile(value + suffix))
            elif name.endswith(".pth"):
                for line in _read_lines(path):
                    if line and not line.startswith(("#", "import ", "import\t")):
                        directory = os.path.join(site, line)
                        if os.path.isdir(directory):
                            path_dirs.add(os.path.realpath(directory))
    return sources, path_dirs


def _read_lines(path: str) -> list[str]:
    try:
        with open(path, encoding="utf-8", errors="replace") as file:
            return [line.strip() for line in file.read(1 << 20).splitlines()]
    except OSError:
        return []


def _parse(source: str) -> ast.Module:
    """``ast.parse``, tried again when CPython 3.11's AST constructor raises its
    spurious ``SystemError`` (python/cpython#106905, fixed in 3.11.8 and 3.12.1: seen
    here on a loaded machine while other threads ran)."""
    for _ in range(4):
        try:
            return ast.parse(source)
        except SystemError as error:
            problem = error
    raise ValueError(f"could not parse an editable finder: {problem}")


def _finder_targets(path: str) -> list[str]:
    """The paths an editable finder module maps names to (its ``MAPPING`` and
    ``NAMESPACES`` literals)."""
    try:
        tree = _parse(Path(path).read_text(encoding="utf-8", errors="replace"))
    except (OSError, SyntaxError, ValueError):
        return []
    found: list[str] = []
    for node in tree.body:
        target = node.target if isinstance(node, ast.AnnAssign) else (
            node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else None)
        if not (isinstance(target, ast.Name) and target.id in ("MAPPING", "NAMESPACES") and node.value):
            continue
        try:
            mapping = ast.literal_eval(node.value)
        except ValueError:
            continue
        if isinstance(mapping, dict):
            for value in mapping.values():
                found.extend(str(v) for v in (value if isinstance(value, list) else [value]))
    return found


@dataclass(frozen=True)
class Binds:
    """What a sandbox binds read-only: trees bound whole, and the entries bound one by
    one of directories that are not bound whole."""

    whole: tuple[str, ...]
    entries: tuple[str, ...]

    def covers(self, path: str) -> bool:
        """Whether ``path`` is in the sandbox (inside something bound)."""
        return _inside(path, self.whole) or _inside(path, self.entries)


def bound_paths(paths: Iterable[str] = ()) -> Binds:
    """What the sandbox binds of this machine, beyond ``/etc``'s few files: the system
    directories, the interpreter's trees, the directories on ``sys.path`` (whole for an
    installation's own, else by their Python entries), the sources editable installs
    map, and ``paths`` (extra trees, bound whole: a stored bot's directory)."""
    prefixes = _prefixes()
    installed = _installation_dirs()
    whole = {d for d in SYSTEM_DIRS if os.path.isdir(d) and not os.path.islink(d)} | prefixes | installed
    whole.update(os.path.realpath(p) for p in paths if os.path.exists(p))
    by_entries: set[str] = set()
    for entry in python_paths():
        real = os.path.realpath(entry)
        (whole if _is_installation(real, prefixes, installed) else by_entries).add(real)
    site_dirs = [d for d in whole if os.path.basename(d) in SITE_DIRS]
    site_dirs += [d for d in installed if d not in site_dirs]
    sources, path_dirs = _editable_sources(site_dirs)
    whole.update(os.path.realpath(source) for source in sources)
    by_entries |= {d for d in path_dirs if not _is_installation(d, prefixes, installed)}
    whole_list = _outermost(whole)
    entries = [entry for directory in sorted(by_entries) if not _inside(directory, whole_list)
               for entry in _python_entries(directory)]
    # (not resolved: an entry that is a link stays a link, see _mount_options)
    entries = [entry for entry in _outermost(entries, resolve=False) if not _inside(entry, whole_list)]
    # A link tree (setuptools' strict editable mode) links to its project's sources:
    # bind those too, and nothing a link points to outside the project.
    targets = {target for directory in by_entries for target in _link_tree_sources(directory)}
    targets = {target for target in targets if not (_inside(target, whole_list) or _inside(target, entries))}
    return Binds(tuple(_outermost([*whole_list, *targets])), tuple(entries))


def _link_tree_sources(directory: str) -> set[str]:
    """The sources a link tree of setuptools' strict editable mode
    (``PROJECT/build/__editable__.NAME-VERSION-TAG``) links to, inside ``PROJECT`` only."""
    build = os.path.dirname(directory)
    if not (os.path.basename(directory).startswith("__editable__.") and os.path.basename(build) == "build"):
        return set()
    project = os.path.dirname(build)
    found = set()
    for folder, dirs, files in os.walk(directory):
        for name in (*dirs, *files):
            link = os.path.join(folder, name)
            target = os.path.realpath(link)
            if os.path.islink(link) and os.path.exists(target) and _inside(target, [project]):
                found.add(target)
    return found


def _without(directory: str, hidden: set[str]) -> list[str]:
    """Options that put ``directory`` in the sandbox entry by entry, without the
    ``hidden`` ones: nothing created in it later appears (an empty, read-only tmpfs
    with each entry bound on it)."""
    options = ["--tmpfs", directory]
    try:
        entries = sorted(os.scandir(directory), key=lambda entry: entry.name)
    except OSError:
        entries = []
    for entry in entries:
        if entry.path in hidden:
            continue
        if entry.is_symlink():
            options += ["--symlink", os.readlink(entry.path), entry.path]
        elif entry.is_dir() or entry.is_file():
            options += ["--ro-bind", entry.path, entry.path]
    return [*options, "--remount-ro", directory]


def _mount_options(binds: Binds, hide: Iterable[str], scratch_mb: int) -> list[str]:
    args = ["--proc", "/proc", "--dev", "/dev"]
    # The scratch directories first: a directory bound below /tmp (a virtual environment
    # made there) is then mounted over the empty /tmp, not hidden by it.
    for directory in SCRATCH:
        args += ["--size", str(scratch_mb << 20), "--tmpfs", directory]
    for directory in SYSTEM_DIRS:
        if os.path.islink(directory):
            args += ["--symlink", os.readlink(directory), directory]
    for path in ETC_FILES:
        if os.path.exists(path):
            args += ["--ro-bind", path, path]
    hidden = {os.path.realpath(path) for path in hide}
    hidden |= {os.path.join(os.path.realpath(os.path.dirname(path)), os.path.basename(path)) for path in hide}
    for path in sorted({*binds.whole, *binds.entries}):
        if path in hidden:
            continue
        if os.path.islink(path):
            # as a link: what it points to is there only if bound for itself (a link in
            # a project directory never brings in a file from elsewhere)
            args += ["--symlink", os.readlink(path), path]
        else:
            args += ["--ro-bind", path, path]
    # A bound directory that holds a hidden name (existing or not yet) is bound again,
    # entry by entry, without it: parents before children, so each lands on the last.
    holders = sorted({os.path.dirname(path) for path in hidden if binds.covers(os.path.dirname(path))},
                     key=lambda d: (d.count("/"), d))
    for directory in holders:
        if os.path.isdir(directory) and not _inside(directory, hidden):
            args += _without(directory, hidden)
    return args


# ---------------------------------------------------------------- starting it

def _memfd(name: str, data: bytes) -> int:
    """A descriptor of an anonymous file holding ``data``, read from its start."""
    fd = os.memfd_create(name, os.MFD_CLOEXEC)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.lseek(fd, 0, os.SEEK_SET)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _regular_file(target) -> int | None:
    """The descriptor of ``target`` (a file object or a descriptor) if it is a regular file."""
    try:
        fd = target if isinstance(target, int) else target.fileno()
        return fd if fd >= 0 and stat.S_ISREG(os.fstat(fd).st_mode) else None
    except (AttributeError, OSError, ValueError):
        return None


def _copier(read: int, file: int, log_mb: int) -> subprocess.Popen:
    """``cat``, appending what comes down the pipe ``read`` to ``file`` (``log_mb`` MiB
    at most: the file-size limit stops it there)."""
    cat = shutil.which("cat") or "/bin/cat"
    copier = subprocess.Popen([cat], stdin=read, stdout=file, stderr=subprocess.DEVNULL, close_fds=True, env={},
                              start_new_session=True)
    limit = max(log_mb, 1) << 20
    resource.prlimit(copier.pid, resource.RLIMIT_FSIZE, (limit, limit))
    resource.prlimit(copier.pid, resource.RLIMIT_CORE, (0, 0))
    return copier


@dataclass(frozen=True)
class Jail:
    """A command ready to start in its sandbox (made by :func:`jail_command`).

    Start it with :meth:`start` (or :meth:`run`), never by handing :attr:`argv` to
    ``subprocess`` yourself: ``start`` gives bubblewrap an empty environment, its
    options and the seccomp filter through descriptors that it reads and closes, and
    only the descriptors named in ``keep_fds`` or ``pass_fds``.
    """

    options: tuple[str, ...]   #: bubblewrap's options, without the seccomp filter
    command: tuple[str, ...]   #: what runs in the sandbox
    keep_fds: tuple[int, ...] = ()

    #: bubblewrap's environment: nothing (what runs inside gets only the ``--setenv``\ s).
    env = {}  # noqa: RUF012 - read-only by convention, handed to Popen as is

    @property
    def argv(self) -> list[str]:
        """The whole command with bubblewrap's options inline (to read or to run by
        hand; it lacks the seccomp filter, which :meth:`start` adds)."""
        return [bwrap_path() or "bwrap", *self.options, "--", *self.command]

    def start(self, *, pass_fds: Iterable[int] = (), log_mb: int = 64, **popen) -> subprocess.Popen:
        """Start bubblewrap on the command; ``popen`` takes ``subprocess.Popen``'s
        other arguments (``stdin``, ``stdout``, ``preexec_fn``...) but ``env``.

        A regular file given as ``stdout`` or ``stderr`` (the bot's log) is never handed
        to the sandbox: a descriptor of a file can be opened again through
        ``/proc/self/fd``, for reading too, and its size read, which would let one
        instance of a bot read what another wrote there. The sandbox writes to a pipe
        instead, which ``cat``, outside, appends to the file, ``log_mb`` MiB at most
        (then ``cat`` stops and the bot's writes fail).
        """
        from kotarena.sandbox.seccomp import seccomp_program

        if "env" in popen or "close_fds" in popen:
            raise TypeError("a sandbox starts with an empty environment and only the descriptors it keeps")
        bwrap = bwrap_path()
        if bwrap is None:
            raise OSError("bubblewrap (bwrap) is not installed")
        copiers, ends = [], []
        seccomp = _memfd("kotarena-seccomp", seccomp_program())
        try:
            pipes: dict[tuple[int, int], int] = {}  # one pipe for each file, however many streams go there
            for key in ("stdout", "stderr"):
                file = _regular_file(popen.get(key))
                if file is None:
                    continue
                identity = (os.fstat(file).st_dev, os.fstat(file).st_ino)
                if identity not in pipes:
                    read, write = os.pipe()
                    ends += [read, write]
                    copiers.append(_copier(read, file, log_mb))
                    pipes[identity] = write
                popen[key] = pipes[identity]
            options = [*self.options, "--seccomp", str(seccomp)]
            args = _memfd("kotarena-bwrap-args", b"".join(os.fsencode(option) + b"\0" for option in options))
            try:
                process = subprocess.Popen([bwrap, "--args", str(args), "--", *self.command], env={}, close_fds=True,
                                           pass_fds=(*self.keep_fds, *pass_fds, args, seccomp), **popen)
            except BaseException:
                for copier in copiers:
                    copier.kill()
                raise
            finally:
                os.close(args)
        finally:
            os.close(seccomp)
            for end in ends:
                os.close(end)
        process.log_copiers = copiers  # type: ignore[attr-defined]
        return process

    def run(self, *, timeout: float | None = None, **popen) -> subprocess.CompletedProcess:
        """Run the command to its end (as ``subprocess.run`` with ``capture_output``)."""
        with self.start(stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **popen) as process:
            try:
                out, err = process.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.communicate()
                raise
        return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def jail_command(command: Sequence[str], *, hide: Iterable[str] = (), hide_dirs: Iterable[str] = (),
                 paths: Iterable[str] = (), scratch_mb: int = 64, keep_fds: Iterable[int] = ()) -> Jail:
    """``command`` in the sandbox (see the module's docstring), ready to :meth:`~Jail.start`.

    ``hide`` names files and directories the bot must not read even where they lie
    inside a bound directory (the results database, its journal files, the bot logs),
    whether they exist yet or not; ``hide_dirs`` is the same for directories (kept for
    callers that name them apart). ``paths`` are extra directories to bind read-only
    (a stored bot's directory). ``keep_fds`` are descriptors the command is given.
    """
    options = ["--unshare-all", "--unshare-user", "--uid", "65534", "--gid", "65534", "--die-with-parent",
               "--new-session", "--cap-drop", "ALL", "--clearenv"]
    options += _mount_options(bound_paths(paths), [*hide, *hide_dirs], scratch_mb)
    options += ["--setenv", "HOME", "/scratch", "--setenv", "TMPDIR", "/tmp", "--setenv", "PATH", "/usr/bin:/bin",
                "--setenv", "LANG", "C.UTF-8", "--setenv", "PYTHONDONTWRITEBYTECODE", "1", "--chdir", "/scratch"]
    return Jail(tuple(options), tuple(command), tuple(keep_fds))


@functools.cache
def sandbox_problem() -> str | None:
    """Why bots cannot be sandboxed on this machine, or ``None`` when they can.

    Tried for real, once per process: bubblewrap must start Python in the sandbox with
    no network and file locks denied, and the cgroups must be writable.
    """
    from kotarena.sandbox.cgroups import cgroups_problem

    if bwrap_path() is None:
        return "bubblewrap is not installed (Debian: apt-get install bubblewrap)"
    probe = ("import fcntl, socket\ntry:\n socket.create_connection(('127.0.0.1', 9), 1)\nexcept OSError as e:\n"
             " print(e.errno)\ntry:\n fcntl.flock(open('/scratch/lock', 'w'), fcntl.LOCK_EX)\n print('locked')\n"
             "except OSError as e:\n print(e.errno)")
    try:
        done = jail_command([sys.executable, "-I", "-c", probe]).run(timeout=60)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"bubblewrap cannot start: {error}"
    if done.returncode != 0:
        lines = done.stderr.decode(errors="replace").strip().splitlines()
        return f"bubblewrap cannot start a sandbox here: {lines[-1] if lines else done.returncode}"
    if b"locked" in done.stdout:
        return "bubblewrap does not apply the seccomp filter (file locks were allowed)"
    problem = cgroups_problem()
    if problem is not None:
        return problem
    return None


__all__ = ["SCRATCH", "Binds", "Jail", "bound_paths", "bwrap_path", "jail_command", "python_paths",
           "sandbox_problem"]
