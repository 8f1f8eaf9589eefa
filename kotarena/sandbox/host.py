"""The Python host: the program that seats an installed Python bot behind the protocol.

It runs inside the sandbox (``python -I -m kotarena.sandbox.host BOT --control FD``) as a
*fork server*: it imports the bot's package once, never sees a game, and for each seat of
each match forks a fresh process that plays that one game through the protocol
(:mod:`kotarena.sandbox.protocol`) on a socket the referee hands over, then exits. So a
bot meets every match with no memory of the earlier ones, and pays the import only once.

The control socket carries one JSON line per message, in both directions:

* the server says ``{"type": "server"}`` when the bot is imported (or ``{"type":
  "refused", "message": ...}`` if it cannot be seated);
* ``{"type": "spawn"}`` with a socket attached: fork a seat on it; answered by
  ``{"type": "spawned", "pid": ...}``;
* ``{"type": "reset"}`` after each match: end every process but this one and leave
  nothing behind (scratch files, System V IPC objects); answered by ``{"type": "clean"}``.

Everything here runs where the bot runs and is trusted by nobody: the referee checks each
answer as if a stranger wrote it.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import resource
import signal
import socket
import stat
import sys
import threading
import time
import traceback
from pathlib import Path

from kotarena.engine.actions import Action
from kotarena.sandbox.protocol import PROTOCOL, ProtocolError, ViewReader, decode, encode


def _lines(conn: socket.socket):
    """The lines arriving on ``conn``, as they come (ends when the peer closes)."""
    buffer = b""
    while True:
        end = buffer.find(b"\n")
        if end >= 0:
            line, buffer = buffer[:end], buffer[end + 1:]
            yield line
            continue
        chunk = conn.recv(1 << 16)
        if not chunk:
            return
        buffer += chunk


def _error_message(error: BaseException) -> str:
    """The error's own line first (the reason shown), then the last frames of its
    traceback (where the bot went wrong), each bounded."""
    summary = "".join(traceback.format_exception_only(type(error), error)).strip()
    frames = traceback.format_exception(type(error), error, error.__traceback__, limit=-6)
    return summary[:1000] + "\n" + "".join(frames)[-3000:]


def play_seat(conn: socket.socket, bot_name: str, memory_mb: int, file_mb: int) -> None:
    """One seat of one game: the protocol's bot side, with the installed bot deciding."""
    from kotarena.bots.registry import get_bot
    from kotarena.games import get_game

    send = conn.sendall
    send(encode({"type": "bot", "protocol": PROTOCOL, "name": bot_name}))
    lines = _lines(conn)
    hello = decode(next(lines))
    if hello.get("type") != "hello" or hello.get("protocol") != PROTOCOL:
        send(encode({"type": "error", "message": f"cannot speak {hello!r:.200}"}))
        return
    _limit_memory(memory_mb, file_mb)
    reader = ViewReader(get_game(hello["game"]).view_type)
    try:
        view = reader.read(hello["view"])
        bot = get_bot(bot_name).make(seed=hello["seed"], **hello.get("params", {}))
        bot.start(view)
        send(encode({"type": "ready"}))
        for line in lines:
            message = decode(line)
            view = reader.read(message["view"])
            if message["type"] == "decide":
                answer = bot.choose(view)
                text = answer.text if type(answer) is Action else answer
                if isinstance(text, str):
                    text = str.__str__(text)  # (a subclass of str is sent as its text: only data leaves)
                else:
                    text = f"<an object of type {type(answer).__name__}>"
                send(encode({"type": "action", "action": text}))
            elif message["type"] == "finish":
                bot.finish(view)
                send(encode({"type": "bye"}))
                return
    except MemoryError:
        send(encode({"type": "error", "kind": "memory", "message": "ran out of memory"}))
    except Exception as error:  # noqa: BLE001 - every failure of the bot is its forfeit
        send(encode({"type": "error", "message": _error_message(error)}))


