"""League commands: ``league run/status/rerate``, ``leaderboard``, ``matches``, ``history``, ``db``."""

from __future__ import annotations

import itertools
import json
import os
import signal
import sys
import textwrap
import time
from collections.abc import Iterable, Iterator

import click

from kotarena.cli.output import csv_text, echo_json, table_text

db_option = click.option(
    "--db", "db", envvar="KOTARENA_DB", metavar="PATH_OR_URL",
    help="Results database: a file path or SQLAlchemy URL (default: the user data directory; env KOTARENA_DB).",
)


def results_db(db: str | None, *, create: bool = False):
    """The results database for a command's ``--db``, upgraded if old; a click error if it
    cannot be used. Only ``create`` (``league run``) makes one, and never in memory,
    where a night would be lost as the command ends."""
    from kotarena.storage import DatabaseError, open_db, resolve_url
    from kotarena.storage.db import in_memory

    try:
        if create and in_memory(resolve_url(db)):
            raise DatabaseError("a database in memory (:memory:) is gone when the command ends, and the night "
                                "with it; give --db a file path or a server URL")
        return open_db(db, on_upgrade=_say_upgraded, create=create)
    except DatabaseError as error:
        raise click.ClickException(str(error)) from None


def _say_upgraded(old: int, new: int) -> None:
    from kotarena.storage.db import schema_changes

    click.echo(f"upgraded the results database from schema version {old} to {new}", err=True)
    for change in schema_changes(old, new):
        click.echo(f"  {change}", err=True)


def _load_ladder(path: str, *, sealed: bool = False, overrides: dict | None = None):
    """The ladder file at ``path``; ``sealed``: read without importing untrusted bots
    here (what ``league run`` plays; see ``load_sealed_ladder``); ``overrides``: keys
    given on the command line instead (``RUN_OPTIONS`` names their options)."""
    from kotarena.bots.registry import bot_names
    from kotarena.sandbox.catalogue import CatalogueError
    from kotarena.tournament.ladder import LadderError, load_ladder
    from kotarena.tournament.night import load_sealed_ladder

    given = {key: (value, RUN_OPTIONS[key]) for key, value in (overrides or {}).items()}
    try:
        if sealed:
            return load_sealed_ladder(path, overrides=given)
        return load_ladder(path, known_bots=bot_names(), overrides=given)
    except CatalogueError as error:
        raise click.ClickException(str(error)) from None
    except LadderError as error:
        raise click.ClickException(str(error)) from None
    except OSError as error:
        raise click.ClickException(f"cannot read ladder file {path}: {error.strerror}") from None


