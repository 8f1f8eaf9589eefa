"""Rows for SQLite's bulk insert, in the form its driver binds fastest.

Python's ``sqlite3`` module binds an int, float, str or bytes value directly, but sends
any other value through its adapter registry first: a tuple key, a dictionary lookup
and two attribute lookups on the value's type, about 0.3-0.5 µs a value on the
development machine. ``None`` and ``bool`` are such values, and a league night binds
three of them for every seat (``alive``, ``forfeit``, ``forfeit_detail``), which cost
the coordinator as much as SQLite's own work on the seat row. So the rows of
:func:`kotarena.storage.db.insert_rows` reach the driver with their booleans as the
``1`` and ``0`` SQLite stores for them anyway, and without their NULL values: an
insert that leaves a column out stores NULL there (when the column has no server
default). Consecutive rows that leave the same columns out are inserted by one
``executemany``, so the rows keep their order, and their ids.

This module is compiled with the engine (``NATIVE_MODULES`` in ``setup.py``): it runs
for every row a night stores.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["driver_runs"]


def driver_runs(rows: Sequence[tuple[Any, ...]], processors: Sequence[Callable[[Any], Any] | None],
                omittable: Sequence[bool]) -> list[tuple[tuple[int, ...], list[tuple[Any, ...]]]]:
    """``rows`` as runs of consecutive rows that hold NULL in the same columns: for each
    run, the positions of those columns and the rows without them.

    A value goes through its column's bind processor, if it has one (one shared by
    consecutive rows, such as a batch's timestamp, is processed once); a boolean
    becomes ``1`` or ``0``. ``None`` is left out only in columns that are
    ``omittable`` (no server default); elsewhere it stays, to be bound as NULL.
    """
    runs: list[tuple[tuple[int, ...], list[tuple[Any, ...]]]] = []
    # (Lists, whose items compiled code reads directly, rather than any sequence.)
    process_with: list[Callable[[Any], Any] | None] = list(processors)
    may_omit: list[bool] = list(omittable)
    width = len(process_with)
    last_in: list[Any] = [None] * width
    last_out: list[Any] = [None] * width
    current: list[tuple[Any, ...]] = []
    current_nulls: tuple[int, ...] = ()
    row: tuple[Any, ...]
    for row in rows:
        values: list[Any] = []
        nulls: list[int] = []
        for column in range(width):
            value = row[column]
            if value is None:
                if may_omit[column]:
                    nulls.append(column)
                    continue
            elif value is True:
                value = 1
            elif value is False:
                value = 0
            else:
                process = process_with[column]
                if process is not None:
                    if value is not last_in[column]:
                        last_in[column] = value
                        last_out[column] = process(value)
                    value = last_out[column]
            values.append(value)
        key = tuple(nulls)
        if not current or key != current_nulls:
            current = []
            current_nulls = key
            runs.append((key, current))
        current.append(tuple(values))
    return runs
