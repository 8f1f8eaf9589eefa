"""Control groups for sandboxed seats: CPU time counted from outside, memory and
process caps, and every process of a seat found again at the end.

A :class:`SeatGroup` is one cgroup per seat slot of a worker, made under the worker's
own cgroup and used again match after match. Linux offers two layouts: the first
version (one hierarchy per controller: ``cpuacct``, ``memory``, ``pids``) and the
unified second version; both are handled. :func:`cgroups_problem` says why they cannot
be used here, if they cannot.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

ROOT = Path("/sys/fs/cgroup")
#: The controllers a seat needs, by what each is called in the first version.
V1_CONTROLLERS = ("cpuacct", "memory", "pids")
#: The controller of CPU quotas (first version: ``cpu``; used where it is mounted).
V1_QUOTA = "cpu"
PREFIX = "kotarena-"
#: The period of a seat's CPU quota, in microseconds: short, so that a bot thinking in
#: many threads is held to its share within milliseconds, not within a tenth of a second.
QUOTA_PERIOD_US = 10_000


def _own_paths() -> dict[str, str]:
    """This process's cgroup in each hierarchy (``""`` names the unified one)."""
    paths: dict[str, str] = {}
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        for controller in controllers.split(",") if controllers else [""]:
            paths[controller] = path
    return paths


def _layout() -> dict[str, Path] | None:
    """Where this process's seat groups go: by controller (v1), or ``{"": dir}`` (v2)."""
    try:
        own = _own_paths()
    except OSError:
        return None
    if all(name in own for name in V1_CONTROLLERS) and all((ROOT / name).is_dir() for name in V1_CONTROLLERS):
        layout = {name: ROOT / name / own[name].lstrip("/") for name in V1_CONTROLLERS}
        if V1_QUOTA in own and (ROOT / V1_QUOTA / own[V1_QUOTA].lstrip("/") / "cpu.cfs_quota_us").exists():
            layout[V1_QUOTA] = ROOT / V1_QUOTA / own[V1_QUOTA].lstrip("/")
        return layout
    if "" in own and (ROOT / "cgroup.controllers").exists():
        return {"": ROOT / own[""].lstrip("/")}
    return None


@functools.cache
def cgroups_problem() -> str | None:
    """Why seat groups cannot be made here, or ``None`` when they can (tried once)."""
    layout = _layout()
    if layout is None:
        return "no cgroup hierarchy with the cpuacct, memory and pids controllers is mounted"
    try:
        probe = SeatGroup("probe")
        probe.remove()
    except OSError as error:
        return f"cannot make a cgroup ({error})"
    return None


class SeatGroup:
    """The cgroup of one seat instance of this process: ``memory_mb`` and ``max_pids``
    caps, and with ``cpus`` a CPU quota: its processes together run at most as fast as
    ``cpus`` processors, however many threads they think in (where the CPU controller
    can be had: :attr:`quota` says whether it is set)."""

    def __init__(self, slot: str, memory_mb: int = 2048, max_pids: int = 64, cpus: float | None = None) -> None:
        layout = _layout()
        if layout is None:
            raise OSError("no usable cgroup hierarchy")
        name = f"{PREFIX}{os.getpid()}-{slot}"
        self.v2 = "" in layout
        self.dirs = [parent / name for parent in layout.values()]
        for parent in layout.values():
            _sweep(parent)
        for directory in self.dirs:
            directory.mkdir(exist_ok=True)
        self.quota = False
        if self.v2:
            directory = self.dirs[0]
            (directory / "memory.max").write_text(str(memory_mb << 20))
            if (directory / "memory.swap.max").exists():
                (directory / "memory.swap.max").write_text("0")
            (directory / "pids.max").write_text(str(max_pids))
            self._cpu = os.open(directory / "cpu.stat", os.O_RDONLY)
            self._events = directory / "memory.events"
            if cpus is not None and (directory / "cpu.max").exists():
                self.quota = _write(directory / "cpu.max", f"{int(cpus * QUOTA_PERIOD_US)} {QUOTA_PERIOD_US}")
        else:
            cpuacct, memory, pids = self.dirs[:3]
            (memory / "memory.limit_in_bytes").write_text(str(memory_mb << 20))
            (pids / "pids.max").write_text(str(max_pids))
            if cpus is not None and len(self.dirs) > 3:
                quota = self.dirs[3]
                self.quota = (_write(quota / "cpu.cfs_period_us", str(QUOTA_PERIOD_US))
                              and _write(quota / "cpu.cfs_quota_us", str(int(cpus * QUOTA_PERIOD_US))))
            self._cpu = os.open(cpuacct / "cpuacct.usage", os.O_RDONLY)
            self._events = memory / "memory.oom_control"
        self._ooms = self.ooms()

    def join(self) -> None:
        """Move the calling process into the group (a child about to ``exec``)."""
        for directory in self.dirs:
            with open(directory / "cgroup.procs", "w") as procs:
                procs.write("0")

    def cpu(self) -> float:
        """CPU seconds used by every process that has been in the group."""
        data = os.pread(self._cpu, 4096, 0)
        if self.v2:  # "usage_usec N" is the first line of cpu.stat
            return int(data.split(None, 2)[1]) / 1e6
        return int(data) / 1e9

    def ooms(self) -> int:
        """How many times the kernel has killed a process of the group for memory."""
        try:
            for line in self._events.read_text().splitlines():
                key, _, value = line.partition(" ")
                if key == "oom_kill":
                    return int(value)
        except OSError:
            pass
        return 0

    def killed_for_memory(self) -> bool:
        """Whether the kernel killed one of the group's processes for memory since the
        last time this said so."""
        ooms = self.ooms()
        killed, self._ooms = ooms > self._ooms, ooms
        return killed

    def pids(self) -> list[int]:
        """The processes in the group now."""
        text = (self.dirs[2 if not self.v2 else 0] / "cgroup.procs").read_text()
        return [int(word) for word in text.split()]

    def remove(self) -> None:
        """Remove the group (it must be empty)."""
        cpu = getattr(self, "_cpu", None)
        if cpu is not None:
            os.close(cpu)
            self._cpu = None
        for directory in self.dirs:
            try:
                directory.rmdir()
            except OSError:
                pass


def _write(path: Path, value: str) -> bool:
    """Write a control file; whether it took (a controller may refuse a setting)."""
    try:
        path.write_text(value)
    except OSError:
        return False
    return True


def _sweep(parent: Path) -> None:
    """Remove the empty groups of earlier processes that are gone (a killed worker
    cannot remove its own)."""
    try:
        entries = list(parent.glob(PREFIX + "*"))
    except OSError:
        return
    for directory in entries:
        owner = directory.name[len(PREFIX):].split("-", 1)[0]
        if owner.isdigit() and not Path(f"/proc/{owner}").exists():
            try:
                directory.rmdir()
            except OSError:
                pass


__all__ = ["SeatGroup", "cgroups_problem"]