class Progress:
    """Games done, rate and time left on stderr: redrawn in place on a terminal,
    a line per tenth of the night otherwise."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet
        self.tty = sys.stderr.isatty()
        self.started = time.monotonic()
        self.first_done: int | None = None
        self.last_tenth = -1

    def __call__(self, done: int, total: int, forfeits: int) -> None:
        if self.quiet or total == 0:
            return
        if self.first_done is None:
            self.first_done = done
            if done:
                click.echo(f"resuming: {done} of {total} matches already played", err=True)
        elapsed = time.monotonic() - self.started
        new = done - self.first_done
        rate = new / elapsed if elapsed > 0 and new else 0.0
        left = (total - done) / rate if rate else float("nan")
        width = 30
        filled = int(width * done / total)
        eta = f"{left:5.0f}s left" if rate else "   ?s left"
        line = (f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games  {rate:6.1f} games/s  "
                f"{eta}  forfeits {forfeits}")
        if self.tty:
            click.echo("\r" + line, err=True, nl=done == total)
        else:
            tenth = done * 10 // total
            if tenth != self.last_tenth:
                self.last_tenth = tenth
                click.echo(line, err=True)


@click.group()
def league() -> None:
    """Run league nights from ladder files and manage their ratings."""


@league.command("run")
@click.argument("ladder_file", type=click.Path(dir_okay=False))
@click.option("--games", "-n", type=click.IntRange(min=1), default=None,
              help="Play this many matches tonight instead of the ladder's 'games' (to try a ladder quickly).")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="Fix the night's seed instead of the ladder's (or a secret one): a night you can play again, "
                   "not sealed.")
@click.option("--time-limit", type=float, default=None, metavar="SECONDS",
              help="CPU seconds per decision instead of the ladder's 'time_limit'.")
@click.option("--workers", "-w", type=click.IntRange(min=0), default=None,
              help="Worker processes (default: all cores; 0 plays in this process).")
@click.option("--fresh", is_flag=True, help="Start a new night even if the last one is unfinished.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
@click.option("--unsandboxed", is_flag=True,
              help="Run untrusted bots without the sandbox (where it cannot be had): they could then read "
                   "and write what you can. See docs/sandbox.md.")
@click.option("--cluster", metavar="ADDRESS", envvar="KOTARENA_CLUSTER",
              help="Play on the Dask cluster whose scheduler is at ADDRESS (tcp://host:8786) instead of "
                   "this machine's processes; see docs/cluster.md (env KOTARENA_CLUSTER).")
@db_option
def league_run(ladder_file: str, games: int | None, seed: int | None, time_limit: float | None,
               workers: int | None, fresh: bool, quiet: bool, unsandboxed: bool, cluster: str | None,
               db: str | None) -> None:
    """Play a league night from LADDER_FILE, then show the leaderboard.

    Running the same command again after an interruption (Ctrl-C, SIGTERM, kill -9)
    resumes the unfinished night: no match is lost, played twice or rated twice.
    --games, --seed and --time-limit change tonight's night only (the file is left as
    it is); resume it with the same options.

    \b
    Examples:
      kotarena league run ladders/quick.toml
      kotarena league run ladders/duel.toml --games 20 --workers 2
      kotarena league run ladders/example.toml --cluster tcp://10.0.0.5:8786 --db postgresql://...
    """
    from kotarena.tournament.runner import stopping_signals

    overrides = {key: value for key, value in (("games", games), ("seed", seed), ("time_limit", time_limit))
                 if value is not None}
    night: list = []  # the night being played, once it is known
    with stopping_signals():
        try:
            engine, ladder, report = _league_run(ladder_file, overrides, workers, fresh, quiet, unsandboxed, cluster,
                                                 db, night)
        except KeyboardInterrupt:
            _say_interrupted(night[0] if night else None, db)
            sys.exit(130)
    if not quiet:
        sealed = f"sealed, commitment {report.commitment}" if report.sealed else "not sealed"
        click.echo(
            f"night {report.night} of ladder {report.ladder!r} (seed {report.seed_shown}; {sealed}): "
            f"{_count(report.played, 'match', 'matches')} played now, {report.stored_before} before, "
            f"{report.planned} planned, {_count(report.forfeits, 'forfeit')}, {report.seconds:.1f}s", err=True,
        )
    click.echo(_leaderboard_text(engine, ladder.name))


def _count(number: int, one: str, many: str | None = None) -> str:
    """``1 match``, ``2 matches``."""
    return f"{number} {one if number == 1 else many or one + 's'}"


#: The options of ``league run`` that stand in for a ladder file's keys.
RUN_OPTIONS = {"games": "--games", "seed": "--seed", "time_limit": "--time-limit"}


def _league_run(ladder_file: str, overrides: dict, workers: int | None, fresh: bool, quiet: bool,
                unsandboxed: bool, cluster: str | None, db: str | None, night: list):
    """Play the night; returns the database, the ladder and the night's report. The
    night, once known, is added to ``night``. ``KeyboardInterrupt`` (Ctrl-C, SIGTERM)
    is left to the caller."""
    from kotarena.tournament.night import NightError, run_night
    from kotarena.tournament.runner import make_executor

    ladder = _load_ladder(ladder_file, sealed=True, overrides=overrides)
    engine = results_db(db, create=True)
    workers = workers if workers is not None else ladder.workers
    progress = Progress(quiet)
    executor_factory = _cluster_factory(cluster) if cluster else make_executor

    def started(playing) -> None:
        night.append(playing)
        _announce(playing, ladder, quiet)

    try:
        if unsandboxed:
            click.echo("warning: untrusted bots run WITHOUT the sandbox (--unsandboxed)", err=True)
        report = run_night(engine, ladder, workers=workers, fresh=fresh, progress=progress, unsandboxed=unsandboxed,
                           on_start=started, executor_factory=executor_factory)
    except NightError as error:
        raise click.ClickException(str(error)) from None
    except Exception as error:  # noqa: BLE001 - a night that fails says why in one line
        if os.environ.get("KOTARENA_DEBUG"):
            raise
        raise click.ClickException(_stopped_line(error, engine, night[0] if night else None)) from None
    return engine, ladder, report


def _say_interrupted(night, db: str | None) -> None:
    """The one line of a night stopped by Ctrl-C or SIGTERM, however far it had got.

    Further signals are ignored from here to the process's end (a second Ctrl-C, a
    service manager's SIGTERM after SIGINT): the line and the exit are all that is left
    to do, and a signal in Python's exit handlers would print a traceback.
    """
    from kotarena.tournament.runner import STOPPING_SIGNALS

    for signum in STOPPING_SIGNALS:
        signal.signal(signum, signal.SIG_IGN)
    if night is None:
        click.echo("\ninterrupted before the night began: nothing was played; run the same command to resume",
                   err=True)
        return
    try:
        from kotarena.storage.store import stored_count

        stored = f"{stored_count(results_db(db), night.id)} of {night.planned}"
    except Exception:  # noqa: BLE001 - the count is a courtesy; the line must come
        stored = f"some of the {night.planned}"
    click.echo(f"\ninterrupted: {stored} matches of night {night.number} are stored; run the same command to "
               "resume", err=True)



def _cluster_factory(address: str):
    """The executor factory of a night on the Dask cluster at ``address``, once the
    cluster is known to be able to play it (else a one-line error)."""
    from kotarena.tournament.cluster import ClusterError, cluster_factory, connect

    try:
        connect(address).shutdown()
    except ClusterError as error:
        raise click.ClickException(str(error)) from None
    return cluster_factory(address)


def _announce(night, ladder, quiet: bool) -> None:
    """Say, as the night starts, whether it is sealed: a fixed seed always, as a warning."""
    if not night.sealed:
        click.echo(f"night {night.number} of ladder {ladder.name!r} is not sealed: its seed ({night.seed}) is "
                   "known in advance, and with it every roll, card and bot seed (for experiments; a ladder "
                   "without a seed draws a secret one: see docs/seeds.md)", err=True)
    elif not quiet:
        click.echo(f"night {night.number} of ladder {ladder.name!r} is sealed: its seed is secret until the "
                   f"night ends (commitment sha256 {night.commitment})", err=True)


def _stopped_line(error: BaseException, engine, night) -> str:
    """The one line of a night an error stopped: why, and what of it is stored (counted
    where the database still answers)."""
    from kotarena.storage.store import stored_count

    kept = "nothing of it was stored"
    if night is not None:
        try:
            kept = f"{stored_count(engine, night.id)} of {night.planned} matches of night {night.number} are stored"
        except Exception:  # noqa: BLE001 - the database may be what failed
            kept = "the matches stored before it stay stored"
    return (f"the night stopped: {_reason(error, engine)} ({kept}; run the same command to resume; "
            "KOTARENA_DEBUG=1 shows the traceback)")


def _reason(error: BaseException, engine=None) -> str:
    """An error that stopped a night, in a few words (its notes too): a database's
    error as its driver says it, without the SQL and parameters."""
    from sqlalchemy.exc import DBAPIError

    from kotarena.storage.db import error_line, shown_url

    text = str(error) or "(no message)"
    name = type(error).__name__
    if isinstance(error, EOFError) or "BrokenProcessPool" in name:
        text = f"a worker process ended unexpectedly ({text})"
    elif isinstance(error, DBAPIError):
        where = f"database {shown_url(engine.url.render_as_string(hide_password=False))}" if engine else "the database"
        name, text = type(error.orig).__name__, error_line(error)
        if "disk is full" in text or "No space left" in text:
            text = f"the disk of {where} is full ({text})"
        elif error.connection_invalidated or "connection" in text.lower() or "server" in text.lower():
            text = f"lost {where} ({text})"
        else:
            text = f"{where}: {text}"
    elif isinstance(error, OSError) and error.strerror:
        text = f"{error.strerror}" + (f": {error.filename}" if error.filename else "")
    notes = "; ".join(getattr(error, "__notes__", ()))
    return f"{name}: {text}" + (f"; {notes}" if notes else "")


@league.command("status")
@click.argument("ladder_name")
@click.option("--json", "json_", is_flag=True, help="Print JSON.")
@db_option
def league_status(ladder_name: str, json_: bool, db: str | None) -> None:
    """Show each night of a ladder: matches done, left and forfeited."""
    from kotarena.storage import queries

    rows = _known_ladder(queries.nights, results_db(db), _ladder_name(ladder_name))
    if json_:
        echo_json(rows)
        return
    click.echo(table_text(
        ("night", "status", "sealed", "seed", "planned", "done", "left", "forfeits", "commitment (sha256)"),
        [(r["night"], r["status"], "yes" if r["sealed"] else "no", "secret" if r["seed"] is None else r["seed"],
          r["planned"], r["done"], r["left"], r["forfeits"], r["commitment"] or "-") for r in rows]))


@league.command("rerate")
@click.argument("ladder_name")
@db_option
def league_rerate(ladder_name: str, db: str | None) -> None:
    """Recompute a ladder's ratings from its stored matches, then show the leaderboard."""
    from kotarena.storage.store import rerate

    name = _ladder_name(ladder_name)
    engine = results_db(db)
    count = _known_ladder(rerate, engine, name)
    click.echo(f"rated {count} matches of ladder {name!r}", err=True)
    click.echo(_leaderboard_text(engine, name))


