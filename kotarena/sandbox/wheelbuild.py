"""An sdist or a project directory built into a wheel inside the sandbox.

Building a Python project runs its build code (``setup.py``, a build backend's hooks),
which is the bot author's code as much as the bot is. So kotarena never builds one in
the operator's process: :func:`build_wheel` sends the source, as an archive on standard
input, to ``python -I -m kotarena.sandbox.wheelbuild`` in the sandbox (no network, the
environment's packages read-only, a private scratch directory), which unpacks it there,
runs ``pip wheel --no-deps --no-build-isolation --no-index`` with the build backend this
environment has (the operator's setuptools, read-only), and sends the wheel back on
standard output. A project whose build backend is not installed here is refused: its
author (or the organiser) builds the wheel and installs that.
"""

from __future__ import annotations

import importlib.util
import io
import json
import os
import resource
import subprocess
import sys
import tarfile
import time
import tomllib
import zipfile
from pathlib import Path

#: Seconds a build may take, and how big its scratch directory and its wheel may get.
BUILD_SECONDS = 600.0
SCRATCH_MB = 1024
MAX_WHEEL_MB = 256
#: How much the builder may send back (its answer's line and the wheel).
MAX_ANSWER_BYTES = (MAX_WHEEL_MB << 20) + (1 << 16)
#: Directories of a project never sent to the build (history, environments, build output).
_SKIPPED = {"__pycache__", "build", "dist", "node_modules"}


def build_wheel(source: Path, directory: Path, *, jailed: bool | None = None) -> Path:
    """A wheel of the sdist or project directory ``source``, built in the sandbox, in
    ``directory``; :class:`~kotarena.sandbox.botstore.InstallError` if it cannot be."""
    from kotarena.sandbox.botstore import InstallError
    from kotarena.sandbox.catalogue import _text, release, start_jailed
    from kotarena.sandbox.jail import sandbox_problem

    archive = source.read_bytes() if source.is_file() else _tar_of(source)
    if jailed is None:
        jailed = sandbox_problem() is None
    if not jailed:
        raise InstallError(f"cannot build {source.name} without the sandbox ({sandbox_problem()}): build the wheel "
                           "yourself where you trust its build code, and install the wheel")
    process = start_jailed([sys.executable, "-I", "-m", "kotarena.sandbox.wheelbuild"], scratch_mb=SCRATCH_MB,
                           memory_mb=MAX_WHEEL_MB << 4, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, preexec_fn=_limits, start_new_session=True)
    try:
        stdout, stderr = _communicate(process, archive, MAX_ANSWER_BYTES, BUILD_SECONDS)
    except subprocess.TimeoutExpired:
        raise InstallError(f"building {source.name} took more than {BUILD_SECONDS:.0f} s") from None
    except OverflowError:
        raise InstallError(f"building {source.name} sent more than {MAX_ANSWER_BYTES >> 20} MiB back") from None
    finally:
        release(process)
    header, _, wheel = stdout.partition(b"\n")
    try:
        answer = json.loads(header)
    except ValueError:
        answer = None
    if not isinstance(answer, dict):
        last = stderr.decode(errors="replace").strip().splitlines()[-1:]
        raise InstallError(f"building {source.name} failed: {_text(last[0], 500) if last else 'no answer'}")
    if "error" in answer:  # (the build code can write this answer: its words, cleaned)
        raise InstallError(f"{source.name}: {_text(answer['error'], 500)}")
    name = Path(str(answer.get("wheel", ""))).name
    if not name.endswith(".whl") or len(wheel) != answer.get("size"):
        raise InstallError(f"building {source.name} sent back no wheel")
    target = directory / name
    target.write_bytes(wheel)
    return target


def _communicate(process: subprocess.Popen, data: bytes, limit: int, timeout: float) -> tuple[bytes, bytes]:
    """``process.communicate(data)``, holding at most ``limit`` bytes of its standard
    output (:class:`OverflowError` beyond: the build's code can write there) and the
    last 64 KiB of its standard error; the process is killed on any failure."""
    import selectors
    import threading

    def feed() -> None:
        try:
            process.stdin.write(data)
        except OSError:
            pass
        finally:
            try:
                process.stdin.close()
            except OSError:
                pass

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    out, err = bytearray(), bytearray()
    deadline = time.monotonic() + timeout
    try:
        with selectors.DefaultSelector() as selector:
            selector.register(process.stdout, selectors.EVENT_READ, out)
            selector.register(process.stderr, selectors.EVENT_READ, err)
            while selector.get_map():
                left = deadline - time.monotonic()
                if left <= 0:
                    raise subprocess.TimeoutExpired(process.args, timeout)
                for key, _ in selector.select(left):
                    chunk = os.read(key.fd, 1 << 16)
                    if not chunk:
                        selector.unregister(key.fileobj)
                        continue
                    key.data.extend(chunk)
                    if key.data is out and len(out) > limit:
                        raise OverflowError(limit)
                    if key.data is err and len(err) > 1 << 17:
                        del err[:-(1 << 16)]
        process.wait(max(deadline - time.monotonic(), 0.1))
    except BaseException:
        process.kill()
        process.wait()
        raise
    finally:
        writer.join(1)
        for stream in (process.stdout, process.stderr):
            stream.close()
    return bytes(out), bytes(err)


