"""The Python host: the program that seats an installed Python bot behind the protocol.

It runs inside the sandbox (``python -I -m kotarena.sandbox.host BOT --control FD``) as
one *instance* of its bot (see :mod:`kotarena.sandbox.seat`): it imports the bot's
package once and never sees a game itself. For a Python bot it forks a *player*, a
process that plays the games the referee hands it one after the other, each through the
protocol (:mod:`kotarena.sandbox.protocol`) on a socket of its own, and keeps whatever
the bot keeps from one to the next: the referee gives an instance each deal at most
once, so what it remembers is what it learnt of its opponents, never the game it plays.
A player that crashed or was killed is replaced by a new one, forked again from the
host. For a command-line bot the host forks and ``exec``s the bot's program for each
game (the protocol is one game per run of the program).

The control socket carries one JSON line per message, in both directions:

* the server says ``{"type": "server"}`` when the bot is imported (or ``{"type":
  "refused", "message": ...}`` if it cannot be seated);
* ``{"type": "spawn"}`` with a socket attached: play a game on it; answered by
  ``{"type": "spawned", "pid": ...}``, the process that plays it (for a command-line
  bot a second descriptor comes with it, the pipe its program's standard error goes to:
  the referee reads the game's lines there, :class:`kotarena.sandbox.botlog.ProgramLines`);
* ``{"type": "status", "pid": ...}``: how that process ended;
* ``{"type": "reset"}`` after a match whose game did not end cleanly here (a forfeit, a
  program's run): end every process of the sandbox but this one, the player included
  (the next game gets a new one); answered by ``{"type": "clean"}``. Files stay: they
  are the instance's, and end with it.

Everything here runs where the bot runs and is trusted by nobody: the referee checks each
answer as if a stranger wrote it.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import signal
import socket
import stat
import sys
import threading
import time
import traceback
from typing import Any

from kotarena.engine.actions import Action
from kotarena.sandbox.botlog import FINISH, START, Book, install
from kotarena.sandbox.process import exec_program, limit_memory
from kotarena.sandbox.protocol import LEGAL_LISTS, PROTOCOL, ProtocolError, ViewReader, _actions, decode, encode

#: Frames of a bot's traceback sent after its error's own line (the innermost ones).
TRACEBACK_FRAMES = 6
#: The longest error message the host sends.
ERROR_CHARS = 4000
#: The fields of an outcome, in the order of the JSON array an older referee sent.
_OUTCOME_FIELDS = ("winner", "termination", "ranks", "turns")


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
    """The error's own line first (``ValueError: boom``: the reason, which is what a
    stored forfeit shows first), then the last frames of its traceback."""
    reason = "".join(traceback.format_exception_only(type(error), error)).strip()
    frames = traceback.extract_tb(error.__traceback__)[-TRACEBACK_FRAMES:]
    if frames:
        reason += "\nTraceback (most recent call last):\n" + "".join(traceback.format_list(frames)).rstrip()
    return reason[:ERROR_CHARS]


def _view_changes(message: dict) -> dict:
    """A message's ``view`` object (an outcome sent as an array by an older referee is
    read as the object it stands for)."""
    changes = message["view"]
    outcome = changes.get("outcome")
    if isinstance(outcome, list) and len(outcome) == len(_OUTCOME_FIELDS):
        changes = {**changes, "outcome": dict(zip(_OUTCOME_FIELDS, outcome))}
    return changes


def play_seat(conn: socket.socket, bot_name: str, book: Book | None = None) -> bool:
    """One seat of one game: the protocol's bot side, with the installed bot deciding.
    Whether the game ended cleanly (the next one may come on the same connection).
    ``book`` keeps what the bot writes during the game, sent with its goodbye, its error,
    or its answer to ``forfeit`` (:mod:`kotarena.sandbox.botlog`)."""
    from kotarena.bots.registry import get_bot
    from kotarena.games import get_game

    send = conn.sendall
    send(encode({"type": "bot", "protocol": PROTOCOL, "name": bot_name}))
    lines = _lines(conn)
    hello = decode(next(lines))
    if hello.get("type") == "batch":
        return play_batches(send, lines, hello, bot_name, book)
    if hello.get("type") != "hello" or hello.get("protocol") != PROTOCOL:
        send(encode({"type": "error", "message": f"cannot speak {hello!r:.200}"}))
        return False
    reader = ViewReader(get_game(hello["game"]).view_type)
    book = book or Book()
    book.forget(0)
    decided = 0
    try:
        book.at(0, START)
        view = reader.read(hello["view"])
        bot = get_bot(bot_name).make(seed=hello["seed"], **hello.get("params", {}))
        bot.start(view)
        send(encode({"type": "ready"}))
        for line in lines:
            message = decode(line)
            if message["type"] == "forfeit":  # (its last answer was refused: the game's lines, and no more)
                log = book.take(0)
                send(encode({"type": "bye", "log": log} if log else {"type": "bye"}))
                return False
            view = reader.read(_view_changes(message))
            if message["type"] == "decide":
                decided += 1
                book.at(0, decided)
                answer = bot.choose(view)
                text = answer.text if type(answer) is Action else answer
                if isinstance(text, str):
                    text = str.__str__(text)  # (a subclass of str is sent as its text: only data leaves)
                else:
                    text = f"<an object of type {type(answer).__name__}>"
                send(encode({"type": "action", "action": text}))
            elif message["type"] == "finish":
                book.at(0, FINISH)
                bot.finish(view)
                book.at(None)
                log = book.take(0)
                send(encode({"type": "bye", "log": log} if log else {"type": "bye"}))
                return True
    except Exception as error:  # noqa: BLE001 - every failure of the bot is its forfeit
        send(encode({"type": "error", **_failure(error, book, 0)}))
    finally:
        book.at(None)
    book.forget(0)
    return False


def play_batches(send: Any, lines: Any, first: dict, bot_name: str, book: Book | None = None) -> bool:
    """Several games at once, on one connection: the referee's ``batch`` messages, each
    answered by one ``answers`` message (see :mod:`kotarena.sandbox.batch`).

    A batch is a list of steps ``[kind, game, data]``: ``start`` (``data`` as in
    ``hello``: the game, seat, seed, parameters, limits and whole view, and ``decided``,
    the seat's decisions before: a game greeted again by a new player goes on), ``decide`` and
    ``finish`` (``data`` the view's changes since the game's last step), ``forget`` (the
    referee gave up on the game). A view's ``legal`` is a list of texts, or the number
    of such a list sent before on the connection (the first is 0): a game's legal sets
    are few, and long (a roll's 64 choices of dice). The answer to each step, in order, is ``"ready"``,
    the action's text, ``"bye"`` (``["bye", lines]`` with what the bot wrote during the
    game, kept by ``book`` under the marks of their steps), ``"gone"`` (``["gone", lines]``: the
    game's lines so far), or ``{"error": message}`` (with ``"log"``, the game's lines) when the bot
    failed in that game (which is then forgotten here; the other games go on). Returns
    ``False`` when the connection ends: the games it carried end with it.
    """
    from kotarena.bots.registry import get_bot

    info = get_bot(bot_name)
    book = book or Book()
    games: dict[int, list] = {}  # number -> [bot, its view reader, its decisions so far]
    legals: list[tuple] = []
    message = first
    while message.get("type") == "batch":
        steps = message["steps"]
        for step in steps:
            _number_legal(step, legals)
        send(encode({"type": "answers", "answers": [_step(step, games, info, legals, book) for step in steps]}))
        line = next(lines, None)
        if line is None:
            break
        message = json.loads(line)  # (the referee's line: this side needs no guard against it)
    return False


def _number_legal(step: list, legals: list[tuple]) -> None:
    """Number the legal list a step sends whole, as the referee does (up to
    ``LEGAL_LISTS``), whatever becomes of the step: the step then names it by number."""
    kind, _, data = step
    changes = data.get("view") if kind == "start" else data
    if type(changes) is dict and type(changes.get("legal")) is list and len(legals) < LEGAL_LISTS:
        try:
            legals.append(_actions(changes["legal"]))
        except Exception:  # noqa: BLE001 - (kept in step with the referee's numbers; the step fails)
            legals.append(())
        changes["legal"] = len(legals) - 1


def _read(reader: ViewReader, changes: dict, legals: list[tuple]) -> Any:
    """The view after ``changes``, whose ``legal`` may be the number of a list sent
    before on this connection (:func:`_number_legal`)."""
    legal = changes.get("legal")
    if type(legal) is int:
        changes = {name: value for name, value in changes.items() if name != "legal"}
        return reader.read(changes, legals[legal])
    return reader.read(changes)


def _step(step: list, games: dict, info: Any, legals: list[tuple], book: Book) -> object:
    """One step of a batch (see :func:`play_batches`), answered (what the bot writes
    meanwhile is game ``number``'s, in ``book``)."""
    kind, number, data = step
    try:
        if kind == "start":
            book.forget(number)
            book.at(number, START)
            from kotarena.games import get_game

            reader = ViewReader(get_game(data["game"]).view_type)
            view = _read(reader, data["view"], legals)
            bot = info.make(seed=data["seed"], **data.get("params", {}))
            decided = data.get("decided", 0)  # (greeted again by a new player: the decisions before)
            games[number] = [bot, reader, decided if type(decided) is int and decided >= 0 else 0]
            bot.start(view)
            return "ready"
        if kind == "forget":  # (the referee gave up on the game, or refused its last answer: its lines)
            games.pop(number, None)
            log = book.take(number)
            return ["gone", log] if log else "gone"
        game = games[number]
        bot, reader = game[0], game[1]
        if kind != "finish":
            game[2] += 1
        book.at(number, FINISH if kind == "finish" else game[2])
        view = _read(reader, _view_changes({"view": data}), legals)
        if kind == "finish":
            del games[number]
            bot.finish(view)
            book.at(None)
            log = book.take(number)
            return ["bye", log] if log else "bye"
        answer = bot.choose(view)
        text = answer.text if type(answer) is Action else answer
        if isinstance(text, str):
            return str.__str__(text)  # (a subclass of str is sent as its text: only data leaves)
        return f"<an object of type {type(answer).__name__}>"
    except Exception as error:  # noqa: BLE001 - every failure of the bot is its forfeit, in this game
        games.pop(number, None)
        failure = _failure(error, book, number)
        return {"error": failure.pop("message"), **failure}
    finally:
        book.at(None)


def _failure(error: Exception, book: Book, game: object) -> dict:
    """What the host says of the bot's failure in ``game``: its error's ``message`` (and
    ``kind`` for memory), and ``log``, the game's lines up to it, taken from ``book``."""
    book.at(None)
    log = book.take(game)
    failure = ({"kind": "memory", "message": "ran out of memory"} if isinstance(error, MemoryError)
               else {"message": _error_message(error)})
    return {**failure, "log": log} if log else failure


def _play_games(link: socket.socket, bot_name: str, memory_mb: int, file_mb: int, book: Book | None = None) -> None:
    """A player's life: the games its host hands it, one after the other, until the host
    goes. Each connection carries games until one does not end cleanly (the referee
    keeps a connection whose game ended with the bot's goodbye for its next game)."""
    limit_memory(memory_mb, file_mb)
    while True:
        try:
            _, fds, _, _ = socket.recv_fds(link, 16, 1)
        except OSError:
            return
        if not fds:
            return
        try:
            with socket.socket(fileno=fds[0]) as conn:
                while play_seat(conn, bot_name, book):
                    pass
        except (OSError, ProtocolError, StopIteration, KeyError, TypeError, ValueError, AttributeError):
            pass  # the referee went away or spoke nonsense in this game: nothing to tell it


def _empty_scratch(scratch: list[str]) -> None:
    """Empty the directories a seat may write in (when an instance starts).

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


def _processes() -> list[int]:
    """Every process in sight (in the sandbox: the sandbox's)."""
    return [int(entry) for entry in os.listdir("/proc") if entry.isdigit()]


class _Host:
    """The host's processes: the player of a Python bot, the programs of a command-line
    bot, and what they left."""

    def __init__(self, bot_name: str, program: list[str] | None, memory_mb: int, file_mb: int, jailed: bool,
                 book: Book | None = None) -> None:
        self.bot_name = bot_name
        self.book = book  #: the bot's lines per game (:mod:`kotarena.sandbox.botlog`)
        self.program = program
        self.memory_mb = memory_mb
        self.file_mb = file_mb
        self.jailed = jailed
        self.children: set[int] = set()  #: processes forked here, not yet waited for
        self.player = 0  #: the live player's process (0: none)
        self.link: socket.socket | None = None  #: the socket that hands the player its games

    def spawn(self, control: socket.socket, fd: int, err: int | None = None) -> int:
        """Have ``fd``'s game played: by the player (started if need be), or by a new
        run of the bot's program, whose standard error is ``err`` where the referee
        sent one (it reads the game's lines there). Returns the process that plays it."""
        if self.program is not None:
            return self._fork(control, fd, None, err)
        if err is not None:
            os.close(err)  # (a player's lines come with its goodbyes: kotarena.sandbox.botlog)
        for _ in range(2):
            if not self._player_alive():
                self._start_player(control)
            try:
                socket.send_fds(self.link, [b"g"], [fd])  # type: ignore[arg-type]
                break
            except OSError:
                self._drop_player()
        os.close(fd)
        return self.player

    def _start_player(self, control: socket.socket) -> None:
        ours, theirs = socket.socketpair()
        self.player = self._fork(control, None, theirs)
        theirs.close()
        self.link = ours

    def _fork(self, control: socket.socket, fd: int | None, link: socket.socket | None, err: int | None = None) -> int:
        host = os.getpid()
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                control.close()
                if self.link is not None:
                    self.link.close()
                if link is not None:
                    # A player stays in the host's process group and dies with the host
                    # (unsandboxed, nothing else would end it with the instance).
                    _die_with_parent()
                    if os.getppid() != host:
                        return  # (the host is gone already)
                    _play_games(link, self.bot_name, self.memory_mb, self.file_mb, self.book)
                else:
                    os.setpgid(0, 0)  # (a program's processes are ended by its group)
                    with socket.socket(fileno=fd) as conn:
                        exec_program(conn, self.program, self.memory_mb, self.file_mb, err)  # type: ignore[arg-type]
            except BaseException:  # noqa: BLE001 - the process ends here whatever happened
                code = 1
            finally:
                os._exit(code)
        for mine in (fd, err):
            if mine is not None:
                os.close(mine)
        self.children.add(pid)
        return pid

    def _player_alive(self) -> bool:
        if not self.player:
            return False
        try:
            done, _ = os.waitpid(self.player, os.WNOHANG)
        except ChildProcessError:
            done = self.player
        if done:
            self.children.discard(self.player)
            self._drop_player()
            return False
        return True

    def _drop_player(self) -> None:
        if self.link is not None:
            self.link.close()
            self.link = None
        if self.player:
            _kill(self.player)
        self.player = 0

    def status(self, pid: object) -> dict:
        """How process ``pid`` ended: ``{"code": n}`` or ``{"signal": n}`` (within a second)."""
        if not isinstance(pid, int) or pid not in self.children:
            return {}
        for _ in range(100):
            try:
                done, status = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                return {}
            if done:
                self.children.discard(pid)
                if pid == self.player:
                    self._drop_player()
                if os.WIFSIGNALED(status):
                    return {"signal": os.WTERMSIG(status)}
                return {"code": os.waitstatus_to_exitcode(status)}
            time.sleep(0.01)
        return {}

    def reset(self) -> None:
        """End every process but this one: the player too (the referee asks after a
        game that did not end cleanly, whose player it killed or gave up on; a killed
        process may take a while to die, and must not be handed the next game)."""
        if self.jailed:
            for pid in _processes():
                if pid not in (os.getpid(), 1):
                    _kill(pid)
        for pid in list(self.children):
            for kill, target in ((os.killpg, pid), (os.kill, pid)):
                try:
                    kill(target, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
        self.children.clear()
        self._drop_player()


def _die_with_parent() -> None:
    import ctypes

    ctypes.CDLL(None).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def serve(control: socket.socket, bot_name: str, memory_mb: int, file_mb: int, jailed: bool) -> None:
    """The host's loop."""
    from kotarena.bots.command import ProgramMissingError, is_program
    from kotarena.bots.registry import get_bot
    from kotarena.games import games

    reply = control.sendall
    # (in place before the bot is imported: a logging handler it makes then writes through it)
    book = install()
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
    # The host forks its players: a thread or process of the bot's running here would
    # be a part of the instance outside any player (and fork copies no thread).
    if threading.active_count() > 1:
        reply(encode({"type": "refused", "message": "its package starts threads when imported"}))
        return
    try:
        os.waitpid(-1, os.WNOHANG)
        reply(encode({"type": "refused", "message": "its package starts processes when imported"}))
        return
    except ChildProcessError:
        pass
    for name in (signal.SIGALRM, signal.SIGVTALRM, signal.SIGPROF, signal.SIGIO, signal.SIGCHLD, signal.SIGUSR1):
        signal.signal(name, signal.SIG_DFL)
    # Freeze what is loaded so far: a player would otherwise copy, page by page,
    # everything the collector walks through (the host's memory is shared until written).
    gc.collect()
    gc.freeze()
    reply(encode({"type": "server", "player": program is None}))
    host = _Host(bot_name, program, memory_mb, file_mb, jailed, book)
    while True:
        try:
            data, fds, _, _ = socket.recv_fds(control, 4096, 2)
        except OSError:
            return
        if not data:
            return
        message = json.loads(data)
        if message["type"] == "spawn" and fds:
            reply(encode({"type": "spawned", "pid": host.spawn(control, fds[0], fds[1] if len(fds) > 1 else None)}))
        elif message["type"] == "status":
            reply(encode({"type": "status", **host.status(message.get("pid"))}))
        elif message["type"] == "reset":
            host.reset()
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
    # kotarena's own plugins and the bot's distribution only: never every installed one,
    # whose import-time code would run in this bot's sandbox.
    _load_only(args.dist or "kotarena")
    _empty_scratch(args.scratch)
    with socket.socket(fileno=args.control) as control:
        if args.catalogue:
            catalogue(control)
            return
        serve(control, args.bot, args.memory_mb, args.file_mb, args.jailed)


if __name__ == "__main__":
    main()
