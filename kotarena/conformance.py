"""The conformance checker: is a bot fit to take a seat on the ladder?

:func:`check_bot` plays seeded games against the built-in ``random`` bot at every
player count of every game the bot supports, with and without the deck of cards, and
reports one :class:`Check` per property a ladder relies on:

``registration``    the bot has a usable name, a description and games kotarena knows
``no exceptions``   ``__init__``, ``start``, ``choose`` and ``finish`` never raise
``legal answers``   every answer is one of ``view.legal`` (or its text)
``view untouched``  the bot changes nothing in the views it is given
``deterministic``   the same seed gives the same actions
``decision time``   no decision takes more CPU time than the limit
``worker process``  the class and its views cross to a freshly spawned process, and
                    the bot answers there exactly as it does here
``decision kinds``  the bot answers every kind of decision its games can ask, from
                    positions random games reach (:mod:`kotarena.decision_positions`)
A command-line bot (a program on the protocol) is checked alike, seated in the sandbox.

It is what ``kotarena bots check NAME`` runs, and a bot's own test suite can call it::

    from kotarena.conformance import check_bot

    def test_my_bot_conforms():
        report = check_bot(MyBot)
        assert report.ok, report.text()

Time is CPU time, as on the ladder, so a busy machine does not fail a bot. A decision
that runs past ``time_limit * WALL_FACTOR + WALL_GRACE`` seconds of wall-clock time is
interrupted (on the main thread of a POSIX system) and ends the checking early.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import pickle
import re
import signal
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from kotarena.bots.base import Bot
from kotarena.bots.command import is_program
from kotarena.bots.random_bot import RandomBot
from kotarena.bots.registry import describe, get_bots
from kotarena.decision_positions import find_positions
from kotarena.engine.actions import Action
from kotarena.forfeits import BotFailure, as_action
from kotarena.games import games, get_game, get_spec, new_game, supported_games
from kotarena.match import bot_seed
from kotarena.sandbox.relay import SandboxedBot, sandboxed_class
from kotarena.sandbox.untrusted import find_bot

#: Games played per game, player count and deck setting unless told otherwise.
DEFAULT_GAMES = 2
DEFAULT_SEED = 0
#: Seconds of CPU time one decision may take (the ladder's usual limit).
DEFAULT_TIME_LIMIT = 1.0
#: A decision is interrupted after this many times the limit in wall-clock time, plus
#: ``WALL_GRACE`` seconds: long enough never to catch a merely slow bot.
WALL_FACTOR = 10.0
WALL_GRACE = 5.0
#: Seconds the worker process may take to start, import the bot and answer.
WORKER_TIMEOUT = 60.0
#: Bot names are typed on command lines and key ratings: no spaces, no oddities.
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")

CHECK_NAMES = (
    "registration", "no exceptions", "legal answers", "view untouched",
    "deterministic", "decision time", "worker process", "decision kinds",
)


@dataclass(frozen=True)
class Check:
    """The verdict on one property: its name, whether it holds, and the evidence."""

    name: str
    passed: bool
    detail: str

    def to_json(self) -> dict:
        return {"name": self.name, "passed": self.passed, "detail": self.detail}


@dataclass
class Report:
    """Everything :func:`check_bot` found; ``ok`` when every check passed."""

    bot: str
    seed: int
    games: int
    time_limit: float
    checks: list[Check] = field(default_factory=list)
    decisions: int = 0
    max_time: float = 0.0
    mean_time: float = 0.0

    @property
    def ok(self) -> bool:
        return all(check.passed for check in self.checks)

    @property
    def passed(self) -> int:
        return sum(1 for check in self.checks if check.passed)

    @property
    def failed(self) -> int:
        return len(self.checks) - self.passed

    def check(self, name: str) -> Check:
        """The check called ``name`` (see :data:`CHECK_NAMES`)."""
        for check in self.checks:
            if check.name == name:
                return check
        raise KeyError(name)

    def text(self) -> str:
        """The report for people: one line per check, then the totals."""
        width = max(len(name) for name in CHECK_NAMES)
        games = f"{self.games} game{'s' if self.games != 1 else ''}"
        lines = [f"checking bot {self.bot!r} (seed {self.seed}, {games} per player count and deck, "
                 f"time limit {self.time_limit:g}s)"]
        lines += [f"{'PASS' if c.passed else 'FAIL'}  {c.name.ljust(width)}  {c.detail}" for c in self.checks]
        lines.append(f"{self.passed} passed, {self.failed} failed")
        return "\n".join(lines)

    __str__ = text

    def to_json(self) -> dict:
        """The report for machines (``kotarena bots check --json``)."""
        return {"bot": self.bot, "ok": self.ok, "passed": self.passed, "failed": self.failed, "seed": self.seed,
                "games": self.games, "time_limit": self.time_limit, "decisions": self.decisions,
                "max_time": self.max_time, "mean_time": self.mean_time,
                "checks": [check.to_json() for check in self.checks]}


def check_bot(
    bot: type[Bot] | str,
    *,
    games: int = DEFAULT_GAMES,
    seed: int = DEFAULT_SEED,
    time_limit: float = DEFAULT_TIME_LIMIT,
    worker: bool = True,
    kinds: bool = True,
) -> Report:
    """Check a bot class (or an installed bot, by name) and return the :class:`Report`.

    :param bot: a :class:`~kotarena.bots.base.Bot` subclass, or the name of an installed
        bot (untrusted: checked in the sandbox; :class:`~kotarena.bots.registry.UnknownBotError` if none).
    :param games: games per game, player count and deck setting (at least 1).
    :param seed: the first game's seed; the same seed gives the same games.
    :param time_limit: seconds of CPU time a decision may take.
    :param worker: also check the bot in a spawned process (a fraction of a second);
        without it the report has no ``worker process`` check.
    :param kinds: also ask the bot every decision kind of its games, from positions of
        random games; without it the report has no ``decision kinds`` check.
    """
    if games < 1:
        raise ValueError("games must be at least 1")
    if isinstance(bot, str):
        info = find_bot(bot)  # (an untrusted bot is seated as a ladder seats it: in the sandbox)
        cls, label = sandboxed_class(info, time_limit=time_limit) if info.sealed else info.cls, info.name
    elif isinstance(bot, type) and issubclass(bot, Bot):
        cls = bot
        info = next((i for i in get_bots().values() if i.cls is bot), None)
        label = info.name if info else (getattr(bot, "name", "") or bot.__name__)
    else:
        raise TypeError(f"check_bot() needs a Bot subclass or a bot name, got {bot!r}")

    report = Report(label, seed, games, time_limit)
    report.checks.append(_registration(cls, info))
    tables = _tables(cls, games, seed)
    run = _Run(cls, time_limit)
    for table in tables:
        if run.hung:
            break
        run.answers[table] = run.play(table, record_views=table.index == 0)

    report.decisions = len(run.times)
    report.max_time = max(run.times, default=0.0)
    report.mean_time = sum(run.times) / len(run.times) if run.times else 0.0
    report.checks.append(_no_exceptions(run, tables))
    report.checks.append(_legal_answers(run))
    report.checks.append(_view_untouched(run))
    report.checks.append(_deterministic(run, tables))
    report.checks.append(_decision_time(run, report, time_limit))
    if worker:
        report.checks.append(_worker_process(cls, run, tables) if not run.sandboxed else Check(
            "worker process", True, "plays in a process of its own, in the sandbox, as in a ladder"))
    if kinds and tables:
        report.checks.append(_decision_kinds(cls, time_limit, seed))
    return report


# ----------------------------------------------------------------- games to play


@dataclass(frozen=True)
class _Table:
    """One game to play: which game, how many players, cards or not, the seed, our seat."""

    index: int
    game: str
    players: int
    cards: bool
    seed: int
    seat: int
    deck: str | None = "default"

    def describe(self, turn: int | None = None) -> str:
        cards = f"deck {self.deck}" if self.index < 0 and self.deck else "cards" if self.cards else "no cards"
        at_turn = f", turn {turn}" if turn is not None else ""
        which = "a random game" if self.index < 0 else f"game {self.index + 1}"
        return (f"{which} ({self.game}, {self.players} players, {cards}, "
                f"seed {self.seed}, seat {self.seat + 1}{at_turn})")


def _supported_games(cls: type[Bot]) -> list[str]:
    return supported_games(getattr(cls, "games", ()) or ())


def _tables(cls: type[Bot], games: int, seed: int) -> list[_Table]:
    tables = []
    for game in _supported_games(cls):
        spec = get_spec(game)
        for cards in (True, False):
            for players in range(spec.min_players, spec.max_players + 1):
                for _ in range(games):
                    index = len(tables)
                    tables.append(_Table(index, game, players, cards, seed * 1000 + index, index % players))
    return tables


# ----------------------------------------------------------------- playing


@dataclass(frozen=True)
class _Problem:
    kind: str  # "error", "invalid", "mutation", "timeout"
    where: str
    detail: str


class _Hung(BaseException):
    """Raised into a decision that ran past the wall-clock backstop (a BaseException,
    so a bot's own ``except Exception`` cannot swallow it)."""


@contextmanager
def _backstop(seconds: float) -> Iterator[None]:
    """Interrupt the block after ``seconds`` of wall-clock time, where signals allow."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def fire(signum, frame):
        raise _Hung()

    previous = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _fingerprint(view: Any) -> tuple:
    """Everything a view says, deeply, so a change anywhere inside it shows."""
    actions = tuple((a.kind, a.args, a.text) for a in view.legal)
    return json.dumps(view.to_json(), sort_keys=True, default=repr), actions


def _legal_answer(answer: object, view: Any) -> Action | None:
    """The legal action the answer names (read as the league reads it: text with the
    game's verbs), or ``None``."""
    try:
        action = as_action(answer, view)
    except BotFailure:
        return None
    return action if action in view.legal else None


def _shown(answer: object) -> str:
    return repr(answer.text) if isinstance(answer, Action) else repr(answer)


def _raised(error: BaseException) -> str:
    """``ValueError: bad thing (my_bot.py:12)``: the error and the innermost frame."""
    frames = traceback.extract_tb(error.__traceback__)
    where = f" ({os.path.basename(frames[-1].filename)}:{frames[-1].lineno})" if frames else ""
    return f"{type(error).__name__}: {error}{where}"


class _Run:
    """Plays the tables and gathers the evidence every check reads."""

    def __init__(self, cls: type[Bot], time_limit: float) -> None:
        self.cls = cls
        self.time_limit = time_limit
        self.sandboxed = issubclass(cls, SandboxedBot)
        #: Whether the bot's CPU time is counted outside this process (by its seat's cgroup).
        self.outside = self.sandboxed or is_program(cls)
        self.answers: dict[_Table, list[str]] = {}
        self.problems: list[_Problem] = []
        self.times: list[float] = []
        self.slowest: tuple[float, str] = (0.0, "")
        self.finished = 0
        self.hung = False
        #: The first table's views, for the worker check: (start view, [decision views]).
        self.start_view: Any = None
        self.views: list[Any] = []

    def _guard(self, table: _Table, turn: int, what: str, call: Callable, *args, **kwargs) -> tuple[bool, object]:
        """Call ``call(*args, **kwargs)``; on failure record a problem and return ``(False, None)``."""
        try:
            with _backstop(self.time_limit * WALL_FACTOR + WALL_GRACE):
                return True, call(*args, **kwargs)
        except _Hung:
            self.hung = True
            self.problems.append(_Problem("timeout", table.describe(turn),
                                          f"{what} was still running after "
                                          f"{self.time_limit * WALL_FACTOR + WALL_GRACE:g}s; checking stopped"))
        except Exception as error:  # noqa: BLE001 - any bug in the bot is evidence, not our crash
            self.problems.append(_Problem("error", table.describe(turn), f"{what} raised {_raised(error)}"))
        return False, None

    def play(self, table: _Table, *, record_views: bool = False, state: Any = None) -> list[str]:
        """Play one game (on from ``state`` if given); returns the bot's answers (as
        text) up to the end or the first failure."""
        if state is None:
            state = new_game(table.game, players=table.players, seed=table.seed,
                             deck="default" if table.cards else None, record=False)
        seat = table.seat
        opponents = {p: RandomBot(seed=bot_seed(table.seed, p)) for p in range(table.players) if p != seat}
        # (a sandboxed bot's instance is chosen by the deal: none meets a deal twice)
        deal = {"deal": (table.game, table.players, table.cards, table.seed, table.deck)} if self.sandboxed else {}
        ok, bot = self._guard(table, state.turn, "__init__", self.cls, seed=bot_seed(table.seed, seat), **deal)
        if not ok:
            return []
        if self.outside:
            bot.time_limit = self.time_limit  # (its seat in the sandbox enforces it)
        start_view = state.view(seat)
        ok, _ = self._guard(table, state.turn, "start()", bot.start, start_view)
        if not ok:
            return []
        if record_views:
            self.start_view = start_view
        answers: list[str] = []
        while state.outcome is None:
            player = state.to_move
            if player != seat:
                state.apply(opponents[player].choose(state.view(player)))
                continue
            view = state.view(seat)
            fields = tuple(view)
            before = _fingerprint(view)
            wall, cpu = time.perf_counter(), time.process_time()
            ok, answer = self._guard(table, state.turn, f"choose() on a {view.kind!r} decision", bot.choose, view)
            # A program's or a sandboxed bot's time is its own process's, counted by its seat's cgroup.
            used = bot.last_cpu if self.outside else time.process_time() - cpu
            if not ok:
                return answers
            self.times.append(used)
            if used > self.slowest[0]:
                self.slowest = (used, f"a {view.kind!r} decision in {table.describe(state.turn)}, "
                                      f"{time.perf_counter() - wall:.3g}s wall-clock")
            if any(a is not b for a, b in zip(view, fields)) or _fingerprint(view) != before:
                self.problems.append(_Problem("mutation", table.describe(state.turn),
                                              f"the view of a {view.kind!r} decision changed while choose() ran"))
                return answers
            action = _legal_answer(answer, view)
            if action is None:
                legal = ", ".join(a.text for a in view.legal[:8]) + (", ..." if len(view.legal) > 8 else "")
                self.problems.append(_Problem("invalid", table.describe(state.turn),
                                              f"answered {_shown(answer)} to a {view.kind!r} decision "
                                              f"(legal: {legal})"))
                return answers
            if record_views:
                self.views.append(view)
            answers.append(action.text)
            state.apply(action)
        end_view = state.view(seat)
        ok, _ = self._guard(table, state.turn, "finish()", bot.finish, end_view)
        if ok:
            self.finished += 1
        return answers


# ----------------------------------------------------------------- the checks


def _registration(cls: type[Bot], info) -> Check:
    name = info.name if info else (getattr(cls, "name", "") or "")
    description = info.description if info else describe(cls)
    claimed = sorted(getattr(cls, "games", ()) or ())
    problems = []
    if not name:
        problems.append(f"{cls.__name__} has no name (set the class attribute 'name')")
    elif not NAME_PATTERN.fullmatch(name):
        problems.append(f"name {name!r} should be letters, digits, '-', '_' or '.', without spaces")
    if not description:
        problems.append("no description (give the class a docstring or a 'description')")
    supported = _supported_games(cls)
    if not supported:
        known = ", ".join(games())
        problems.append(f"plays none of the games kotarena knows (games = {claimed!r}; known: {known})")
    if problems:
        return Check("registration", False, "; ".join(problems))
    where = (f"installed from {info.package} {info.version}" + (", not trusted: checked in the sandbox" * info.sealed)
             if info else "not installed (class checked directly)")
    unknown = sorted(set(claimed) - set(supported))
    extra = f"; ignoring unknown games {', '.join(unknown)}" if unknown else ""
    return Check("registration", True, f"{name!r}, {where}; games: {', '.join(supported)}{extra}; "
                                      f"{description!r}")


def _first(problems: list[_Problem], kinds: set[str]) -> tuple[int, str]:
    found = [p for p in problems if p.kind in kinds]
    if not found:
        return 0, ""
    return len(found), f"{found[0].where}: {found[0].detail}"


def _no_exceptions(run: _Run, tables: list[_Table]) -> Check:
    if not tables:
        return Check("no exceptions", False, "no game was played (see registration)")
    count, first = _first(run.problems, {"error", "timeout"})
    if count:
        return Check("no exceptions", False, f"{count} game(s) failed; first: {first}")
    settings = sorted({t.players for t in tables})
    return Check("no exceptions", True, f"{run.finished} games finished ({settings[0]}-{settings[-1]} players, "
                                        "with and without cards)")


_NO_DECISION = "not checked: the bot made no decision"


def _legal_answers(run: _Run) -> Check:
    count, first = _first(run.problems, {"invalid"})
    if count:
        return Check("legal answers", False, f"{count} illegal answer(s); first: {first}")
    if not run.times:
        return Check("legal answers", False, _NO_DECISION)
    return Check("legal answers", True, f"{len(run.times)} decisions, every answer legal")


def _view_untouched(run: _Run) -> Check:
    count, first = _first(run.problems, {"mutation"})
    if count:
        return Check("view untouched", False, f"{count} view(s) changed; first: {first}")
    if not run.times:
        return Check("view untouched", False, _NO_DECISION)
    return Check("view untouched", True, f"{len(run.times)} views unchanged after choose()")


def _deterministic(run: _Run, tables: list[_Table]) -> Check:
    # Replaying one game per player count keeps a slow bot's check affordable.
    if run.hung:
        return Check("deterministic", False, "not checked: checking stopped when a decision hung")
    if not run.times:
        return Check("deterministic", False, _NO_DECISION)
    replay, seen = [], set()
    for table in tables:
        if table in run.answers and table.players not in seen:
            seen.add(table.players)
            replay.append(table)
    if not replay:
        return Check("deterministic", False, "no game could be replayed")
    for table in replay:
        again = _Run(run.cls, run.time_limit).play(table)
        first = run.answers[table]
        if again != first:
            step = next((i for i, (a, b) in enumerate(zip(first, again)) if a != b), min(len(first), len(again)))
            was = first[step] if step < len(first) else "(no answer)"
            now = again[step] if step < len(again) else "(no answer)"
            return Check("deterministic", False,
                         f"{table.describe()}: the bot's decision {step + 1} was {was!r} the first time and "
                         f"{now!r} the second; use self.rng / self.random, not the random module or the clock")
    return Check("deterministic", True, f"{len(replay)} games replayed with the same seeds: same actions")


def _decision_time(run: _Run, report: Report, limit: float) -> Check:
    if not run.times:
        return Check("decision time", False, _NO_DECISION)
    summary = (f"max {_ms(report.max_time)}, mean {_ms(report.mean_time)} of CPU time over "
               f"{report.decisions} decisions (limit {limit:g}s)")
    count, first = _first(run.problems, {"timeout"})
    if count:
        return Check("decision time", False, f"{summary}; {first}")
    if report.max_time > limit:
        slow = sum(1 for t in run.times if t > limit)
        return Check("decision time", False, f"{summary}; {slow} over the limit, slowest: {run.slowest[1]}")
    return Check("decision time", True, summary)


def _decision_kinds(cls: type[Bot], time_limit: float, seed: int) -> Check:
    """Ask the bot each decision kind of its games, playing on from where random games
    first met it."""
    run = _Run(cls, time_limit)
    asked, missing, searched = [], [], 0
    for game in _supported_games(cls):
        positions, played = find_positions(game, seed=seed)
        searched += played
        missing += [f"{game} {kind}" for kind in get_game(game).decision_kinds if kind not in positions]
        for kind, position in positions.items():
            table = _Table(-1, position.game, position.players, True, position.seed, position.seat, position.deck)
            if not run.hung and run.play(table, state=position.state.clone()):
                asked.append(f"{position.game} {kind}")
    if run.problems:
        first = run.problems[0]
        return Check("decision kinds", False, f"{len(run.problems)} problem(s); first: {first.where}: {first.detail}")
    never = f"; never arose in {searched} random games: {', '.join(missing)}" if missing else ""
    return Check("decision kinds", True, f"{len(asked)} kinds answered legally, each from where a random game "
                                         f"met it, played on to the end: {', '.join(asked)}{never}")


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.3g} ms" if seconds < 1 else f"{seconds:.3g} s"


def _worker_process(cls: type[Bot], run: _Run, tables: list[_Table]) -> Check:
    if not tables or run.start_view is None or not run.views:
        return Check("worker process", False, "not checked: the first game gave no legal answer to replay")
    table = tables[0]
    expected = run.answers[table][:len(run.views)]
    try:
        payload = pickle.dumps((cls, bot_seed(table.seed, table.seat), run.start_view, run.views))
    except Exception as error:  # noqa: BLE001 - local classes, lambdas, unpicklable class attributes
        return Check("worker process", False,
                     f"the bot class cannot be pickled by reference ({type(error).__name__}: {error}); "
                     "define it at the top level of an importable module")
    outcome = _run_in_worker(payload)
    if isinstance(outcome, str):
        return Check("worker process", False, outcome)
    for step, (a, b) in enumerate(zip(expected, outcome)):
        if a != b:
            return Check("worker process", False,
                         f"{table.describe()}: decision {step + 1} was {a!r} here and {b!r} in the worker; "
                         "the bot depends on something outside its seed (process id, hash order, files...)")
    return Check("worker process", True,
                 f"class and {len(run.views)} views sent to a spawned process: same answers")


def _run_in_worker(payload: bytes) -> list[str] | str:
    """The answers the bot gives in a fresh spawned process, or a message saying why not."""
    context = multiprocessing.get_context("spawn")
    receive, send = context.Pipe(duplex=False)
    process = context.Process(target=_worker, args=(payload, send), daemon=True)
    try:
        process.start()
    except Exception as error:  # noqa: BLE001
        return f"could not start a worker process ({type(error).__name__}: {error})"
    send.close()
    try:
        if not receive.poll(WORKER_TIMEOUT):
            return f"no answer from the worker process within {WORKER_TIMEOUT:g}s"
        status, result = receive.recv()
    except EOFError:
        process.join(5)
        return f"the worker process died (exit code {process.exitcode}) before answering"
    finally:
        receive.close()
        if process.is_alive():
            process.kill()
        process.join(5)
    return result if status == "ok" else f"in the worker process: {result}"


def _worker(payload: bytes, send) -> None:
    """Runs in the spawned process: rebuild the bot from the pickle and answer the views."""
    try:
        try:
            cls, seed, start_view, views = pickle.loads(payload)
        except Exception as error:  # noqa: BLE001
            send.send(("error", f"the bot class could not be imported ({_raised(error)})"))
            return
        bot = cls(seed=seed)
        bot.start(start_view)
        answers = []
        for view in views:
            answer = bot.choose(view)
            action = _legal_answer(answer, view)
            answers.append(action.text if action is not None else _shown(answer))
        send.send(("ok", answers))
    except Exception as error:  # noqa: BLE001
        send.send(("error", f"the bot raised {_raised(error)}"))
    finally:
        send.close()


__all__ = ["CHECK_NAMES", "Check", "Report", "check_bot"]
