"""Every seat host keeps one protocol, and a match asks its hosts nothing else: the
order of its calls, what it records of them, and that no instance outlives the match."""

from __future__ import annotations

import inspect

import pytest

from kotarena.forfeits import BotFailure
from kotarena.sandbox.batch import BatchSeat, Link
from kotarena.sandbox.instance import ForkServer
from kotarena.sandbox.seat import SandboxedSeat
from kotarena.tournament import matches
from kotarena.tournament.hosts import Instance, SeatHost, SeatReport
from kotarena.tournament.matches import MatchJob, play_match
from kotarena.tournament.seats import InProcessSeat, SeatSpec, Unseated


def _members(protocol: type) -> tuple[set[str], dict[str, inspect.Signature]]:
    """A protocol's data members and its methods' signatures, its bases' included."""
    data: set[str] = set()
    methods: dict[str, inspect.Signature] = {}
    for layer in protocol.__mro__:
        if layer in (object,) or not getattr(layer, "_is_protocol", False) or layer.__module__ == "typing":
            continue
        data.update(layer.__dict__.get("__annotations__", {}))
        methods.update({name: inspect.signature(value) for name, value in vars(layer).items()
                        if inspect.isfunction(value) and not name.startswith("_")})
    return data, methods


def _keeps(host: object, protocol: type) -> None:
    """``host`` has every member of ``protocol``, its methods taking the same arguments."""
    data, methods = _members(protocol)
    assert data and methods
    for name in data:
        assert hasattr(host, name), f"{type(host).__name__} has no {name}"
    for name, signature in methods.items():
        theirs = inspect.signature(getattr(type(host), name))
        assert list(theirs.parameters) == list(signature.parameters), f"{type(host).__name__}.{name}{theirs}"
    assert isinstance(host, protocol)


SPEC = SeatSpec(entrant="r", bot="random")


@pytest.mark.parametrize("host", [
    InProcessSeat(SPEC, 1.0),
    SandboxedSeat(object(), 1.0, game="kot", seat=0, params={}),  # type: ignore[arg-type]
    Unseated(SPEC),
], ids=["in-process", "sandboxed", "unseated"])
def test_every_seat_host_keeps_the_protocol(host):
    _keeps(host, SeatHost)


def test_a_lockstep_seat_gives_what_a_result_reads_and_an_instance_can_be_reset():
    link = Link(object())  # type: ignore[arg-type]
    _keeps(BatchSeat(link, 1.0, game="kot", seat=0, params={}, seed=1, view=None), SeatReport)
    data, methods = _members(Instance)
    assert not data and all(list(inspect.signature(getattr(ForkServer, name)).parameters)
                            == list(signature.parameters) for name, signature in methods.items())


def test_a_host_that_lacks_a_member_is_no_seat_host():
    class Partial:
        cpu, decisions, times, timing, log = 0.0, 0, [], "cpu", None

        def choose(self, view):
            return view.legal[0]

    assert not isinstance(Partial(), SeatHost)


class Shared:
    """An instance several seats share, recording its resets."""

    def __init__(self, calls: list) -> None:
        self.calls = calls

    def request_reset(self) -> None:
        self.calls.append(("request_reset", id(self)))

    def reset(self) -> None:
        self.calls.append(("reset", id(self)))


class Scripted:
    """A seat host that plays the first legal action and records every call it gets."""

    def __init__(self, seat: int, calls: list, instance: Shared | None, *, alive: bool = True,
                 fail: str | None = None) -> None:
        self.seat, self.calls, self.instance, self.alive, self.fail = seat, calls, instance, alive, fail
        self.cpu, self.decisions, self.times, self.timing, self.log = 0.0, 0, [], "cpu", None

    def _call(self, name: str) -> None:
        self.calls.append((name, self.seat))
        if self.fail == name:
            raise BotFailure("sandbox", f"{name} failed")

    def request_seat(self) -> None:
        self._call("request_seat")

    def start(self, seed, view) -> None:
        self._call("start")

    def settle(self) -> None:
        self._call("settle")

    def choose(self, view):
        self.decisions += 1
        self.times.append(0.0)
        self.cpu += 0.5
        return view.legal[0]

    def finish(self, view) -> None:
        self._call("finish")

    def host_alive(self) -> bool:
        self._call("host_alive")
        return self.alive

    def close(self) -> None:
        self._call("close")

    def instances(self):
        return () if self.instance is None else (self.instance,)

    def package(self):
        return ("pkg", f"1.{self.seat}")


def played(monkeypatch, hosts: list[Scripted]):
    """A three-seat match whose seats are ``hosts``: its result."""
    assert isinstance(hosts[0], SeatHost)
    monkeypatch.setattr(matches, "_seat_host", lambda seat, spec, job, slot: hosts[seat])
    seats = tuple(SeatSpec(entrant=f"s{seat}", bot="random") for seat in range(len(hosts)))
    return play_match(MatchJob(index=0, key="k", game="kot", deck="kot", seed=7, first_player=0, seats=seats,
                               time_limit=1.0))


def _names(calls, name):
    return [index for index, call in enumerate(calls) if call[0] == name]