def _limit_memory(memory_mb: int, file_mb: int) -> None:
    """Caps that hold whatever the bot does next: address space, file size, no core."""
    size = memory_mb << 20
    resource.setrlimit(resource.RLIMIT_AS, (size, size))
    resource.setrlimit(resource.RLIMIT_FSIZE, (file_mb << 20, file_mb << 20))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _empty_scratch(scratch: list[str]) -> None:
    """Empty the directories a seat may write in (before each game).

    Only what lies on a scratch directory's own filesystem goes: directories bound
    read-only inside it (a virtual environment under ``/tmp``) are left, with the
    directories that lead to them.
    """
    for directory in scratch:
        if not os.path.isdir(directory):
            continue
        device = os.lstat(directory).st_dev
        emptied = []
        for current, dirs, files in os.walk(directory):
            for name in files:
                with contextlib.suppress(OSError):
                    os.unlink(os.path.join(current, name))
            kept = []
            for name in dirs:
                path = os.path.join(current, name)
                info = os.lstat(path)
                if stat.S_ISLNK(info.st_mode):
                    with contextlib.suppress(OSError):
                        os.unlink(path)
                elif info.st_dev == device:
                    kept.append(name)
                    emptied.append(path)
            dirs[:] = kept
        for path in reversed(emptied):
            with contextlib.suppress(OSError):
                os.rmdir(path)  # (a directory leading to a bound one stays)


def _remove_ipc() -> None:
    """Remove the System V shared memory, semaphores and queues left in the sandbox's
    IPC namespace (they outlive their processes, and would carry a game to the next)."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    for table, remove in (("shm", libc.shmctl), ("sem", libc.semctl), ("msg", libc.msgctl)):
        try:
            rows = Path(f"/proc/sysvipc/{table}").read_text().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            ident = int(row.split()[1])
            remove(ident, 0, 0) if table == "sem" else remove(ident, 0, None)  # 0 = IPC_RMID


def _reset(scratch: list[str], jailed: bool, children: set[int]) -> None:
    """End every other process of the sandbox and leave nothing of the last game.

    In the sandbox this server is alone in its process namespace with the seats: it
    ends them all, whatever they forked. Unsandboxed (``jailed`` false) it can only end
    the seats it forked and their process groups.
    """
    if jailed:
        try:
            os.kill(-1, signal.SIGKILL)  # all we may signal: the sandbox, but us and its init
        except ProcessLookupError:
            pass
    for pid in children:
        for kill, target in ((os.killpg, pid), (os.kill, pid)):
            try:
                kill(target, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
    children.clear()
    while True:
        try:
            if os.waitpid(-1, 0)[0] == 0:
                break
        except ChildProcessError:
            break
    _empty_scratch(scratch)
    if jailed:
        _remove_ipc()


def _exit_status(pid: object, children: set[int]) -> dict:
    """How seat ``pid`` ended: ``{"code": n}`` or ``{"signal": n}`` (within a second)."""
    if not isinstance(pid, int) or pid not in children:
        return {}
    for _ in range(100):
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            return {}
        if done:
            children.discard(pid)
            if os.WIFSIGNALED(status):
                return {"signal": os.WTERMSIG(status)}
            return {"code": os.waitstatus_to_exitcode(status)}
        time.sleep(0.01)
    return {}


def serve(control: socket.socket, bot_name: str, memory_mb: int, file_mb: int, scratch: list[str],
          jailed: bool) -> None:
    """The fork server's loop."""
    from kotarena.bots.command import ProgramMissingError, is_program
    from kotarena.bots.registry import get_bot
    from kotarena.games import games
    from kotarena.sandbox.program import exec_program

    reply = control.sendall
    try:
        info = get_bot(bot_name)  # imports the bot's package: its import-time code runs here, once
        games()
        program = info.cls.argv() if is_program(info.cls) else None  # a command-line bot's program
    except ProgramMissingError as error:
        reply(encode({"type": "refused", "message": str(error)}))
        return
    except Exception as error:  # noqa: BLE001
        reply(encode({"type": "refused", "message": f"could not load the bot: {_error_message(error)}"}))
        return
    # The server lives on between matches: nothing of the bot's may run in it then,
    # or it could carry one game's secrets to the next.
    if threading.active_count() > 1:
        reply(encode({"type": "refused", "message": "its package starts threads when imported"}))
        return
    try:
        pid, _ = os.waitpid(-1, os.WNOHANG)
        reply(encode({"type": "refused", "message": "its package starts processes when imported"}))
        return
    except ChildProcessError:
        pass
    for name in (signal.SIGALRM, signal.SIGVTALRM, signal.SIGPROF, signal.SIGIO, signal.SIGCHLD, signal.SIGUSR1):
        signal.signal(name, signal.SIG_DFL)
    # Freeze what is loaded so far: a seat's process would otherwise copy, page by page,
    # everything the collector walks through (the server's memory is shared until written).
    gc.collect()
    gc.freeze()
    reply(encode({"type": "server", "package": info.package, "version": info.version}))
    children: set[int] = set()
    while True:
        try:
            data, fds, _, _ = socket.recv_fds(control, 4096, 1)
        except OSError:
            return
        if not data:
            return
        message = json.loads(data)
        if message["type"] == "spawn" and fds:
            pid = os.fork()
            if pid == 0:
                code = 0
                try:
                    control.close()
                    os.setpgid(0, 0)
                    with socket.socket(fileno=fds[0]) as conn:
                        if program is not None:
                            exec_program(conn, program, memory_mb, file_mb)
                        play_seat(conn, bot_name, memory_mb, file_mb)
                except (OSError, ProtocolError, StopIteration, KeyError, TypeError):
                    code = 1  # the referee went away or spoke nonsense: nothing to tell it
                finally:
                    os._exit(code)
            os.close(fds[0])
            children.add(pid)
            reply(encode({"type": "spawned", "pid": pid}))
        elif message["type"] == "status":
            reply(encode({"type": "status", **_exit_status(message.get("pid"), children)}))
        elif message["type"] == "reset":
            _reset(scratch, jailed, children)
            reply(encode({"type": "clean"}))
        else:
            for fd in fds:
                os.close(fd)


