"""Building the site: read the database, write the pages, and write the stored games for
the replay viewer (played again in worker processes), keeping what an earlier build into
the same folder wrote where it still holds.

The layout of a built site::

    index.html                  the ladders
    style.css, viewer.html, viewer.js
    LADDER/index.html           leaderboard, rating chart, crosstable, turn order, nights
    LADDER/bot-ENTRANT.html     an entrant's rating history, games by night, head to head, forfeits
    LADDER/games-ENTRANT-night-N.html  an entrant's games of night N
    LADDER/cards.html           per-card statistics
    LADDER/night-N.html         a night's matches, each linked to the viewer
    replays/LADDER-night-N-part-P.js  the games of night N's P-th block of BATCH
                                places of its schedule (viewer.html#m=MATCH&b=FILE)
    .kotarena-build.json        what the build wrote, for the next one (MANIFEST)

A replays file holds each of its games' frames as gzip-compressed JSON in base64, loaded
by a ``<script>`` element (which works from ``file://``, where ``fetch`` does not) and
unpacked by the browser's ``DecompressionStream``: compressed, a game takes about an
eighth of the room. Games go a hundred to a file because a file costs about a
millisecond to create here, as much as compressing a game.

What a build keeps, and why it is safe to: a stored match never changes (a rerate
changes only the ratings, and no game's file or night page shows a rating), so a block
of games whose matches are the same as at the last build (:func:`season.match_blocks
<kotarena.storage.season.match_blocks>`' signature) keeps its replays file, and a night
whose row and blocks are the same keeps its pages and its counts (per entrant, head to
head, turn order, bot versions) in the manifest. The pages that change every night
(the index, leaderboards, rating charts, entrants' pages, card statistics) are written
every time from the database and the manifest's counts, the charts from each entrant's
line as the manifest keeps it (:class:`~kotarena.site.charts.ThinLine`) carried on with
the ratings of the nights after it (see :meth:`_LadderBuild._charts` for when a line is
read from the database instead). A different kotarena version, :data:`FORMAT`,
database or code of the site's (:func:`~kotarena.site.sources.site_fingerprint`), or
``full=True``, builds everything; a different rules version or code of a ladder's game
(:func:`~kotarena.site.sources.game_fingerprint`) builds that ladder's games again.
"""

from __future__ import annotations

import base64
import collections
import gzip
import json
import math
import multiprocessing
import os
import shutil
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy.engine import Engine

from kotarena import __version__
from kotarena.site import pages
from kotarena.site.charts import ThinLine, kept
from kotarena.site.frames import viewer_data
from kotarena.site.html import slug
from kotarena.site.sources import game_fingerprint, site_fingerprint
from kotarena.storage import queries, season
from kotarena.storage.db import shown_url

__all__ = ["BuildReport", "build_site", "card_statistics", "wilson_interval"]

STATIC = Path(__file__).parent / "static"
#: Places of a night's schedule in one replays file (and one worker's job).
BATCH = 100
#: zlib's level for the games' frames: 3 packs a game into a ninth of its JSON at two
#: thirds of the default level's time (6 packs a tenth).
LEVEL = 3
#: The file in the site's folder that says what its last build wrote.
MANIFEST = ".kotarena-build.json"
#: The form of what a build writes (the viewer's data, the pages, the manifest): a
#: change of it makes the next build write everything again.
FORMAT = 2


@dataclass
class BuildReport:
    """What a build wrote: the ladders, the games played again for the viewer
    (``matches``), those kept from the last build (``kept``), the files written."""

    ladders: list[str] = field(default_factory=list)
    matches: int = 0
    kept: int = 0
    #: ``(match id, why)`` of the games that did not play out as stored.
    replay_errors: list[tuple[int, str]] = field(default_factory=list)
    files: int = 0
    #: Entrants whose rating chart was read from the database, not carried on from the
    #: last build's (see :meth:`_LadderBuild._charts`).
    charts_read: int = 0