def _ladder_name(value: str) -> str:
    """A ladder name, accepting a ladder file path for convenience."""
    if value.endswith(".toml"):
        from pathlib import Path

        path = Path(value)
        if path.exists():
            return _load_ladder(value).name
        return path.stem
    return value


def _known_ladder(query, engine, name: str, *args, **kwargs):
    """``query(engine, name, ...)``, a click error if there is no ladder called ``name``."""
    from kotarena.storage.db import UnknownLadderError

    try:
        return query(engine, name, *args, **kwargs)
    except UnknownLadderError as error:
        raise click.ClickException(f"{error} (run 'kotarena league run')") from None


_COLUMNS = ("rank", "entrant", "score", "mu", "sigma", "low", "high", "games", "wins", "win_share", "forfeits",
            "ahead_of_next")


def _leaderboard_text(engine, ladder_name: str) -> str:
    from kotarena.storage import queries

    rows = _known_ladder(queries.leaderboard, engine, ladder_name)
    title = f"Leaderboard: {ladder_name} (score = mu - 3*sigma)"
    # A rank the data cannot tell from the next one down is marked with "=".
    columns = ("rank", "entrant", "score", "mu", "sigma", "skill 95%", "games", "wins", "win_share", "forfeits")
    lines = [[f"{row['rank']}{'=' if row['ahead_of_next'] is False else ''}", row["entrant"], row["score"],
              row["mu"], row["sigma"], f"{row['low']:.1f}-{row['high']:.1f}", row["games"], row["wins"],
              row["win_share"], row["forfeits"]] for row in rows]
    note = ("\n= : not clearly ahead of the next entrant (their skills' difference is within the data's "
            "uncertainty)") if any(row["ahead_of_next"] is False for row in rows) else ""
    return title + "\n" + table_text(columns, lines) + note


