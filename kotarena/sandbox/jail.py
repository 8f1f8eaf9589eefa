"""The sandbox a bot runs in: bubblewrap namespaces, a read-only filesystem, no network.

:func:`jail_command` wraps a command in ``bwrap`` (Debian's ``bubblewrap``) so that it
runs

* in new user, process, network, IPC, UTS and cgroup namespaces: no network at all
  (not even loopback to the referee), no process of the machine in sight, killed with
  everything it started when its parent (the worker) dies;
* on a filesystem that holds only what Python needs to import kotarena and the bot
  (the system's ``/usr`` and libraries, the interpreter, the directories on
  ``sys.path`` and those editable installs point to), all read-only; plus a private
  ``/scratch`` and ``/tmp`` of ``scratch_mb`` each, emptied before every game, and a
  minimal ``/dev`` and ``/proc``. Not the user's home, not the results database (even
  where it lies in a directory that is bound, it is hidden), not the referee's
  environment (``--clearenv``);
* with no capabilities, as user ``nobody`` of its own namespace.

Caps on memory, processes and CPU time are the cgroups' (:mod:`kotarena.sandbox.cgroups`)
and the host's own limits (:mod:`kotarena.sandbox.host`). :func:`sandbox_problem` says
why the sandbox cannot be had on this machine, if it cannot.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

#: System directories every Python needs (those that exist are bound read-only).
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
#: Files of ``/etc`` the dynamic loader and Python read; nothing else of ``/etc``.
ETC_FILES = ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/localtime", "/etc/nsswitch.conf", "/etc/passwd",
             "/etc/group")
#: Where a seat may write (each a private tmpfs).
SCRATCH = ("/scratch", "/tmp")


def bwrap_path() -> str | None:
    """The ``bwrap`` program, or ``None`` when bubblewrap is not installed."""
    return shutil.which("bwrap")


def python_paths() -> list[str]:
    """The directories a Python process of this environment imports from: the
    interpreter's prefixes, ``sys.path``, and where editable installs point."""
    paths = {sys.prefix, sys.base_prefix, sys.exec_prefix, str(Path(sys.executable).resolve().parent)}
    paths.update(entry for entry in sys.path if entry and os.path.isdir(entry))
    for finder in sys.meta_path:
        # setuptools' editable installs map each package to its source directory
        module = sys.modules.get(getattr(finder, "__module__", ""))
        for mapping_name in ("MAPPING", "NAMESPACES"):
            mapping = getattr(module, mapping_name, None)
            if isinstance(mapping, dict):
                for value in mapping.values():
                    paths.update(value if isinstance(value, list) else [value])
    return sorted(path for path in paths if os.path.exists(path))


def _outermost(paths: Iterable[str]) -> list[str]:
    """``paths`` without those inside another of them (binding the outer one is enough)."""
    kept: list[str] = []
    for path in sorted({os.path.realpath(p) for p in paths}):
        if not any(path == outer or path.startswith(outer.rstrip("/") + "/") for outer in kept):
            kept.append(path)
    return kept


def jail_command(command: Sequence[str], *, hide: Iterable[str] = (), paths: Iterable[str] = (),
                 scratch_mb: int = 64, keep_fds: Iterable[int] = ()) -> list[str]:
    """``command`` wrapped in bubblewrap (see the module's docstring).

    ``hide`` names files the bot must not read even where they lie inside a bound
    directory (the results database and its journal files): each is covered by an
    empty file. ``paths`` are more directories to bind read-only (a stored bot's, from
    the bot store). ``keep_fds`` are descriptors the command is given (bwrap passes
    inherited descriptors on as they are).
    """
    bwrap = bwrap_path()
    if bwrap is None:
        raise OSError("bubblewrap (bwrap) is not installed")
    args = [bwrap, "--unshare-all", "--unshare-user", "--uid", "65534", "--gid", "65534", "--die-with-parent",
            "--new-session", "--cap-drop", "ALL", "--clearenv", "--proc", "/proc", "--dev", "/dev"]
    # The scratch directories first: a directory bound below /tmp (a virtual environment
    # made there) is then mounted over the empty /tmp, not hidden by it.
    for directory in SCRATCH:
        args += ["--size", str(scratch_mb << 20), "--tmpfs", directory]
    for directory in SYSTEM_DIRS:
        if os.path.islink(directory):
            args += ["--symlink", os.readlink(directory), directory]
        elif os.path.isdir(directory):
            args += ["--ro-bind", directory, directory]
    for path in ETC_FILES:
        if os.path.exists(path):
            args += ["--ro-bind", path, path]
    for path in _outermost([*python_paths(), *(p for p in paths if os.path.isdir(p))]):
        if not any(path == d or path.startswith(d + "/") for d in SYSTEM_DIRS):
            args += ["--ro-bind", path, path]
    for path in hide:
        real = os.path.realpath(path)
        if os.path.isfile(real):
            args += ["--ro-bind", "/dev/null", real]
    args += ["--setenv", "HOME", "/scratch", "--setenv", "TMPDIR", "/tmp", "--setenv", "PATH", "/usr/bin:/bin",
             "--setenv", "LANG", "C.UTF-8", "--setenv", "PYTHONDONTWRITEBYTECODE", "1", "--chdir", "/scratch"]
    return [*args, "--", *command]


@functools.cache
def sandbox_problem() -> str | None:
    """Why bots cannot be sandboxed on this machine, or ``None`` when they can.

    Tried for real, once per process: bubblewrap must start Python in the sandbox with
    no network, and the cgroups must be writable.
    """
    from kotarena.sandbox.cgroups import cgroups_problem

    if bwrap_path() is None:
        return "bubblewrap is not installed (Debian: apt-get install bubblewrap)"
    probe = "import socket\ntry:\n socket.create_connection(('127.0.0.1', 9), 1)\nexcept OSError as e:\n print(e.errno)"
    try:
        done = subprocess.run(jail_command([sys.executable, "-I", "-c", probe]), capture_output=True, text=True,
                              timeout=60)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"bubblewrap cannot start: {error}"
    if done.returncode != 0:
        return f"bubblewrap cannot start a sandbox here: {done.stderr.strip().splitlines()[-1:] or done.returncode}"
    problem = cgroups_problem()
    if problem is not None:
        return problem
    return None


__all__ = ["SCRATCH", "bwrap_path", "jail_command", "python_paths", "sandbox_problem"]
