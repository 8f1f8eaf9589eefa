"""``kotarena site build``: the pages a person opens, read as files (the browser tests
in test_site_browser.py open them in Chromium)."""

from __future__ import annotations

import base64
import gzip
import json
import re
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from kotarena.cli import cli
from kotarena.games import get_game, new_game
from kotarena.games.duel.cards import CARDS as DUEL_CARDS
from kotarena.replay import replay_from_text, reproduce
from kotarena.site import build as build_module
from kotarena.site import sources
from kotarena.site.sources import fingerprint
from kotarena.storage import open_db, season
from kotarena.storage.queries import leaderboard


def stored_games(db: str, ladder: str) -> list[dict]:
    engine = open_db(db)
    return list(season.season_matches(engine, season.ladder(engine, ladder)["id"]))


def viewer_games(site) -> dict[int, dict]:
    """Every game in the site's replays files, unpacked as the viewer unpacks them."""
    games = {}
    for path in (site / "replays").glob("*.js"):
        for match_id, packed in re.findall(r'"(\d+)":"([A-Za-z0-9+/=]+)"', path.read_text()):
            games[int(match_id)] = json.loads(gzip.decompress(base64.b64decode(packed)))
    return games


def test_the_index_lists_every_ladder_and_each_ladder_page_its_leaderboard_in_order(built_site, season_db):
    index = (built_site / "index.html").read_text()
    for ladder in ("four", "duo", "duel", "forfeits"):
        assert f'href="{ladder}/index.html"' in index
        page = (built_site / ladder / "index.html").read_text()
        table = page.split('class="leaderboard"')[1].split("</table>")[0]
        shown = re.findall(r'class="entrant" href="[^"]+">([^<]+)</a>', table)
        assert shown == [row["entrant"] for row in leaderboard(open_db(season_db), ladder)]
        assert '<svg class="chart"' in page and "Head to head" in page and "Win share by turn order" in page


def test_every_stored_game_is_linked_from_its_night_and_in_the_viewer_where_the_link_says(built_site, season_db):
    games = viewer_games(built_site)
    for match in stored_games(season_db, "four"):
        night = (built_site / "four" / f"night-{match['night']}.html").read_text()
        links = re.findall(rf'viewer\.html#m={match["id"]}&amp;b=([\w.-]+)"', night)
        assert len(links) == 1
        assert f'"{match["id"]}":' in (built_site / "replays" / f"{links[0]}.js").read_text()
        assert games[match["id"]]["bundle"] == links[0]


def test_the_viewer_ends_each_game_with_the_health_and_places_stored_for_it(built_site, season_db):
    games = viewer_games(built_site)
    for ladder in ("four", "duo", "duel", "forfeits"):
        for match in stored_games(season_db, ladder):
            game = games[match["id"]]
            assert game["error"] is None
            last = game["frames"][-1]["state"]["seats"]
            assert [seat["health"] for seat in last] == [seat["facts"]["health"] for seat in match["seats"]]
            assert game["places"] == [seat["rank"] + 1 for seat in match["seats"]]
            assert game["entrants"] == [seat["entrant"] for seat in match["seats"]]


def card_names(state) -> dict[str, str]:
    """Card names by id, in the deck of the game ``state`` plays."""
    cards = DUEL_CARDS if state.game.startswith("duel") else state.cards_info
    return {card.id: card.name for card in cards}


@pytest.mark.parametrize("ladder", ["four", "duel"])
def test_card_statistics_count_every_card_bought(built_site, season_db, ladder):
    bought: dict[str, int] = {}
    for match in stored_games(season_db, ladder):
        state = reproduce(replay_from_text(match["replay"]))
        names = card_names(state)
        for event in state.log:
            if event[0] == "buy":
                bought[names[event[2]]] = bought.get(names[event[2]], 0) + 1
    page = (built_site / ladder / "cards.html").read_text()
    rows = re.findall(r"<tr><td>([^<]+)</td><td>(\d+)</td>", page)
    assert {card: int(count) for card, count in rows} == bought
    assert bought


