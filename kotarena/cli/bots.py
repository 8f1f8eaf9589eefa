"""``kotarena bots`` and ``kotarena plugins``: what is installed, and what failed to load."""

from __future__ import annotations

import click

from kotarena import plugins as plugin_registry
from kotarena.bots.registry import get_bots
from kotarena.cli.output import echo_json, table_text


@click.group(invoke_without_command=True)
@click.option("--json", "json_", is_flag=True, help="Print JSON instead of a table.")
@click.pass_context
def bots(ctx: click.Context, json_: bool) -> None:
    """List the installed bots (name, package, version, games, description).

    Packages that failed to load are listed after the bots, with the reason.
    """
    if ctx.invoked_subcommand is not None:
        return
    installed = get_bots()
    errors = plugin_registry.plugin_errors()
    if json_:
        echo_json({
            "bots": [info.to_json() for info in installed.values()],
            "errors": [{"plugin": e.plugin, "package": e.package, "error": e.message} for e in errors],
        })
        return
    rows = [(i.name, i.package, i.version, ",".join(i.games), i.description) for i in installed.values()]
    click.echo(table_text(("name", "package", "version", "games", "description"), rows))
    for error in errors:
        click.echo(f"error: package {error.package!r} (plugin {error.plugin!r}): {error.message}")


@click.command()
@click.option("--json", "json_", is_flag=True, help="Print JSON instead of a table.")
def plugins(json_: bool) -> None:
    """List plugin packages, the hooks they implement, and load errors."""
    loaded = plugin_registry.plugins()
    errors = plugin_registry.plugin_errors()
    if json_:
        echo_json({
            "plugins": [
                {"name": p.name, "package": p.package, "version": p.version, "hooks": p.hooks, "builtin": p.builtin}
                for p in loaded
            ],
            "errors": [{"plugin": e.plugin, "package": e.package, "error": e.message} for e in errors],
        })
        return
    rows = [(p.name, p.package, p.version, ",".join(p.hooks), "yes" if p.builtin else "") for p in loaded]
    click.echo(table_text(("plugin", "package", "version", "hooks", "builtin"), rows))
    for error in errors:
        click.echo(f"error: package {error.package!r} (plugin {error.plugin!r}): {error.message}")