def _limits() -> None:
    size = MAX_WHEEL_MB << 22  # (4x: a build's processes need room)
    resource.setrlimit(resource.RLIMIT_FSIZE, (MAX_WHEEL_MB << 20, MAX_WHEEL_MB << 20))
    resource.setrlimit(resource.RLIMIT_AS, (size * 4, size * 4))


def _tar_of(project: Path) -> bytes:
    """The project directory as a tar archive (links kept as links, never followed)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for current, dirs, files in os.walk(project):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIPPED
                             and not d.endswith(".egg-info") and not os.path.exists(os.path.join(current, d, "pyvenv.cfg")))
            for name in sorted(files):
                path = Path(current, name)
                archive.add(path, arcname=str(Path("project", path.relative_to(project))), recursive=False)
    return buffer.getvalue()


def _backend_problem(project: Path) -> str | None:
    """Why this environment cannot build ``project``'s wheel, if it cannot."""
    try:
        config = tomllib.loads((project / "pyproject.toml").read_text()) if (project / "pyproject.toml").exists() else {}
    except (tomllib.TOMLDecodeError, OSError) as error:
        return f"its pyproject.toml cannot be read: {error}"
    backend = str(config.get("build-system", {}).get("build-backend", "setuptools.build_meta"))
    top = backend.split(":")[0].split(".")[0]
    if importlib.util.find_spec(top) is None:
        return (f"its build backend {backend!r} is not installed here: build the wheel yourself "
                "(python -m build --wheel) and install the wheel")
    if top == "setuptools" and importlib.util.find_spec("wheel") is None and \
            importlib.util.find_spec("setuptools.command.bdist_wheel") is None:
        return ("this environment's setuptools cannot build wheels (it needs the 'wheel' package or setuptools "
                "70.1 or later): build the wheel yourself (python -m build --wheel) and install the wheel")
    return None


def _build() -> None:
    """In the sandbox: the source from standard input, the wheel to standard output."""
    scratch = Path(os.environ.get("HOME", "/scratch"))
    data = sys.stdin.buffer.read()
    out = sys.stdout.buffer

    def answer(header: dict, body: bytes = b"") -> None:
        out.write(json.dumps(header).encode() + b"\n" + body)
        out.flush()

    source = scratch / "source"
    try:
        if zipfile.is_zipfile(io.BytesIO(data)):
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                for member in archive.namelist():
                    if member.startswith("/") or ".." in Path(member).parts:
                        raise ValueError(f"a path outside the archive: {member}")
                archive.extractall(source)
        else:
            with tarfile.open(fileobj=io.BytesIO(data)) as archive:
                archive.extractall(source, filter="data")
    except (tarfile.TarError, zipfile.BadZipFile, ValueError, OSError) as error:
        answer({"error": f"cannot be unpacked: {error}"})
        return
    tops = [entry for entry in source.iterdir()]
    project = tops[0] if len(tops) == 1 and tops[0].is_dir() else source
    if not (project / "pyproject.toml").exists() and not (project / "setup.py").exists():
        answer({"error": "is not a Python project (no pyproject.toml or setup.py)"})
        return
    problem = _backend_problem(project)
    if problem is not None:
        answer({"error": problem})
        return
    wheels = scratch / "wheels"
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                           "--disable-pip-version-check", "--no-input", "--wheel-dir", str(wheels), str(project)],
                          stdout=sys.stderr, stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL)
    built = sorted(wheels.glob("*.whl")) if wheels.is_dir() else []
    if done.returncode != 0 or not built:
        lines = [line.strip() for line in done.stderr.splitlines() if line.strip()]
        errors = [line for line in lines if "error" in line.lower()] or lines
        answer({"error": f"its wheel could not be built here: {errors[-1] if errors else done.returncode}"})
        return
    body = built[0].read_bytes()
    answer({"wheel": built[0].name, "size": len(body)}, body)


if __name__ == "__main__":
    _build()
