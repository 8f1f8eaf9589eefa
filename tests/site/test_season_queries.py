"""A whole ladder read back: matches in order, head to head, wins by turn order."""

from __future__ import annotations

import pytest

from kotarena.storage import open_db, queries, season


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


@pytest.mark.parametrize("entrant", ["alpha", "epsilon"])
def test_a_rating_history_is_the_history_commands_and_a_pick_reads_only_the_points_asked_for(season_db, entrant):
    engine = open_db(season_db)
    ladder_id = season.ladder(engine, "four")["id"]
    rated = [(row["mu"], row["sigma"]) for row in queries.history(engine, entrant, ladder="four")]
    found = season.rating_history(engine, ladder_id, entrant)
    assert [number for number, _, _ in found] == list(range(1, len(rated) + 1))
    assert [(round(mu, 3), round(sigma, 3)) for _, mu, sigma in found] == rated
    asked = []
    picked = season.rating_history(engine, ladder_id, entrant, lambda count: asked.append(count) or [1, count])
    assert asked == [len(rated)] and picked == [found[0], found[-1]]


def test_blocks_of_a_nights_schedule_count_its_matches_and_sign_them(season_db):
    engine = open_db(season_db)
    ladder_id = season.ladder(engine, "four")["id"]
    blocks = season.match_blocks(engine, ladder_id, 3)
    matches = list(season.season_matches(engine, ladder_id, replays=False))
    assert [(block["night"], block["block"], block["matches"]) for block in blocks] == [
        (night, part, sum(m["night"] == night and m["index"] // 3 == part for m in matches))
        for night in (1, 2) for part in range(3)]
    assert len({block["signature"] for block in blocks}) == len(blocks)


def test_a_seasons_counts_are_the_sums_of_its_nights(season_db):
    engine = open_db(season_db)
    ladder_id = season.ladder(engine, "four")["id"]
    whole = season.crosstable(engine, ladder_id)
    nights = [season.crosstable(engine, ladder_id, night=night) for night in (1, 2)]
    assert whole == {pair: {key: sum(night.get(pair, {}).get(key, 0) for night in nights) for key in counts}
                     for pair, counts in whole.items()}
    order = season.turn_order_wins(engine, ladder_id)
    by_night = [season.turn_order_wins(engine, ladder_id, night=night) for night in (1, 2)]
    assert order["unknown"] == sum(night["unknown"] for night in by_night)
    assert [row["games"] for row in order["positions"]] == [
        sum(row["games"] for night in by_night for row in night["positions"] if row["position"] == at)
        for at in range(4)]
    seats = sum(row["seats"] for night in (1, 2) for row in season.bot_versions(engine, ladder_id, night=night))
    assert seats == sum(row["seats"] for row in season.bot_versions(engine, ladder_id)) == 16 * 4
