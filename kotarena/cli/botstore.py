"""``kotarena bots install``, ``bots uninstall`` and ``bots list``: the bot store.

Strangers' bots go into the bot store (:mod:`kotarena.sandbox.botstore`), not into the
environment kotarena runs in; only their sandboxes ever put them on a path.
"""

from __future__ import annotations

import click

from kotarena.cli.output import echo_json, table_text


@click.command()
@click.argument("source")
@click.option("--find-links", "find_links", multiple=True, metavar="DIR",
              help="Look for wheels in DIR too (pip's --find-links); repeatable.")
@click.option("--no-index", is_flag=True, help="Use no package index, only --find-links (offline).")
def install(source: str, find_links: tuple[str, ...], no_index: bool) -> None:
    """Install a bot you do not vouch for into the bot store.

    SOURCE is a wheel, an sdist, a project directory or a requirement (a name on the
    package index). It is installed, with the requirements this environment lacks (as
    wheels only), into a directory of its own that only its sandbox puts on its path:
    never into this environment, where a package's code would run in every kotarena
    command. An sdist or a directory is built into a wheel in the sandbox first. A newer
    version replaces the older one (ratings are kept by entrant label). Bots you trust
    go into this environment with pip instead.

    \b
    Examples:
      kotarena bots install kotarena_smash_bot-0.2-py3-none-any.whl
      kotarena bots install ./kotarena-smash-bot
      kotarena bots install kotarena-smash-bot==0.2
      kotarena bots install smash.whl --no-index --find-links wheels/
    """
    from kotarena.sandbox.botinstall import install as install_bot
    from kotarena.sandbox.botstore import InstallError

    try:
        done = install_bot(source, find_links=find_links, no_index=no_index, say=click.echo)
    except InstallError as error:
        raise click.ClickException(str(error)) from None
    for old in done.replaced:
        click.echo(f"Replaced {old.name} {old.version} (ratings are kept by entrant label, not by version)")
    if done.dependencies:
        click.echo(f"With its requirements: {', '.join(done.dependencies)}")
    click.echo(f"Installed {done.bot.name} {done.bot.version} in {done.bot.directory}: "
               f"bots {', '.join(done.bots)} (sandboxed; see 'kotarena bots')")


@click.command()
@click.argument("name")
def uninstall(name: str) -> None:
    """Remove a bot from the bot store: NAME is its package or one of its bots.

    \b
    Example:
      kotarena bots uninstall kotarena-smash-bot
    """
    from kotarena.sandbox.botinstall import uninstall as uninstall_bot
    from kotarena.sandbox.botstore import InstallError

    try:
        removed = uninstall_bot(name)
    except InstallError as error:
        raise click.ClickException(str(error)) from None
    for bot in removed:
        click.echo(f"Removed {bot.name} {bot.version} ({bot.directory})")


@click.command(name="list")
@click.option("--json", "json_", is_flag=True, help="Print JSON instead of a table.")
def list_stored(json_: bool) -> None:
    """List the bot store: each package, its version, its bots and where it lies.

    \b
    Examples:
      kotarena bots list
      kotarena bots list --json
    """
    from kotarena.sandbox.botstore import normal, store_dir, stored
    from kotarena.sandbox.catalogue import CatalogueError, read_catalogue

    packages = stored()
    bots: dict[str, list[str]] = {}
    if packages:
        try:
            found = read_catalogue()
        except CatalogueError as error:
            click.echo(f"(their bots cannot be listed: {error})", err=True)
            found = {"bots": []}
        for entry in found["bots"]:
            if entry["path"]:
                bots.setdefault(normal(entry["package"]), []).append(entry["name"])
    rows = [{"package": p.name, "version": p.version, "bots": bots.get(normal(p.name), []),
             "directory": str(p.directory), "source": p.source} for p in packages]
    if json_:
        echo_json({"store": str(store_dir()), "packages": rows})
        return
    if not rows:
        click.echo(f"The bot store ({store_dir()}) is empty: 'kotarena bots install SOURCE' adds a bot.")
        return
    click.echo(table_text(("package", "version", "bots", "directory"),
                          [(r["package"], r["version"], ",".join(r["bots"]), r["directory"]) for r in rows]))


#: The commands this module adds to ``kotarena bots``.
STORE_COMMANDS = (install, uninstall, list_stored)

__all__ = ["STORE_COMMANDS", "install", "list_stored", "uninstall"]
