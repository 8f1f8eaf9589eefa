"""The sandbox itself (``kotarena.sandbox.jail``, ``kotarena.sandbox.seccomp``), tried
by running programs in real sandboxes: what they can see of the referee, of each other
and of the directories they import from.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from sqlmodel import Session, select

from kotarena.sandbox import seccomp
from kotarena.sandbox.jail import jail_command

SECRET = "kotarena-jail-secret-31c7"


def in_jail(code: str, **options) -> str:
    """What ``code`` prints, run by Python in a sandbox (``options`` for jail_command)."""
    done = jail_command([sys.executable, "-I", "-c", textwrap.dedent(code)], **options).run(timeout=60)
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    return done.stdout.decode()


# ---------------------------------------------------------------- nothing of the referee

PROCESSES = """
import json, os
seen = {}
for pid in sorted(p for p in os.listdir("/proc") if p.isdigit()):
    def read(name):
        try:
            return open(f"/proc/{pid}/{name}", "rb").read().replace(b"\\0", b" ").decode(errors="replace")
        except OSError as error:
            return f"<{error.strerror}>"
    fds = {}
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            fds[fd] = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:  # the listing's own descriptor, closed since
            pass
    seen[pid] = {"environ": read("environ"), "cmdline": read("cmdline"), "fds": fds}
print(json.dumps(seen))
"""


def test_no_process_in_the_sandbox_holds_the_referees_environment_arguments_or_descriptors(tmp_path, monkeypatch,
                                                                                            sandbox):
    monkeypatch.setenv("KOTARENA_TEST_SECRET", SECRET)
    monkeypatch.setenv("KOTARENA_DB", f"postgresql://league:{SECRET}@db/kotarena")
    hidden = tmp_path / "secret-results.db"
    hidden.write_text("results")
    stray = os.open(tmp_path / "stray", os.O_CREAT | os.O_WRONLY)  # a descriptor the referee left inheritable
    os.set_inheritable(stray, True)
    ours, theirs = socket.socketpair()
    kept = str(theirs.fileno())
    try:
        code = PROCESSES.replace("print(", f"import socket; socket.socket(fileno={theirs.fileno()}).sendall(b'x')\n"
                                           "print(")
        done = jail_command([sys.executable, "-I", "-c", code], hide=[str(hidden)]).run(timeout=60,
                                                                                        pass_fds=(theirs.fileno(),))
        assert ours.recv(1) == b"x"  # the socket it was given did arrive
    finally:
        os.close(stray)
        ours.close()
        theirs.close()
    seen = json.loads(done.stdout)
    assert set(seen) == {"1", "2"}  # bubblewrap's own process, and the program
    assert "bwrap" in seen["1"]["cmdline"] and sys.executable in seen["2"]["cmdline"]
    assert seen["1"]["environ"] == ""
    assert sorted(seen["2"]["environ"].split()) == sorted(
        ["HOME=/scratch", "TMPDIR=/tmp", "PATH=/usr/bin:/bin", "LANG=C.UTF-8", "PYTHONDONTWRITEBYTECODE=1",
         "PWD=/scratch"])
    for process in seen.values():
        assert SECRET not in json.dumps(process)
        assert str(tmp_path) not in json.dumps(process)  # not the hidden file's path, not the stray file
        for fd, target in process["fds"].items():
            assert fd in {"0", "1", "2", kept} or target.startswith("anon_inode:[eventfd]") or (
                target.startswith("/proc/")), (fd, target)  # (the listing's own directory)
    assert seen["2"]["fds"][kept].startswith("socket:")


# ---------------------------------------------------------------- no channel between sandboxes

LOCKER = """
import fcntl, os, struct, sys
path = sys.argv[1]
record = struct.pack("hhqqi", fcntl.F_RDLCK, 0, 0, 0, 0)
file = open(path, "rb")
def attempt(call):
    try:
        return repr(call())
    except OSError as error:
        return os.strerror(error.errno)
print("flock:", attempt(lambda: fcntl.flock(file, fcntl.LOCK_SH | fcntl.LOCK_NB)), flush=True)
print("setlk:", attempt(lambda: fcntl.fcntl(file, fcntl.F_SETLK, record) and "locked"), flush=True)
sys.stdin.readline()  # holds whatever it got until told to stop
"""

LISTENER = """
import fcntl, os, struct, sys
path = sys.argv[1]
file = open(path, "rb")
def attempt(call):
    try:
        return repr(call())
    except OSError as error:
        return os.strerror(error.errno)
