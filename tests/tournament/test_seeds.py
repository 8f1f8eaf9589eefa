"""Secret randomness: a bot cannot work out the game's seed, and a sealed night keeps its
seed secret until it ends, then publishes the seed its commitment promised."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlmodel import Session, select

from kotarena import seeds
from kotarena.cli import cli
from kotarena.storage import open_db
from kotarena.storage.models import Match, Night
from kotarena.tournament.ladder import load_ladder
from kotarena.tournament.night import night_jobs, night_seed, run_night
from kotarena.tournament.runner import InlineExecutor, play_match

SEED_RANGE = 2**63


def old_bot_seed(game_seed: int, seat: int) -> int:
    """The bot seed kotarena handed bots before: an affine function of the game's seed."""
    return (game_seed * 1_000_003 + seat * 7919 + 17) % SEED_RANGE


def old_inversion(bot_seed: int, seat: int) -> int:
    """The attack it allowed: a bot's seed and seat give the game's seed back."""
    return (bot_seed - seat * 7919 - 17) * pow(1_000_003, -1, SEED_RANGE) % SEED_RANGE


def inline(workers):
    return InlineExecutor()


def ladder_text(name: str = "sealed", games: int = 8, seed: int | None = None) -> str:
    return f"""
name = "{name}"
players = 3
games = {games}
time_limit = 1.0
allow_repeats = true
{f"seed = {seed}" if seed is not None else ""}

[[bots]]
name = "random"
label = "random-a"

[[bots]]
name = "random"
label = "random-b"
"""


def write(tmp_path: Path, text: str, name: str = "sealed") -> Path:
    path = tmp_path / f"{name}.toml"
    path.write_text(text)
    return path


# ------------------------------------------------------------ bot seeds


def test_the_old_inversion_gave_the_game_seed_back_and_now_fails():
    for game_seed in (7, 123_456_789, 2**62 + 5):
        for seat in range(4):
            assert old_inversion(old_bot_seed(game_seed, seat), seat) == game_seed  # the attack, as it was
            for key in (None, seeds.bot_key(99)):
                assert old_inversion(seeds.bot_seed(game_seed, seat, key), seat) != game_seed


def test_bot_seeds_are_no_affine_function_of_the_game_seed_or_the_seat():
    key = seeds.bot_key(2024)
    table = [[seeds.bot_seed(game_seed, seat, key) for seat in range(4)] for game_seed in range(50)]
    # An affine function has constant differences along each argument: these are all different.
    along_seats = {row[1] - row[0] for row in table} | {row[2] - row[1] for row in table}
    along_games = {later[0] - earlier[0] for earlier, later in zip(table, table[1:])}
    assert len(along_seats) == 100 and len(along_games) == 49
    assert len({value for row in table for value in row}) == 200
    assert all(0 <= value < SEED_RANGE for row in table for value in row)


def test_bot_seeds_depend_on_the_key_and_are_the_same_for_the_same_arguments():
    assert seeds.bot_seed(5, 1, seeds.bot_key(1)) == seeds.bot_seed(5, 1, seeds.bot_key(1))
    assert seeds.bot_seed(5, 1, seeds.bot_key(1)) != seeds.bot_seed(5, 1, seeds.bot_key(2))
    assert seeds.bot_seed(5, 1) == seeds.bot_seed(5, 1, seeds.bot_key(5))  # (the default key: the seed's own)
    assert seeds.bot_seeds(5, 3, seeds.bot_key(1)) == tuple(seeds.bot_seed(5, s, seeds.bot_key(1)) for s in range(3))


def test_a_nights_jobs_carry_bot_seeds_keyed_with_the_nights_seed(tmp_path):
    ladder = load_ladder(write(tmp_path, ladder_text(seed=31)))
    jobs = list(night_jobs(ladder, 31))
    key = seeds.bot_key(31)
    for job in jobs:
        assert job.bot_seeds == seeds.bot_seeds(job.seed, 3, key)
        # Without the night's key, the game's seed does not give them.
        assert job.bot_seeds != seeds.bot_seeds(job.seed, 3)
        assert all(old_inversion(bot_seed, seat) != job.seed for seat, bot_seed in enumerate(job.bot_seeds))


