"""Which instance of a bot takes which seat: the k-th seat a bot takes at the tables of
one deal gets slot k, so no instance meets a deal twice; and what an instance is given."""

from __future__ import annotations

import json
import socket
import threading
from collections import defaultdict
from pathlib import Path

import pytest

from kotarena.forfeits import BotFailure
from kotarena.games import new_game
from kotarena.sandbox.protocol import PROTOCOL
from kotarena.sandbox.seat import SandboxedSeat
from kotarena.testing import missing
from kotarena.tournament.ladder import load_ladder
from kotarena.tournament.matches import seat_slots
from kotarena.tournament.night import night_jobs
from kotarena.tournament.seats import SeatSpec

LADDER = """
name = "slots"
players = 4
games = {games}
seed = 9
duplicate = {duplicate}
allow_repeats = true

[[bots]]
name = "random"
label = "a"

[[bots]]
name = "random"
label = "b"
params = {{}}

[[bots]]
name = "heuristic"
label = "h"
"""


def jobs(tmp_path: Path, games: int, duplicate: str) -> list:
    path = tmp_path / "slots.toml"
    path.write_text(LADDER.format(games=games, duplicate=duplicate))
    return list(night_jobs(load_ladder(path), 9))


@pytest.mark.parametrize(("games", "duplicate"), [(24, "true"), (24, "2"), (20, "false")])
def test_each_seat_a_bot_takes_at_the_tables_of_one_deal_has_a_slot_of_its_own(tmp_path, games, duplicate):
    slots: dict[tuple[str, int], list[int]] = defaultdict(list)
    for job in jobs(tmp_path, games, duplicate):
        assert len(job.slots) == len(job.seats)
        for spec, slot in zip(job.seats, job.slots):
            slots[spec.bot, job.seed].append(slot)
    for taken in slots.values():
        assert sorted(taken) == list(range(len(taken)))  # 0, 1, ... k-1: never one twice


def test_a_duplicate_set_gives_a_bot_one_slot_per_rotation_it_sits_in(tmp_path):
    first_set = [job for job in jobs(tmp_path, 24, "true")][:4]
    assert len({job.seed for job in first_set}) == 1
    heuristic = [slot for job in first_set for spec, slot in zip(job.seats, job.slots) if spec.bot == "heuristic"]
    assert sorted(heuristic) == list(range(len(heuristic))) and len(heuristic) >= 4


def test_a_job_names_its_bots_as_the_registry_knows_them(tmp_path):
    from kotarena.bots.registry import get_bot

    for job in jobs(tmp_path, 4, "false"):
        for spec in job.seats:
            info = get_bot(spec.bot)
            assert (spec.package, spec.version) == (info.package, info.version)


def test_without_slots_a_bots_seats_at_a_table_get_their_places_among_its_seats():
    seats = tuple(SeatSpec(entrant=label, bot=bot) for label, bot in
                  (("a", "random"), ("h", "heuristic"), ("b", "random"), ("c", "random")))
    assert seat_slots(seats) == (0, 0, 1, 2)
    assert seat_slots(seats, (3, 1, 4, 5)) == (3, 1, 4, 5)
    # Slots that would seat a bot twice in one instance are not used.
    assert seat_slots(seats, (0, 0, 0, 1)) == (0, 0, 1, 2)
    assert seat_slots(seats, (0, 1)) == (0, 0, 1, 2)


def test_an_instances_cgroup_holds_it_to_a_processor_and_a_half(sandbox):
    from kotarena.sandbox.cgroups import QUOTA_PERIOD_US, SeatGroup
    from kotarena.sandbox.instance import CPUS

    assert CPUS == 1.5
    group = SeatGroup("quota-test", cpus=CPUS)
    try:
        if not group.quota:
            missing("a CPU controller for this process's cgroups")
        if group.v2:
            assert (group.dirs[0] / "cpu.max").read_text().split() == [str(QUOTA_PERIOD_US * 3 // 2),
                                                                       str(QUOTA_PERIOD_US)]
        else:
            assert (group.dirs[3] / "cpu.cfs_quota_us").read_text().strip() == str(QUOTA_PERIOD_US * 3 // 2)
            assert (group.dirs[3] / "cpu.cfs_period_us").read_text().strip() == str(QUOTA_PERIOD_US)
    finally:
        group.remove()


class OneLineServer:
    """Stands in for an instance: its seat's peer greets, then sends ``line``."""

    group = None
    memory_mb = 64

    def __init__(self, line: bytes) -> None:
        self.line = line

    def start_seat(self):
        ours, theirs = socket.socketpair()

        def peer():
            with theirs:
                theirs.sendall(json.dumps({"type": "bot", "protocol": PROTOCOL}).encode() + b"\n")
                reader = theirs.makefile("rb")
                reader.readline()
                theirs.sendall(self.line)
                reader.readline()

        threading.Thread(target=peer, daemon=True).start()
        return ours, 0

    def exit_status(self, pid):
        return "scripted"


NESTED = b'{"type": "error", "message": ' + b"[" * 5000 + b"]" * 5000 + b"}\n"


@pytest.mark.parametrize(("line", "kind"), [
    (b'{"type": "error", "message": {"not": "text"}, "kind": [1]}\n', "invalid"),
    (b'{"type": "error", "message": 12}\n', "invalid"),  # (a message is text, or the line is refused)
    (NESTED, "invalid"),
    (b'{"type": ["ready"]}\n', "invalid"),
])
def test_whatever_a_seat_sends_is_its_own_forfeit_never_the_referees_error(line, kind):
    state = new_game("kot", players=2, seed=3, record=False)
    seat = SandboxedSeat(OneLineServer(line), 0.5, game="kot", seat=0, params={})
    seat.start(11, state.view(0))
    with pytest.raises(BotFailure) as failure:
        seat.settle()
    assert failure.value.kind == kind
    assert 0 < len(failure.value.detail) <= 4000
