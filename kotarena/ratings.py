"""TrueSkill ratings from finishing places: pure functions and a rating book, no storage.

Every function takes an explicit :class:`trueskill.TrueSkill` environment (from
:func:`make_env`); the package's global ``setup()`` is never used, so two ladders with
different settings can be rated in one process.

A match is rated as a free-for-all: one "team" per seat, ranked by finishing place
(see :func:`ranks_for`). The parameters are set for King of Tokyo's luck; how they were
measured is in ``docs/ratings.md``. A :class:`RatingBook` keeps a ladder's ratings and
counts as its matches are rated in order; the results store reads it from and writes it
to its rows (:mod:`kotarena.storage.store`), and does no rating of its own.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

import trueskill
from trueskill import Rating

from kotarena.free_for_all import rate_free_for_all

__all__ = [
    "BETA", "DRAW_PROBABILITY", "MU", "SIGMA", "TAU", "Rating", "RatingBook", "Standing", "StoredRating",
    "conservative", "make_env", "rank_key", "ranks_for", "rate_match", "recompute",
]

#: A new entrant's mean skill and its uncertainty (TrueSkill's usual scale).
MU = 25.0
SIGMA = MU / 3
#: How much one game's result varies around a bot's skill: the dice. Fitted by
#: ``benchmarks/tune_beta.py`` (predictive log-likelihood of held-out 4-player games;
#: four runs of 1,200-2,400 games chose 14 or 15, before card effects were in the
#: engine; re-fit when they are). TrueSkill's default, SIGMA / 2 =
#: 4.17, assumes far less luck than King of Tokyo has.
BETA = 14.5
#: How often two neighbouring places tie (equal stars among survivors, monsters
#: eliminated by the same blow): 2.1% to 2.4% in the same games.
DRAW_PROBABILITY = 0.022
#: Skill drift added before each game; TrueSkill's default (SIGMA / 100).
TAU = SIGMA / 100


class StoredRating(Rating):
    """A rating read back from storage: its ``mu`` and ``sigma`` are the stored floats,
    to the last bit.

    A ``Rating`` keeps a precision and a precision-adjusted mean and works ``mu`` and
    ``sigma`` out from them, so ``Rating(r.mu, r.sigma)`` may read back an ulp away from
    ``r``. The update reads nothing of a rating but its ``mu`` and ``sigma``; with this,
    a league that stores its ratings after every batch rates the next match from
    exactly what an uninterrupted run (``league rerate``) has in memory.
    """

    def __init__(self, mu: float, sigma: float) -> None:
        super().__init__(mu, sigma)
        self._stored = (float(mu), float(sigma))

    @property
    def mu(self) -> float:  # type: ignore[override]
        return self._stored[0]

    @property
    def sigma(self) -> float:  # type: ignore[override]
        return self._stored[1]


def make_env(
    beta: float = BETA,
    draw_probability: float = DRAW_PROBABILITY,
    *,
    mu: float = MU,
    sigma: float = SIGMA,
    tau: float = TAU,
) -> trueskill.TrueSkill:
    """A TrueSkill environment for rating matches.

    The built-in math backend is used (not scipy's) so every machine computes the same
    ratings from the same results.
    """
    if beta <= 0:
        raise ValueError(f"beta must be positive, not {beta}")
    if not 0 < draw_probability < 1:
        # With no chance of a draw, TrueSkill cannot digest the ties the engine reports.
        raise ValueError(f"draw_probability must be between 0 and 1 (exclusive), not {draw_probability}")
    return trueskill.TrueSkill(mu=mu, sigma=sigma, beta=beta, tau=tau,
                               draw_probability=draw_probability, backend=None)


def conservative(rating: Rating) -> float:
    """The leaderboard score: ``mu - 3 sigma``, a skill the entrant very likely has."""
    return rating.mu - 3 * rating.sigma


def rank_key(rating: Rating) -> tuple[float, float]:
    """Sort key for a leaderboard, best first: conservative score, then mean."""
    return (-conservative(rating), -rating.mu)


def ranks_for(outcome_ranks: Sequence[int], forfeits: Sequence[object]) -> tuple[int, ...]:
    """The places TrueSkill rates: the engine's, with forfeited seats moved to the end.

    ``outcome_ranks`` are the engine's places (``Outcome.ranks``: 0 is best, equal
    numbers tie); ``forfeits[seat]`` is truthy for a seat whose bot forfeited (the
    autopilot that finished its game earned nothing for it). The seats that did not
    forfeit keep their order and ties, renumbered so a place counts the seats strictly
    ahead ("1224" ranking); the forfeited seats all tie for the last place.

    >>> ranks_for((0, 1, 2, 3), [None, None, None, None])
    (0, 1, 2, 3)
    >>> ranks_for((0, 1, 1, 3), ["timeout", None, None, None])
    (3, 0, 0, 2)
    >>> ranks_for((2, 0, 1, 3), [None, "crash", None, "illegal"])
    (1, 2, 0, 2)
    """
    if len(outcome_ranks) != len(forfeits):
        raise ValueError(f"{len(outcome_ranks)} ranks but {len(forfeits)} forfeit flags")
    playing = sorted(rank for rank, forfeit in zip(outcome_ranks, forfeits) if not forfeit)
    return tuple(len(playing) if forfeit else bisect_left(playing, rank)  # (the places strictly ahead)
                 for rank, forfeit in zip(outcome_ranks, forfeits))


def rate_match(
    ratings: Mapping[str, Rating],
    seats: Sequence[str],
    ranks: Sequence[int],
    env: trueskill.TrueSkill,
) -> dict[str, Rating]:
    """New ratings of the entrants in ``seats`` after one match.

    :param ratings: current ratings; an entrant missing from it starts at
        ``env.create_rating()``.
    :param seats: the entrant label in each seat.
    :param ranks: each seat's place (0 is best, equal numbers tie), e.g. from
        :func:`ranks_for`.
    :returns: a rating for every entrant in ``seats`` (and no one else).

    An entrant holding several seats (a ladder with ``allow_repeats``) is rated as if
    each seat were a separate player with the entrant's rating; its new rating is the
    mean of those seats' new means, with the smallest of their new deviations. The
    mean counts each seat's result equally; the deviation shrinks as much as for the
    seat that taught the most, not once per seat, because the seats' results are not
    independent evidence (the same bot played them, against itself in part). A match
    with a single entrant in every seat says nothing about it and changes nothing.
    """
    if len(seats) != len(ranks):
        raise ValueError(f"{len(seats)} seats but {len(ranks)} ranks")
    before = {label: ratings[label] if label in ratings else env.create_rating() for label in seats}
    if len(before) < 2:
        return dict(before)
    # Each seat rated as a player: TrueSkill's free-for-all update, computed as the
    # trueskill package does but without building its factor graph.
    after = rate_free_for_all(env, [before[label] for label in seats], list(ranks))
    if len(before) == len(seats):  # the usual match, one seat per entrant
        return dict(zip(seats, after))
    by_label: dict[str, list[Rating]] = {}
    for label, rating in zip(seats, after):
        by_label.setdefault(label, []).append(rating)
    return {
        label: updated[0] if len(updated) == 1 else env.create_rating(
            mu=sum(r.mu for r in updated) / len(updated), sigma=min(r.sigma for r in updated),
        )
        for label, updated in by_label.items()
    }


def recompute(
    matches: Iterable[tuple[Sequence[str], Sequence[int]]],
    env: trueskill.TrueSkill,
) -> dict[str, Rating]:
    """Ratings from scratch: every match's ``(seats, ranks)``, applied in the given order.

    The same matches in the same order always give the same ratings, so stored results
    are the source of truth and ratings can be rebuilt at any time.
    """
    ratings: dict[str, Rating] = {}
    for seats, ranks in matches:
        ratings.update(rate_match(ratings, seats, ranks, env))
    return ratings


class Standing(NamedTuple):
    """An entrant's rating and counts in a ladder, as a :class:`RatingBook` has them."""

    entrant: str
    mu: float
    sigma: float
    games: int
    wins: int
    forfeits: int


