"""The coordinator's loops over a batch of finished matches: rating them in order, and
the rows that store them.

A night's coordinator shares the cores with the workers, so what it spends on each
match is taken from play (see "Throughput" in docs/league.md). The database work of a
store is in :mod:`kotarena.tournament.night`; the work per match and per seat is here,
compiled with the engine (``NATIVE_MODULES`` in ``setup.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

import trueskill
from trueskill import Rating

from kotarena.ratings import rate_match
from kotarena.tournament.matches import MatchResult

__all__ = ["MATCH_COLUMNS", "SEAT_COLUMNS", "match_rows", "rate_in_order", "seat_rows"]

#: The columns of :func:`match_rows`' and :func:`seat_rows`' rows, in order.
MATCH_COLUMNS = ("night_id", "index", "key", "game", "seed", "first_player", "rules_version", "status", "termination",
                 "winner_seat", "turns", "duration", "replay", "rated", "played_at")
SEAT_COLUMNS = ("match_id", "seat", "entrant", "bot_version_id", "monster", "rank", "stars", "health", "alive",
                "forfeit", "forfeit_detail", "decisions", "cpu_seconds", "mu", "sigma")


def rate_in_order(env: trueskill.TrueSkill, now: dict[str, Rating], counts: dict[str, list[int]],
                  matches: Sequence[tuple[int | None, Sequence[Any]]]) -> list[list[tuple[float, float]]]:
    """Rate ``matches`` one after the other; returns, for each, its seats' entrants'
    ``(mu, sigma)`` right after it.

    A match is its winning seat and its seats in seat order (anything with the
    ``seat``, ``entrant``, ``rank`` and ``forfeit`` of a seat). ``now`` holds each
    entrant's rating as the matches go (one missing starts at ``env.create_rating()``);
    ``counts`` its ``[games, wins, forfeits, stored]``, counted on (an entrant new to
    it gets ``[0, 0, 0, 0]``: not stored yet). A forfeited seat is no win for its bot,
    even when the autopilot carried it to victory.
    """
    after: list[list[tuple[float, float]]] = []
    for winner_seat, seats in matches:
        labels: list[str] = []
        ranks: list[int] = []
        for seat in seats:
            label: str = seat.entrant
            entry = counts.get(label)
            if entry is None:
                entry = counts[label] = [0, 0, 0, 0]
            entry[0] += 1
            if seat.forfeit:
                entry[2] += 1
            elif seat.seat == winner_seat:
                entry[1] += 1
            labels.append(label)
            ranks.append(seat.rank)
        updated = rate_match(now, labels, ranks, env)
        now.update(updated)
        after.append([(updated[label].mu, updated[label].sigma) for label in labels])
    return after


def match_rows(night_id: int, results: Sequence[MatchResult], rated: dict[int, Any], played_at: datetime
               ) -> list[tuple]:
    """The rows of ``results`` for the match table (:data:`MATCH_COLUMNS`); a match whose
    index is in ``rated`` is stored rated."""
    rows: list[tuple] = []
    for result in results:
        rows.append((night_id, result.index, result.key, result.game, result.seed, result.first_player,
                     result.rules_version, result.status, result.termination, result.winner_seat, result.turns,
                     result.duration, result.replay, result.index in rated, played_at))
    return rows


def seat_rows(results: Sequence[MatchResult], match_ids: dict[int, int],
              ratings_after: dict[int, list[tuple[float, float]]], versions: dict[tuple[str, str, str], int],
              new_version: Callable[[str, str, str], int]) -> list[tuple]:
    """The rows of ``results``' seats for the seat table (:data:`SEAT_COLUMNS`).

    ``match_ids`` gives each match's stored id by index; ``ratings_after`` each rated
    match's seats' ratings after it (the others' seats are stored without). A seat's
    bot version id comes from ``versions``, or from ``new_version(bot, package,
    version)``, which ``versions`` then remembers.
    """
    rows: list[tuple] = []
    for result in results:
        match_id = match_ids[result.index]
        after = ratings_after.get(result.index)
        seats = result.seats
        for k in range(len(seats)):
            seat = seats[k]
            key = (seat.bot, seat.package, seat.version)
            version = versions.get(key)
            if version is None:
                version = versions[key] = new_version(seat.bot, seat.package, seat.version)
            mu: float | None = None
            sigma: float | None = None
            if after is not None:
                mu, sigma = after[k]
            rows.append((match_id, seat.seat, seat.entrant, version, seat.monster, seat.rank, seat.stars, seat.health,
                         seat.alive, seat.forfeit, seat.forfeit_detail, seat.decisions, seat.cpu_seconds, mu, sigma))
    return rows