def test_a_cards_win_share_is_a_figure_only_from_the_minimum_sample_and_always_has_its_interval(built_site):
    page = (built_site / "four" / "cards.html").read_text()
    rows = re.findall(r"<tr><td>[^<]+</td><td>\d+</td><td>(\d+)</td><td>(\d+)</td><td>(.*?)</td><td>(\d+)% – (\d+)%</td>",
                      page)
    assert rows
    for seats, won, share, low, high in rows:
        seats, won = int(seats), int(won)
        assert (share == f"{won / seats:.1%}") if seats >= build_module.MIN_SEATS else ("too few" in share)
        assert int(low) <= 100 * won / seats <= int(high)


def test_card_statistics_sum_the_blocks_and_mark_a_share_whose_interval_leaves_out_any_seats():
    blocks = [{"Armor Plating": [30, 25, 20], "Energize": [5, 4, 1]}, {"Armor Plating": [20, 15, 10]}]
    armor, energize = build_module.card_statistics(blocks, baseline=0.25)
    assert (armor["card"], armor["bought"], armor["seats"], armor["won"], armor["share"]) == (
        "Armor Plating", 50, 40, 30, 0.75)
    assert armor["versus"] == "above" and armor["low"] > 0.25
    assert energize["share"] is None and energize["versus"] is None  # 4 seats: too few to be a figure
    # Wilson's interval: 8 in 10 is 0.490-0.943; 1 in 1 is not 1.0-1.0.
    assert [round(end, 3) for end in build_module.wilson_interval(8, 10)] == [0.490, 0.943]
    assert [round(end, 3) for end in build_module.wilson_interval(1, 1)] == [0.207, 1.0]


def test_a_duel_is_shown_with_its_tracks_markers_hype_tokens_and_market_after_every_turn(built_site, season_db):
    games = viewer_games(built_site)
    for match in stored_games(season_db, "duel"):
        replay = replay_from_text(match["replay"])
        state = new_game(replay.game, list(replay.players), seed=replay.seed, deck=replay.deck,
                         first_player=replay.first_player)
        state.pause_between_turns = True
        frames = games[match["id"]]["frames"]
        # The seats' monster choice is the setup's; then one frame per turn, from its start.
        assert [frame["title"] for frame in frames] == ["Setup", *(f"Turn {n}" for n in range(1, match["turns"] + 1))]
        assert sum(line.endswith(" seat picks " + name) for line in frames[0]["lines"] for name in replay.players) == 2
        first = replay.players[frames[1]["player"]]
        assert frames[1]["lines"][0] == f"-- turn 1: {first}" and frames[1]["lines"][1].startswith(f"{first} rolls ")
        at = 1
        for _, action in replay.actions:
            if state.between_turns:
                check_duel_frame(frames[at], state)
                at += 1
                state.next_turn()
            state.apply(action)
        check_duel_frame(frames[at], state)
        assert at == len(frames) - 1


def check_duel_frame(frame: dict, state) -> None:
    """A frame pictures the table as the engine holds it when its turn is over."""
    seats, table = frame["state"]["seats"], frame["state"]["table"]
    assert [seat["health"] for seat in seats] == state.health
    assert [seat["energy"] for seat in seats] == state.energy
    assert [seat["dice tokens"] for seat in seats] == state.tokens
    assert [len(seat["cards"]) for seat in seats] == [len(kept) for kept in state.keeps]
    for track, name in enumerate(("fame", "destruction")):
        drawn = table[f"{name} track"].split()
        assert len(drawn) == len(state.board.spaces(track))
        assert [at for at, mark in enumerate(drawn) if mark == "@"] == [state.board.index(track)]
    assert len(table["hype tokens"]) == len(state.board.placed)
    assert table["dice"].split() == [("claw", "heart", "energy", "fame", "destruction", "power")[f] for f in state.dice]
    assert len(table["market"]) == 3 and table["deck"] == len(state.deck)


def test_a_bots_page_shows_its_forfeits_with_what_happened(built_site):
    page = (built_site / "forfeits" / "bot-broken.html").read_text()
    assert "Forfeits (2)" in page and "broken on purpose" in page
    assert "Forfeits (0)" in (built_site / "forfeits" / "bot-steady.html").read_text()


