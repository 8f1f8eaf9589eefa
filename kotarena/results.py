"""What a worker gives back for a match it played: plain named tuples, no storage.

A league night's worker makes a :class:`MatchResult` (with a :class:`SeatResult` per
seat) for every match it plays and pickles it to the coordinator, which stores it. They
are named tuples, the cheapest records to make and pickle, and this module imports
nothing, so a worker never loads SQLModel or SQLAlchemy.

Their fields are the results database's :class:`~kotarena.storage.models.MatchBase` and
:class:`~kotarena.storage.models.SeatBase` fields, in the same order (the store inserts a
result's leading fields as its row's), then what only a worker has: a match's seats, a
seat's bot. They are declared twice, here and in the models, and
``tests/tournament/test_results.py`` checks that the names, order and types agree. A
single declaration would have to be generated from one side: from the models, it brings
SQLModel into every worker (as it did); from these tuples, the columns' database options
(indexes, 64-bit and JSON columns, defaults) would live apart from their fields.
"""

from __future__ import annotations

from typing import Any, NamedTuple

__all__ = ["MatchResult", "SeatResult"]


class SeatResult(NamedTuple):
    """One seat of a played match (:class:`~kotarena.storage.models.SeatBase`'s fields,
    then the bot that sat there, stored as a bot version)."""

    seat: int
    entrant: str  #: the ladder's label for the bot
    rank: int  #: finishing place used for ratings, 0 = first; forfeits rank last
    forfeit: str | None  #: timeout, error, invalid, crash, ...
    forfeit_detail: str | None
    decisions: int
    cpu_seconds: float
    facts: dict[str, Any]  #: the game's own facts about the seat at the end (``Game.seat_facts``)
    times: str | None  #: each decision's time, packed (:mod:`kotarena.decision_times`)
    log: str | None  #: what the bot wrote while playing, bounded (a sandboxed Python bot's only)
    bot: str
    package: str  #: the bot's distribution, as the referee knows it
    version: str


class MatchResult(NamedTuple):
    """One played match of a night (:class:`~kotarena.storage.models.MatchBase`'s fields,
    then its seats in seat order)."""

    index: int  #: its place in the night's schedule
    key: str
    game: str
    seed: int
    first_player: int | None
    rules_version: int
    status: str  #: done (every seat finished) or forfeit (at least one seat forfeited)
    termination: str
    winner_seat: int | None  #: ``None`` when no seat won, or the winner forfeited
    turns: int
    duration: float  #: wall-clock seconds to play the match
    replay: str  #: the actions-only replay
    seats: list[SeatResult]
