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
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from datetime import datetime, timezone

import trueskill
from sqlalchemy import update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, func, select

from kotarena.storage.models import BotVersion, LadderRow, Match, Night, Rating, RatingHistory, Seat
from kotarena.tournament.runner import MatchJob, MatchResult, make_executor, run_jobs
from kotarena.tournament.seats import SeatSpec


class NightError(RuntimeError):
    """A night that cannot be started or resumed as asked."""


@dataclass
class NightReport:
    """What a run of ``league run`` did."""

    ladder: str
    night: int
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


def _jobs(ladder, night: Night) -> list[MatchJob]:
    from kotarena.tournament.schedule import build_schedule

    entrants = {e.label: e for e in ladder.entrants}
    specs = build_schedule(replace(ladder, seed=night.seed), list(entrants))
    jobs = []
    for spec in specs:
        seats = tuple(
            SeatSpec(
                entrant=label,
                bot=entrants[label].bot,
                params=tuple(sorted((entrants[label].params or {}).items())),
                trusted=_trusted(entrants[label]),
            )
            for label in spec.seats
        )
        jobs.append(MatchJob(
            index=spec.index, key=spec.key, game=ladder.game, deck=ladder.deck if ladder.deck != "none" else None,
            seed=spec.seed, first_player=spec.first_player, seats=seats, time_limit=ladder.time_limit,
        ))
    return jobs


def _trusted(entrant) -> bool:
    """Bots from kotarena itself are trusted unless the ladder says otherwise; others not."""
    if entrant.trusted is not None:
        return bool(entrant.trusted)
    from kotarena.bots.registry import get_bot

    return get_bot(entrant.bot).package == "kotarena"


def store_result(engine: Engine, night: Night, result: MatchResult) -> bool:
    """Store a finished match and its seats; False if it was already stored."""
    with Session(engine) as session:
        match = Match(
            night_id=night.id, index=result.index, key=result.key, game=result.game, seed=result.seed,
            first_player=result.first_player, rules_version=result.rules_version, status=result.status,
            termination=result.termination, winner_seat=result.winner_seat, turns=result.turns,
            duration=result.duration, replay=result.replay,
        )
        session.add(match)
        try:
            session.flush()
        except IntegrityError:
            session.rollback()
            return False
        for seat in result.seats:
            version = _bot_version(session, seat.bot, seat.package, seat.version)
            session.add(Seat(
                match_id=match.id, seat=seat.seat, entrant=seat.entrant, bot_version_id=version.id,
                monster=seat.monster, rank=seat.rank, stars=seat.stars, health=seat.health, alive=seat.alive,
                forfeit=seat.forfeit, forfeit_detail=seat.forfeit_detail, decisions=seat.decisions,
                cpu_seconds=seat.cpu_seconds,
            ))
        try:
            session.commit()
        except IntegrityError:
            session.rollback()
            return False
    return True


def _bot_version(session: Session, name: str, package: str, version: str) -> BotVersion:
    row = session.exec(
        select(BotVersion).where(BotVersion.name == name, BotVersion.package == package, BotVersion.version == version)
    ).first()
    if row is None:
        row = BotVersion(name=name, package=package, version=version)
        session.add(row)
        session.flush()
    return row


def rate_match(session: Session, ladder_id: int, match: Match, env: trueskill.TrueSkill) -> bool:
    """Apply one stored match to the ladder's ratings; False if it was rated already.

    The conditional update is the transaction's first statement, so it takes the write
    lock before anything is read and two coordinators cannot both rate a match.
    """
    from kotarena import ratings

    claimed = session.exec(
        update(Match).where(Match.id == match.id, Match.rated == False).values(rated=True)  # noqa: E712
    )
    if claimed.rowcount != 1:
        session.rollback()
        return False
    seats = session.exec(select(Seat).where(Seat.match_id == match.id).order_by(Seat.seat)).all()
    labels = [s.entrant for s in seats]
    rows = {
        row.entrant: row
        for row in session.exec(select(Rating).where(Rating.ladder_id == ladder_id, Rating.entrant.in_(labels))).all()
    }
    current = {label: env.create_rating(rows[label].mu, rows[label].sigma) if label in rows else env.create_rating()
               for label in labels}
    updated = ratings.rate_match(current, labels, [s.rank for s in seats], env)
    for seat in seats:
        label = seat.entrant
        row = rows.get(label)
        if row is None:
            row = rows[label] = Rating(ladder_id=ladder_id, entrant=label, mu=0.0, sigma=0.0)
            session.add(row)
        row.games += 1
        # A forfeited seat that the autopilot carried to victory is no win for the bot.
        row.wins += 1 if seat.seat == match.winner_seat and not seat.forfeit else 0
        row.forfeits += 1 if seat.forfeit else 0
    for label, rating in updated.items():
        rows[label].mu = rating.mu
        rows[label].sigma = rating.sigma
        session.add(RatingHistory(ladder_id=ladder_id, entrant=label, match_id=match.id,
                                  mu=rating.mu, sigma=rating.sigma))
    session.commit()
    return True