def test_one_ladder_only_and_an_unknown_ladder_is_an_error(season_db, tmp_path):
    out = tmp_path / "one"
    result = CliRunner().invoke(cli, ["site", "build", str(out), "--ladder", "duo", "-w", "0", "--db", season_db])
    assert result.exit_code == 0, result.output
    assert f"open {out}/index.html" in result.stderr
    assert (out / "duo" / "index.html").exists() and not (out / "four").exists()
    assert len(viewer_games(out)) == 4
    missing = CliRunner().invoke(cli, ["site", "build", str(out), "--ladder", "nowhere", "--db", season_db])
    assert missing.exit_code == 1 and "no ladder named 'nowhere'" in missing.stderr


def test_worker_processes_write_the_same_site(season_db, built_site, tmp_path):
    out = tmp_path / "parallel"
    result = CliRunner().invoke(cli, ["site", "build", str(out), "-w", "2", "-q", "--db", season_db])
    assert result.exit_code == 0, result.output
    assert viewer_games(out) == viewer_games(built_site)
    # Every file, byte for byte, and what the next build keeps of it.
    assert site_files(out) == site_files(built_site)
    assert (json.loads((out / build_module.MANIFEST).read_text())
            == json.loads((built_site / build_module.MANIFEST).read_text()))


# Incremental builds: a build into a folder that holds an earlier build plays only the
# games stored since, and writes the same site as a build from scratch.


@pytest.fixture
def growing_db(season_db, tmp_path):
    """A copy of the season's database, to add nights to, and the 'duo' ladder's file."""
    db = tmp_path / "growing.db"
    with sqlite3.connect(season_db) as source, sqlite3.connect(db) as copy:
        source.backup(copy)
    # The 'duo' ladder's file, as the season fixture wrote it beside its database.
    return str(db), Path(season_db).parent / "duo.toml"


def played_again(monkeypatch) -> list[int]:
    """The match ids the builder plays again for the viewer (built with --workers 0)."""
    played: list[int] = []
    real = build_module.viewer_data

    def spy(match_id, *args):
        played.append(match_id)
        return real(match_id, *args)

    monkeypatch.setattr(build_module, "viewer_data", spy)
    return played


def site_files(site) -> dict[str, bytes]:
    return {str(path.relative_to(site)): path.read_bytes() for path in site.rglob("*")
            if path.is_file() and path.name != build_module.MANIFEST}


def build(site, db: str, *more: str):
    result = CliRunner().invoke(cli, ["site", "build", str(site), "-w", "0", "--db", db, *more])
    assert result.exit_code == 0, result.output
    return result


def test_a_build_after_another_night_plays_only_that_nights_games(growing_db, tmp_path, monkeypatch):
    db, ladder = growing_db
    played = played_again(monkeypatch)
    site = tmp_path / "site"
    first = build(site, db)
    engine = open_db(db)
    everything = [m["id"] for name in ("four", "duo", "duel", "forfeits") for m in stored_games(db, name)]
    assert sorted(played) == sorted(everything) and f"{len(everything)} games played again, " in first.stderr
    night = CliRunner().invoke(cli, ["league", "run", str(ladder), "-w", "0", "-q", "--db", db])
    assert night.exit_code == 0, night.output
    new = [m["id"] for m in season.season_matches(engine, season.ladder(engine, "duo")["id"], night=2)]
    assert len(new) == 4
    played.clear()
    second = build(site, db)
    assert played == new
    assert f"4 games played again ({len(everything)} kept from the last build)" in second.stderr
    assert '<a href="night-2.html">night 2</a>' in (site / "duo" / "index.html").read_text()
    # What it kept and what it wrote are the site a build from scratch writes.
    assert site_files(site) == site_files(build(tmp_path / "scratch", db, "--full") and tmp_path / "scratch")
    played.clear()
    assert "0 games played again" in build(site, db).stderr and played == []


