"""A league night: schedule, play, store and rate, resumable exactly once.

The coordinator is the only writer. Each finished match is stored with its seats in
one transaction, under a unique ``(night, index)`` key, so a match can never be stored
twice. Ratings are applied strictly in schedule order (match 0, 1, 2, ... of the
night), each in one transaction that also flips the match's ``rated`` flag with a
conditional update, so a match is rated exactly once and a night that was killed and
resumed ends with exactly the ratings of an uninterrupted one.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime

import trueskill
from sqlalchemy import bindparam, delete, insert, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, func, select

from kotarena.storage.db import insert_rows
from kotarena.storage.models import BotVersion, LadderRow, Match, Night, Rating, RatingHistory, Seat
from kotarena.tournament.runner import MatchJob, MatchResult, SeatResult, make_executor, run_jobs
from kotarena.tournament.seats import SeatSpec

#: Stored results are committed together at most this many at a time (a batch's
#: statements cost the same for 256 matches as for 64: 0.35 instead of 0.41 ms a match)...
FLUSH_SIZE = 256
#: ... and at least this often (seconds).
FLUSH_SECONDS = 0.5
#: Matches rated per statement when ratings are recomputed.
RERATE_CHUNK = 2000


class NightError(RuntimeError):
    """A night that cannot be started or resumed as asked."""


@dataclass
class NightReport:
    """What a run of ``league run`` did."""

    ladder: str
    night: int
    seed: int
    planned: int
    stored_before: int
    played: int
    forfeits: int
    finished: bool
    seconds: float


def night_seed(ladder_seed: int, number: int) -> int:
    """Night 1 plays the ladder's seed; later nights derive new seeds from it."""
    if number == 1:
        return ladder_seed
    return (ladder_seed * 6_364_136_223_846_793_005 + number * 1_442_695_040_888_963_407) % (2**63)


def _ladder_row(session: Session, ladder) -> LadderRow:
    row = session.exec(select(LadderRow).where(LadderRow.name == ladder.name)).first()
    if row is None:
        row = LadderRow(name=ladder.name, game=ladder.game)
        session.add(row)
        session.commit()
        session.refresh(row)
    elif row.game != ladder.game:
        raise NightError(f"ladder {ladder.name!r} is stored as a {row.game} ladder, not {ladder.game}")
    return row


def open_night(engine: Engine, ladder, *, fresh: bool = False) -> Night:
    """The night to play: the ladder's unfinished night, or a new one."""
    with Session(engine) as session:
        ladder_row = _ladder_row(session, ladder)
        running = session.exec(
            select(Night).where(Night.ladder_id == ladder_row.id, Night.status == "running").order_by(Night.number.desc())
        ).first()
        if running is not None and not fresh:
            if running.fingerprint != ladder.fingerprint():
                raise NightError(
                    f"ladder {ladder.name!r} changed since its unfinished night {running.number} started; "
                    "restore the file to resume that night, or run with --fresh to start a new night"
                )
            return running
        number = (session.exec(select(func.max(Night.number)).where(Night.ladder_id == ladder_row.id)).one() or 0) + 1
        night = Night(
            ladder_id=ladder_row.id, number=number, seed=night_seed(ladder.seed, number),
            fingerprint=ladder.fingerprint(), config=json.dumps(_ladder_json(ladder), default=str),
            planned=0,
        )
        session.add(night)
        session.commit()
        session.refresh(night)
        return night


def _ladder_json(ladder) -> dict:
    try:
        return asdict(ladder)
    except TypeError:
        return {"name": ladder.name}


