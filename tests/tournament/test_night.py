"""League nights: every match stored and rated exactly once, even across a kill -9."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlmodel import Session, delete, func, select

from kotarena.storage import open_db
from kotarena.storage.models import LadderRow, Match, Night, Rating, Seat
from kotarena.storage.store import NightResults, rerate
from kotarena.tournament.ladder import load_ladder
from kotarena.tournament.night import NightError, run_night
from kotarena.tournament.runner import InlineExecutor


def ladder_file(tmp_path: Path, name: str = "night", games: int = 12, second: str = "random",
                limit: float = 1.0, params: str = "") -> Path:
    """A 3-player ladder of ``random`` (as ``random-a``) and ``second``."""
    second_label = "random-b" if second == "random" else second
    path = tmp_path / f"{name}.toml"
    path.write_text(f"""
name = "{name}"
players = 3
games = {games}
seed = 7
time_limit = {limit}
allow_repeats = true

[[bots]]
name = "random"
label = "random-a"

[[bots]]
name = "{second}"
label = "{second_label}"
{params}
""")
    return path


def inline(workers):
    return InlineExecutor()


def ratings_of(engine, ladder: str = "night") -> dict[str, tuple[float, float, int, int]]:
    from kotarena.storage.models import LadderRow

    with Session(engine) as session:
        ladder_id = session.exec(select(LadderRow.id).where(LadderRow.name == ladder)).one()
        rows = session.exec(select(Rating).where(Rating.ladder_id == ladder_id)).all()
        return {r.entrant: (round(r.mu, 9), round(r.sigma, 9), r.games, r.wins) for r in rows}


def seat_history(engine) -> list[tuple[int, int, int, str, float, float]]:
    """Every seat's (night, match index, seat, entrant, mu, sigma), in schedule order:
    each entrant's rating after each match."""
    with Session(engine) as session:
        rows = session.exec(select(Night.number, Match.index, Seat).join(Match, Seat.match_id == Match.id)
                            .join(Night, Match.night_id == Night.id)
                            .order_by(Night.number, Match.index, Seat.seat)).all()
        return [(number, index, s.seat, s.entrant, s.mu, s.sigma) for number, index, s in rows]


def count(engine, table) -> int:
    with Session(engine) as session:
        return session.exec(select(func.count()).select_from(table)).one()


def test_a_night_stores_every_match_with_its_seats_and_rates_them(tmp_path):
    engine = open_db(tmp_path / "a.db")
    ladder = load_ladder(ladder_file(tmp_path))
    report = run_night(engine, ladder, executor_factory=inline)
    assert report.finished and report.played == 12 and report.planned == 12
    assert count(engine, Match) == 12
    assert count(engine, Seat) == 36
    with Session(engine) as session:
        assert all(m.rated for m in session.exec(select(Match)).all())
        assert session.exec(select(Night)).one().status == "done"
        match = session.exec(select(Match)).first()
        assert match.replay.startswith("kotarena-replay") and match.rules_version >= 1
    ratings = ratings_of(engine)
    assert set(ratings) == {"random-a", "random-b"}
    assert sum(games for _, _, games, _ in ratings.values()) == 36
    # Each seat keeps its entrant's rating after the match; the last match's is the current one.
    with Session(engine) as session:
        last = {}
        for match in session.exec(select(Match).order_by(Match.index)).all():
            for seat in session.exec(select(Seat).where(Seat.match_id == match.id)).all():
                last[seat.entrant] = (round(seat.mu, 9), round(seat.sigma, 9))
    assert last == {entrant: (mu, sigma) for entrant, (mu, sigma, _, _) in ratings.items()}