def test_a_rerate_rewrites_the_ratings_pages_and_plays_no_game_again(growing_db, tmp_path, monkeypatch):
    db, _ = growing_db
    site = tmp_path / "site"
    build(site, db)
    with sqlite3.connect(db) as connection:  # ratings as if another rating system had rated the ladder
        connection.execute("UPDATE seat SET mu = mu + 1 WHERE match_id IN (SELECT m.id FROM match m "
                           "JOIN night n ON m.night_id = n.id JOIN ladder l ON n.ladder_id = l.id WHERE l.name = 'four')")
        connection.execute("UPDATE rating SET mu = mu + 1 WHERE ladder_id = (SELECT id FROM ladder WHERE name = 'four')")
    before = (site / "four" / "index.html").read_text()
    played = played_again(monkeypatch)
    build(site, db)
    assert played == [] and (site / "four" / "index.html").read_text() != before
    assert CliRunner().invoke(cli, ["league", "rerate", "four", "--db", db]).exit_code == 0
    build(site, db)
    assert played == []
    assert site_files(site) == site_files(build(tmp_path / "scratch", db) and tmp_path / "scratch")


def test_another_kotarena_version_a_missing_file_or_another_database_plays_again_what_it_must(
        growing_db, season_db, tmp_path, monkeypatch):
    db, _ = growing_db
    site = tmp_path / "site"
    build(site, db, "--ladder", "duo")
    played = played_again(monkeypatch)
    duo = sorted(m["id"] for m in stored_games(db, "duo"))
    (site / "replays" / "duo-night-1-part-1.js").unlink()
    build(site, db, "--ladder", "duo")
    assert sorted(played) == duo
    played.clear()
    monkeypatch.setattr(build_module, "__version__", "99.0")
    build(site, db, "--ladder", "duo")
    assert sorted(played) == duo
    played.clear()
    build(site, season_db, "--ladder", "duo")  # the same games, another database: nothing of it is kept
    assert sorted(played) == duo


def test_a_fingerprint_changes_with_any_byte_file_name_or_file_of_its_sources(tmp_path):
    sources_dir = tmp_path / "words"
    (sources_dir / "__pycache__").mkdir(parents=True)
    (sources_dir / "events.py").write_text("TURN = 'starts its turn'\n")
    before = fingerprint([sources_dir])
    (sources_dir / "__pycache__" / "events.cpython-312.pyc").write_bytes(b"bytecode")  # not a source
    assert fingerprint([sources_dir]) == before
    (sources_dir / "events.py").write_text("TURN = 'begins its turn'\n")
    changed = fingerprint([sources_dir])
    assert changed != before
    (sources_dir / "frames.py").write_text("")
    assert fingerprint([sources_dir]) not in (before, changed)
    (sources_dir / "frames.py").rename(sources_dir / "boards.py")
    assert fingerprint([sources_dir]) not in (before, changed)


def test_the_fingerprints_cover_the_frames_the_boards_the_viewer_and_each_games_words_and_events():
    site_files = {path for name in sources.SITE_SOURCES for path in (sources.PACKAGE / name).rglob("*")}
    site = sources.PACKAGE / "site"
    assert {site / "frames.py", site / "boards.py", site / "static" / "viewer.js"} <= site_files
    for name in ("kot", "origins", "duel"):
        package = sources.game_package(get_game(name))
        assert (package / "events.py").is_file() and (package / "words.py").is_file()


def test_a_build_after_the_sites_code_changed_plays_every_game_again_and_one_after_no_change_none(
        growing_db, tmp_path, monkeypatch):
    db, _ = growing_db
    code = tmp_path / "frames.py"  # stands for a module of the site's, changed between two builds
    code.write_text("FRAME = 1\n")
    monkeypatch.setattr(sources, "SITE_SOURCES", (*sources.SITE_SOURCES, str(code)))
    site = tmp_path / "site"
    build(site, db)
    played = played_again(monkeypatch)
    everything = sorted(m["id"] for name in ("four", "duo", "duel", "forfeits") for m in stored_games(db, name))
    build(site, db)
    assert played == []
    code.write_text("FRAME = 2\n")
    build(site, db)
    assert sorted(played) == everything
    played.clear()
    build(site, db)
    assert played == []


