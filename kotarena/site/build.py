"""Building the site: read the database, write the pages, and write every stored game
for the replay viewer (played again in worker processes, one file a game).

The layout of a built site::

    index.html              the ladders
    style.css, viewer.html, viewer.js
    LADDER/index.html       leaderboard, rating chart, crosstable, turn order, nights
    LADDER/bot-ENTRANT.html an entrant's rating history, head to head, forfeits
    LADDER/cards.html       per-card statistics
    LADDER/night-N.html     a night's matches, each linked to the viewer
    replays/LADDER-N.js     :data:`BATCH` stored games for the viewer
                            (viewer.html#m=MATCH_ID&b=LADDER-N)

A replays file holds each of its games' frames as gzip-compressed JSON in base64, loaded
by a ``<script>`` element (which works from ``file://``, where ``fetch`` does not) and
unpacked by the browser's ``DecompressionStream``: compressed, a game takes about an
eighth of the room. Games go a hundred to a file because a file costs about a
millisecond to create here, as much as compressing a game.
"""

from __future__ import annotations

import base64
import collections
import gzip
import json
import multiprocessing
import os
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy.engine import Engine

from kotarena.site import pages
from kotarena.site.frames import viewer_data
from kotarena.site.html import slug
from kotarena.storage import queries, season

__all__ = ["BuildReport", "build_site"]

STATIC = Path(__file__).parent / "static"
#: Games in one replays file (and one worker's job).
BATCH = 100
#: zlib's level for the games' frames: 3 packs a game into a ninth of its JSON at two
#: thirds of the default level's time (6 packs a tenth).
LEVEL = 3


@dataclass
class BuildReport:
    """What a build wrote."""

    ladders: list[str] = field(default_factory=list)
    matches: int = 0
    #: ``(match id, why)`` of the games that did not play out as stored.
    replay_errors: list[tuple[int, str]] = field(default_factory=list)
    files: int = 0


def build_site(engine: Engine, out: str | os.PathLike, *, ladders: Sequence[str] | None = None,
               workers: int | None = None, progress: Callable[[int], None] | None = None) -> BuildReport:
    """Write the site for ``ladders`` (every ladder when ``None``) into directory ``out``.

    ``workers`` processes play the games again for the viewer (default: one per core;
    0 plays them in this process). ``progress(matches)`` is called as matches are done.
    Raises :class:`~kotarena.storage.store.UnknownLadderError` for a ladder that is not stored.
    """
    root = Path(out)
    (root / "replays").mkdir(parents=True, exist_ok=True)
    for name in ("style.css", "viewer.html", "viewer.js"):
        shutil.copyfile(STATIC / name, root / name)
    report = BuildReport(files=3)
    names = list(ladders) if ladders is not None else queries.ladder_names(engine)
    infos = [season.ladder(engine, name) for name in names]  # unknown names fail before anything is played
    workers = (os.cpu_count() or 1) if workers is None else workers
    # Forked workers start at once with the games and plugins already loaded; where there
    # is no fork (Windows) they start afresh and load them.
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    pool = multiprocessing.get_context(method).Pool(workers) if workers > 0 else None
    try:
        summaries = [_build_ladder(engine, root, info, pool, workers, report, progress) for info in infos]
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    _write(root / "index.html", pages.index_page(summaries), report)
    report.ladders = names
    return report


