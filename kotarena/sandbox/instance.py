"""A bot's instances: its host in a sandbox of its own, kept from game to game.

A worker keeps one *instance* of a bot per ``(bot, slot)``: a sandbox holding the bot's
host (:mod:`kotarena.sandbox.host`), started on first use and kept from game to game.
The caller gives each seat its slot so that the k-th seat of a deal (a game seed) that a
bot takes in a night gets slot k (:func:`kotarena.tournament.night.night_jobs`): an
instance meets each deal at most once, and two seats of one match never share one. So
an instance may keep whatever it likes from one game to the next (memory, files in its
sandbox, processes): that is learning its opponents, never seeing its game again.

A Python bot's games are played one after the other by a long-lived *player* process
of its instance, on one connection that is kept from game to game (nothing is started
per game); a player that failed is ended and the host forks a new one. A command-line
bot's program is started afresh for each game (the protocol is one game per run). How a
seat is played through an instance is :mod:`kotarena.sandbox.seat`.
"""

from __future__ import annotations

import itertools
import json
import os
import select
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from kotarena.forfeits import CRASH, ERROR, SANDBOX, BotFailure
from kotarena.ladder_names import path_name
from kotarena.sandbox.cgroups import SeatGroup
from kotarena.sandbox.jail import SCRATCH, jail_command, python_paths
from kotarena.sandbox.protocol import ProtocolError, decode, encode

#: Seconds a fork server may take to import its bot.
IMPORT_SECONDS = 60.0
#: Seconds the server has to fork a seat or to clean up after a match.
SERVER_SECONDS = 10.0
#: Processes a seat may have at once (its own included).
MAX_PIDS = 32
#: Size of a bot's log file, and of each of its files, in MiB.
FILE_MB = 64
#: Processors' worth of CPU time an instance may use at once (its cgroup's quota):
#: however many threads a bot thinks in, its CPU clock runs at most this fast, so a
#: decision is caught within a slice of its limit. (A quota of exactly one processor
#: throttled a single-threaded bot in a third of its periods: the kernel hands quota
#: out in slices; with half a processor more, never.)
CPUS = 1.5
_CREDENTIALS = struct.Struct("iII")


def read_line(conn: socket.socket, buffer: bytearray, deadline: float) -> bytes | None:
    """The next line of ``conn`` by ``deadline`` (``time.monotonic``), ``None`` at its end."""
    while True:
        end = buffer.find(b"\n")
        if end >= 0:
            line = bytes(buffer[:end])
            del buffer[:end + 1]
            return line
        wait = deadline - time.monotonic()
        if wait <= 0 or not select.select([conn], [], [], wait)[0]:
            raise TimeoutError
        chunk = conn.recv(1 << 16)
        if not chunk:
            return None
        buffer += chunk