def test_a_build_after_a_games_code_changed_plays_that_games_ladders_again(growing_db, tmp_path, monkeypatch):
    db, _ = growing_db
    site = tmp_path / "site"
    build(site, db)
    played = played_again(monkeypatch)
    real = build_module.game_fingerprint
    monkeypatch.setattr(build_module, "game_fingerprint",
                        lambda game: real(game) + ("-changed" if sources.game_package(game).name == "duel" else ""))
    build(site, db)
    assert sorted(played) == sorted(m["id"] for m in stored_games(db, "duel"))
    played.clear()
    build(site, db)
    assert played == []


def test_a_match_has_one_number_in_every_command_page_and_file(built_site, season_db):
    """Its stored id: in 'matches', 'history', 'replay --match', the export, the night's
    page, the entrant's pages and the viewer's data (its title and breadcrumb)."""
    run = CliRunner()
    ids = [match["id"] for match in stored_games(season_db, "forfeits")]
    listed = run.invoke(cli, ["matches", "--ladder", "forfeits", "--db", season_db]).stdout.splitlines()
    assert listed[0].split()[0] == "match"
    assert sorted(int(line.split()[0]) for line in listed[2:2 + len(ids)]) == ids
    as_json = json.loads(run.invoke(cli, ["matches", "--ladder", "forfeits", "--json", "--db", season_db]).stdout)
    assert sorted(match["match"] for match in as_json) == ids and not any("id" in match for match in as_json)
    history_json = json.loads(run.invoke(cli, ["history", "broken", "--ladder", "forfeits", "--oldest-first", "--json",
                                               "--db", season_db]).stdout)
    assert [row["match"] for row in history_json] == ids
    history = run.invoke(cli, ["history", "broken", "--ladder", "forfeits", "--oldest-first", "--db", season_db]).stdout.splitlines()
    assert history[0].split()[:2] == ["ladder", "match"]
    assert [int(line.split()[1]) for line in history[2:]] == ids
    exported = run.invoke(cli, ["export", "forfeits", "--db", season_db]).stdout.splitlines()
    exported = [json.loads(line) for line in exported]
    assert [record["match"] for record in exported if record["record"] == "match"] == ids
    games = viewer_games(built_site)
    night = (built_site / "forfeits" / "night-1.html").read_text()
    mine = (built_site / "forfeits" / "games-broken-night-1.html").read_text()
    bot = (built_site / "forfeits" / "bot-broken.html").read_text()
    for match_id in ids:
        link = rf'viewer\.html#m={match_id}&amp;b=[\w.-]+">match {match_id}</a>'
        assert re.search(link, night) and re.search(link, mine) and re.search(link, bot)
        assert run.invoke(cli, ["replay", "--match", str(match_id), "-q", "--db", season_db]).stdout.startswith(
            f"match {match_id}: reproduced: yes")
        assert games[match_id]["match"] == match_id and "index" not in games[match_id]
    # Nothing else on a night's page is numbered like a match.
    assert re.findall(r"<th>([^<]*)</th>", night) == ["match", "seats (place)", "winner", "ended by", "turns",
                                                      "forfeits"]


def test_a_leaderboard_row_links_to_the_entrants_games_night_by_night_and_each_night_lists_exactly_them(
        built_site, season_db):
    board = (built_site / "four" / "index.html").read_text().split('class="leaderboard"')[1].split("</table>")[0]
    games = stored_games(season_db, "four")
    for row in leaderboard(open_db(season_db), "four"):
        entrant = row["entrant"]
        assert f'<a class="games" href="bot-{entrant}.html#games"' in board
        page = (built_site / "four" / f"bot-{entrant}.html").read_text()
        section = page.split('<h2 id="games">')[1].split("</table>")[0]
        nights = re.findall(rf'<a href="games-{entrant}-night-(\d+).html">night \d+</a></td><td>(\d+)</td>', section)
        mine = [match for match in games if any(seat["entrant"] == entrant for seat in match["seats"])]
        assert [(int(night), int(count)) for night, count in nights] == [
            (night, sum(match["night"] == night for match in mine)) for night in (1, 2)]
        for night in (1, 2):
            listed = re.findall(r">match (\d+)</a>", (built_site / "four" / f"games-{entrant}-night-{night}.html")
                                .read_text())
            assert [int(found) for found in listed] == [match["id"] for match in mine if match["night"] == night]