class RatingBook:
    """A ladder's ratings while its matches are rated, one after another: each entrant's
    rating as the matches go, and its games, wins and forfeits.

    It starts from ``standings`` (anything with a :class:`Standing`'s fields, such as the
    stored rows), whose ratings it reads back to the last bit (:class:`StoredRating`):
    rating a ladder's matches in one book, or in books saved and read back in between,
    gives the same floats.
    """

    __slots__ = ("env", "now", "counts")

    def __init__(self, env: trueskill.TrueSkill, standings: Iterable[Any] = ()) -> None:
        self.env = env
        self.now: dict[str, Rating] = {}
        self.counts: dict[str, list[int]] = {}
        for row in standings:
            self.now[row.entrant] = StoredRating(row.mu, row.sigma)
            self.counts[row.entrant] = [row.games, row.wins, row.forfeits]

    def rate(self, winner_seat: int | None, seats: Iterable[Any]) -> list[tuple[float, float]]:
        """Rate one match (its winning seat and its seats in seat order: anything with
        the ``seat``, ``entrant``, ``rank`` and ``forfeit`` of a seat); returns each
        seat's entrant's ``(mu, sigma)`` right after it. A forfeited seat is no win for
        its bot, even when the autopilot carried it to victory."""
        labels, ranks = [], []
        for seat in seats:
            counts = self.counts.setdefault(seat.entrant, [0, 0, 0])
            counts[0] += 1
            if seat.forfeit:
                counts[2] += 1
            elif seat.seat == winner_seat:
                counts[1] += 1
            labels.append(seat.entrant)
            ranks.append(seat.rank)
        updated = rate_match(self.now, labels, ranks, self.env)
        self.now.update(updated)
        return [(updated[label].mu, updated[label].sigma) for label in labels]

    def standings(self) -> list[Standing]:
        """Every entrant that has played, with its rating and counts now."""
        return [Standing(entrant, self.now[entrant].mu, self.now[entrant].sigma, games, wins, forfeits)
                for entrant, (games, wins, forfeits) in self.counts.items()]