def build_site(engine: Engine, out: str | os.PathLike, *, ladders: Sequence[str] | None = None,
               workers: int | None = None, progress: Callable[[int], None] | None = None,
               full: bool = False) -> BuildReport:
    """Write the site for ``ladders`` (every ladder when ``None``) into directory ``out``.

    Only the games not in the last build into ``out`` (or no longer as it wrote them)
    are played again, unless ``full``. ``workers`` processes play them (default: one per
    core; 0 plays them in this process). ``progress(matches)`` is called as games are
    done. Raises :class:`~kotarena.storage.store.UnknownLadderError` for a ladder that is
    not stored.
    """
    root = Path(out)
    (root / "replays").mkdir(parents=True, exist_ok=True)
    for name in ("style.css", "viewer.html", "viewer.js"):
        shutil.copyfile(STATIC / name, root / name)
    report = BuildReport(files=3)
    names = list(ladders) if ladders is not None else queries.ladder_names(engine)
    infos = [season.ladder(engine, name) for name in names]  # unknown names fail before anything is played
    manifest = _read_manifest(root / MANIFEST, shown_url(str(engine.url)), full)
    workers = (os.cpu_count() or 1) if workers is None else workers
    # Forked workers start at once with the games and plugins already loaded; where there
    # is no fork (Windows) they start afresh and load them.
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    pool = multiprocessing.get_context(method).Pool(workers) if workers > 0 else None
    try:
        summaries = []
        for info in infos:
            builder = _LadderBuild(engine, root, info, manifest["ladders"].get(info["name"]), pool, workers, report,
                                   progress)
            summaries.append(builder.build())
            manifest["ladders"][info["name"]] = builder.record
            # Written after each ladder: an interrupted build keeps the ladders it finished.
            _write_manifest(root / MANIFEST, manifest)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    _write(root / "index.html", pages.index_page(summaries), report)
    report.ladders = names
    return report


def _read_manifest(path: Path, database: str, full: bool) -> dict[str, Any]:
    """The last build's manifest, or an empty one where nothing of it can be kept."""
    # The version alone is not enough: it stays the same while kotarena is developed,
    # when event words and frames change most ("code" is what writes them).
    fresh = {"format": FORMAT, "kotarena": __version__, "code": site_fingerprint(), "database": database,
             "ladders": {}}
    if full:
        return fresh
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return fresh
    if not isinstance(found, dict) or any(found.get(key) != fresh[key]
                                          for key in ("format", "kotarena", "code", "database")):
        return fresh
    return found


def _write_manifest(path: Path, manifest: Mapping[str, Any]) -> None:
    partial = path.with_name(path.name + ".part")
    partial.write_text(json.dumps(manifest, separators=(",", ":")), encoding="utf-8")
    os.replace(partial, path)  # whole or not at all


def bundle_name(ladder: str, night: int, block: int) -> str:
    """The replays file holding the games of block ``block`` of night ``night``."""
    return f"{slug(ladder)}-night-{night}-part-{block + 1}"