def catalogue(control: socket.socket) -> None:
    """Send what the plugins loaded here declare: their bots, the hooks each plugin
    implements, and every problem met loading them (import errors word for word).

    Started with ``--dist DIST`` (as the referee always does, :mod:`kotarena.sandbox.catalogue`)
    only kotarena's built-in plugins and DIST's are loaded, so what is sent is DIST's
    word about itself alone; the referee fills in package and version from metadata.
    """
    from kotarena import plugins
    from kotarena.bots.command import is_program
    from kotarena.bots.registry import get_bots

    own = [info for info in plugins.plugins() if not info.builtin]
    names = {info.name for info in own}
    bots = []
    for info in get_bots().values():
        if info.plugin not in names:
            continue  # (kotarena's own bots: the referee knows them)
        declared = getattr(info.cls, "parameters", None)
        parameters = None if declared is None else {name: getattr(kind, "__name__", str(kind))
                                                     for name, kind in dict(declared).items()}
        bots.append({**info.to_json(), "parameters": parameters, "program": is_program(info.cls)})
    errors = [{"plugin": e.plugin, "package": e.package, "message": e.message} for e in plugins.plugin_errors()
              if e.package != "kotarena"]
    hooks = [{"plugin": info.name, "hooks": info.hooks} for info in own]
    control.sendall(encode({"type": "catalogue", "bots": bots, "plugins": hooks, "errors": errors}))


def _load_only(dist: str) -> None:
    """Load kotarena's built-in plugins and distribution ``dist``'s only."""
    from kotarena import plugins

    plugins.restrict({"kotarena", dist})


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bot", nargs="?", help="the bot to serve (none with --catalogue)")
    parser.add_argument("--catalogue", action="store_true", help="send what the installed bots declare, and exit")
    parser.add_argument("--control", type=int, required=True, help="the control socket's file descriptor")
    parser.add_argument("--dist", help="load kotarena's built-in plugins and this distribution's only")
    parser.add_argument("--path", default="[]",
                        help="JSON list of directories to put first on sys.path (a stored bot's directory first)")
    parser.add_argument("--memory-mb", type=int, default=2048)
    parser.add_argument("--file-mb", type=int, default=64)
    parser.add_argument("--scratch", action="append", default=[], help="a directory seats may write in")
    parser.add_argument("--jailed", action="store_true", help="alone in a process namespace (the sandbox)")
    args = parser.parse_args(argv)
    sys.path[:0] = [entry for entry in dict.fromkeys(json.loads(args.path)) if entry not in sys.path]
    if args.dist:
        _load_only(args.dist)
    else:
        from kotarena import plugins

        plugins.restrict(None)  # (here, where the bot runs, its distribution is imported: that is the sandbox's job)
    _empty_scratch(args.scratch)
    with socket.socket(fileno=args.control) as control:
        if args.catalogue:
            catalogue(control)
            return
        serve(control, args.bot, args.memory_mb, args.file_mb, args.scratch, args.jailed)


if __name__ == "__main__":
    main()
