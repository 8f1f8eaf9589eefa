"""``kotarena export``: a season (a ladder's nights, matches, seats, bot versions,
ratings and replays) as JSON lines, for pandas and other tools.

Every line is one JSON object whose ``record`` key says what it is: ``ladder`` (one,
first), then ``night``, ``bot``, ``match`` (with its ``seats`` nested) and ``rating``
lines. Seats and places are numbered from 1, as every command shows them (place 1 is
the winner); the ``replay`` is the replay file as stored (its own format numbers seats
from 0, see ``docs/replays.md``). A seat has each of its decisions' time
(:mod:`kotarena.decision_times`) and its bot's lines of the game, each with the step it
was written in (:mod:`kotarena.sandbox.botlog`). ``docs/export.md`` shows how to read it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any, TextIO

from sqlalchemy.engine import Engine

from kotarena.decision_times import unpack_times
from kotarena.forfeits import clean_detail
from kotarena.sandbox.botlog import FINISH, START, log_steps
from kotarena.storage import queries, season

__all__ = ["export_season", "season_records"]


def season_records(engine: Engine, ladder_name: str, *, replays: bool = True) -> Iterator[dict[str, Any]]:
    """The records of ladder ``ladder_name``, in the order they are written (see the
    module's text); matches are read from the database a page at a time."""
    from kotarena import __version__

    ladder = season.ladder(engine, ladder_name)
    yield {"record": "ladder", "ladder": ladder["name"], "game": ladder["game"], "created_at": ladder["created_at"],
           "exported_at": datetime.now(UTC).isoformat(), "exported_with": f"kotarena {__version__}"}
    for night in season.season_nights(engine, ladder["id"]):
        yield {"record": "night", "ladder": ladder["name"], **night}
    for version in season.bot_versions(engine, ladder["id"]):
        yield {"record": "bot", "ladder": ladder["name"], **version}
    for match in season.season_matches(engine, ladder["id"], replays=replays):
        yield _match_record(ladder["name"], match)
    for row in queries.leaderboard(engine, ladder["name"]):
        yield {"record": "rating", "ladder": ladder["name"], **row}


def _match_record(ladder: str, match: dict[str, Any]) -> dict[str, Any]:
    winner = next((seat for seat in match["seats"] if seat["seat"] == match["winner_seat"] and not seat["forfeit"]),
                  None)  # (a forfeited seat's autopilot wins nothing)
    record = {
        "record": "match", "ladder": ladder, "match": match["id"], "night": match["night"], "index": match["index"],
        "key": match["key"], "game": match["game"], "seed": match["seed"],
        "first_seat": None if match["first_player"] is None else match["first_player"] + 1,
        "rules_version": match["rules_version"], "status": match["status"], "termination": match["termination"],
        "winner": winner["entrant"] if winner else None, "winner_seat": winner["seat"] + 1 if winner else None,
        "turns": match["turns"], "duration": match["duration"], "rated": bool(match["rated"]),
        "played_at": match["played_at"],
        "seats": [{"seat": seat["seat"] + 1, "entrant": seat["entrant"], "place": seat["rank"] + 1,
                   "forfeit": seat["forfeit"], "forfeit_reason": _reason(seat["forfeit_detail"]), "bot": seat["bot"],
                   "package": seat["package"], "version": seat["version"], "decisions": seat["decisions"],
                   "cpu_seconds": seat["cpu_seconds"], **_times(seat["times"]), "log": _lines(seat["log"]),
                   "mu_after": seat["mu"], "sigma_after": seat["sigma"], "facts": seat["facts"]}
                  for seat in match["seats"]],
    }
    if "replay" in match:
        record["replay"] = match["replay"]
    return record


def export_season(engine: Engine, ladder_name: str, stream: TextIO, *, replays: bool = True) -> dict[str, int]:
    """Write ladder ``ladder_name`` to ``stream`` as JSON lines; returns how many records
    of each kind were written."""
    counts: dict[str, int] = {}
    for record in season_records(engine, ladder_name, replays=replays):
        stream.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")))
        stream.write("\n")
        counts[record["record"]] = counts.get(record["record"], 0) + 1
    return counts


def _times(packed: str | None) -> dict[str, Any]:
    """A seat's decision times as exported: how they were measured and each decision's
    seconds, in order (both ``None`` for a seat stored without them, or that made none)."""
    unpacked = unpack_times(packed)
    if unpacked is None:
        return {"timing": None, "decision_times": None}
    return {"timing": unpacked[0], "decision_times": unpacked[1]}


#: What a line's ``step`` says, by the step of :mod:`kotarena.sandbox.botlog`.
_STEPS = {START: "start", FINISH: "finish", None: None}


def _lines(stored: str | None) -> list[dict[str, Any]] | None:
    """A seat's stored lines as exported: one object a line, in the order written, with
    the step it was written in (``start``, ``decision`` with its number, ``finish``;
    ``None`` where it was not kept); ``None`` where the bot wrote none."""
    lines = [{"step": "decision" if type(step) is int else _STEPS[step],
              "decision": step if type(step) is int else None, "line": line}
             for step, lines in log_steps(stored) for line in lines]
    return lines or None


def _reason(detail: str | None) -> str | None:
    """A forfeit's detail as exported: cleaned, its reason first (a detail stored by an
    older kotarena may begin with a traceback, or hold a bot's terminal escapes)."""
    return None if detail is None else clean_detail(detail)

