"""A whole ladder read back: matches in order, head to head, wins by turn order."""

from __future__ import annotations

from kotarena.storage import open_db, season


def test_every_match_comes_once_night_by_night_in_schedule_order(season_db, monkeypatch):
    monkeypatch.setattr(season, "PAGE", 3)  # several pages
    engine = open_db(season_db)
    ladder = season.ladder(engine, "four")
    found = [(match["night"], match["index"]) for match in season.season_matches(engine, ladder["id"])]
    assert found == [(night, index) for night in (1, 2) for index in range(8)]


def test_head_to_head_counts_agree_from_both_sides(season_db):
    engine = open_db(season_db)
    table = season.crosstable(engine, season.ladder(engine, "four")["id"])
    assert table
    for (mine, theirs), counts in table.items():
        other = table[theirs, mine]
        assert counts["met"] == other["met"]
        assert counts["tied"] == other["tied"]
        assert counts["above"] + other["above"] + counts["tied"] == counts["met"]


def test_each_place_in_the_turn_order_played_every_game_and_the_wins_add_up(season_db):
    engine = open_db(season_db)
    ladder_id = season.ladder(engine, "four")["id"]
    matches = list(season.season_matches(engine, ladder_id, replays=False))
    order = season.turn_order_wins(engine, ladder_id)
    known = [match for match in matches if match["first_player"] is not None]
    assert order["unknown"] == len(matches) - len(known)
    assert [row["position"] for row in order["positions"]] == [0, 1, 2, 3]
    assert all(row["games"] == len(known) for row in order["positions"])
    won = sum(1 for match in known for seat in match["seats"]
              if seat["seat"] == match["winner_seat"] and not seat["forfeit"])
    assert sum(row["wins"] for row in order["positions"]) == won


def test_bot_versions_count_every_seat_once(season_db):
    engine = open_db(season_db)
    ladder_id = season.ladder(engine, "duo")["id"]
    versions = season.bot_versions(engine, ladder_id)
    assert {row["entrant"] for row in versions} == {"left", "right"}
    assert sum(row["seats"] for row in versions) == 2 * 4