@click.command()
@click.argument("ladder_name", required=False)
@click.option("--json", "json_", is_flag=True, help="Print JSON.")
@click.option("--csv", "csv_", is_flag=True, help="Print CSV.")
@db_option
def leaderboard(ladder_name: str | None, json_: bool, csv_: bool, db: str | None) -> None:
    """Show a ladder's ratings (every ladder's when none is named)."""
    from kotarena.storage import queries

    engine = results_db(db)
    if ladder_name:
        names = [_ladder_name(ladder_name)]
    else:
        names = queries.ladder_names(engine)
        if not names:
            raise click.ClickException("no ladders in the database yet; run 'kotarena league run ladders/quick.toml'")
    if json_:
        echo_json({name: _known_ladder(queries.leaderboard, engine, name) for name in names})
    elif csv_:
        rows = [[name] + [row[c] for c in _COLUMNS] for name in names
                for row in _known_ladder(queries.leaderboard, engine, name)]
        click.echo(csv_text(("ladder",) + _COLUMNS, rows), nl=False)
    else:
        click.echo("\n\n".join(_leaderboard_text(engine, name) for name in names))


@click.command()
@click.option("--ladder", "ladder_name", help="Only this ladder's matches.")
@click.option("--bot", "entrant", help="Only matches where this entrant sat.")
@click.option("--night", type=int, help="Only this night (each ladder numbers its nights: add --ladder for one).")
@click.option("--limit", type=click.IntRange(min=1), default=50, show_default=True, help="At most this many.")
@click.option("--json", "json_", is_flag=True, help="Print JSON.")
@db_option
def matches(ladder_name, entrant, night, limit, json_, db) -> None:
    """List stored matches, newest first (filter by ladder, bot, night)."""
    from kotarena.storage import queries

    rows = queries.matches(results_db(db), ladder=_ladder_name(ladder_name) if ladder_name else None,
                           entrant=entrant, night=night, limit=limit)
    if json_:
        # Its id is 'match' here as in the table, history, export and the site.
        echo_json([{"match": r["id"], **{key: value for key, value in r.items() if key != "id"}} for r in rows])
        return
    if not rows:
        wanted = [f"of ladder {ladder_name!r}" if ladder_name else "", f"of night {night}" if night is not None else "",
                  f"with entrant {entrant!r}" if entrant else ""]
        click.echo(" ".join(["no stored matches", *filter(None, wanted)]), err=True)
        return
    # A match is named by its id alone, as 'replay --match', 'history', export and the site name it.
    table = [(r["id"], r["ladder"], r["night"], r["termination"], r["winner"] or "-", r["turns"],
              " ".join(f"{s['entrant']}{'!' + s['forfeit'] if s['forfeit'] else ''}" for s in r["seats"]))
             for r in rows]
    click.echo(table_text(("match", "ladder", "night", "end", "winner", "turns", "seats (! = forfeit)"), table))
    forfeits = [(r["id"], s) for r in rows for s in r["seats"] if s["forfeit"]]
    if forfeits:
        click.echo("\nforfeits (the whole reason: --json, or kotarena replay --match ID):")
        for match_id, seat in forfeits:
            click.echo(f"  match {match_id} seat {seat['seat']} {seat['entrant']}: {seat['forfeit']}: "
                       f"{forfeit_line(seat['forfeit_detail'])}")