query = struct.pack("hhqqi", fcntl.F_WRLCK, 0, 0, 0, 0)
print("flock:", attempt(lambda: fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)))
print("getlk:", attempt(lambda: struct.unpack("hhqqi", fcntl.fcntl(file, fcntl.F_GETLK, query))[0]))
"""


def _meet(shared: Path, start) -> tuple[str, str]:
    """What a listener sees of a file that a locker holds locks on (each started by
    ``start``, a function of a command)."""
    locker = start([sys.executable, "-I", "-c", LOCKER, str(shared)])
    try:
        said = locker.stdout.readline() + locker.stdout.readline()
        listener = start([sys.executable, "-I", "-c", LISTENER, str(shared)])
        heard, _ = listener.communicate(timeout=60)
    finally:
        locker.communicate(b"\n", timeout=60)
    return said.decode(), heard.decode()


def _plain(command):
    return subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)


def _jailed(command):
    return jail_command(command).start(stdin=subprocess.PIPE, stdout=subprocess.PIPE)


def test_two_sandboxes_cannot_meet_through_locks_on_a_file_both_bind(tmp_path, monkeypatch, sandbox):
    # A module both sandboxes import from: bound read-only into each.
    (tmp_path / "shared_module.py").write_text("X = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    shared = tmp_path / "shared_module.py"
    # Two plain processes meet: the second sees the first one's locks.
    said, heard = _meet(shared, _plain)
    assert "flock: None" in said and "setlk: 'locked'" in said
    assert "flock: Resource temporarily unavailable" in heard and "getlk: 0" in heard  # F_RDLCK is 0
    # Two sandboxes do not: neither may lock, nor ask.
    said, heard = _meet(shared, _jailed)
    assert said.splitlines() == ["flock: Operation not permitted", "setlk: Operation not permitted"]
    assert heard.splitlines() == ["flock: Operation not permitted", "getlk: Operation not permitted"]


SYSCALLS = """
import ctypes, errno, fcntl, os, threading
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
def call(number, *args):
    result = libc.syscall(ctypes.c_long(number), *(ctypes.c_long(a) for a in args))
    return "ok" if result >= 0 else errno.errorcode[ctypes.get_errno()]
numbers = {NUMBERS}
print({{name: call(number, *args) for name, (number, args) in numbers.items()}})
pid = os.fork()
if pid == 0:
    os._exit(7)