def test_a_night_records_its_ladder_bot_versions_and_finish_as_the_orm_reads_them(tmp_path):
    """The ladder, the bots' versions and the night's end are written in plain SQL; read
    back through the models they are the rows and dates the models would have written."""
    from datetime import UTC, datetime, timedelta

    from kotarena.bots.registry import get_bot
    from kotarena.storage.models import BotVersion

    engine = open_db(tmp_path / "a.db")
    path = ladder_file(tmp_path, games=4, second="heuristic")
    before = datetime.now(UTC) - timedelta(seconds=1)
    run_night(engine, load_ladder(path), executor_factory=inline)
    run_night(engine, load_ladder(path), executor_factory=inline)  # a second night finds them all
    with Session(engine) as session:
        ladder = session.exec(select(LadderRow)).one()
        assert (ladder.name, ladder.game) == ("night", "kot")
        assert before <= ladder.created_at <= datetime.now(UTC)
        versions = session.exec(select(BotVersion).order_by(BotVersion.name)).all()
        assert [(v.name, v.package, v.version) for v in versions] == [
            (name, get_bot(name).package, get_bot(name).version) for name in ("heuristic", "random")]
        seats = session.exec(select(Seat)).all()
        assert {seat.bot_version_id for seat in seats} == {v.id for v in versions}
        nights = session.exec(select(Night).order_by(Night.number)).all()
        assert [night.status for night in nights] == ["done", "done"]
        assert all(before <= night.started_at <= night.finished_at <= datetime.now(UTC)
                   for night in nights)


def test_a_night_freezes_the_heap_while_it_plays_and_leaves_it_as_it_was(tmp_path):
    import gc

    engine = open_db(tmp_path / "a.db")
    ladder = load_ladder(ladder_file(tmp_path, games=2))
    frozen_during = []

    def executor(workers):
        frozen_during.append(gc.get_freeze_count())
        return InlineExecutor()

    assert gc.get_freeze_count() == 0
    run_night(engine, ladder, executor_factory=executor)
    assert frozen_during[0] > 0 and gc.get_freeze_count() == 0
    # A caller that froze objects itself keeps them frozen.
    gc.freeze()
    try:
        run_night(engine, ladder, executor_factory=inline)
        assert gc.get_freeze_count() > 0  # (unfrozen, it would be 0)
    finally:
        gc.unfreeze()


def test_a_night_on_an_executor_named_by_kotarena_executor_is_the_same_night(tmp_path, monkeypatch):
    """``KOTARENA_EXECUTOR`` replaces the process pool (say, with a cluster's executor);
    a pool of threads stands in for one here. Its night stores and rates exactly what a
    night on the default pool does."""
    ladder = load_ladder(ladder_file(tmp_path, games=12))
    ours = open_db(tmp_path / "ours.db")
    run_night(ours, ladder, workers=2)
    monkeypatch.setenv("KOTARENA_EXECUTOR", "concurrent.futures:ThreadPoolExecutor")
    theirs = open_db(tmp_path / "theirs.db")
    report = run_night(theirs, ladder, workers=2)
    assert report.finished and report.played == 12
    assert ratings_of(theirs) == ratings_of(ours)
    assert seat_history(theirs) == seat_history(ours)


def test_a_kotarena_executor_that_gives_no_executor_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("KOTARENA_EXECUTOR", "kotarena_no_such_module:pool")
    with pytest.raises(RuntimeError, match="KOTARENA_EXECUTOR='kotarena_no_such_module:pool' did not give an "
                                           "executor: No module named"):
        run_night(open_db(tmp_path / "a.db"), load_ladder(ladder_file(tmp_path)), workers=2)


def test_running_the_same_finished_ladder_again_plays_a_new_night(tmp_path):
    engine = open_db(tmp_path / "a.db")
    ladder = load_ladder(ladder_file(tmp_path, games=3))
    first = run_night(engine, ladder, executor_factory=inline)
    second = run_night(engine, ladder, executor_factory=inline)
    assert (first.night, second.night) == (1, 2)
    with Session(engine) as session:
        seeds = [n.seed for n in session.exec(select(Night).order_by(Night.number)).all()]
    assert seeds[0] != seeds[1]


def test_a_night_knows_its_planned_matches_from_the_start(tmp_path):
    """A new night is made with its planned count; a running night made by an older
    kotarena (which set the count only after making the night, so a kill in between
    left 0) gets it when resumed."""
    from kotarena.tournament.night import open_night

    engine = open_db(tmp_path / "a.db")
    ladder = load_ladder(ladder_file(tmp_path, games=6))
    assert open_night(engine, ladder).planned == 6
    with Session(engine) as session:
        night = session.exec(select(Night)).one()
        night.planned = 0
        session.add(night)
        session.commit()
    report = run_night(engine, ladder, executor_factory=inline)
    assert (report.night, report.planned, report.played, report.finished) == (1, 6, 6, True)
    with Session(engine) as session:
        assert session.exec(select(Night.planned)).one() == 6


