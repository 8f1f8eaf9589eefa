"""A worker's result is plain data: made and returned without the results database's
libraries, with the same fields as the tables that store it."""

from __future__ import annotations

import subprocess
import sys
import typing

from kotarena.results import MatchResult, SeatResult
from kotarena.storage.models import Match, MatchBase, Seat, SeatBase

WORKER = """
import sys
from kotarena.tournament.runner import MatchJob, play_matches
from kotarena.tournament.seats import SeatSpec

seats = (SeatSpec("a", "random"), SeatSpec("b", "random"), SeatSpec("c", "random"))
job = MatchJob(index=0, key="k", game="kot", deck="kot", seed=5, first_player=0, seats=seats, time_limit=2.0)
[result] = play_matches([job])
assert result.status == "done" and len(result.seats) == 3, result
print(sorted({name.split(".")[0] for name in sys.modules} & {"sqlmodel", "sqlalchemy", "pydantic"}))
print(sorted(name for name in sys.modules if name.startswith("kotarena.storage")))
"""


def test_a_worker_plays_a_match_without_loading_the_databases_libraries():
    run = subprocess.run([sys.executable, "-c", WORKER], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == ["[]", "[]"]


def _hints(record: type) -> dict[str, object]:
    return typing.get_type_hints(record)


def test_a_result_has_its_tables_fields_in_order_then_what_only_a_worker_knows():
    assert MatchResult._fields == (*MatchBase.model_fields, "seats")
    assert SeatResult._fields == (*SeatBase.model_fields, "bot", "package", "version")
    assert set(MatchBase.model_fields) <= set(Match.__table__.c.keys())
    assert set(SeatBase.model_fields) <= set(Seat.__table__.c.keys())


def test_a_results_fields_have_its_tables_types():
    for result, base in ((MatchResult, MatchBase), (SeatResult, SeatBase)):
        hints = _hints(result)
        for name, field in base.model_fields.items():
            assert hints[name] == field.annotation, (result.__name__, name)
    assert _hints(MatchResult)["seats"] == list[SeatResult]
    assert {name: _hints(SeatResult)[name] for name in ("bot", "package", "version")} == dict.fromkeys(
        ("bot", "package", "version"), str)