def _jobs(ladder, night: Night) -> Iterator[MatchJob]:
    """The night's matches as jobs, in schedule order, each as soon as it is scheduled."""
    from kotarena.tournament.schedule import iter_schedule

    entrants = {e.label: e for e in ladder.entrants}
    specs = {
        label: SeatSpec(
            entrant=label,
            bot=entrant.bot,
            params=tuple(sorted((entrant.params or {}).items())),
            trusted=_trusted(entrant),
        )
        for label, entrant in entrants.items()
    }
    deck = ladder.deck if ladder.deck != "none" else None
    for spec in iter_schedule(replace(ladder, seed=night.seed), list(entrants)):
        yield MatchJob(
            index=spec.index, key=spec.key, game=ladder.game, deck=deck, seed=spec.seed,
            first_player=spec.first_player, seats=tuple([specs[label] for label in spec.seats]),
            time_limit=ladder.time_limit,
        )


def _trusted(entrant) -> bool:
    """Bots from kotarena itself are trusted unless the ladder says otherwise; others not."""
    if entrant.trusted is not None:
        return bool(entrant.trusted)
    from kotarena.bots.registry import get_bot

    return get_bot(entrant.bot).package == "kotarena"


# Storage goes through SQLAlchemy Core on the tables: a night writes thousands of rows,
# and building ORM objects for them cost more than playing the games.
MATCHES = Match.__table__
SEATS = Seat.__table__
RATINGS = Rating.__table__
HISTORY = RatingHistory.__table__
#: Every changed rating in one statement (executemany); built once.
_UPDATE_RATING = (
    update(RATINGS)
    .where(RATINGS.c.ladder_id == bindparam("b_ladder"), RATINGS.c.entrant == bindparam("b_entrant"))
    .values(mu=bindparam("b_mu"), sigma=bindparam("b_sigma"), games=bindparam("b_games"), wins=bindparam("b_wins"),
            forfeits=bindparam("b_forfeits"))
)


_MATCH_COLUMNS = ("night_id", "index", "key", "game", "seed", "first_player", "rules_version", "status", "termination",
                  "winner_seat", "turns", "duration", "replay", "rated", "played_at")
_SEAT_COLUMNS = ("match_id", "seat", "entrant", "bot_version_id", "monster", "rank", "stars", "health", "alive",
                 "forfeit", "forfeit_detail", "decisions", "cpu_seconds")
_HISTORY_COLUMNS = ("ladder_id", "entrant", "match_id", "mu", "sigma", "at")


def _add_results(session: Session, night: Night, results: list[MatchResult],
                 versions: dict) -> dict[int, list[SeatResult]]:
    """Insert the matches and their seats: two statements for the whole batch.

    Returns each new match's seats by match id (its :class:`SeatResult` objects have
    the attributes :func:`_rate_matches` reads of a seat row), so the matches can be
    rated without reading back what was just written.
    """
    now = datetime.now(UTC)
    night_id = night.id
    # A plain executemany, then the new ids in one query: RETURNING would make SQLite
    # insert the rows one statement at a time.
    insert_rows(session, MATCHES, _MATCH_COLUMNS, [(
        night_id, result.index, result.key, result.game, result.seed, result.first_player, result.rules_version,
        result.status, result.termination, result.winner_seat, result.turns, result.duration, result.replay, False,
        now,
    ) for result in results])
    ids = dict(session.execute(select(MATCHES.c.index, MATCHES.c.id).where(
        MATCHES.c.night_id == night_id, MATCHES.c.index.in_([result.index for result in results]))).all())
    rows = []
    seats_by_match = {}
    for result in results:
        match_id = ids[result.index]
        seats_by_match[match_id] = result.seats  # they have what rating reads of a seat row
        for seat in result.seats:
            key = (seat.bot, seat.package, seat.version)
            version = versions.get(key)
            if version is None:
                version = versions[key] = _bot_version(session, *key)
            rows.append((match_id, seat.seat, seat.entrant, version, seat.monster, seat.rank, seat.stars, seat.health,
                         seat.alive, seat.forfeit, seat.forfeit_detail, seat.decisions, seat.cpu_seconds))
    insert_rows(session, SEATS, _SEAT_COLUMNS, rows)
    return seats_by_match