thread = threading.Thread(target=print, args=("a thread runs",))
thread.start(); thread.join()
print("fork", os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
print("fcntl F_GETFL", fcntl.fcntl(0, fcntl.F_GETFL) >= 0)
"""


@pytest.mark.skipif(os.uname().machine != "x86_64", reason="the system call numbers written here are x86_64's")
def test_the_filter_denies_what_reaches_outside_the_sandbox_and_lets_python_run(sandbox):
    numbers = {
        "inotify_init1": (294, (0,)), "fanotify_init": (300, (0, 0)), "keyctl": (250, (0, 0)),
        "add_key": (248, (0, 0, 0, 0, 0)), "perf_event_open": (298, (0, 0, -1, -1, 0)),
        "userfaultfd": (323, (0,)), "bpf": (321, (0, 0, 0)), "ptrace": (101, (16, 1)),
        "unshare (a user namespace)": (272, (0x10000000,)), "io_uring_setup": (425, (1, 0)),
        "open_by_handle_at": (304, (0, 0, 0)), "mount": (165, (0, 0, 0, 0, 0)),
        "clone (a new network namespace)": (56, (0x40000000 | 17, 0, 0, 0, 0)),
        "mincore": (27, (0, 4096, 0)), "preadv2 (RWF_NOWAIT)": (327, (0, 0, 0, 0, 0, 8)),
        "x32 getpid": (0x40000000 | 39, ()), "getpid": (39, ()),
    }
    seen = in_jail(SYSCALLS.format(NUMBERS=repr(numbers)))
    outcome = eval(seen.splitlines()[0])  # noqa: S307 - our own probe's dict
    assert outcome.pop("getpid") == "ok"
    assert outcome == dict.fromkeys(outcome, "EPERM")
    assert "a thread runs" in seen and "fork 7" in seen and "fcntl F_GETFL True" in seen


def _decide(program: bytes, arch: int, nr: int, args: tuple[int, ...] = ()) -> int:
    """Run a classic BPF seccomp program on one system call (the instructions it uses)."""
    data = struct.pack("=iIQ6Q", nr, arch, 0, *(list(args) + [0] * (6 - len(args))))
    code = [struct.unpack("=HBBI", program[i:i + 8]) for i in range(0, len(program), 8)]
    pc, acc = 0, 0
    while True:
        op, jt, jf, k = code[pc]
        if op == 0x20:
            acc = struct.unpack_from("=I", data, k)[0]
            pc += 1
        elif op == 0x06:
            return k
        else:
            hit = {0x15: acc == k, 0x35: acc >= k, 0x45: bool(acc & k)}[op]
            pc += 1 + (jt if hit else jf)


@pytest.mark.parametrize("machine", ["x86_64", "aarch64"])
def test_the_filter_checks_the_architecture_and_denies_each_named_call_on_both_machines(machine):
    program = seccomp.filter_program(machine)
    column = 0 if machine == "x86_64" else 1
    arch = seccomp.ARCHES[machine][0]
    allow, eperm = 0x7FFF0000, 0x00050000 | errno.EPERM
    for name, numbers in seccomp.DENIED.items():
        if numbers[column] is not None:
            assert _decide(program, arch, numbers[column]) == eperm, name
    fcntl_nr = seccomp.FCNTL[column]
    assert [_decide(program, arch, fcntl_nr, (3, command)) for command in seccomp.FCNTL_DENIED] == [eperm] * 9
    assert _decide(program, arch, fcntl_nr, (3, 3)) == allow  # F_GETFL
    clone = seccomp.CLONE[column]
    assert _decide(program, arch, clone, (0x01000000 | 17,)) == allow  # a plain fork
    assert _decide(program, arch, clone, (0x10000000 | 17,)) == eperm  # CLONE_NEWUSER
    assert _decide(program, arch, seccomp.CLONE3[column]) == 0x00050000 | errno.ENOSYS
    preadv2 = seccomp.PREADV2[column]
    assert _decide(program, arch, preadv2, (3, 0, 1, 0, 0, 0)) == allow
    assert _decide(program, arch, preadv2, (3, 0, 1, 0, 0, seccomp.RWF_NOWAIT)) == eperm
    assert _decide(program, arch, 0) == allow  # read / io_setup
    # Another ABI's numbers mean other calls: all of them denied.
    assert _decide(program, 0x40000003, 20) == eperm  # i386
    assert _decide(program, seccomp.ARCHES["aarch64" if machine == "x86_64" else "x86_64"][0], 0) == eperm
    if machine == "x86_64":
        assert _decide(program, arch, 0x40000000 | 39) == eperm  # x32


# ---------------------------------------------------------------- nothing the referee wrote

LISTING = """
import os, sys
for root in sys.argv[1:]:
    for folder, dirs, files in os.walk(root):
        for name in sorted(dirs + files):
            print(os.path.relpath(os.path.join(folder, name), root))
"""


def _list_in_jail(roots: list[Path], **options) -> set[str]:
    done = jail_command([sys.executable, "-I", "-c", LISTING, *map(str, roots)], **options).run(timeout=60)
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    return set(done.stdout.decode().split())


def _project(root: Path) -> None:
    """A directory as people keep them: modules and the night's files side by side."""
    (root / "pkg" / "sub").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "weights.json").write_text("{}")
    (root / "pkg" / "sub" / "__init__.py").write_text("")
    (root / "nspkg" / "part").mkdir(parents=True)
    (root / "nspkg" / "part" / "__init__.py").write_text("")
    (root / "mybot.py").write_text("")
    (root / "extra.pth").write_text("")
    (root / "mybot-0.1.dist-info").mkdir()
    (root / "mybot-0.1.dist-info" / "METADATA").write_text("Name: mybot\n")
    (root / "results.db").write_text("results")
    (root / "results.db-wal").write_text("results")
    (root / "ladder.toml").write_text("name = 'x'")
    (root / "bot-logs" / "ladder").mkdir(parents=True)
    (root / "bot-logs" / "ladder" / "other.log").write_text("another bot's thoughts")
    (root / "notes").mkdir()
    (root / "notes" / "plan.txt").write_text("")