@click.command()
@click.argument("entrant")
@click.option("--ladder", "ladder_name", help="Only this ladder.")
@click.option("--limit", type=click.IntRange(min=0), default=50, show_default=True,
              help="At most this many matches a ladder (0: all of them).")
@click.option("--oldest-first", is_flag=True, help="From the first rated match on (default: the newest first).")
@click.option("--json", "json_", is_flag=True, help="Print JSON.")
@db_option
def history(entrant: str, ladder_name: str | None, limit: int, oldest_first: bool, json_: bool,
            db: str | None) -> None:
    """Show an entrant's rating after each of its rated matches, ladder by ladder: the
    newest first, 50 a ladder unless --limit says otherwise.

    \b
    Examples:
      kotarena history heuristic
      kotarena history heuristic --ladder quick --limit 0 --oldest-first --json > heuristic.json
    """
    from kotarena.storage import queries

    # (A row more than shown a ladder tells whether it has more.)
    rows = queries.history(results_db(db), entrant, ladder=_ladder_name(ladder_name) if ladder_name else None,
                           newest_first=not oldest_first, limit=limit + 1 if limit else None)
    first = next(rows, None)
    if first is None:
        raise click.ClickException(f"no rated matches for {entrant!r}")
    rows = itertools.chain([first], rows)
    if limit:
        rows = _at_most(rows, limit, entrant)
    if json_:
        _echo_json_rows(rows)
    else:
        _echo_table_rows(("ladder", "match", "mu", "sigma", "score", "forfeit"),
                         ((row["ladder"], row["match"], row["mu"], row["sigma"], row["score"],
                           f"{row['forfeit']}: {forfeit_line(row['forfeit_detail'])}" if row["forfeit"] else "")
                          for row in rows))