def rate_pending(engine: Engine, night: Night, env: trueskill.TrueSkill) -> int:
    """Rate the night's stored matches that follow, without a gap, the ones already rated."""
    rated_now = 0
    while True:
        with Session(engine) as session:
            done = session.exec(
                select(func.count()).select_from(Match).where(Match.night_id == night.id, Match.rated == True)  # noqa: E712
            ).one()
            following = session.exec(select(Match).where(Match.night_id == night.id, Match.index == done)).first()
            if following is None:
                return rated_now
            if following.rated or not rate_match(session, night.ladder_id, following, env):
                return rated_now
            rated_now += 1


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
    import time

    from kotarena import ratings

    started = time.perf_counter()
    env = ratings.make_env()
    night = open_night(engine, ladder, fresh=fresh)
    jobs = _jobs(ladder, night)
    with Session(engine) as session:
        row = session.get(Night, night.id)
        row.planned = len(jobs)
        session.add(row)
        session.commit()
    already = stored_indexes(engine, night)
    rate_pending(engine, night, env)
    todo = [job for job in jobs if job.index not in already]
    done = len(already)
    played = forfeits = 0
    if progress:
        progress(done, len(jobs), forfeits)
    for result in run_jobs(todo, workers=workers, executor_factory=executor_factory):
        if store_result(engine, night, result):
            played += 1
            done += 1
            forfeits += sum(1 for seat in result.seats if seat.forfeit)
        rate_pending(engine, night, env)
        if progress:
            progress(done, len(jobs), forfeits)
    finished = len(stored_indexes(engine, night)) == len(jobs)
    if finished:
        rate_pending(engine, night, env)
        with Session(engine) as session:
            row = session.get(Night, night.id)
            row.status = "done"
            row.finished_at = datetime.now(timezone.utc)
            session.add(row)
            session.commit()
    return NightReport(ladder.name, night.number, len(jobs), len(already), played, forfeits, finished,
                       time.perf_counter() - started)


def rerate(engine: Engine, ladder_name: str) -> int:
    """Recompute a ladder's ratings from its stored matches, in (night, index) order."""
    from kotarena import ratings

    env = ratings.make_env()
    with Session(engine) as session:
        ladder = session.exec(select(LadderRow).where(LadderRow.name == ladder_name)).first()
        if ladder is None:
            raise NightError(f"no ladder named {ladder_name!r} in the database")
        for row in session.exec(select(Rating).where(Rating.ladder_id == ladder.id)).all():
            session.delete(row)
        for row in session.exec(select(RatingHistory).where(RatingHistory.ladder_id == ladder.id)).all():
            session.delete(row)
        night_ids = [n.id for n in session.exec(select(Night).where(Night.ladder_id == ladder.id)).all()]
        session.exec(update(Match).where(Match.night_id.in_(night_ids)).values(rated=False))
        session.commit()
        matches = session.exec(
            select(Match).join(Night).where(Night.ladder_id == ladder.id).order_by(Night.number, Match.index)
        ).all()
        match_ids = [m.id for m in matches]
    count = 0
    for match_id in match_ids:
        with Session(engine) as session:
            match = session.get(Match, match_id)
            if rate_match(session, ladder.id, match, env):
                count += 1
    return count