@pytest.fixture
def one_by_one(monkeypatch):
    """Commit every result on its own, so a test can stop a night after exactly N."""
    from kotarena.tournament import night

    monkeypatch.setattr(night, "FLUSH_SIZE", 1)


def test_an_interrupted_night_resumes_without_losing_or_repeating_a_match(tmp_path, one_by_one):
    ladder = load_ladder(ladder_file(tmp_path))
    whole = open_db(tmp_path / "whole.db")
    run_night(whole, ladder, executor_factory=inline)

    broken = open_db(tmp_path / "broken.db")

    class Stop(Exception):
        pass

    seen: list[int] = []

    def stop_after_five(done, total, forfeits):
        seen.append(done)
        if done >= 5:  # (5, or a few more: results that came early are stored with the one they waited for)
            raise Stop()

    with pytest.raises(Stop):
        run_night(broken, ladder, executor_factory=inline, progress=stop_after_five)
    stopped = seen[-1]
    assert 5 <= stopped < 12 and count(broken, Match) == stopped
    report = run_night(broken, ladder, executor_factory=inline)
    assert report.stored_before == stopped and report.played == 12 - stopped and report.finished
    assert count(broken, Match) == 12
    assert ratings_of(broken) == ratings_of(whole)


def test_a_batch_whose_store_failed_is_tried_again_as_the_night_stops(tmp_path, one_by_one, monkeypatch):
    """A store that fails (a database error, Ctrl-C in the middle of it) rolls back; the
    results it held go back among the unstored ones, which the night stores on its way
    out, so the error loses no played match."""
    from kotarena.tournament import night as night_module

    ladder = load_ladder(ladder_file(tmp_path, games=6))
    whole = open_db(tmp_path / "whole.db")
    run_night(whole, ladder, executor_factory=inline)

    in_any_order = night_module.run_jobs

    def in_order(jobs, **kwargs):  # (one store a match: FLUSH_SIZE is 1)
        yield from sorted(in_any_order(jobs, **kwargs), key=lambda result: result.index)

    monkeypatch.setattr(night_module, "run_jobs", in_order)
    original = NightResults.store
    calls = []

    def second_store_fails(self, results):
        calls.append(len(results))
        if len(calls) == 2:
            raise RuntimeError("disk full")
        return original(self, results)

    monkeypatch.setattr(NightResults, "store", second_store_fails)
    broken = open_db(tmp_path / "broken.db")
    with pytest.raises(RuntimeError, match="disk full"):
        run_night(broken, ladder, executor_factory=inline)
    assert calls == [1, 1, 1]  # match 0; match 1, which failed; match 1 again, as the night stopped
    assert count(broken, Match) == 2
    monkeypatch.setattr(NightResults, "store", original)
    report = run_night(broken, ladder, executor_factory=inline)
    assert (report.stored_before, report.played, report.finished) == (2, 4, True)
    assert ratings_of(broken) == ratings_of(whole)


def test_a_night_stopped_by_an_error_ends_with_that_error_even_if_storing_fails_again(tmp_path, monkeypatch):
    """The store on the way out may fail as well (the same full disk): the error raised
    is still the one that stopped the night, with the second one noted on it."""
    ladder = load_ladder(ladder_file(tmp_path, games=6))
    failures = iter(["disk full", "still full"])

    def failing_store(self, results):
        raise RuntimeError(next(failures))

    monkeypatch.setattr(NightResults, "store", failing_store)
    with pytest.raises(RuntimeError, match="disk full") as raised:
        run_night(open_db(tmp_path / "a.db"), ladder, executor_factory=inline)
    assert raised.value.__notes__ == ["storing the results not stored yet failed too: RuntimeError: still full"]