def test_a_match_asks_every_seat_for_its_process_before_starting_any_and_resets_each_instance_once(monkeypatch):
    calls: list = []
    shared = Shared(calls)
    hosts = [Scripted(0, calls, shared), Scripted(1, calls, shared), Scripted(2, calls, None)]
    result = played(monkeypatch, hosts)
    assert result.status == "done" and [seat.forfeit for seat in result.seats] == [None, None, None]
    assert max(_names(calls, "request_seat")) < min(_names(calls, "start"))
    assert max(_names(calls, "start")) < min(_names(calls, "settle"))
    assert [call for call in calls if call[0] in ("host_alive", "finish")] == [
        ("host_alive", 0), ("host_alive", 1), ("host_alive", 2), ("finish", 0), ("finish", 1), ("finish", 2)]
    # Each seat is closed, then the one instance two seats shared is reset once: asked, then waited for.
    assert calls[-5:] == [("close", 0), ("close", 1), ("close", 2), ("request_reset", id(shared)),
                          ("reset", id(shared))]
    assert [(seat.package, seat.version) for seat in result.seats] == [("pkg", "1.0"), ("pkg", "1.1"), ("pkg", "1.2")]
    assert [seat.decisions for seat in result.seats] == [host.decisions for host in hosts]
    assert all(seat.cpu_seconds == 0.5 * seat.decisions for seat in result.seats)


def test_a_seat_whose_instance_died_during_the_game_forfeits_as_a_crash(monkeypatch):
    calls: list = []
    hosts = [Scripted(0, calls, Shared(calls), alive=False), Scripted(1, calls, None), Scripted(2, calls, None)]
    result = played(monkeypatch, hosts)
    assert result.seats[0].forfeit == "crash" and "killed during the game" in result.seats[0].forfeit_detail
    assert ("finish", 0) not in calls and ("finish", 1) in calls
    assert calls[-2][0] == "request_reset" and calls[-1][0] == "reset"


@pytest.mark.parametrize("step", ["request_seat", "start", "settle"])
def test_a_seat_that_fails_to_be_seated_forfeits_and_is_still_closed(monkeypatch, step):
    calls: list = []
    hosts = [Scripted(0, calls, None), Scripted(1, calls, Shared(calls), fail=step), Scripted(2, calls, None)]
    result = played(monkeypatch, hosts)
    assert [seat.forfeit for seat in result.seats] == [None, "sandbox", None]
    assert result.seats[1].decisions == 0 and result.seats[1].rank == 2
    later = ["request_seat", "start", "settle"]
    assert not [call for call in calls if call[1] == 1 and call[0] in later[later.index(step) + 1:]]
    assert ("close", 1) in calls and calls[-1][0] == "reset"


def test_a_seat_that_cannot_be_seated_is_unseated_and_forfeits(monkeypatch):
    calls: list = []
    hosts = [Scripted(0, calls, None), Scripted(1, calls, None)]

    def seat_host(seat, spec, job, slot):
        if seat == 1:
            raise BotFailure("sandbox", "no instance")
        return hosts[seat]

    monkeypatch.setattr(matches, "_seat_host", seat_host)
    seats = (SeatSpec(entrant="a", bot="random"), SeatSpec(entrant="b", bot="random", package="p", version="2"))
    result = play_match(MatchJob(index=0, key="k", game="kot", deck="kot", seed=7, first_player=0, seats=seats,
                                 time_limit=1.0))
    assert result.seats[1].forfeit == "sandbox" and result.seats[1].forfeit_detail == "no instance"
    assert (result.seats[1].package, result.seats[1].version) == ("p", "2")
    assert result.seats[0].rank == 0 and result.seats[1].times is None and ("start", 1) not in calls


def played_in_lockstep(monkeypatch, hosts: list[Scripted]):
    """The same three-seat match played by the lockstep (every seat's bot trusted: asked
    directly, through its seat host): its result."""
    from kotarena.tournament import lockstep

    monkeypatch.setattr(lockstep, "_seat_host", lambda seat, spec, job, slot: hosts[seat])
    seats = tuple(SeatSpec(entrant=f"s{seat}", bot="random") for seat in range(len(hosts)))
    [result] = lockstep.play_tables([MatchJob(index=0, key="k", game="kot", deck="kot", seed=7, first_player=0,
                                              seats=seats, time_limit=1.0)])
    return result


def test_a_seat_asked_directly_in_lockstep_whose_instance_died_during_the_game_forfeits_as_a_crash(monkeypatch):
    calls: list = []
    hosts = [Scripted(0, calls, Shared(calls), alive=False), Scripted(1, calls, None), Scripted(2, calls, None)]
    result = played_in_lockstep(monkeypatch, hosts)
    assert result.seats[0].forfeit == "crash" and "killed during the game" in result.seats[0].forfeit_detail
    assert [seat.forfeit for seat in result.seats[1:]] == [None, None] and result.seats[0].rank == 2
    # As play_match asks: every seat checked once the game is over, before any is told how it ended.
    assert [call for call in calls if call[0] in ("host_alive", "finish")] == [
        ("host_alive", 0), ("host_alive", 1), ("host_alive", 2), ("finish", 1), ("finish", 2)]
    assert calls[-2][0] == "request_reset" and calls[-1][0] == "reset"