class ForkServer:
    """One instance of a bot: its host (:mod:`kotarena.sandbox.host`) in its sandbox, or
    unsandboxed when ``jailed`` is false (the user's explicit choice).

    ``dist`` is the distribution the bot comes from (the host loads that one only) and
    ``path`` the directories its sandbox puts on ``sys.path`` and binds (a stored bot's
    directory).
    """

    def __init__(self, bot: str, slot: str, *, jailed: bool, memory_mb: int, log_path: Path,
                 hide: tuple[str, ...] = (), dist: str | None = None, path: tuple[str, ...] = (),
                 wait: bool = True) -> None:
        self.bot = bot
        self.jailed = jailed
        self.memory_mb = memory_mb
        self.group: SeatGroup | None = SeatGroup(slot, memory_mb, MAX_PIDS, cpus=CPUS) if jailed else None
        self._scratch = None if jailed else tempfile.mkdtemp(prefix="kotarena-seat-")
        ours, theirs = socket.socketpair()
        # The server's first line tells this process its number outside the sandbox.
        ours.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
        command = [sys.executable, "-I", "-m", "kotarena.sandbox.host", bot, "--control", str(theirs.fileno()),
                   "--path", json.dumps([*path, *python_paths()]), "--memory-mb", str(memory_mb),
                   "--file-mb", str(FILE_MB)]
        if dist is not None:
            command += ["--dist", dist]
        jail = None
        if jailed:
            jail = jail_command([*command, "--jailed", *(f"--scratch={d}" for d in SCRATCH)], hide=hide,
                                paths=tuple(path))  # (bound read-only, like sys.path's directories)
        else:
            command += ["--scratch", str(self._scratch)]
            env = {"PATH": "/usr/bin:/bin", "HOME": str(self._scratch), "TMPDIR": str(self._scratch)}
        log_path.parent.mkdir(parents=True, exist_ok=True)
        _rotate(log_path)
        group = self.group
        # The sandbox starts inside the seat's cgroup, so that every process in it is
        # counted and capped there (moving a process later costs about a millisecond).
        prepare = _die_with_parent if group is None else group.join
        with open(log_path, "ab") as log:
            if jail is not None:  # (bubblewrap with an empty environment; the log through a pipe)
                self.process = jail.start(stdin=subprocess.DEVNULL, stdout=log, stderr=log, pass_fds=(theirs.fileno(),),
                                          start_new_session=True, preexec_fn=prepare)
            else:
                self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=env,
                                                pass_fds=(theirs.fileno(),), start_new_session=True,
                                                preexec_fn=prepare)
        theirs.close()
        self.control = ours
        self._buffer = bytearray()
        self._requested: socket.socket | None = None
        #: The read end of the standard error pipe of the program run asked for with
        #: ``_requested`` (a command-line bot's: :class:`kotarena.sandbox.botlog.ProgramLines`).
        self._requested_lines: int | None = None
        self._lines: int | None = None  #: the same, of the run :meth:`start_seat` started last
        self._resetting = False
        #: The connection of the player that finished its last game cleanly, kept for
        #: its next game: ``(conn, pid, inner pid, unread bytes)``.
        self._kept: tuple[socket.socket, int, int, bytes] | None = None
        self.log_path = log_path
        self.server_pid = 0  #: the host's process, as this process numbers it
        self.player = False
        self.ready = False  #: whether the host has said it is ready (:meth:`await_ready`)
        if wait:
            self.await_ready()

    def await_ready(self) -> None:
        """Wait for the host to have imported its bot (instances started together, see
        :func:`seat_server`, import theirs at the same time); raises the
        :class:`BotFailure` that keeps the bot from being seated, if it cannot be."""
        if self.ready:
            return
        ours = self.control
        try:
            if select.select([ours], [], [], IMPORT_SECONDS)[0]:
                data, ancillary, _, _ = ours.recvmsg(1 << 16, socket.CMSG_SPACE(_CREDENTIALS.size))
                self.server_pid = _sender(ancillary)
                self._buffer += data
            reply = self._reply(SERVER_SECONDS)
        except BotFailure:
            self.close()
            raise
        if reply.get("type") != "server":
            self.close()
            raise BotFailure(SANDBOX if reply.get("type") == "refused" else ERROR,
                             str(reply.get("message", reply))[:4000])
        #: Whether the instance plays its games in a long-lived player (a Python bot),
        #: whose connection is kept from one game to the next.
        self.player = reply.get("player") is True
        self.ready = True

    def _reply(self, seconds: float) -> dict:
        try:
            line = read_line(self.control, self._buffer, time.monotonic() + seconds)
        except (TimeoutError, OSError):
            line = None
        if line is None:
            self.close()
            raise BotFailure(CRASH, f"its host process stopped answering (see its log, {self.log_path})")
        try:  # (the host runs the bot's import-time code: its lines are the bot's too)
            return decode(line)
        except ProtocolError as error:
            self.close()
            raise BotFailure(SANDBOX, f"its host {error}") from None

    def alive(self) -> bool:
        """Whether the sandbox still runs."""
        return self.process.poll() is None

    def server_alive(self) -> bool:
        """Whether the host itself still runs (a seat may have killed it: the sandbox
        then lives on until its last process ends)."""
        return self.alive() and (not self.server_pid or _running(self.server_pid))

    def take_kept(self) -> tuple[socket.socket, int, int, bytes] | None:
        """The kept connection of a player waiting for its next game, if there is one.
        (A player that ended since, by its own doing, forfeits the game it does not
        greet: ``crash``.)"""
        kept, self._kept = self._kept, None
        return kept

    def keep_seat(self, conn: socket.socket, pid: int, inner_pid: int, unread: bytes) -> None:
        """Keep a player's connection for the instance's next game (its game ended
        cleanly; the player greets the next game on it)."""
        if not self.player:
            conn.close()
            return
        if self._kept is not None:
            self._kept[0].close()
        self._kept = (conn, pid, inner_pid, unread)

    def request_seat(self) -> None:
        """Ask the host for a player (:meth:`start_seat` collects it), unless one waits
        already: a match asks all its instances first, so that they start at once."""
        if self._requested is None and self._kept is None:
            self._requested, self._requested_lines = self._request()

    def start_seat(self) -> tuple[socket.socket, int]:
        """A new seat's connection, and its process's number in the sandbox: the host
        hands the connection to its player (forked if need be) or to a new run of the
        bot's program."""
        requested, self._requested = self._requested, None
        requested_lines, self._requested_lines = self._requested_lines, None
        self._close_lines()  # (a run's that nobody took)
        if requested is not None:
            conn, self._lines = requested, requested_lines
        else:
            conn, self._lines = self._request()
        reply = self._reply(SERVER_SECONDS)
        if reply.get("type") != "spawned" or type(reply.get("pid")) is not int:
            conn.close()
            self._close_lines()
            raise BotFailure(SANDBOX, f"its host answered {str(reply)[:200]} to a spawn")
        return conn, reply["pid"]

    def take_lines(self) -> int | None:
        """The read end of the standard error pipe of the program run :meth:`start_seat`
        started last, which the caller closes (``None``: taken, or a Python bot's
        player, whose host keeps its lines)."""
        lines, self._lines = self._lines, None
        return lines

    def _close_lines(self) -> None:
        for lines in (self._lines, self._requested_lines):
            if lines is not None:
                os.close(lines)
        self._lines = self._requested_lines = None

    def exit_status(self, pid: int) -> str:
        """How the seat whose process is ``pid`` (in the sandbox) ended, as words."""
        try:
            self.control.sendall(encode({"type": "status", "pid": pid}))
            reply = self._reply(SERVER_SECONDS)
        except (OSError, BotFailure, ValueError):
            return "its host is gone too"
        if type(reply.get("signal")) is int:
            try:
                return f"killed by {signal.Signals(reply['signal']).name}"
            except ValueError:
                return f"killed by signal {reply['signal']}"
        if type(reply.get("code")) is int:
            return f"exit code {reply['code']}"
        return "still running, or gone without a trace"

    def _request(self) -> tuple[socket.socket, int | None]:
        """Ask the host for a seat: the seat's connection, and the read end of its
        program's standard error pipe (``None`` for a Python bot's player)."""
        conn, theirs = socket.socketpair()
        # Credentials must be asked for before the seat's process writes its first line.
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
        # A program's standard error comes to this process, which reads it step by step
        # (the game's lines: kotarena.sandbox.botlog.ProgramLines) and writes it on to the log.
        lines = _stderr_pipe() if self.ready and not self.player else None
        try:
            socket.send_fds(self.control, [encode({"type": "spawn"})],
                            [theirs.fileno()] if lines is None else [theirs.fileno(), lines[1]])
        except OSError as error:
            conn.close()
            if lines is not None:
                os.close(lines[0])
            self.close()
            raise BotFailure(CRASH, f"its host process is gone ({error})") from None
        finally:
            theirs.close()
            if lines is not None:
                os.close(lines[1])
        return conn, None if lines is None else lines[0]

    def request_reset(self) -> None:
        """After a match in which the instance's seat did not end cleanly (a forfeit, a
        program's run): ask the host to end every process the match left but its
        player; :meth:`reset` waits for it to be done. An instance whose player waits
        for its next game needs nothing."""
        if not self._resetting and self._kept is None and self.alive():
            try:
                self.control.sendall(encode({"type": "reset"}))
                self._resetting = True
            except OSError:
                pass

    def reset(self) -> None:
        """Have the host clean up after a match (see :meth:`request_reset`); an instance
        that cannot is closed, and a new one started for the next match."""
        self.request_reset()
        resetting, self._resetting = self._resetting, False
        if resetting:
            try:
                if self._reply(SERVER_SECONDS).get("type") == "clean":
                    return
            except BotFailure:
                pass
        if self._kept is None:
            self.close()

    def close(self) -> None:
        """End the instance and its sandbox, whatever state they are in: nothing of it
        is left (processes, files, memory)."""
        kept, self._kept = self._kept, None
        if kept is not None:
            kept[0].close()
        self._close_lines()
        try:
            self.control.close()
        except OSError:
            pass
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            self.process.wait()
        if self.group is not None:
            for pid in self.group.pids():
                _kill(pid)
            self.group.remove()
            self.group = None
        for copier in getattr(self.process, "log_copiers", ()):
            # (the copier of the log ends when the sandbox's last writer has)
            try:
                copier.wait(timeout=5)
            except subprocess.TimeoutExpired:
                copier.kill()
                copier.wait()
        if self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)
            self._scratch = None


