"""The records of the results database (SQLModel). Records only; logic lives elsewhere.

Facts are stored, conclusions derived: matches and seats are the record; ratings are
computed from them in a fixed order and can always be recomputed
(``kotarena league rerate``).

A played match's columns are declared in :class:`MatchBase` and :class:`SeatBase`: the
:class:`Match` and :class:`Seat` tables store them (SQLModel's models with inheritance),
with the keys and ratings only the database has. A worker returns the same fields, in
the same order, as plain named tuples (:mod:`kotarena.results`, which says why they are
declared there too; a test checks that the two agree).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, UniqueConstraint
from sqlmodel import Field, SQLModel


def utcnow() -> datetime:
    return datetime.now(UTC)


class Meta(SQLModel, table=True):
    """Key/value facts about the database itself (the schema version)."""

    __tablename__ = "kotarena_meta"

    key: str = Field(primary_key=True)
    value: str


class BotVersion(SQLModel, table=True):
    """A bot as installed when it played: name, package and package version."""

    __tablename__ = "bot_version"
    __table_args__ = (UniqueConstraint("name", "package", "version"),)

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(index=True)
    package: str
    version: str


class LadderRow(SQLModel, table=True):
    """A ladder: one rating pool, named after its file."""

    __tablename__ = "ladder"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(unique=True, index=True)
    game: str
    created_at: datetime = Field(default_factory=utcnow)


class Night(SQLModel, table=True):
    """One league night: a schedule of matches from a ladder file and a seed."""

    __tablename__ = "night"
    __table_args__ = (UniqueConstraint("ladder_id", "number"),)

    id: int | None = Field(default=None, primary_key=True)
    ladder_id: int = Field(foreign_key="ladder.id", index=True)
    number: int  #: 1 for the ladder's first night, and so on
    #: Seeds take 63 bits; INTEGER is 32 bits in PostgreSQL. A sealed night's seed is
    #: secret until the night is done: the listings show it only then.
    seed: int = Field(sa_type=BigInteger)
    #: Whether the seed was drawn in secret (the ladder names none); else the ladder
    #: fixes it and anyone who reads the ladder file can work out the night's dice.
    sealed: bool = False
    #: SHA-256 of the seed (``kotarena.seeds.commitment``), public from the start.
    commitment: str | None = None
    fingerprint: str  #: of the ladder file's content; a resume must match it
    config: str  #: the ladder as JSON, for the record
    planned: int  #: matches in the schedule
    status: str = "running"  #: running, done
    started_at: datetime = Field(default_factory=utcnow)
    finished_at: datetime | None = None


class SeatBase(SQLModel):
    """One seat of a played match: who sat there and how they finished. Every game's
    seat has these; what else the game keeps about a seat is in ``facts``."""

    seat: int
    entrant: str = Field(index=True)  #: the ladder's label for the bot
    rank: int  #: finishing place used for ratings, 0 = first; forfeits rank last
    forfeit: str | None = None  #: timeout, error, invalid, crash
    forfeit_detail: str | None = None
    decisions: int = 0
    cpu_seconds: float = 0.0
    #: The game's own facts about the seat at the end (``Game.seat_facts``; for King of
    #: Tokyo the monster, stars, health and whether it is alive), as JSON.
    facts: dict[str, Any] = Field(default_factory=dict, sa_type=JSON)
    #: Each of the seat's decisions' time, packed (:mod:`kotarena.decision_times`).
    times: str | None = None
    #: What the bot wrote (stdout, stderr, its logging) while playing this game, bounded,
    #: each line under a mark of the step it was written in (:mod:`kotarena.sandbox.botlog`).
    log: str | None = None


class Seat(SeatBase, table=True):
    """A stored seat, with the entrant's rating right after its match."""

    __tablename__ = "seat"
    __table_args__ = (UniqueConstraint("match_id", "seat"),)

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="match.id")  #: looked up through the unique (match_id, seat)
    bot_version_id: int = Field(foreign_key="bot_version.id")
    #: The entrant's rating right after this match; empty until the match is rated.
    mu: float | None = None
    sigma: float | None = None


class MatchBase(SQLModel):
    """One played game of a night: its seed, its outcome and its actions-only replay."""

    index: int  #: its place in the night's schedule
    key: str
    game: str
    seed: int = Field(sa_type=BigInteger)
    first_player: int | None = None
    rules_version: int
    status: str  #: done (every seat finished) or forfeit (at least one seat forfeited)
    termination: str
    winner_seat: int | None = None
    turns: int
    duration: float  #: wall-clock seconds to play the match
    replay: str


class Match(MatchBase, table=True):
    """A stored match. ``(night_id, index)`` is unique: no match twice."""

    __tablename__ = "match"
    __table_args__ = (UniqueConstraint("night_id", "index"),)

    id: int | None = Field(default=None, primary_key=True)
    night_id: int = Field(foreign_key="night.id")  #: looked up through the unique (night_id, index)
    rated: bool = False
    played_at: datetime = Field(default_factory=utcnow)


class Rating(SQLModel, table=True):
    """An entrant's current rating in a ladder (derived from matches)."""

    __tablename__ = "rating"
    __table_args__ = (UniqueConstraint("ladder_id", "entrant"),)

    id: int | None = Field(default=None, primary_key=True)
    ladder_id: int = Field(foreign_key="ladder.id", index=True)
    entrant: str
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    forfeits: int = 0
