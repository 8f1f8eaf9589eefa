"""Shared output helpers for listing commands: JSON, CSV or an aligned text table."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence

import click

from kotarena.plain_table import table_text

__all__ = ["csv_text", "echo_json", "table_text"]


def echo_json(data: object) -> None:
    click.echo(json.dumps(data, indent=2, sort_keys=False))


def csv_text(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(headers)
    writer.writerows(rows)
    return buffer.getvalue()