def test_matches_that_finish_out_of_order_are_rated_in_schedule_order(tmp_path, one_by_one, monkeypatch):
    """Results arriving last to first: each is stored at once, to wait for the matches
    before it, and all are rated (a page of 4 at a time) when match 0 comes, with the
    ratings of a night whose matches came in order."""
    from kotarena.storage import store
    from kotarena.tournament import night as night_module

    monkeypatch.setattr(store, "PAGE", 4)

    ladder = load_ladder(ladder_file(tmp_path, games=6))
    in_order = open_db(tmp_path / "in.db")
    run_night(in_order, ladder, executor_factory=inline)

    shuffled = open_db(tmp_path / "out.db")
    original = night_module.run_jobs

    def last_to_first(jobs, **kwargs):
        yield from sorted(original(jobs, **kwargs), key=lambda result: -result.index)

    monkeypatch.setattr(night_module, "run_jobs", last_to_first)
    stored: list[int] = []
    run_night(shuffled, ladder, executor_factory=inline, progress=lambda done, total, forfeits: stored.append(done))
    assert stored == [0, 1, 2, 3, 4, 5, 6]
    assert ratings_of(shuffled) == ratings_of(in_order)
    assert seat_history(shuffled) == seat_history(in_order)


def test_a_night_stopped_while_results_wait_for_an_earlier_match_stores_them(tmp_path, one_by_one, monkeypatch):
    """Ctrl-C (or any error) in a night keeps the results that wait for an earlier
    match: they are stored, to be rated when the resumed night plays that match."""
    from kotarena.tournament import night as night_module

    ladder = load_ladder(ladder_file(tmp_path, games=6))
    whole = open_db(tmp_path / "whole.db")
    run_night(whole, ladder, executor_factory=inline)

    original = night_module.run_jobs

    def first_missing_then_stop(jobs, **kwargs):
        for result in sorted(original(jobs, **kwargs), key=lambda result: result.index):
            if result.index == 0:
                continue  # match 0 never comes
            if result.index == 4:
                raise KeyboardInterrupt
            yield result

    monkeypatch.setattr(night_module, "run_jobs", first_missing_then_stop)
    broken = open_db(tmp_path / "broken.db")
    with pytest.raises(KeyboardInterrupt):
        run_night(broken, ladder, executor_factory=inline)
    with Session(broken) as session:
        assert session.exec(select(Match.index, Match.rated).order_by(Match.index)).all() == [
            (1, False), (2, False), (3, False)]
    monkeypatch.setattr(night_module, "run_jobs", original)
    report = run_night(broken, ladder, executor_factory=inline)
    assert (report.stored_before, report.played, report.finished) == (3, 3, True)
    assert ratings_of(broken) == ratings_of(whole)


@pytest.mark.parametrize("page", [500, 4], ids=["one-page", "pages-of-4"])
def test_rerate_recomputes_the_same_ratings(tmp_path, monkeypatch, page):
    """Rerating reads the stored matches a page at a time, night by night, and ends
    with the ratings the nights gave, stopping at a night's first missing match."""
    from kotarena.storage import store

    monkeypatch.setattr(store, "PAGE", page)
    engine = open_db(tmp_path / "a.db")
    path = ladder_file(tmp_path, games=10)
    run_night(engine, load_ladder(path), executor_factory=inline)
    run_night(engine, load_ladder(path), executor_factory=inline)
    before, history = ratings_of(engine), seat_history(engine)
    assert rerate(engine, "night") == 20
    assert ratings_of(engine) == before
    assert seat_history(engine) == history
    with Session(engine) as session:  # a gap: night 2's match 5 goes missing
        match = session.exec(select(Match).join(Night).where(Night.number == 2, Match.index == 5)).one()
        session.execute(delete(Seat).where(Seat.match_id == match.id))
        session.execute(delete(Match).where(Match.id == match.id))
        session.commit()
    assert rerate(engine, "night") == 15
    rated = [(number, index) for number, index, *_ in seat_history(engine) if _[-1] is not None]
    assert {index for number, index in rated if number == 2} == {0, 1, 2, 3, 4}


