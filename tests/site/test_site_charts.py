"""Rating charts: a long history is drawn from every k-th point (k a power of two) and
its last, so a line followed point by point night after night holds what a chart of
the whole history draws; the site's next build carries the last build's lines on with
the new nights' ratings, and draws what reading every history from the database draws."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from kotarena.cli import cli
from kotarena.site import build as build_module
from kotarena.site import build_site
from kotarena.site.charts import MAX_POINTS, ThinLine, kept, stride, thinned
from kotarena.storage import open_db, season


def history(count: int) -> list[tuple[int, float, float]]:
    return [(number, 25 + number / 7, 8 - number / 1000) for number in range(1, count + 1)]


@pytest.mark.parametrize("limit", [5, 16, MAX_POINTS])
def test_a_line_followed_point_by_point_draws_what_the_whole_history_would(limit):
    line = ThinLine(limit=limit)
    points = history(3 * limit * limit + 7)
    for number, mu, sigma in points:
        line.add(mu, sigma)
        drawn = thinned(points[:number], limit)
        assert line.points() == drawn
        assert len(drawn) <= limit and drawn[0] == points[0] and drawn[-1] == points[number - 1]
        # ...and so does the line stored and read back, or made from the points drawn.
        stored = ThinLine.from_state(json.loads(json.dumps(line.state())), limit)
        assert stored.points() == drawn and ThinLine.from_points(number, drawn, limit).points() == drawn


def test_the_points_drawn_are_evenly_spread_and_a_longer_history_keeps_only_points_a_shorter_one_kept():
    assert kept(MAX_POINTS) == list(range(MAX_POINTS))
    assert kept(MAX_POINTS + 1) == list(range(0, MAX_POINTS + 1, 2))
    for count in (1000, 240_000):
        at = kept(count)
        assert len(at) <= MAX_POINTS and at[-1] == count - 1
        assert {b - a for a, b in zip(at, at[1:-1])} == {stride(count)}
        assert {a for a in kept(2 * count)[:-1] if a < count} <= set(at)


@pytest.fixture
def growing(season_db, tmp_path):
    db = tmp_path / "growing.db"
    with sqlite3.connect(season_db) as source, sqlite3.connect(db) as copy:
        source.backup(copy)
    return str(db)


def chart_pages(site) -> dict[str, str]:
    return {str(path.relative_to(site)): path.read_text() for path in site.rglob("*.html")
            if path.name == "index.html" or path.name.startswith("bot-")}


def test_the_next_nights_build_carries_the_charts_on_and_draws_what_the_database_and_a_full_build_do(
        growing, season_db, tmp_path):
    site = tmp_path / "site"
    first = build_site(open_db(growing), site, workers=0)
    assert first.charts_read == 0  # a first build follows every line as it reads the nights
    ladder = Path(season_db).parent / "duo.toml"  # as the season fixture wrote it
    night = CliRunner().invoke(cli, ["league", "run", str(ladder), "-w", "0", "-q", "--db", growing])
    assert night.exit_code == 0, night.output
    again = build_site(open_db(growing), site, workers=0)
    assert again.charts_read == 0 and again.matches == 4
    assert build_site(open_db(growing), site, workers=0).charts_read == 0  # nothing new
    carried = chart_pages(site)
    # A full build draws the same charts...
    build_site(open_db(growing), tmp_path / "full", workers=0, full=True)
    assert chart_pages(tmp_path / "full") == carried
    # ...and so does one that reads every entrant's history from the database.
    manifest = json.loads((site / build_module.MANIFEST).read_text())
    for record in manifest["ladders"].values():
        del record["charts"]  # as a build by kotarena before carried charts left it
    (site / build_module.MANIFEST).write_text(json.dumps(manifest))
    read = build_site(open_db(growing), site, workers=0)
    engine = open_db(growing)
    rated = sum(len(season.current_ratings(engine, season.ladder(engine, name)["id"]))
                for name in ("four", "duo", "duel", "forfeits"))
    assert read.charts_read == rated and read.matches == 0
    assert chart_pages(site) == carried
    for name in ("four", "duo"):
        ladder_id = season.ladder(engine, name)["id"]
        for entrant in season.current_ratings(engine, ladder_id):
            whole = season.rating_history(engine, ladder_id, entrant)
            assert build_module.read_line(engine, ladder_id, entrant).points() == thinned(whole)


def test_a_rerated_ladders_charts_are_read_again_and_a_rebuilt_night_the_charts_had_counted_too(growing, tmp_path):
    site = tmp_path / "site"
    build_site(open_db(growing), site, workers=0)
    with sqlite3.connect(growing) as connection:  # as if another rating system had rated 'four'
        connection.execute("UPDATE seat SET mu = mu + 1 WHERE match_id IN (SELECT m.id FROM match m "
                           "JOIN night n ON m.night_id = n.id JOIN ladder l ON n.ladder_id = l.id WHERE l.name = 'four')")
        connection.execute("UPDATE rating SET mu = mu + 1 WHERE ladder_id = (SELECT id FROM ladder WHERE name = 'four')")
    engine = open_db(growing)
    four = len(season.current_ratings(engine, season.ladder(engine, "four")["id"]))
    assert build_site(engine, site, workers=0).charts_read == four
    (site / "four" / "night-1.html").unlink()  # night 1 is written again: the charts' counts of it are not trusted
    assert build_site(engine, site, workers=0).charts_read == four
    full = tmp_path / "full"
    build_site(engine, full, workers=0, full=True)
    assert chart_pages(site) == chart_pages(full)


def test_a_build_while_a_night_runs_keeps_the_charts_up_to_it_and_the_next_carries_them_on(growing, tmp_path):
    site = tmp_path / "site"
    with sqlite3.connect(growing) as connection:  # 'four''s second night, as if still being played
        connection.execute("UPDATE night SET status = 'running' WHERE number = 2 AND ladder_id = "
                           "(SELECT id FROM ladder WHERE name = 'four')")
    engine = open_db(growing)
    assert build_site(engine, site, workers=0).charts_read == 0
    assert json.loads((site / build_module.MANIFEST).read_text())["ladders"]["four"]["through"] == 1
    assert build_site(engine, site, workers=0).charts_read == 0  # nothing new: night 2 read for its ratings
    with sqlite3.connect(growing) as connection:
        connection.execute("UPDATE night SET status = 'done'")
    assert build_site(engine, site, workers=0).charts_read == 0
    assert json.loads((site / build_module.MANIFEST).read_text())["ladders"]["four"]["through"] == 2
    full = tmp_path / "full"
    build_site(engine, full, workers=0, full=True)
    assert chart_pages(site) == chart_pages(full)
