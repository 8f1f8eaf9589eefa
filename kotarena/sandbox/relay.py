"""Sandboxed bots for callers that hold bot objects: ``play``, ``match``, ``compare``, ``bots check``.

A ladder seats an untrusted bot through :mod:`kotarena.tournament.matches`; a command
that calls bot objects itself (``start``, ``choose``, ``finish``) seats it as a
:class:`SandboxedBot` instead: a :class:`~kotarena.bots.base.Bot` whose methods relay
to the bot's sandboxed seat (:func:`kotarena.sandbox.seat.seat_server` and
:class:`~kotarena.sandbox.seat.SandboxedSeat`), the same fork servers, sandbox, cgroup
and protocol as on the ladder. Nothing of the bot's package is imported here.

**Slots.** A seat's sandbox is an instance identified by ``(bot, slot)`` and kept from
game to game. The caller gives each seat its slot so that the ``k``-th seat a bot takes
at one deal (one game seed) gets slot ``k`` (:func:`deal_slots`): an instance never
meets a deal twice, and two seats of one game never share one. ``compare`` plays each
deal twice with the bots moved, so a bot's seats of a deal get slots 0 and 1.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import Any

from kotarena.bots.base import Bot
from kotarena.engine.actions import Action
from kotarena.forfeits import CRASH, SANDBOX, BotFailure, as_action

#: Seconds of CPU time a decision may take where the caller sets no limit (a ladder's default).
DEFAULT_TIME_LIMIT = 1.0


def deal_slots(seats: Sequence[Hashable]) -> list[int]:
    """Each seat's slot, for seats listed in the order a deal seats them (every table
    of the deal, each in seat order; a seat is its bot's identity): the ``k``-th seat a
    bot takes gets ``k``."""
    taken: dict[Hashable, int] = {}
    slots = []
    for bot in seats:
        slots.append(taken.get(bot, 0))
        taken[bot] = slots[-1] + 1
    return slots


def _game_of(view: Any) -> str:
    """The game a view belongs to: its ``game`` field, else the game of its type."""
    from kotarena.games import games, get_game

    name = getattr(view, "game", None)
    if isinstance(name, str):
        return name
    for candidate in games():
        if get_game(candidate).view_type is type(view):
            return candidate
    raise ValueError(f"no installed game has views of type {type(view).__name__}")


def _server(bot: str, slot: int, *, jailed: bool, memory_mb: int, log_dir: Path, dist: str | None,
            path: Sequence[str]) -> Any:
    """The instance ``(bot, slot)``, serving the bot of distribution ``dist``."""
    from kotarena.sandbox.seat import seat_server

    return seat_server(bot, slot, jailed=jailed, memory_mb=memory_mb, log_dir=log_dir, dist=dist, path=tuple(path))


class Relay:
    """One game of a sandboxed bot, for a caller that holds the bot object."""

    def __init__(self, name: str, view: Any, *, slot: int, seed: int | None, params: dict, time_limit: float,
                 jailed: bool = True, dist: str | None = None, path: Sequence[str] = (),
                 memory_mb: int | None = None, log_dir: Path | None = None, why: str = "",
                 program: bool = False) -> None:
        from kotarena.sandbox.jail import sandbox_problem
        from kotarena.sandbox.seat import DEFAULT_MEMORY_MB, SandboxedSeat, default_log_dir

        self.name = name
        #: Whose seat this is, as a failure names it.
        self.who = f"the {name} bot's program" if program else f"the {name} bot"
        if jailed:
            problem = sandbox_problem()
            if problem is not None:
                raise BotFailure(SANDBOX, f"the {name} bot {why or 'plays only in the sandbox'}: {problem}")
        self.server = _server(name, slot, jailed=jailed, memory_mb=memory_mb or DEFAULT_MEMORY_MB,
                              log_dir=log_dir or default_log_dir(), dist=dist, path=path)
        self.seat: Any = SandboxedSeat(self.server, time_limit, game=_game_of(view), seat=view.player,
                                       params=dict(params))
        self._guarded(self._start, 0 if seed is None else seed, view)

    def _start(self, seed: int, view: Any) -> None:
        self.seat.start(seed, view)
        self.seat.settle()

    def _guarded(self, step: Any, *args: Any) -> Any:
        """``step(*args)``; whatever stops it ends the seat's game, and a forfeit is
        raised naming whose seat it was."""
        try:
            return step(*args)
        except BotFailure as failure:
            self.close()
            raise self._named(failure) from None
        except BaseException:
            self.close()
            raise

    def choose(self, view: Any) -> tuple[Action, float]:
        """The bot's action for ``view``, and the CPU seconds it took (counted from outside)."""
        if self.seat is None:
            raise BotFailure(CRASH, f"the {self.name} bot already failed in this game")
        before = self.seat.cpu
        action = self._guarded(lambda: as_action(self.seat.choose(view), view))
        return action, self.seat.cpu - before

    def _named(self, failure: BotFailure) -> BotFailure:
        # (the caller holds several bots: say whose seat failed)
        return BotFailure(failure.kind, f"{self.who}: {failure.detail}")

    def finish(self, view: Any) -> None:
        """Tell the bot how the game ended, and end the game's processes."""
        if self.seat is None:
            return
        try:
            self.seat.finish(view)
            self.seat.settle()
        finally:
            self.close()

    def close(self) -> None:
        """End the seat and every process the game left (the instance stays for the next game)."""
        seat, self.seat = self.seat, None
        if seat is not None:
            seat.close()
            self.server.reset()