def test_a_stored_match_is_never_rated_twice(tmp_path):
    engine = open_db(tmp_path / "a.db")
    ladder = load_ladder(ladder_file(tmp_path, games=3))
    run_night(engine, ladder, executor_factory=inline)
    before = ratings_of(engine)
    with Session(engine) as session:
        night = session.exec(select(Night)).one()
    from kotarena import ratings

    assert NightResults(engine, night, ratings.make_env()).rate_stored() == 0
    assert ratings_of(engine) == before


def test_two_writers_storing_the_same_night_store_and_rate_each_match_once(tmp_path):
    """Two processes running one night may store overlapping batches, in any order, each
    knowing only what it stored itself: every match is stored once and rated once, in
    schedule order, with the ratings of one uninterrupted run."""
    from kotarena import ratings
    from kotarena.tournament.night import night_jobs, open_night
    from kotarena.tournament.runner import play_matches

    ladder = load_ladder(ladder_file(tmp_path, games=8))
    whole = open_db(tmp_path / "whole.db")
    run_night(whole, ladder, executor_factory=inline)

    engine = open_db(tmp_path / "a.db")
    night = open_night(engine, ladder)
    results = {result.index: result for result in play_matches(list(night_jobs(ladder, night.seed)))}
    env = ratings.make_env()
    mine, theirs = NightResults(engine, night, env), NightResults(engine, night, env)  # each learns on its own
    assert mine.store([results[i] for i in (2, 1)]) == 2
    assert theirs.store([results[i] for i in (0, 1, 3)]) == 2  # 1 was stored
    assert mine.store([results[i] for i in (5, 3, 4)]) == 2  # 3 was stored
    assert theirs.store([results[i] for i in (7, 6, 0)]) == 2
    assert NightResults(engine, night, env).rate_stored() == 0
    assert count(engine, Match) == 8
    assert ratings_of(engine) == ratings_of(whole)
    assert all(mu is not None and sigma is not None for *_, mu, sigma in seat_history(engine))


def test_two_processes_starting_a_ladder_at_once_play_the_same_night(tmp_path, monkeypatch):
    """Both look for the ladder's unfinished night at the same moment; the second to
    get the ladder's lock finds the night the first made, instead of making another."""
    import threading

    from kotarena.storage import store
    from kotarena.tournament import night as night_module

    ladder = load_ladder(ladder_file(tmp_path, games=3))
    store.ladder_row(open_db(tmp_path / "a.db"), "night", "kot")  # the ladder is known; its first night is not made yet
    both_here = threading.Barrier(2)
    find_ladder = store.ladder_row

    def in_step(*args):
        found = find_ladder(*args)
        both_here.wait(timeout=10)  # neither looks for the night before the other is ready to
        return found

    monkeypatch.setattr(store, "ladder_row", in_step)
    opened, failed = [], []

    def start():
        try:
            opened.append(night_module.open_night(open_db(tmp_path / "a.db"), ladder).number)
        except Exception as error:  # noqa: BLE001 - reported below
            failed.append(error)

    threads = [threading.Thread(target=start) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert failed == [] and opened == [1, 1]
    assert count(open_db(tmp_path / "a.db"), Night) == 1


def test_a_ladder_another_process_added_meanwhile_is_used(tmp_path):
    """Two processes starting a new ladder both find it missing; the one whose insert
    fails on the unique name uses the other's row."""
    from kotarena.storage import store

    engine = open_db(tmp_path / "a.db")
    theirs = store.ladder_row(engine, "night", "kot")
    store._add_ladder(engine, "night", "kot")  # (finding it missing a moment ago)
    assert store.ladder_row(engine, "night", "kot") == theirs
    assert count(engine, LadderRow) == 1


def test_a_changed_ladder_file_does_not_silently_resume(tmp_path, one_by_one):
    engine = open_db(tmp_path / "a.db")
    path = ladder_file(tmp_path)

    class Stop(Exception):
        pass

    def stop(done, total, forfeits):
        if done >= 2:
            raise Stop()

    with pytest.raises(Stop):
        run_night(engine, load_ladder(path), executor_factory=inline, progress=stop)
    path.write_text(path.read_text().replace("games = 12", "games = 9"))
    with pytest.raises(NightError, match="--fresh"):
        run_night(engine, load_ladder(path), executor_factory=inline)
    report = run_night(engine, load_ladder(path), executor_factory=inline, fresh=True)
    assert report.night == 2 and report.finished


def test_forfeits_are_stored_with_their_reason_and_rank_last(tmp_path, failbots):
    engine = open_db(tmp_path / "a.db")
    ladder = load_ladder(ladder_file(tmp_path, games=3, second="fail-raise", limit=0.5,
                                     params='params = { fail_on = 1 }'))
    run_night(engine, ladder, executor_factory=inline)
    with Session(engine) as session:
        seats = session.exec(select(Seat).where(Seat.entrant == "fail-raise")).all()
        assert seats and all(s.forfeit == "error" and "broken on purpose" in s.forfeit_detail for s in seats)
        for seat in seats:
            others = session.exec(select(Seat).where(Seat.match_id == seat.match_id, Seat.seat != seat.seat)).all()
            assert all(seat.rank > other.rank for other in others if other.forfeit is None)
    assert ratings_of(engine)["fail-raise"][3] == 0  # no wins


def test_a_trusted_bot_that_kills_its_worker_forfeits_as_crash_and_the_night_finishes(tmp_path, failbots):
    """A trusted bot runs in the worker's own process: its os._exit breaks the process
    pool. The matches the pool held are played again with every bot isolated, so the
    crash is that bot's forfeit, and the night stores and rates every match and ends."""
    engine = open_db(tmp_path / "a.db")
    ladder = load_ladder(ladder_file(tmp_path, games=3, second="fail-crash", params="trusted = true"))
    report = run_night(engine, ladder, workers=1)
    assert report.finished and report.played == 3
    with Session(engine) as session:
        seats = session.exec(select(Seat).where(Seat.entrant == "fail-crash")).all()
        assert seats and all(seat.forfeit == "crash" and "exit code 3" in seat.forfeit_detail for seat in seats)
        assert [match.rated for match in session.exec(select(Match)).all()] == [True] * 3
    assert ratings_of(engine)["fail-crash"][3] == 0  # no wins


def run_cli(*args: str, env: dict, **popen) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "kotarena", *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **popen)