def store_results(engine: Engine, night: Night, results: list[MatchResult], env: trueskill.TrueSkill,
                  cache: dict | None = None) -> int:
    """Store finished matches and rate what can be rated, in one transaction.

    Matches already stored (by another process on the same night) are skipped.
    Returns how many were stored. ``cache`` carries what one run of a night learns
    between calls (bot version ids, how far ratings have got).
    """
    cache = {} if cache is None else cache
    versions = cache.setdefault("versions", {})
    with Session(engine) as session:
        indexes = [r.index for r in results]
        existing = set(session.execute(
            select(MATCHES.c.index).where(MATCHES.c.night_id == night.id, MATCHES.c.index.in_(indexes))).scalars())
        fresh = [r for r in results if r.index not in existing]
        try:
            seats = _add_results(session, night, fresh, versions) if fresh else {}
            rated_upto = _rate_following(session, night, env, cache.get("rated_upto", 0), seats)
            session.commit()
            cache["rated_upto"] = rated_upto
        except IntegrityError:
            # Another writer stored one of them meanwhile: go one at a time.
            session.rollback()
            cache.clear()
            if len(fresh) <= 1:
                return 0
            return sum(store_results(engine, night, [r], env, cache) for r in fresh)
    return len(fresh)


def _bot_version(session: Session, name: str, package: str, version: str) -> int:
    table = BotVersion.__table__
    found = session.execute(select(table.c.id).where(
        table.c.name == name, table.c.package == package, table.c.version == version)).scalar()
    if found is None:
        found = session.execute(insert(table).returning(table.c.id),
                                {"name": name, "package": package, "version": version}).scalar_one()
    return found


def _rate_matches(session: Session, ladder_id: int, matches: list, env: trueskill.TrueSkill,
                  seats_in_memory: dict[int, list] | None = None) -> int:
    """Rate ``matches`` (rows with id, winner_seat; in rating order) in this transaction.

    ``seats_in_memory`` may hold the seats of some of them (as :func:`_add_results`
    returns them), which are then not read from the database.

    The matches are claimed first, in one conditional update of their ``rated`` flag
    (a write, so this transaction holds the write lock before it reads the ratings it
    updates). Ratings go in order, so if another writer claimed one of them, only
    those before it are rated here: the claims after it are given back.
    """
    from kotarena import ratings

    if not matches:
        return 0
    ids = [match.id for match in matches]
    claimed = set(session.execute(
        update(MATCHES).where(MATCHES.c.id.in_(ids), MATCHES.c.rated == False)  # noqa: E712
        .values(rated=True).returning(MATCHES.c.id)
    ).scalars())
    if len(claimed) != len(ids):
        first_taken = next(i for i, match_id in enumerate(ids) if match_id not in claimed)
        given_back = [match_id for match_id in ids[first_taken:] if match_id in claimed]
        if given_back:
            session.execute(update(MATCHES).where(MATCHES.c.id.in_(given_back)).values(rated=False))
        matches = matches[:first_taken]
        if not matches:
            return 0
    in_memory = seats_in_memory or {}
    seats_by_match: dict[int, list] = {m.id: in_memory[m.id] for m in matches if m.id in in_memory}
    unknown = [m.id for m in matches if m.id not in in_memory]
    if unknown:
        for seat in session.execute(
            select(SEATS.c.match_id, SEATS.c.seat, SEATS.c.entrant, SEATS.c.rank, SEATS.c.forfeit)
            .where(SEATS.c.match_id.in_(unknown)).order_by(SEATS.c.match_id, SEATS.c.seat)
        ):
            seats_by_match.setdefault(seat.match_id, []).append(seat)
    entrants = {seat.entrant for seats in seats_by_match.values() for seat in seats}
    # Each entrant's [rating, games, wins, forfeits, already stored].
    current = {
        row.entrant: [ratings.Rating(row.mu, row.sigma), row.games, row.wins, row.forfeits, True]
        for row in session.execute(select(RATINGS).where(RATINGS.c.ladder_id == ladder_id,
                                                         RATINGS.c.entrant.in_(entrants)))
    }
    history = []
    rated = 0
    now = datetime.now(UTC)
    for match in matches:
        seats = seats_by_match.get(match.id, [])
        for seat in seats:
            entry = current.get(seat.entrant)
            if entry is None:
                entry = current[seat.entrant] = [env.create_rating(), 0, 0, 0, False]
            entry[1] += 1
            # A forfeited seat that the autopilot carried to victory is no win for the bot.
            if seat.seat == match.winner_seat and not seat.forfeit:
                entry[2] += 1
            if seat.forfeit:
                entry[3] += 1
        labels = [seat.entrant for seat in seats]
        updated = ratings.rate_match({label: current[label][0] for label in labels}, labels,
                                     [seat.rank for seat in seats], env)
        for label, rating in updated.items():
            current[label][0] = rating
            history.append((ladder_id, label, match.id, rating.mu, rating.sigma, now))
        rated += 1
    stored = [{"b_ladder": ladder_id, "b_entrant": label, "b_mu": rating.mu, "b_sigma": rating.sigma, "b_games": games,
               "b_wins": wins, "b_forfeits": forfeits}
              for label, (rating, games, wins, forfeits, known) in current.items() if known]
    if stored:
        session.execute(_UPDATE_RATING, stored)
    new = [{"ladder_id": ladder_id, "entrant": label, "mu": rating.mu, "sigma": rating.sigma, "games": games,
            "wins": wins, "forfeits": forfeits}
           for label, (rating, games, wins, forfeits, known) in current.items() if not known]
    if new:
        session.execute(insert(RATINGS), new)
    insert_rows(session, HISTORY, _HISTORY_COLUMNS, history)
    return rated