def _at_most(rows: Iterator[dict], limit: int, entrant: str) -> Iterator[dict]:
    """The first ``limit`` rows of each ladder (of the ``limit + 1`` read); says on
    stderr, at the end, which ladders had more."""
    cut: list[str] = []
    shown: dict[str, int] = {}
    for row in rows:
        count = shown[row["ladder"]] = shown.get(row["ladder"], 0) + 1
        if count <= limit:
            yield row
        elif count == limit + 1:
            cut.append(row["ladder"])
    if cut:
        ladders = f"ladder {cut[0]!r}, which has" if len(cut) == 1 else f"ladders {', '.join(map(repr, cut))}, which have"
        click.echo(f"({_count(limit, 'match', 'matches')} of {entrant!r} shown a ladder; {ladders} more: "
                   "--limit N shows more, --limit 0 all)", err=True)


#: The longest forfeit reason a table shows on its line.
FORFEIT_LINE = 100


def forfeit_line(detail: str | None) -> str:
    """A forfeit's detail on one line of a table: its reason (an error's own line, even
    in a detail stored traceback first), cleaned, shortened to ``FORFEIT_LINE`` characters."""
    from kotarena.forfeits import forfeit_reason

    line = forfeit_reason(detail)
    return line if len(line) <= FORFEIT_LINE else line[:FORFEIT_LINE - 3] + "..."


def _echo_json_rows(rows: Iterable[dict]) -> None:
    """``rows`` as a JSON array, as ``echo_json`` prints a list, a row at a time."""
    click.echo("[")
    for number, row in enumerate(rows):
        text = textwrap.indent(json.dumps(row, indent=2), "  ")
        click.echo(text if number == 0 else ",\n" + text, nl=False)
    click.echo("\n]")


#: Rows of a long table laid out together (see :func:`_echo_table_rows`).
TABLE_PAGE = 1000


def _echo_table_rows(headers: tuple[str, ...], rows: Iterator[tuple]) -> None:
    """``rows`` as ``table_text`` lays them out, without holding them all: the columns
    are as wide as the first ``TABLE_PAGE`` rows need (a later, wider cell widens its
    own line only)."""
    first = list(itertools.islice(rows, TABLE_PAGE))
    text = table_text(headers, first)
    click.echo(text)
    widths = [len(cell) for cell in text.split("\n")[1].split("  ")]
    for row in rows:
        cells = ["" if cell is None else str(cell) for cell in row]
        click.echo("  ".join(cell.ljust(width) for cell, width in zip(cells, widths)).rstrip())


@click.group()
def db() -> None:
    """The results database."""


@db.command("path")
@db_option
def db_path(db: str | None) -> None:
    """Print where the results database is (a path, or a URL without its password)."""
    from kotarena.storage import resolve_url
    from kotarena.storage.db import shown_url

    url = resolve_url(db)
    click.echo(url[len("sqlite:///"):] if url.startswith("sqlite:///") else shown_url(url))