def wait_for_matches(engine, process: subprocess.Popen, stored: int) -> None:
    """Wait until ``process``, a running night, has stored ``stored`` matches."""
    deadline = time.monotonic() + 60
    while count(engine, Match) < stored:
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the night never got going"
        time.sleep(0.05)


def test_kill_9_mid_night_then_the_same_command_finishes_it_exactly_once(tmp_path, failbots):
    """For real: a subprocess plays the night, is killed with SIGKILL, and is run again."""
    games = 16
    path = ladder_file(tmp_path, name="killed", games=games, second="sleepy", params="params = { ms = 4 }")
    env = {**os.environ, "KOTARENA_DB": str(tmp_path / "killed.db")}
    process = run_cli("league", "run", str(path), "--workers", "1", "-q", env=env)
    engine = open_db(tmp_path / "killed.db")
    wait_for_matches(engine, process, 3)
    process.send_signal(signal.SIGKILL)
    process.wait()
    stored = count(engine, Match)
    assert 3 <= stored < games
    resumed = run_cli("league", "run", str(path), "--workers", "2", env=env)
    out, err = resumed.communicate(timeout=120)
    assert resumed.returncode == 0, err
    assert f"resuming: {stored} of {games}" in err
    assert "Leaderboard: killed" in out
    assert count(engine, Match) == games
    with Session(engine) as session:
        indexes = session.exec(select(Match.index)).all()
    assert sorted(indexes) == list(range(games))

    # The same night uninterrupted gives the very same ratings.
    whole_env = {**env, "KOTARENA_DB": str(tmp_path / "whole.db")}
    whole = run_cli("league", "run", str(path), "--workers", "2", "-q", env=whole_env)
    whole.communicate(timeout=120)
    assert ratings_of(open_db(tmp_path / "whole.db"), "killed") == ratings_of(engine, "killed")