def _rate_following(session: Session, night: Night, env: trueskill.TrueSkill, rated_upto: int = 0,
                    seats_in_memory: dict[int, list] | None = None) -> int:
    """Rate, in this transaction, the night's stored matches that follow the rated ones
    without a gap (ratings go in schedule order, whatever order matches finish in).

    ``rated_upto`` is a match index below which every match is known to be rated
    already (0 if nothing is known), so only the matches from there are read;
    ``seats_in_memory`` holds seats not to read back (see :func:`_rate_matches`).
    Returns the index of the first match left unrated.
    """
    done = rated_upto
    following = []
    for row in session.execute(
        select(MATCHES.c.id, MATCHES.c.index, MATCHES.c.winner_seat, MATCHES.c.rated)
        .where(MATCHES.c.night_id == night.id, MATCHES.c.index >= rated_upto).order_by(MATCHES.c.index)
    ):
        if row.index != done or (row.rated and following):
            break  # a match not stored yet: the rest waits for it
        if not row.rated:
            following.append(row)
        done += 1
    first_waiting = done - len(following)
    return first_waiting + _rate_matches(session, night.ladder_id, following, env, seats_in_memory)


def rate_pending(engine: Engine, night: Night, env: trueskill.TrueSkill) -> int:
    """Rate the night's stored matches that follow, without a gap, the ones already rated.

    Returns how many were rated.
    """
    with Session(engine) as session:
        first = _first_unrated(session, night)
        rated = _rate_following(session, night, env, first) - first
        session.commit()
    return rated


def _first_unrated(session: Session, night: Night) -> int:
    """The number of the night's matches rated so far (they are always the first ones)."""
    return session.execute(select(func.count()).select_from(MATCHES).where(
        MATCHES.c.night_id == night.id, MATCHES.c.rated == True)).scalar_one()  # noqa: E712


def stored_indexes(engine: Engine, night: Night) -> set[int]:
    with Session(engine) as session:
        return set(session.exec(select(Match.index).where(Match.night_id == night.id)).all())


