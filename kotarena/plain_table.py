"""A plain aligned text table: what every listing prints, from a game's scores to the
leaderboard.

A module of its own, below the engine, so that the database commands lay out their
tables without importing the engine (whose package imports its whole vocabulary).
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["table_text"]


def table_text(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A plain aligned table (no box drawing, so it survives any terminal and pipe)."""
    cells = [[str(h) for h in headers]] + [["" if c is None else str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = ["  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip() for row in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)
