"""``kotarena export``: a season as JSON lines (see :mod:`kotarena.export`)."""

from __future__ import annotations

import sys

import click

from kotarena.cli.league import _ladder_name, db_option, results_db

_PLURALS = {"match": "matches"}


@click.command()
@click.argument("ladder_name", required=False)
@click.option("-o", "--output", "output", type=click.Path(dir_okay=False, allow_dash=True), default="-",
              show_default=True, help="Write to this file ('-': standard output).")
@click.option("--no-replays", is_flag=True, help="Leave out the matches' replays (a much smaller file).")
@db_option
def export(ladder_name: str | None, output: str, no_replays: bool, db: str | None) -> None:
    """Write a season as JSON lines: the ladder, its nights, bot versions, every match
    with its seats (places, forfeits and why, each decision's time, the bot's lines,
    ratings after the match) and replay, and the final ratings. Every ladder when none
    is named.

    Each line is a JSON object with a 'record' key (ladder, night, bot, match, rating).
    Seats and places count from 1. docs/export.md shows how to read it with pandas.

    \b
    Examples:
      kotarena export classic-4p -o classic-4p.jsonl
      kotarena export classic-4p --no-replays | head
    """
    from kotarena.export import export_season
    from kotarena.storage import queries
    from kotarena.storage.db import UnknownLadderError

    engine = results_db(db)
    names = [_ladder_name(ladder_name)] if ladder_name else queries.ladder_names(engine)
    if not names:
        raise click.ClickException("no ladders in the database yet; run 'kotarena league run ladders/quick.toml'")
    try:
        stream = sys.stdout if output == "-" else open(output, "w", encoding="utf-8", newline="\n")
    except OSError as error:
        raise click.ClickException(f"cannot write {output}: {error.strerror or error}") from None
    try:
        for name in names:
            try:
                counts = export_season(engine, name, stream, replays=not no_replays)
            except UnknownLadderError as error:
                raise click.ClickException(f"{error} (see 'kotarena leaderboard')") from None
            shown = ", ".join(f"{count} {_PLURALS.get(kind, kind + 's') if count != 1 else kind}"
                              for kind, count in counts.items())
            click.echo(f"exported ladder {name!r}: {shown}", err=True)
    finally:
        if stream is not sys.stdout:
            stream.close()