def test_a_directory_on_sys_path_that_is_no_installation_is_bound_by_its_python_entries_only(tmp_path, monkeypatch,
                                                                                              sandbox):
    _project(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    seen = _list_in_jail([tmp_path])
    assert seen == {"pkg", "pkg/__init__.py", "pkg/weights.json", "pkg/sub", "pkg/sub/__init__.py", "nspkg",
                    "nspkg/part", "nspkg/part/__init__.py", "mybot.py", "extra.pth", "mybot-0.1.dist-info",
                    "mybot-0.1.dist-info/METADATA"}


def test_a_link_in_a_directory_on_sys_path_brings_nothing_from_elsewhere_into_the_sandbox(tmp_path, monkeypatch,
                                                                                          sandbox):
    project, elsewhere = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    elsewhere.mkdir()
    (elsewhere / "id_key").write_text("the operator's key")
    (project / "key.py").symlink_to(elsewhere / "id_key")
    (project / "pkg").mkdir()
    (project / "pkg" / "__init__.py").write_text("")
    (project / "pkg" / "key.py").symlink_to(elsewhere / "id_key")
    monkeypatch.syspath_prepend(str(project))
    seen = in_jail(f"""
        for path in ("{project}/key.py", "{project}/pkg/key.py", "{elsewhere}/id_key"):
            try:
                print(path, open(path).read())
            except OSError as error:
                print(path, error.strerror)
    """)
    assert "the operator's key" not in seen
    assert seen.count("No such file or directory") == 3


def test_what_is_hidden_inside_a_bound_package_is_never_there_even_when_made_after_the_sandbox_started(
        tmp_path, monkeypatch, sandbox):
    _project(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    package = tmp_path / "pkg"
    database = package / "results.db"
    database.write_text("results")
    (package / "bot-logs" / "night").mkdir(parents=True)
    (package / "bot-logs" / "night" / "a.log").write_text("thoughts")
    hide = [*(f"{database}{suffix}" for suffix in ("", "-wal", "-shm", "-journal")), str(package / "bot-logs")]
    waiting = "import sys\nsys.stdin.readline()\n" + LISTING
    jail = jail_command([sys.executable, "-I", "-c", waiting, str(package)], hide=hide)
    with jail.start(stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        # The database's journal appears while the sandbox runs, and a new module too.
        Path(f"{database}-journal").write_text("the last transaction")
        (package / "later.py").write_text("")
        out, err = process.communicate(b"go\n", timeout=60)
    assert process.returncode == 0, err.decode()
    assert set(out.decode().split()) == {"__init__.py", "weights.json", "sub", "sub/__init__.py"}


def test_a_hidden_file_and_directory_that_exist_are_left_out_of_the_directory_that_holds_them(tmp_path, monkeypatch,
                                                                                              sandbox):
    _project(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "pkg" / "private").mkdir()
    (tmp_path / "pkg" / "private" / "key").write_text("k")
    seen = _list_in_jail([tmp_path / "pkg"], hide=[str(tmp_path / "pkg" / "weights.json")],
                         hide_dirs=[str(tmp_path / "pkg" / "private")])
    assert seen == {"__init__.py", "sub", "sub/__init__.py"}


# ---------------------------------------------------------------- the example bots still play

def test_the_example_bots_play_a_sealed_night_under_the_filter(tmp_path, sandbox):
    from kotarena.bots.command import ProgramMissingError
    from kotarena.storage.db import open_db
    from kotarena.storage.models import Seat
    from kotarena.testing import missing
    from kotarena.tournament.night import load_sealed_ladder, run_night

    bots = ["heuristic", "mcts"]
    try:
        from kotarena_go_heuristic import GoHeuristicBot

        GoHeuristicBot.argv()
        bots.append("go-heuristic")
    except (ImportError, ProgramMissingError) as error:
        if not shutil.which("go"):
            missing(f"the Go bot is not built and installed ({error})")
        raise
    ladder = tmp_path / "examples.toml"
    ladder.write_text(f'name = "examples"\nplayers = {len(bots)}\ngames = 2\ntime_limit = 1.0\n\n'
                      + "".join(f'[[bots]]\nname = "{bot}"\nparams = {{ playouts = 50 }}\n\n' if bot == "mcts"
                                else f'[[bots]]\nname = "{bot}"\n\n' for bot in bots))
    engine = open_db(tmp_path / "results.db")
    report = run_night(engine, load_sealed_ladder(ladder), workers=0)
    assert report.finished and report.played == 2
    with Session(engine) as session:
        seats = session.exec(select(Seat)).all()
    assert {seat.entrant for seat in seats} >= set(bots)
    assert [(seat.entrant, seat.forfeit_detail) for seat in seats if seat.forfeit] == []