#: Bytes a program's standard error pipe holds (it writes on while the referee is busy).
PIPE_BYTES = 1 << 20


def _stderr_pipe() -> tuple[int, int]:
    """A pipe for a program's standard error: ``(read end, write end)``, the read end
    not inherited by anything this process starts."""
    read, write = os.pipe()
    try:
        import fcntl

        fcntl.fcntl(write, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
    except (ImportError, AttributeError, OSError):
        pass  # (the default size: a chatty program waits for the referee a little more)
    return read, write


def _rotate(log_path: Path) -> None:
    """Start a new log when the last one is full (a full log fails the bot's writes):
    the full one is kept as ``.old``."""
    try:
        if log_path.stat().st_size >= (FILE_MB << 20) // 2:
            log_path.replace(log_path.with_suffix(".old"))
    except OSError:
        pass


def _die_with_parent() -> None:
    import ctypes

    ctypes.CDLL(None).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG


def _sender(ancillary: list) -> int:
    """The sending process's number in this process's namespace (``SCM_CREDENTIALS``)."""
    for level, kind, payload in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS:
            return _CREDENTIALS.unpack(payload[:_CREDENTIALS.size])[0]
    return 0


#: The flag of an exiting process in ``/proc/PID/stat``, and SIGKILL's bit in the
#: pending-signal masks of ``/proc/PID/status``.
_PF_EXITING = 0x4
_SIGKILL_PENDING = 1 << (signal.SIGKILL - 1)


def _running(pid: int) -> bool:
    """Whether process ``pid`` runs: not ended nor waiting to be reaped, and not about
    to end either (exiting, or killed but not yet scheduled to die). A seat that kills
    its fork server answers before the server has died; the server must count as dead
    from the moment the kill is sent, or whether that seat forfeits would be a race."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
        with open(f"/proc/{pid}/status", "rb") as status:
            pending = [int(line.split()[1], 16) for line in status if line.startswith((b"SigPnd:", b"ShdPnd:"))]
    except OSError:
        return False
    # fields[0] is the state (the file's 3rd field), fields[6] the flags (its 9th).
    return (fields[0] not in (b"Z", b"X") and not int(fields[6]) & _PF_EXITING
            and not any(mask & _SIGKILL_PENDING for mask in pending))


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


# ---------------------------------------------------------------- a worker's instances

#: This process's instances, by bot, slot and settings; kept from match to match.
_SERVERS: dict[tuple, ForkServer] = {}
#: Instances that could not be started, and why: their seats forfeit at once.
_REFUSED: dict[tuple, BotFailure] = {}
_OWNER = os.getpid()
#: The night the instances here belong to (see :func:`seat_server`).
_NIGHT = ""
#: Numbers the instances a process starts: each one's cgroup needs a name of its own,
#: even where two serve the same bot and slot with other settings.
_STARTED = itertools.count()


def seat_server(bot: str, slot: int, *, jailed: bool, memory_mb: int, log_dir: Path, hide: tuple[str, ...] = (),
                dist: str | None = None, path: tuple[str, ...] = (), night: str = "", wait: bool = True) -> ForkServer:
    """The instance ``slot`` of ``bot`` in this process, started if need be.

    The caller gives slots so that an instance never meets a deal twice: the k-th seat
    a bot takes at tables of one deal (one game seed) gets slot k, in the whole of what
    it plays with these instances. ``night`` names that whole (a league night's run):
    when another one begins, this process's instances of earlier ones are closed
    (none of its games may meet what they met).

    Raises the :class:`BotFailure` that keeps the bot from being seated (its package
    fails to import, starts threads when imported, ...), the same one every time. With
    ``wait`` false, an instance not started yet is started and not waited for: the
    caller starts several at once (their imports take most of a second each), and the
    next call for it waits.
    """
    global _OWNER, _NIGHT
    if _OWNER != os.getpid():  # a forked worker: its parent's instances are not its own
        _SERVERS.clear()
        _REFUSED.clear()
        _OWNER = os.getpid()
    if night != _NIGHT:
        close_servers()
        _NIGHT = night
    key = (bot, slot, jailed, memory_mb, str(log_dir), hide, dist, tuple(path))
    if key in _REFUSED:
        raise _REFUSED[key]
    server = _SERVERS.get(key)
    if server is not None and server.alive() and (server.ready or not wait):
        return server
    try:
        if server is not None and server.alive():
            server.await_ready()  # (started by start_servers)
            return server
        if server is not None:
            server.close()
        if not _SERVERS:
            _close_at_exit()
        server = _SERVERS[key] = ForkServer(bot, f"{path_name(bot)}-{slot}-{next(_STARTED)}", jailed=jailed,
                                            memory_mb=memory_mb, log_path=log_dir / f"{path_name(bot)}.log", hide=hide,
                                            dist=dist, path=tuple(path), wait=wait)
    except BotFailure as failure:
        _SERVERS.pop(key, None)
        if failure.kind != CRASH:
            _REFUSED[key] = failure
        raise
    return server


def close_servers() -> None:
    """End this process's instances and their sandboxes: no process of theirs is left."""
    if _OWNER == os.getpid():
        for server in _SERVERS.values():
            server.close()
    _SERVERS.clear()
    _REFUSED.clear()


#: The process that has :func:`close_servers` run at its exit.
_HOOKED_IN = 0


def _close_at_exit() -> None:
    global _HOOKED_IN
    if _HOOKED_IN == os.getpid():
        return
    _HOOKED_IN = os.getpid()
    import atexit
    from multiprocessing import util

    atexit.register(close_servers)
    util.Finalize(None, close_servers, exitpriority=10)  # pool workers leave through os._exit


def default_log_dir() -> Path:
    """Where bots' output goes when a night names no place: the user's log directory."""
    import platformdirs

    return platformdirs.user_log_path("kotarena") / "bots"


__all__ = ["CPUS", "FILE_MB", "MAX_PIDS", "ForkServer", "close_servers", "default_log_dir", "seat_server"]
