"""Stored ratings are `league rerate`'s to the last bit, however a night's results were
batched, resumed or stored by two writers (docs/league.md promises it)."""

from __future__ import annotations

import itertools
import random

import pytest
from sqlmodel import Session, select
from test_night import seat_history

from kotarena import ratings
from kotarena.storage import open_db
from kotarena.storage.models import LadderRow, Rating
from kotarena.storage.store import NightResults, rerate
from kotarena.tournament.ladder import load_ladder
from kotarena.tournament.night import night_jobs, open_night
from kotarena.tournament.runner import play_matches

#: Matches in the night: enough that rebuilding ``Rating(mu, sigma)`` between batches
#: changes some rating's last bits (it does so about once in 700 matches).
GAMES = 600
PLAYED = 12


def exact_ratings(engine, ladder: str = "night") -> dict[str, tuple[float, float, int, int, int]]:
    """Every entrant's stored rating, unrounded."""
    with Session(engine) as session:
        ladder_id = session.exec(select(LadderRow.id).where(LadderRow.name == ladder)).one()
        rows = session.exec(select(Rating).where(Rating.ladder_id == ladder_id)).all()
        return {r.entrant: (r.mu, r.sigma, r.games, r.wins, r.forfeits) for r in rows}


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A night's results: (the ladder, its results in schedule order). The first
    ``PLAYED`` are played; the rest are their copies with the places shuffled (the
    ratings read only the seats' entrants, places and forfeits), which is much faster."""
    tmp_path = tmp_path_factory.mktemp("exact")
    # Five entrants at three seats: ratings move a lot, and some matches repeat one.
    path = tmp_path / "night.toml"
    path.write_text(f'name = "night"\nplayers = 3\ngames = {GAMES}\nseed = 11\nallow_repeats = true\n'
                    + "".join(f'[[bots]]\nname = "random"\nlabel = "r{k}"\n' for k in range(5)))
    ladder = load_ladder(path)
    engine = open_db(tmp_path / "scratch.db")
    night = open_night(engine, ladder)
    jobs = list(itertools.islice(night_jobs(ladder, night.seed), PLAYED))
    results = play_matches(jobs)
    rng = random.Random(3)
    for index in range(PLAYED, GAMES):
        model = results[index % PLAYED]
        places = [seat.rank for seat in model.seats]
        rng.shuffle(places)
        seats = [seat._replace(rank=place) for seat, place in zip(model.seats, places)]
        winner = next((seat.seat for seat in seats if seat.rank == 0 and not seat.forfeit), None)
        results.append(model._replace(index=index, key=f"{model.key}-{index}", winner_seat=winner, seats=seats))
    return ladder, results


def store_in_batches(tmp_path, played, batches: list[list[int]], *, resume_each: bool):
    """A database holding the night stored batch by batch (indexes, in any order);
    ``resume_each``: each batch by a new ``NightResults``, as a resumed night stores."""
    ladder, results = played
    engine = open_db(tmp_path / "batched.db")
    night = open_night(engine, ladder)
    env = ratings.make_env()
    store = NightResults(engine, night, env)
    for batch in batches:
        if resume_each:
            store = NightResults(engine, night, env)
            store.rate_stored()
        store.store([results[index] for index in batch])
    return engine


def chunks(size: int) -> list[list[int]]:
    return [list(range(start, min(start + size, GAMES))) for start in range(0, GAMES, size)]


@pytest.mark.parametrize("batches, resume_each", [
    (chunks(GAMES), False),  # one batch: the uninterrupted night
    (chunks(1), False),  # a store after every match
    (chunks(5), False),
    (chunks(37), True),  # resumed after every batch
    ([[3, 1, 2], [0], [9, 8, 4, 5, 6, 7], list(range(GAMES - 1, 9, -1))], True),  # out of order: some wait
], ids=["whole", "ones", "fives", "resumed-every-37", "out-of-order-resumed"])
def test_stored_ratings_are_reratings_to_the_last_bit(tmp_path, played, batches, resume_each):
    engine = store_in_batches(tmp_path, played, batches, resume_each=resume_each)
    stored, history = exact_ratings(engine), seat_history(engine)
    assert all(mu is not None for *_, mu, sigma in history)
    assert rerate(engine, "night") == GAMES
    assert exact_ratings(engine) == stored
    assert seat_history(engine) == history


def test_stored_ratings_are_the_pure_recomputation(tmp_path, played):
    """What `ratings.recompute` makes of the same matches in memory, with nothing stored."""
    ladder, results = played
    engine = store_in_batches(tmp_path, played, chunks(3), resume_each=True)
    env = ratings.make_env()
    # (A seat's stored rank is the place it is rated at: forfeits already last.)
    matches = [([seat.entrant for seat in result.seats], [seat.rank for seat in result.seats])
               for result in results]
    expected = ratings.recompute(matches, env)
    assert {entrant: row[:2] for entrant, row in exact_ratings(engine).items()} == {
        entrant: (rating.mu, rating.sigma) for entrant, rating in expected.items()}
    # The matches are ones where rebuilding Rating(mu, sigma) after every match, as the
    # store once did, ends elsewhere: else these tests would show nothing.
    rebuilt: dict[str, ratings.Rating] = {}
    for seats, ranks in matches:
        rebuilt.update(ratings.rate_match(rebuilt, seats, ranks, env))
        rebuilt = {entrant: ratings.Rating(rating.mu, rating.sigma) for entrant, rating in rebuilt.items()}
    assert {e: (r.mu, r.sigma) for e, r in rebuilt.items()} != {e: (r.mu, r.sigma) for e, r in expected.items()}


def test_a_stored_rating_reads_back_its_own_floats():
    """``Rating(mu, sigma)`` may read back an ulp away; a stored rating never does."""
    env = ratings.make_env()
    a, b = env.create_rating(), env.create_rating()
    drifted = 0
    for _ in range(300):
        updated = ratings.rate_match({"a": a, "b": b}, ["a", "b"], [0, 1], env)
        a, b = updated["a"], updated["b"]
        rebuilt = ratings.Rating(a.mu, a.sigma)
        drifted += (rebuilt.mu, rebuilt.sigma) != (a.mu, a.sigma)
        stored = ratings.StoredRating(a.mu, a.sigma)
        assert (stored.mu, stored.sigma) == (a.mu, a.sigma)
    assert drifted  # (else this test shows nothing)


def test_a_rating_book_rates_a_night_as_the_store_does_with_no_database(tmp_path, played):
    """The store only reads and writes the book: the pure book, kept whole or rebuilt
    from its own standings after every match (as a store reads its rows back), ends with
    the stored ratings and counts to the last bit."""
    ladder, results = played
    engine = store_in_batches(tmp_path, played, chunks(7), resume_each=False)
    env = ratings.make_env()
    whole, rebuilt = ratings.RatingBook(env), ratings.RatingBook(env)
    for result in results:
        after = whole.rate(result.winner_seat, result.seats)
        assert rebuilt.rate(result.winner_seat, result.seats) == after
        rebuilt = ratings.RatingBook(env, rebuilt.standings())
    stored = exact_ratings(engine)
    assert {row.entrant: tuple(row[1:]) for row in whole.standings()} == stored
    assert {row.entrant: tuple(row[1:]) for row in rebuilt.standings()} == stored
    assert sum(row.games for row in whole.standings()) == 3 * GAMES


def test_a_rating_book_counts_games_wins_and_forfeits_and_a_forfeited_winner_wins_nothing():
    from kotarena.results import SeatResult

    def seat(number, entrant, rank, forfeit=None):
        return SeatResult(seat=number, entrant=entrant, rank=rank, forfeit=forfeit, forfeit_detail=None,
                          decisions=0, cpu_seconds=0.0, facts={}, times=None, log=None, bot="random",
                          package="kotarena", version="1")

    book = ratings.RatingBook(ratings.make_env())
    book.rate(0, [seat(0, "a", 0), seat(1, "b", 1)])
    # b's autopilot won after b timed out: the game's winner, but no win for b.
    after = book.rate(1, [seat(0, "a", 0), seat(1, "b", 1, "timeout")])
    counts = {row.entrant: (row.games, row.wins, row.forfeits) for row in book.standings()}
    assert counts == {"a": (2, 1, 0), "b": (2, 0, 1)}
    assert [(row.mu, row.sigma) for row in book.standings()] == after
    assert after[0][0] > after[1][0]