def run_night(
    engine: Engine,
    ladder,
    *,
    workers: int | None = None,
    fresh: bool = False,
    progress: Callable[[int, int, int], None] | None = None,
    executor_factory=make_executor,
) -> NightReport:
    """Play (or resume) a night of ``ladder``; returns what happened.

    ``progress(done, total, forfeits)`` is called after each stored match.
    """
    from kotarena import ratings

    started = time.perf_counter()
    env = ratings.make_env()
    night = open_night(engine, ladder, fresh=fresh)
    planned = ladder.games
    with Session(engine) as session:
        row = session.get(Night, night.id)
        row.planned = planned
        session.add(row)
        session.commit()
    already = stored_indexes(engine, night)
    rate_pending(engine, night, env)
    # Scheduled as they are handed out: the first matches start while the rest are worked out.
    todo = (job for job in _jobs(ladder, night) if job.index not in already)
    done = len(already)
    played = forfeits = 0
    if progress:
        progress(done, planned, forfeits)
    # Results are stored in small batches, one transaction each (a batch at most
    # FLUSH_SECONDS old): a kill loses only the unstored batch, which a resume plays again.
    batch: list[MatchResult] = []
    flushed = time.monotonic()
    cache: dict = {}

    def flush() -> None:
        nonlocal played, done, forfeits, flushed, batch
        stored = store_results(engine, night, batch, env, cache)
        played += stored
        done += stored
        forfeits += sum(1 for result in batch for seat in result.seats if seat.forfeit)
        batch = []
        flushed = time.monotonic()
        if progress:
            progress(done, planned, forfeits)

    try:
        for result in run_jobs(todo, workers=workers, executor_factory=executor_factory, total=planned - len(already)):
            batch.append(result)
            # Near the end a batch is stored once it holds as many matches as are still
            # to come, so the last one is small and the night ends soon after its games.
            if (len(batch) >= FLUSH_SIZE or len(batch) >= planned - done - len(batch)
                    or time.monotonic() - flushed >= FLUSH_SECONDS):
                flush()
    finally:
        if batch:
            flush()
    finished = len(stored_indexes(engine, night)) == planned
    if finished:
        rate_pending(engine, night, env)
        with Session(engine) as session:
            row = session.get(Night, night.id)
            row.status = "done"
            row.finished_at = datetime.now(UTC)
            session.add(row)
            session.commit()
    return NightReport(ladder.name, night.number, night.seed, planned, len(already), played, forfeits, finished,
                       time.perf_counter() - started)


def rerate(engine: Engine, ladder_name: str) -> int:
    """Recompute a ladder's ratings from its stored matches, in (night, index) order."""
    from kotarena import ratings

    env = ratings.make_env()
    with Session(engine) as session:
        ladder = session.exec(select(LadderRow).where(LadderRow.name == ladder_name)).first()
        if ladder is None:
            raise NightError(f"no ladder named {ladder_name!r} in the database")
        night_ids = select(Night.id).where(Night.ladder_id == ladder.id)
        session.execute(delete(RATINGS).where(RATINGS.c.ladder_id == ladder.id))
        session.execute(delete(HISTORY).where(HISTORY.c.ladder_id == ladder.id))
        session.execute(update(MATCHES).where(MATCHES.c.night_id.in_(night_ids)).values(rated=False))
        matches = session.execute(
            select(MATCHES.c.id, MATCHES.c.winner_seat).join(Night.__table__, MATCHES.c.night_id == Night.id)
            .where(Night.ladder_id == ladder.id).order_by(Night.number, MATCHES.c.index)
        ).all()
        # In chunks: a statement takes a bounded number of parameters.
        count = sum(_rate_matches(session, ladder.id, matches[start:start + RERATE_CHUNK], env)
                    for start in range(0, len(matches), RERATE_CHUNK))
        session.commit()
    return count