def test_a_bot_is_handed_the_seed_its_job_names(failbots, monkeypatch):
    """play_match gives each seat ``job.bot_seeds[seat]``, nothing derived from the game seed."""
    from kotarena.bots.random_bot import RandomBot
    from kotarena.tournament.seats import SeatSpec

    given = []
    original = RandomBot.__init__

    def recording(self, *args, seed=None, **kwargs):
        given.append(seed)
        original(self, *args, seed=seed, **kwargs)

    monkeypatch.setattr(RandomBot, "__init__", recording)
    from kotarena.tournament.matches import MatchJob

    job = MatchJob(index=0, key="k", game="kot", deck="kot", seed=4, first_player=0,
                   seats=(SeatSpec("a", "random"), SeatSpec("b", "random")), time_limit=1.0, bot_seeds=(111, 222))
    play_match(job)
    assert given == [111, 222]


# ------------------------------------------------------------ sealed nights


def test_a_ladder_without_a_seed_plays_a_sealed_night_whose_seed_matches_its_commitment(tmp_path):
    engine = open_db(tmp_path / "a.db")
    ladder = load_ladder(write(tmp_path, ladder_text()))
    assert ladder.seed is None and ladder.sealed
    started = []
    report = run_night(engine, ladder, executor_factory=inline, on_start=started.append)
    assert report.finished and report.sealed
    night = started[0]
    assert night.sealed and night.commitment == seeds.commitment(night.seed)
    assert report.commitment == night.commitment and report.seed == night.seed
    # Published at the end: the listing shows the seed, and it hashes to the commitment.
    shown = json.loads(CliRunner().invoke(cli, ["league", "status", "sealed", "--json", "--db",
                                                str(tmp_path / "a.db")]).stdout)
    assert shown[0]["sealed"] is True and shown[0]["status"] == "done"
    assert shown[0]["commitment"] == seeds.commitment(shown[0]["seed"])
    # Anyone can play the night again from the published seed: the same games, the same replays.
    fixed = load_ladder(write(tmp_path, ladder_text(seed=shown[0]["seed"]), name="fixed"))
    assert night_seed(fixed.seed, 1) == shown[0]["seed"]
    again = open_db(tmp_path / "again.db")
    run_night(again, fixed, executor_factory=inline)
    assert replays(again) == replays(engine)


def test_each_sealed_night_draws_its_own_seed(tmp_path):
    engine = open_db(tmp_path / "a.db")
    ladder = load_ladder(write(tmp_path, ladder_text(games=2)))
    first = run_night(engine, ladder, executor_factory=inline)
    second = run_night(engine, ladder, executor_factory=inline)
    assert (first.night, second.night) == (1, 2) and first.seed != second.seed


def replays(engine) -> list[tuple[int, int, str]]:
    with Session(engine) as session:
        return [tuple(row) for row in session.exec(select(Match.index, Match.seed, Match.replay)
                                                   .order_by(Match.index)).all()]


def test_a_sealed_night_killed_and_resumed_plays_its_secret_seeds_matches_exactly_once(tmp_path, monkeypatch):
    from kotarena.tournament import night as night_module

    monkeypatch.setattr(night_module, "FLUSH_SIZE", 1)
    engine = open_db(tmp_path / "a.db")
    ladder = load_ladder(write(tmp_path, ladder_text(games=10)))

    def stop_after_four(done, total, forfeits):
        if done >= 4:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_night(engine, ladder, executor_factory=inline, progress=stop_after_four)
    with Session(engine) as session:
        secret = session.exec(select(Night)).one()
    # While it is unfinished, the listings keep its seed secret (the commitment is public).
    result = CliRunner().invoke(cli, ["league", "status", "sealed", "--db", str(tmp_path / "a.db")])
    assert "secret" in result.stdout and str(secret.seed) not in result.stdout
    assert secret.commitment in result.stdout
    shown = json.loads(CliRunner().invoke(cli, ["league", "status", "sealed", "--json", "--db",
                                                str(tmp_path / "a.db")]).stdout)
    assert shown[0]["seed"] is None and shown[0]["status"] == "running"
    stored_before = replays(engine)
    assert 4 <= len(stored_before) < 10

    report = run_night(engine, ladder, executor_factory=inline)
    assert report.finished and report.night == 1 and report.seed == secret.seed
    assert report.stored_before == len(stored_before)
    played = replays(engine)
    assert [index for index, _, _ in played] == list(range(10))  # each once
    assert all(row in played for row in stored_before)
    # The same matches as the secret seed's night played in one go.
    whole = open_db(tmp_path / "whole.db")
    run_night(whole, load_ladder(write(tmp_path, ladder_text(games=10, seed=secret.seed), name="whole")),
              executor_factory=inline)
    assert replays(whole) == played