class _LadderBuild:
    """One ladder's part of a build: its nights' pages and games, then its pages that
    change every night. ``record`` is what the manifest keeps of it afterwards."""

    def __init__(self, engine: Engine, root: Path, info: dict[str, Any], last: dict[str, Any] | None, pool,
                 workers: int, report: BuildReport, progress: Callable[[int], None] | None) -> None:
        self.engine, self.root, self.info, self.pool, self.workers = engine, root, info, pool, workers
        self.report, self.progress = report, progress
        self.name = info["name"]
        self.folder = root / slug(self.name)
        key = f"{info['id']}/{info['created_at']}/{info['game']}/{_game_code(info['game'])}"
        if last is None or last.get("key") != key:
            last = {"blocks": {}, "nights": {}}
        self.last = last
        self.record: dict[str, Any] = {"key": key, "blocks": {}, "nights": {}}
        self.waiting: collections.deque = collections.deque()
        # The rating charts as the last build left them, through night ``through`` (the
        # last before any night still running then): carried on with the ratings of the
        # nights after it, read with their matches (else None: the charts are read from
        # the database). ``settled`` is what the next build gets: the lines before the
        # first night still running now.
        self.through: int = last.get("through", 0)
        self.lines: dict[str, ThinLine] | None = None  # a last build that kept no lines: read them
        if "charts" in last:
            self.lines = {entrant: ThinLine.from_state(state) for entrant, state in last["charts"].items()}
        elif not last["nights"]:  # nothing built before: every line is followed from its first night
            self.lines = {}
        self.settled: tuple[int, dict[str, list[Any]]] | None = None

    def build(self) -> dict[str, Any]:
        self.folder.mkdir(exist_ok=True)
        ladder_id = self.info["id"]
        nights = season.season_nights(self.engine, ladder_id)
        blocks: dict[int, list[dict[str, Any]]] = {}
        for block in season.match_blocks(self.engine, ladder_id, BATCH):
            blocks.setdefault(block["night"], []).append(block)
        for night in nights:
            if (night["status"] != "done" and self.settled is None and self.lines is not None
                    and night["night"] > self.through):
                self.settled = (night["night"] - 1, {entrant: line.state() for entrant, line in self.lines.items()})
            self._night(night, blocks.get(night["night"], []))
        while self.waiting:
            self._collect(*self.waiting.popleft())
        return self._ladder_pages(nights)

    def _night(self, night: dict[str, Any], blocks: list[dict[str, Any]]) -> None:
        """Keep a night as the last build wrote it, or write its pages and its games
        again (only its blocks whose matches changed)."""
        number = night["night"]
        stale: dict[int, str] = {}  # block -> its signature, read before its games are
        for block in blocks:
            key = f"{number}/{block['block']}"
            before = self.last["blocks"].get(key)
            if (before is None or before["signature"] != block["signature"]
                    or not (self.root / "replays" / f"{bundle_name(self.name, number, block['block'])}.js").exists()):
                stale[block["block"]] = block["signature"]
            else:
                self.record["blocks"][key] = before
                self.report.kept += block["matches"]
                self.report.replay_errors.extend(tuple(error) for error in before["errors"])
        page_key = json.dumps([night["status"], night["stored"], night["planned"], night["seed"],
                               [block["signature"] for block in blocks]])
        before = self.last["nights"].get(str(number))
        if not stale and before is not None and before["page"] == page_key and self._night_pages_exist(number, before):
            self.record["nights"][str(number)] = before
            if number > self.through and self.lines is not None:  # a night the charts have not seen
                for match in season.season_matches(self.engine, self.info["id"], replays=False, night=number):
                    self._rated(match["seats"])
            return
        if number <= self.through:  # a night the charts have seen, written again
            self.lines = None
        self.record["nights"][str(number)] = self._write_night(night, stale, page_key)

    def _night_pages_exist(self, number: int, record: Mapping[str, Any]) -> bool:
        return (self.folder / f"night-{number}.html").exists() and all(
            (self.folder / pages.games_page(entrant, number)).exists() for entrant in record["entrants"])

    def _write_night(self, night: dict[str, Any], stale: Mapping[int, str], page_key: str) -> dict[str, Any]:
        """Read a night's matches, write its page, its entrants' pages of it and the
        games of its ``stale`` blocks (with the signatures read before their games: a
        match stored meanwhile makes the next build write its block again); return what
        the manifest keeps of the night."""
        number, ladder_id = night["night"], self.info["id"]
        rows: list[tuple[str, ...]] = []
        by_entrant: dict[str, list[tuple[str, ...]]] = {}
        entrants: dict[str, list[int]] = {}  # entrant -> [games, wins, forfeited seats]
        jobs: list[tuple] = []
        block_at: int | None = None
        seats = wins = 0
        for match in season.season_matches(self.engine, ladder_id, night=number):
            block = match["index"] // BATCH
            if block != block_at:
                self._send(number, block_at, stale, jobs, seats, wins)
                jobs, block_at, seats, wins = [], block, 0, 0
            row = pages.match_row(match, bundle_name(self.name, number, block))
            rows.append(row)
            seated = match["seats"]
            winner = next((s["seat"] for s in seated if s["seat"] == match["winner_seat"] and not s["forfeit"]), None)
            seats += len(seated)
            wins += winner is not None
            self._rated(seated)
            for entrant in dict.fromkeys(s["entrant"] for s in seated):
                mine = [s for s in seated if s["entrant"] == entrant]
                counts = entrants.setdefault(entrant, [0, 0, 0])
                counts[0] += 1
                counts[1] += any(s["seat"] == winner for s in mine)
                counts[2] += sum(1 for s in mine if s["forfeit"])
                by_entrant.setdefault(entrant, []).append(row)
            if block in stale:
                jobs.append((match["id"], match["replay"], winner, {
                    "ladder": self.name, "ladder_page": f"{slug(self.name)}/index.html", "night": number,
                    "night_page": f"{slug(self.name)}/night-{number}.html",
                    "entrants": [s["entrant"] for s in seated], "places": [s["rank"] + 1 for s in seated],
                    "forfeits": [s["forfeit"] for s in seated], "decisions": [s["decisions"] for s in seated],
                    "cpu_seconds": [s["cpu_seconds"] for s in seated], "times": [s["times"] for s in seated],
                    "bots": [s["bot"] for s in seated], "logs": [s["log"] for s in seated]}))
        self._send(number, block_at, stale, jobs, seats, wins)
        _write(self.folder / f"night-{number}.html", pages.night_page(self.name, night, rows), self.report)
        for entrant, mine in by_entrant.items():
            _write(self.folder / pages.games_page(entrant, number),
                   pages.bot_night_page(self.name, entrant, night, mine), self.report)
        cross = season.crosstable(self.engine, ladder_id, night=number)
        # The counts as JSON text, read one night at a time when they are summed: a
        # manifest of thousands of nights stays a few strings in memory.
        return {"page": page_key, "entrants": entrants,
                "cross": _packed([[mine, theirs, c["met"], c["above"], c["tied"]] for (mine, theirs), c in cross.items()]),
                "order": _packed(season.turn_order_wins(self.engine, ladder_id, night=number)),
                "versions": _packed(season.bot_versions(self.engine, ladder_id, night=number))}

    def _rated(self, seats: Sequence[Mapping[str, Any]]) -> None:
        """Carry the charts' lines on with a match's ratings (where it is rated)."""
        if self.lines is None:
            return
        for entrant in dict.fromkeys(s["entrant"] for s in seats):
            mine = [s for s in seats if s["entrant"] == entrant]
            if mine[0]["mu"] is not None:
                # (An entrant in several seats has one rating after the match, in each.)
                self.lines.setdefault(entrant, ThinLine()).add(min(s["mu"] for s in mine), min(s["sigma"] for s in mine))

    def _send(self, number: int, block: int | None, stale: Mapping[int, str], jobs: list[tuple], seats: int,
              wins: int) -> None:
        """Have a stale block's games played again and written (in a worker, where there
        are)."""
        if block is None or block not in stale:
            return
        bundle = bundle_name(self.name, number, block)
        record = {"signature": stale[block], "matches": len(jobs), "seats": seats, "wins": wins}
        if self.pool is None:
            self._collect(f"{number}/{block}", record, write_replays(str(self.root), bundle, jobs))
            return
        self.waiting.append((f"{number}/{block}", record,
                             self.pool.apply_async(write_replays, (str(self.root), bundle, jobs))))
        while len(self.waiting) > 2 * self.workers:
            self._collect(*self.waiting.popleft())

    def _collect(self, key: str, record: dict[str, Any], done) -> None:
        result = done if isinstance(done, dict) else done.get()
        self.report.replay_errors.extend(result["errors"])
        self.report.matches += result["games"]
        self.report.files += 1
        self.record["blocks"][key] = {**record, "cards": _packed(result["cards"]), "errors": result["errors"]}
        if self.progress is not None:
            self.progress(self.report.matches)

    def _charts(self, nights: list[dict[str, Any]]) -> dict[str, list[tuple[int, float, float]]]:
        """What each rated entrant's chart draws: its line as carried on through this
        build's nights where it ends at the entrant's current rating, else read from the
        database (a rerate, or a night written again that the last build's charts had
        counted, changes ratings the line holds). Recorded for the next build."""
        ratings = season.current_ratings(self.engine, self.info["id"])
        lines = self.lines or {}
        charts, states, read = {}, {}, False
        for entrant, (mu, sigma) in ratings.items():
            line = lines.get(entrant)
            if line is None or line.last is None or tuple(line.last[1:]) != (mu, sigma):
                line, read = read_line(self.engine, self.info["id"], entrant), True
                self.report.charts_read += 1
            charts[entrant] = line.points()
            states[entrant] = line.state()
        if self.settled is None:
            self.record["through"] = max((night["night"] for night in nights), default=0)
            self.record["charts"] = states
        elif not read:  # (lines carried on to a rating they did not end at are not kept)
            self.record["through"], self.record["charts"] = self.settled
        return charts

    def _ladder_pages(self, nights: list[dict[str, Any]]) -> dict[str, Any]:
        """The pages that change every night, from the database and the manifest's counts."""
        engine, ladder_id, folder = self.engine, self.info["id"], self.folder
        night_records = self.record["nights"].values()
        board = queries.leaderboard(engine, self.name)
        cross = _summed_cross(night_records)
        versions = _summed_versions(night_records)
        games = _games_by_night(self.record["nights"])
        forfeits = season.forfeits(engine, ladder_id)
        bundles = {f["match"]: bundle_name(self.name, f["night"], f["index"] // BATCH) for f in forfeits}
        histories = self._charts(nights)
        for row in board:
            entrant = row["entrant"]
            points = histories.get(entrant, [])
            _write(folder / f"bot-{slug(entrant)}.html",
                   pages.bot_page(self.name, entrant, row, points, cross,
                                  [f for f in forfeits if f["entrant"] == entrant], bundles,
                                  [v for v in versions if v["entrant"] == entrant], games.get(entrant, [])),
                   self.report)
        blocks = self.record["blocks"].values()
        matches = sum(block["matches"] for block in blocks)
        seats, wins = sum(block["seats"] for block in blocks), sum(block["wins"] for block in blocks)
        summary = {**self.info, "matches": matches, "nights": len(nights), "entrants": len(board)}
        _write(folder / "index.html", pages.ladder_page(summary, board, histories, cross,
                                                        _summed_order(night_records), nights, versions), self.report)
        baseline = wins / seats if seats else None
        _write(folder / "cards.html", pages.cards_page(self.name, card_statistics(
            (json.loads(block["cards"]) for block in blocks), baseline), baseline, MIN_SEATS), self.report)
        return summary


def read_line(engine: Engine, ladder_id: int, entrant: str) -> ThinLine:
    """An entrant's rating chart read from the database: the points of its history that
    :func:`~kotarena.site.charts.kept` draws, picked by the database."""
    counted: list[int] = []

    def pick(count: int) -> list[int]:
        counted.append(count)
        return [at + 1 for at in kept(count)]

    points = season.rating_history(engine, ladder_id, entrant, pick)
    return ThinLine.from_points(counted[0], points)


def _packed(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def _game_code(game: str) -> str | None:
    """What of a ladder's game makes its games' files: its rules version and the
    fingerprint of its package (its events' words, its table's pictures)."""
    from kotarena.engine.outcome import EngineError
    from kotarena.games import get_game

    try:
        found = get_game(game)
    except (EngineError, ValueError):  # a game no longer installed: its games say so in the viewer
        return None
    return f"{found.spec.rules_version}/{game_fingerprint(found)}"


def _summed_cross(nights: Iterable[Mapping[str, Any]]) -> dict[tuple[str, str], dict[str, int]]:
    cross: dict[tuple[str, str], dict[str, int]] = {}
    for night in nights:
        for mine, theirs, met, above, tied in json.loads(night["cross"]):
            counts = cross.setdefault((mine, theirs), {"met": 0, "above": 0, "tied": 0})
            counts["met"] += met
            counts["above"] += above
            counts["tied"] += tied
    return cross


def _summed_versions(nights: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    seats: dict[tuple[str, str, str, str], int] = {}
    for night in nights:
        for row in json.loads(night["versions"]):
            key = (row["entrant"], row["bot"], row["package"], row["version"])
            seats[key] = seats.get(key, 0) + row["seats"]
    return [{"entrant": entrant, "bot": bot, "package": package, "version": version, "seats": count}
            for (entrant, bot, package, version), count in sorted(seats.items())]


def _summed_order(nights: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    positions: dict[int, list[int]] = {}
    unknown = 0
    for night in nights:
        order = json.loads(night["order"])
        unknown += order["unknown"]
        for row in order["positions"]:
            counts = positions.setdefault(row["position"], [0, 0])
            counts[0] += row["games"]
            counts[1] += row["wins"]
    return {"positions": [{"position": at, "games": games, "wins": wins}
                          for at, (games, wins) in sorted(positions.items())], "unknown": unknown}


def _games_by_night(nights: Mapping[str, Mapping[str, Any]]) -> dict[str, list[tuple[int, int, int, int]]]:
    """Each entrant's ``(night, games, wins, forfeited seats)``, night by night."""
    games: dict[str, list[tuple[int, int, int, int]]] = {}
    for number, night in sorted(nights.items(), key=lambda item: int(item[0])):
        for entrant, (played, won, forfeited) in night["entrants"].items():
            games.setdefault(entrant, []).append((int(number), played, won, forfeited))
    return games


#: Seats that bought a card below which its win share is not shown as a figure (its
#: interval still is): a share of a handful of seats says next to nothing.
MIN_SEATS = 30
#: z for a two-sided 95% interval.
Z95 = 1.959964


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a share of ``successes`` in ``trials`` (95% by
    default): unlike the normal approximation it stays inside 0-1 and is honest for a
    few trials (1 in 1 gives 0.21-1.00, not 1.00-1.00)."""
    if trials == 0:
        return 0.0, 1.0
    share = successes / trials
    middle = (share + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(share * (1 - share) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return max(0.0, middle - half), min(1.0, middle + half)


def card_statistics(blocks: Iterable[Mapping[str, Sequence[int]]], baseline: float | None = None
                    ) -> list[dict[str, Any]]:
    """Per card, summed over ``blocks`` (``{card: [bought, seats, won]}`` each): times
    ``bought``, ``seats`` (a seat of a match) that bought it at least once, how many of
    those ``won``, their win ``share`` (``None`` under :data:`MIN_SEATS` seats), its 95%
    Wilson interval (``low``, ``high``), and ``versus`` the ``baseline`` (any seat's win
    share): ``"above"`` or ``"below"`` where the interval leaves it out, else ``None``.
    Most bought first."""
    totals: dict[str, list[int]] = {}
    for block in blocks:
        for card, counts in block.items():
            total = totals.setdefault(card, [0, 0, 0])
            for at in range(3):
                total[at] += counts[at]
    rows = []
    for card, (bought, seats, won) in totals.items():
        low, high = wilson_interval(won, seats)
        versus = None
        if baseline is not None and seats >= MIN_SEATS:
            versus = "above" if low > baseline else "below" if high < baseline else None
        rows.append({"card": card, "bought": bought, "seats": seats, "won": won,
                     "share": won / seats if seats >= MIN_SEATS else None, "low": low, "high": high, "versus": versus})
    rows.sort(key=lambda row: (-row["bought"], row["card"]))
    return rows


def write_replays(out: str, bundle: str, jobs: Sequence[tuple[int, str, int | None, dict[str, Any]]]
                  ) -> dict[str, Any]:
    """Play each ``(match id, replay text, winning seat, facts for the viewer)`` again
    and write them to the replays file ``bundle``; returns how many ``games``, why some
    did not play out (``errors``: ``(match id, why)``) and what was bought in them
    (``cards``: ``{card: [bought, seats that bought it, of them won]}``)."""
    packed, errors = [], []
    cards: dict[str, list[int]] = {}
    for match_id, text, winner, facts in jobs:
        facts = dict(facts)
        data, purchases = viewer_data(match_id, text, facts["entrants"], facts.pop("times", None), facts.pop("logs", None))
        data.update(facts)
        data["bundle"] = bundle
        game = gzip.compress(json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode(), LEVEL, mtime=0)
        packed.append(f'"{match_id}":"{base64.b64encode(game).decode()}"')
        if data["error"] is not None:
            errors.append((match_id, data["error"]))
        buyers: set[tuple[str, int]] = set()
        for seat, card in purchases:
            counts = cards.setdefault(card, [0, 0, 0])
            counts[0] += 1
            if (card, seat) not in buyers:
                buyers.add((card, seat))
                counts[1] += 1
                counts[2] += winner == seat
    with open(os.path.join(out, "replays", f"{bundle}.js"), "w", encoding="ascii") as stream:
        stream.write("kotarenaReplays({" + ",\n".join(packed) + "});\n")
    return {"games": len(jobs), "errors": errors, "cards": cards}


def _write(path: Path, content: str, report: BuildReport) -> None:
    path.write_text(content, encoding="utf-8")
    report.files += 1
