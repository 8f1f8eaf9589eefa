"""``kotarena scenario``: run scenario files (see ``docs/scenarios.md``)."""

from __future__ import annotations

from pathlib import Path

import click

from kotarena.cli.output import echo_json
from kotarena.scenario import ScenarioError, load_scenario, run_scenario


@click.group()
def scenario() -> None:
    """Scenario files: a position, scripted dice and actions, expected results.

    \b
    Examples:
      kotarena scenario run scenarios/
      kotarena scenario run scenarios/seeds/gigazaur_roll.toml --json
    """


@scenario.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--json", "json_", is_flag=True, help="Print the results as JSON.")
@click.option("-q", "--quiet", is_flag=True, help="Do not print the event log of failed scenarios.")
def run(paths: tuple[Path, ...], json_: bool, quiet: bool) -> None:
    """Run scenario files; a directory runs every *.toml file under it.

    Prints PASS, FAIL or ERROR per scenario, what differed for each failure, and a
    summary. Exits with 1 if any scenario failed or could not be run.
    """
    files = _scenario_files(paths)
    if not files:
        raise click.ClickException(f"no scenario files (*.toml) under {', '.join(map(str, paths))}")
    entries = []
    for path, name in files:
        try:
            result = run_scenario(load_scenario(path, name=name))
        except ScenarioError as error:
            entries.append({"name": name, "path": str(path), "status": "error", "error": error.problem,
                            "failures": [], "log": []})
            if not json_:
                click.echo(f"ERROR {name}: {error.problem}")
            continue
        entries.append(result.to_json())
        if json_:
            continue
        click.echo(f"{'PASS' if result.passed else 'FAIL'} {name}")
        for failure in result.failures:
            click.echo(f"    {failure}")
        if result.failures and not quiet:
            click.echo("    log:")
            for line in result.log:
                click.echo(f"      {line}")
    counts = {status: sum(1 for e in entries if e["status"] == status) for status in ("pass", "fail", "error")}
    if json_:
        echo_json({
            "scenarios": entries,
            "summary": {"total": len(entries), "passed": counts["pass"], "failed": counts["fail"],
                        "errors": counts["error"]},
        })
    else:
        click.echo(
            f"{len(entries)} scenario{'s' if len(entries) != 1 else ''}: {counts['pass']} passed, "
            f"{counts['fail']} failed, {counts['error']} error{'s' if counts['error'] != 1 else ''}"
        )
    if counts["fail"] or counts["error"]:
        raise SystemExit(1)


def _scenario_files(paths: tuple[Path, ...]) -> list[tuple[Path, str]]:
    """The files to run with their display names, in a stable order.

    A file named on the command line is shown by its name without ``.toml``; a file
    found in a directory by its path inside that directory, so two files of the same
    name in different folders stay apart.
    """
    files = []
    for path in paths:
        if path.is_dir():
            for found in sorted(path.rglob("*.toml")):
                files.append((found, found.relative_to(path).with_suffix("").as_posix()))
        else:
            files.append((path, path.stem))
    return files