def test_a_fixed_seed_night_is_announced_and_stored_as_not_sealed(tmp_path):
    path = write(tmp_path, ladder_text(games=2, seed=5))
    result = CliRunner().invoke(cli, ["league", "run", str(path), "--workers", "0", "-q", "--db",
                                      str(tmp_path / "a.db")])
    assert result.exit_code == 0, result.output
    assert "night 1 of ladder 'sealed' is not sealed" in result.stderr
    with Session(open_db(tmp_path / "a.db")) as session:
        night = session.exec(select(Night)).one()
    assert not night.sealed and night.seed == 5 and night.commitment == seeds.commitment(5)
    status = CliRunner().invoke(cli, ["league", "status", "sealed", "--db", str(tmp_path / "a.db")]).stdout
    assert status.splitlines()[2].split()[:4] == ["1", "done", "no", "5"]


def test_a_sealed_night_says_so_with_its_commitment_and_publishes_its_seed_at_the_end(tmp_path):
    path = write(tmp_path, ladder_text(games=2))
    result = CliRunner().invoke(cli, ["league", "run", str(path), "--workers", "0", "--db", str(tmp_path / "a.db")])
    assert result.exit_code == 0, result.output
    with Session(open_db(tmp_path / "a.db")) as session:
        night = session.exec(select(Night)).one()
    assert f"is sealed: its seed is secret until the night ends (commitment sha256 {night.commitment})" \
        in result.stderr
    assert f"(seed {night.seed}; sealed, commitment {night.commitment})" in result.stderr
    assert "not sealed" not in result.stderr


def test_a_sealed_night_killed_with_sigkill_resumes_with_its_secret_seed(tmp_path, failbots):
    """For real: the process is killed mid-night; the same command plays the same night."""
    import signal

    from test_night import count, run_cli, wait_for_matches

    games = 16
    path = write(tmp_path, ladder_text(name="killed", games=games).replace(
        'name = "random"\nlabel = "random-b"', 'name = "sleepy"\nlabel = "sleepy"\nparams = { ms = 4 }'), "killed")
    env = {**os.environ, "KOTARENA_DB": str(tmp_path / "killed.db")}
    process = run_cli("league", "run", str(path), "--workers", "1", "-q", env=env)
    engine = open_db(tmp_path / "killed.db")
    wait_for_matches(engine, process, 3)
    process.send_signal(signal.SIGKILL)
    process.wait()
    with Session(engine) as session:
        secret = session.exec(select(Night)).one()
    before = replays(engine)
    assert secret.sealed and 3 <= len(before) < games
    resumed = run_cli("league", "run", str(path), "--workers", "2", env=env)
    out, err = resumed.communicate(timeout=120)
    assert resumed.returncode == 0, err
    assert f"(seed {secret.seed}; sealed, commitment {secret.commitment})" in err
    played = replays(engine)
    assert [index for index, _, _ in played] == list(range(games)) and count(engine, Match) == games
    assert all(row in played for row in before)
    jobs = list(night_jobs(load_ladder(path), secret.seed))
    assert [(job.index, job.seed) for job in jobs] == [(index, seed) for index, seed, _ in played]
