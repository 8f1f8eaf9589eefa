"""``kotarena site build``: the static site (see :mod:`kotarena.site`)."""

from __future__ import annotations

import sys
import time

import click

from kotarena.cli.league import _ladder_name, db_option, results_db


@click.group()
def site() -> None:
    """Build a static HTML site from the results database.

    \b
    Examples:
      kotarena site build site/
      kotarena site build site/ --ladder classic-4p
    """


@site.command()
@click.argument("directory", type=click.Path(file_okay=False))
@click.option("--ladder", "ladders", multiple=True, metavar="NAME",
              help="Only this ladder (repeat for several; default: every ladder).")
@click.option("-w", "--workers", type=click.IntRange(min=0), default=None,
              help="Processes that play the games again for the viewer (default: all cores; 0: this one).")
@click.option("--full", is_flag=True,
              help="Play every game again, keeping nothing of the last build into DIRECTORY.")
@click.option("-q", "--quiet", is_flag=True, help="Print nothing but errors.")
@db_option
def build(directory: str, ladders: tuple[str, ...], workers: int | None, full: bool, quiet: bool,
          db: str | None) -> None:
    """Write the site into DIRECTORY: each ladder's leaderboard with intervals, rating
    charts, crosstable, win shares by turn order, card statistics, nights, and a replay
    viewer for every stored game. Open DIRECTORY/index.html in a browser: the pages
    need no server and no network.

    Building again into the same DIRECTORY plays only the games stored since (the
    leaderboards, charts and statistics are written anew each time).

    \b
    Examples:
      kotarena site build site/
      kotarena site build site/ --ladder classic-4p
      kotarena site build site/ --full
      xdg-open site/index.html
    """
    from kotarena.site import build_site
    from kotarena.storage.db import UnknownLadderError

    engine = results_db(db)
    started = time.monotonic()
    tty = sys.stderr.isatty() and not quiet

    def progress(done: int) -> None:
        if tty:
            click.echo(f"\rgames written for the viewer: {done}", err=True, nl=False)

    try:
        report = build_site(engine, directory, ladders=[_ladder_name(name) for name in ladders] or None,
                            workers=workers, progress=progress, full=full)
    except UnknownLadderError as error:
        raise click.ClickException(f"{error} (see 'kotarena leaderboard')") from None
    except OSError as error:
        raise click.ClickException(f"cannot write the site into {directory}: {error.strerror or error}") from None
    if tty:
        click.echo("", err=True)
    for match_id, why in report.replay_errors:
        click.echo(f"warning: match {match_id}: {why}", err=True)
    if not quiet:
        ladders = f"{len(report.ladders)} ladder{'' if len(report.ladders) == 1 else 's'}"
        kept = f" ({report.kept} kept from the last build)" if report.kept else ""
        click.echo(f"built {directory}: {ladders}, {report.matches} games played again{kept}, {report.files} files "
                   f"written in {time.monotonic() - started:.1f} s; open {directory.rstrip('/')}/index.html", err=True)