def test_two_processes_writing_one_database_do_not_corrupt_it(tmp_path):
    env = {**os.environ, "KOTARENA_DB": str(tmp_path / "shared.db")}
    first = ladder_file(tmp_path, name="one", games=10)
    second = ladder_file(tmp_path, name="two", games=10)
    runs = [run_cli("league", "run", str(p), "--workers", "1", "-q", env=env) for p in (first, second)]
    for run in runs:
        out, err = run.communicate(timeout=120)
        assert run.returncode == 0, err
    engine = open_db(tmp_path / "shared.db")
    assert count(engine, Match) == 20
    with engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA integrity_check").scalar() == "ok"


def test_workers_of_a_killed_night_do_not_outlive_it(tmp_path, failbots):
    """kill -9 of the coordinator must not leave its worker processes behind."""
    path = ladder_file(tmp_path, name="orphans", games=40, second="sleepy", params="params = { ms = 4 }")
    env = {**os.environ, "KOTARENA_DB": str(tmp_path / "orphans.db")}
    process = run_cli("league", "run", str(path), "--workers", "1", "-q", env=env)
    engine = open_db(tmp_path / "orphans.db")
    wait_for_matches(engine, process, 1)
    children = _children(process.pid)
    assert children, "the night should be running worker processes"
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert_gone(children)


def test_ctrl_c_mid_night_stops_it_cleanly_and_the_same_command_finishes_it(tmp_path, failbots):
    """Ctrl-C at a terminal signals the whole process group: the coordinator and its
    workers. The night stops with what it played stored, its workers gone and no
    worker's traceback on the screen; running it again finishes it."""
    games = 24
    path = ladder_file(tmp_path, name="stopped", games=games, second="sleepy", params="params = { ms = 4 }")
    env = {**os.environ, "KOTARENA_DB": str(tmp_path / "stopped.db")}
    process = run_cli("league", "run", str(path), "--workers", "2", "-q", env=env,
                      start_new_session=True)  # (its own process group, as a terminal's job)
    engine = open_db(tmp_path / "stopped.db")
    wait_for_matches(engine, process, 2)
    children = _children(process.pid)
    os.killpg(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "interrupted:" in err and "run the same command to resume" in err
    assert "Traceback" not in err
    assert_gone(children)
    stored = count(engine, Match)
    assert 2 <= stored < games
    resumed = run_cli("league", "run", str(path), "--workers", "2", "-q", env=env)
    resumed.communicate(timeout=120)
    assert resumed.returncode == 0
    with Session(engine) as session:
        assert sorted(session.exec(select(Match.index)).all()) == list(range(games))
        assert all(match.rated for match in session.exec(select(Match)).all())


def _children(pid: int) -> list[int]:
    """Descendants of ``pid`` (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found + [grandchild for child in found for grandchild in _children(child)]


def assert_gone(pids: list[int]) -> None:
    """Every one of ``pids`` ends within 20 seconds."""
    deadline = time.monotonic() + 20
    while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in pids if _alive(pid)]


def _alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_a_seat_keeps_its_games_facts_as_json_beside_rank_bot_and_forfeit(tmp_path):
    """What a game keeps about a seat (King of Tokyo: monster, stars, health, alive) is
    the seat's JSON facts, as the game's seat_facts gave them at the end of the match."""
    import json
    import sqlite3

    from kotarena.games import get_game
    from kotarena.replay import replay_from_text, reproduce

    engine = open_db(tmp_path / "a.db")
    run_night(engine, load_ladder(ladder_file(tmp_path, games=3)), executor_factory=inline)
    raw = sqlite3.connect(tmp_path / "a.db")
    (facts_text,) = raw.execute("select facts from seat").fetchone()
    facts = json.loads(facts_text)
    assert tuple(facts) == get_game("kot").seat_fact_names == ("monster", "stars", "health", "alive")
    assert isinstance(facts["alive"], bool) and isinstance(facts["stars"], int)
    with Session(engine) as session:
        for match in session.exec(select(Match)).all():
            state = reproduce(replay_from_text(match.replay))
            seats = session.exec(select(Seat).where(Seat.match_id == match.id).order_by(Seat.seat)).all()
            assert [seat.facts for seat in seats] == [get_game("kot").seat_facts(state, k) for k in range(state.n)]
