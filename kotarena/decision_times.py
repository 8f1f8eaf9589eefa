"""Each decision's time as a match stores it: how it was measured and one figure per
decision, packed into one short text per seat (``seat.times``).

The figures are what the referee measures for the time limit, nothing more:

* ``cpu``: the decision's own CPU time, read around it (a trusted bot without the
  guard's timer; a sandboxed seat asked alone, from the last answer to this one);
* ``tick``: a trusted bot's CPU time as the guard reads it, at its timer's ticks (every
  twentieth of the limit, :class:`kotarena.tournament.seats._Guard`): a decision shorter
  than a tick mostly reads 0, a few read a tick; their sum is the seat's CPU time;
* ``share``: a sandboxed seat played in lockstep (:mod:`kotarena.sandbox.batch`), whose
  instance answers many games' decisions in one batch: only the batch's CPU time is
  known, and each decision gets its share of it (by its limit, as the seat's total does).

Packed as ``"how:v,v,..."``, each ``v`` in whole microseconds.
"""

from __future__ import annotations

#: How a seat's decision times were measured (see the module's text).
HOWS = ("cpu", "tick", "share")


def pack_times(how: str, seconds: list[float]) -> str | None:
    """The stored text of a seat's decision times, ``None`` for a seat that made none."""
    if not seconds:
        return None
    return how + ":" + ",".join(str(round(value * 1e6)) for value in seconds)


def unpack_times(text: str | None) -> tuple[str, list[float]] | None:
    """``(how, seconds of each decision)`` from :func:`pack_times`' text; ``None`` for
    none, or for a text this version cannot read."""
    if not text:
        return None
    how, _, values = text.partition(":")
    if how not in HOWS:
        return None
    try:
        return how, [int(value) / 1e6 for value in values.split(",")]
    except ValueError:
        return None


__all__ = ["HOWS", "pack_times", "unpack_times"]