def _build_ladder(engine: Engine, root: Path, info: dict[str, Any], pool, workers: int, report: BuildReport,
                  progress: Callable[[int], None] | None) -> dict[str, Any]:
    name, ladder_id = info["name"], info["id"]
    folder = root / slug(name)
    folder.mkdir(exist_ok=True)
    nights = season.season_nights(engine, ladder_id)
    by_number = {night["night"]: night for night in nights}
    winners: dict[int, int | None] = {}  # match id -> the seat that won (not by forfeit), for the card statistics
    seats_played = wins = 0
    bought: list[tuple[int, list[tuple[int, str]]]] = []
    waiting: collections.deque = collections.deque()
    jobs: list[tuple] = []
    night_rows: list[tuple[str, ...]] = []
    night_number: int | None = None
    bundles: dict[int, str] = {}  # match id -> its replays file (the viewer's link names it)
    sent = 0  # replays files sent to be written

    def bundle() -> str:
        return f"{slug(name)}-{sent + 1}"

    def collect(result: list[tuple[int, list[tuple[int, str]], str | None]]) -> None:
        for match_id, purchases, problem in result:
            bought.append((match_id, purchases))
            if problem is not None:
                report.replay_errors.append((match_id, problem))
        report.matches += len(result)
        report.files += 1
        if progress is not None:
            progress(report.matches)

    def send() -> None:
        nonlocal sent
        if pool is None:
            collect(write_replays(str(root), bundle(), jobs))
        else:
            waiting.append(pool.apply_async(write_replays, (str(root), bundle(), list(jobs))))
            while len(waiting) > 2 * workers:
                collect(waiting.popleft().get())
        sent += 1
        jobs.clear()

    def close_night() -> None:
        if night_number is not None:
            _write(folder / f"night-{night_number}.html", pages.night_page(name, by_number[night_number], night_rows),
                   report)
        night_rows.clear()

    for match in season.season_matches(engine, ladder_id):
        if match["night"] != night_number:
            close_night()
            night_number = match["night"]
        bundles[match["id"]] = bundle()
        night_rows.append(pages.match_row(match, bundle()))
        seats = match["seats"]
        winner = next((s["seat"] for s in seats if s["seat"] == match["winner_seat"] and not s["forfeit"]), None)
        winners[match["id"]] = winner
        seats_played += len(seats)
        wins += winner is not None
        jobs.append((match["id"], match["replay"], {
            "ladder": name, "ladder_page": f"{slug(name)}/index.html", "night": match["night"],
            "night_page": f"{slug(name)}/night-{match['night']}.html", "index": match["index"] + 1,
            "entrants": [s["entrant"] for s in seats], "places": [s["rank"] + 1 for s in seats],
            "forfeits": [s["forfeit"] for s in seats], "decisions": [s["decisions"] for s in seats],
            "cpu_seconds": [s["cpu_seconds"] for s in seats], "times": [s["times"] for s in seats],
            "bots": [s["bot"] for s in seats],
            "logs": [s["log"] for s in seats]}))
        if len(jobs) >= BATCH:
            send()
    close_night()
    for number, night in by_number.items():
        if night["stored"] == 0:  # a night that has not stored a match yet still gets its page
            _write(folder / f"night-{number}.html", pages.night_page(name, night, []), report)
    if jobs:
        send()
    while waiting:
        collect(waiting.popleft().get())

    board = queries.leaderboard(engine, name)
    cross = season.crosstable(engine, ladder_id)
    versions = season.bot_versions(engine, ladder_id)
    histories: dict[str, list[tuple[float, float, float]]] = {}
    for row in board:
        entrant = row["entrant"]
        points, forfeits = [], []
        for number, rated in enumerate(queries.history(engine, entrant, ladder=name), 1):
            points.append((number, rated["mu"], rated["sigma"]))
            if rated["forfeit"]:
                forfeits.append(rated)
        histories[entrant] = points
        _write(folder / f"bot-{slug(entrant)}.html",
               pages.bot_page(name, entrant, row, points, cross, forfeits, bundles,
                              [v for v in versions if v["entrant"] == entrant]), report)
    summary = {**info, "matches": len(winners), "nights": len(nights), "entrants": len(board)}
    _write(folder / "index.html", pages.ladder_page(summary, board, histories, cross,
                                                    season.turn_order_wins(engine, ladder_id), nights, versions),
           report)
    _write(folder / "cards.html", pages.cards_page(name, card_statistics(bought, winners),
                                                   wins / seats_played if seats_played else None), report)
    return summary


def card_statistics(bought: Sequence[tuple[int, Sequence[tuple[int, str]]]],
                    winners: dict[int, int | None]) -> list[dict[str, Any]]:
    """Per card: times ``bought``, ``seats`` (a seat of a match) that bought it at least
    once, and how many of those ``won``; most bought first."""
    cards: dict[str, dict[str, Any]] = {}
    for match_id, purchases in bought:
        for seat, card in purchases:
            row = cards.setdefault(card, {"card": card, "bought": 0, "seats": 0, "won": 0, "_seen": set()})
            row["bought"] += 1
            if (match_id, seat) not in row["_seen"]:
                row["_seen"].add((match_id, seat))
                row["seats"] += 1
                row["won"] += winners.get(match_id) == seat
    rows = [{key: value for key, value in row.items() if key != "_seen"} for row in cards.values()]
    rows.sort(key=lambda row: (-row["bought"], row["card"]))
    return rows


def write_replays(out: str, bundle: str, jobs: Sequence[tuple[int, str, dict[str, Any]]]
                  ) -> list[tuple[int, list[tuple[int, str]], str | None]]:
    """Play each ``(match id, replay text, facts for the viewer)`` again and write them
    to the replays file ``bundle``; returns each match's purchases and why it did not
    play out (or ``None``)."""
    done, packed = [], []
    for match_id, text, facts in jobs:
        facts = dict(facts)
        data, purchases = viewer_data(match_id, text, facts["entrants"], facts.pop("times", None), facts.pop("logs", None))
        data.update(facts)
        data["bundle"] = bundle
        game = gzip.compress(json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode(), LEVEL, mtime=0)
        packed.append(f'"{match_id}":"{base64.b64encode(game).decode()}"')
        done.append((match_id, purchases, data["error"]))
    with open(os.path.join(out, "replays", f"{bundle}.js"), "w", encoding="ascii") as stream:
        stream.write("kotarenaReplays({" + ",\n".join(packed) + "});\n")
    return done


def _write(path: Path, content: str, report: BuildReport) -> None:
    path.write_text(content, encoding="utf-8")
    report.files += 1