class SandboxedBot(Bot):
    """A bot object whose bot plays in the sandbox: each game's ``start``, ``choose``
    and ``finish`` are relayed to the bot's seat in its instance ``(bot, slot)``.

    ``info`` is the bot's :class:`~kotarena.bots.registry.BotInfo` (a sealed one: known
    from the sandboxed catalogue). A failure is raised as the
    :class:`~kotarena.forfeits.BotFailure` a ladder would record.
    """

    def __init__(self, info: Any, *, slot: int, seed: int | None = None, time_limit: float = DEFAULT_TIME_LIMIT,
                 jailed: bool = True, **params: object) -> None:
        super().__init__(seed=seed, **params)
        self.info = info
        self.name = info.name
        self.slot = slot
        self.time_limit = time_limit
        self.jailed = jailed
        self._relay: Relay | None = None
        #: CPU seconds the bot used for its last decision (counted by its seat's cgroup).
        self.last_cpu = 0.0

    def start(self, view: Any) -> None:
        self.close()
        from kotarena.plugins import normal

        self._relay = Relay(self.info.name, view, slot=self.slot, seed=self.seed, params=self.params,
                            time_limit=self.time_limit, jailed=self.jailed, dist=normal(self.info.package),
                            path=self.info.path, why=_why(self.info), program=_is_program(self.info))

    def choose(self, view: Any) -> Action:
        if self._relay is None:
            self.start(view)
        action, self.last_cpu = self._relay.choose(view)  # type: ignore[union-attr]
        return action

    def finish(self, view: Any) -> None:
        relay, self._relay = self._relay, None
        if relay is not None:
            relay.finish(view)

    def close(self) -> None:
        """End the game's processes if it was left unfinished."""
        relay, self._relay = self._relay, None
        if relay is not None:
            relay.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001, S110 - at teardown, a seat already gone is fine
            pass


def _is_program(info: Any) -> bool:
    from kotarena.bots.command import is_program

    return bool(info.program or is_program(info.cls))


def seat_bot(info: Any, seed: int, slot: int) -> Bot:
    """A bot for one seat: the bot itself if it is trusted here (imported), else its
    relay to its instance ``slot`` in the sandbox (a command-line bot's program always
    plays there)."""
    from kotarena.bots.command import is_program

    if info.sealed or info.program or is_program(info.cls):
        return SandboxedBot(info, slot=slot, seed=seed)
    return info.make(seed=seed)


def _why(info: Any) -> str:
    """Why ``info``'s bot plays only in the sandbox, for the line that refuses it."""
    if _is_program(info):
        return "is a program, which plays only in the sandbox"
    return (f"is not trusted (package {info.package}), so it plays only in the sandbox; trust it with "
            f"--trust {info.name} if you vouch for its code")


def sandbox_refusal(info: Any) -> str | None:
    """The one line that refuses ``info``'s bot where the sandbox cannot be had (``None``
    where it can, or where the bot plays in this process)."""
    if not (info.sealed or _is_program(info)):
        return None
    from kotarena.sandbox.jail import sandbox_problem

    problem = sandbox_problem()
    if problem is None:
        return None
    if _is_program(info):
        return f"the {info.name} bot is a program, which plays only in the sandbox: {problem}"
    return (f"the {info.name} bot is not trusted, so it plays in the sandbox, which cannot be had here: {problem}; "
            f"install what is missing, or trust it with --trust {info.name}")


def sandboxed_class(info: Any, *, time_limit: float = DEFAULT_TIME_LIMIT, jailed: bool = True) -> type[SandboxedBot]:
    """A bot class for ``info``'s sandboxed bot, for code that makes bots from a class
    (the conformance checker): its attributes are what the bot declared. An instance
    made for the ``k``-th time with one ``deal`` (any key: the game's seed, its
    settings) takes slot ``k``, so no instance meets a deal twice."""
    met: dict[Hashable, int] = {}

    def __init__(self, *, seed: int | None = None, deal: Hashable = None, **params: object) -> None:
        slot = met.get(deal, 0)
        met[deal] = slot + 1
        SandboxedBot.__init__(self, info, slot=slot, seed=seed, time_limit=time_limit, jailed=jailed, **params)

    return type(f"Sandboxed_{info.name}", (SandboxedBot,), {
        "__init__": __init__, "name": info.name, "description": info.description,
        "games": frozenset(info.games), "parameters": info.parameters, "__doc__": info.description,
        "info": info,
    })


__all__ = ["DEFAULT_TIME_LIMIT", "Relay", "SandboxedBot", "deal_slots", "sandbox_refusal", "sandboxed_class", "seat_bot"]
