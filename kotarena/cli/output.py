"""Shared output helpers for listing commands: JSON, CSV or an aligned text table."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence

import click


def echo_json(data: object) -> None:
    click.echo(json.dumps(data, indent=2, sort_keys=False))


def table_text(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A plain aligned table (no box drawing, so it survives any terminal and pipe)."""
    cells = [[str(h) for h in headers]] + [["" if c is None else str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = ["  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip() for row in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def csv_text(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(headers)
    writer.writerows(rows)
    return buffer.getvalue()
