"""The seat host: what a match asks of whatever plays one seat's bot.

:func:`~kotarena.tournament.matches.play_match` (and the lockstep's tables, for the seats
they ask directly) play every seat through these methods and never ask which host a seat
has. The hosts are :class:`~kotarena.tournament.seats.InProcessSeat` (a trusted bot in
the match's process), :class:`~kotarena.sandbox.seat.SandboxedSeat` (a bot's instance in
its sandbox) and :class:`~kotarena.tournament.seats.Unseated` (a seat whose bot could not
be seated: it forfeits before the first decision). They meet the protocol by shape; none
of them imports it (the sandbox sits below the tournament in the layer order).

A match calls them in this order: :meth:`~SeatHost.request_seat` for every seat, then
:meth:`~SeatHost.start` for every seat and :meth:`~SeatHost.settle` for every seat (so
sandboxed seats start in parallel); :meth:`~SeatHost.choose` through the game;
:meth:`~SeatHost.host_alive` once it is over, then :meth:`~SeatHost.finish` and
:meth:`~SeatHost.settle` again; and, however the match ended, :meth:`~SeatHost.close`
for every seat, then a reset of every instance in :meth:`~SeatHost.instances` (all asked
first, then all waited for), so that no process of the match outlives it. A seat that
has forfeited is not asked to start, choose, finish or settle, nor checked for life.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from kotarena.engine.actions import Action

__all__ = ["Instance", "SeatHost", "SeatReport"]


@runtime_checkable
class Instance(Protocol):
    """What a seat's host shares with the worker's other matches (a bot's sandboxed
    instance, :class:`~kotarena.sandbox.instance.ForkServer`): reset when a match is over."""

    def request_reset(self) -> None:
        """Ask for the processes the match left behind to be ended (without waiting)."""

    def reset(self) -> None:
        """Wait until the match's processes are gone; an instance that cannot clean up
        is closed (and a new one started for the next match)."""


@runtime_checkable
class SeatReport(Protocol):
    """What a match's result reads of a seat's host once the game is over
    (:func:`~kotarena.tournament.matches.match_result`). Every :class:`SeatHost` has it,
    and so has the lockstep's :class:`~kotarena.sandbox.batch.BatchSeat`, a seat asked in
    batches through its instance's link rather than one decision at a time."""

    #: CPU seconds the bot used in this game, as judged against its limits.
    cpu: float
    #: Decisions the bot answered.
    decisions: int
    #: Each answered decision's time, in order, and how it was measured
    #: (:mod:`kotarena.decision_times`: ``cpu``, ``tick`` or ``share``).
    times: list[float]
    timing: str
    #: What the bot wrote during the game, bounded; ``None`` when nothing was captured.
    log: str | None

    def package(self) -> tuple[str, str]:
        """The bot's distribution and version as the referee knows them (the job's, or
        the bot registry's for a trusted bot), never what a sandboxed bot says."""


@runtime_checkable
class SeatHost(SeatReport, Protocol):
    """One seat of one match, played by its bot wherever the bot runs.

    Every way the bot can fail (an error, a timeout, an illegal or unreadable answer, a
    crash) is raised as :class:`~kotarena.forfeits.BotFailure` by :meth:`start`,
    :meth:`settle` and :meth:`choose`; nothing else the bot does escapes a host.
    """

    def request_seat(self) -> None:
        """Ask for the seat's process ahead of :meth:`start` (a sandbox forks it now, so
        that every seat of the match starts at once); nothing to do for a seat without
        a process of its own. May raise ``BotFailure`` when the bot's instance is gone."""

    def start(self, seed: int, view: Any) -> None:
        """Make the seat's bot with ``seed`` and greet it with the game's first ``view``.
        A host may return before the bot has answered: :meth:`settle` waits for it."""

    def settle(self) -> None:
        """Wait for the answer to the last :meth:`start` (a failure to start raises
        ``BotFailure``) or :meth:`finish` (a failure to say goodbye changes nothing);
        returns at once when nothing is owed."""

    def choose(self, view: Any) -> Action:
        """The bot's action at ``view``, within the seat's time limit."""

    def finish(self, view: Any) -> None:
        """Tell the bot how the game ended (the final ``view``); never raises."""

    def host_alive(self) -> bool:
        """Whether what runs the seat's bot is still alive once the game is over: a
        sandbox's instance killed during the game makes the seat a crash, however well
        its last answer went. Always true for a host without a process of its own."""

    def close(self) -> None:
        """Let go of the seat (called once the match is over, however it ended; may be
        called on a seat that never started or that forfeited)."""

    def instances(self) -> tuple[Instance, ...]:
        """The shared instances the seat played on, reset when the match is over (see
        the module's text); empty for a seat that has none."""
