"""The ``kotarena`` command line: a root group whose commands load on demand.

Each command lives in its own module under ``kotarena/cli/`` and is imported only when
it runs (or when help lists it), so ``kotarena --help`` stays fast and a broken
command module cannot take the others down.
"""

from __future__ import annotations

import importlib
import os
import sys

import click

#: command name -> "module:attribute", in the order help lists them.
COMMANDS: dict[str, str] = {
    "play": "kotarena.cli.play:play",
    "match": "kotarena.cli.play:match",
    "compare": "kotarena.cli.compare:compare",
    "replay": "kotarena.cli.replay:replay",
    "scenario": "kotarena.cli.scenario:scenario",
    "games": "kotarena.cli.games:games",
    "cards": "kotarena.cli.cards:cards",
    "bench": "kotarena.cli.bench:bench",
    "league": "kotarena.cli.league:league",
    "leaderboard": "kotarena.cli.league:leaderboard",
    "matches": "kotarena.cli.league:matches",
    "history": "kotarena.cli.league:history",
    "site": "kotarena.cli.site:site",
    "export": "kotarena.cli.export:export",
    "db": "kotarena.cli.league:db",
    "bots": "kotarena.cli.bots:bots",
    "plugins": "kotarena.cli.bots:plugins",
}


class LazyGroup(click.Group):
    """A group that imports a command's module only when the command is needed.

    Plugins' commands (``register_commands``) are added only when a name that is not a
    built-in command is asked for, or when help lists every command: installed
    plugins are imported by the commands that use them (the bots, a ladder's night),
    not by ``kotarena --version`` or ``kotarena db path``.
    """

    def __init__(self, *args, lazy: dict[str, str] | None = None, plugin_commands: bool = False,
                 **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})
        self.plugin_commands = plugin_commands  #: whether to ask plugins for commands
        self._plugins_asked = False
        self._from_plugins: set[str] = set()

    def _add_plugin_commands(self) -> None:
        if self.plugin_commands and not self._plugins_asked:
            from kotarena import plugins

            self._plugins_asked = True
            before = set(self.commands)
            add_plugin_commands(self)
            self._from_plugins = set(self.commands) - before
            plugins.on_reset(self._forget_plugin_commands)

    def _forget_plugin_commands(self) -> None:
        """Plugins were reloaded (tests, long-lived hosts): drop their commands, ask again."""
        for name in self._from_plugins:
            self.commands.pop(name, None)
        self._from_plugins = set()
        self._plugins_asked = False

    def list_commands(self, ctx: click.Context) -> list[str]:
        self._add_plugin_commands()
        return list(self.lazy) + sorted(set(super().list_commands(ctx)) - set(self.lazy))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.lazy:
            module_name, attribute = self.lazy[name].split(":")
            try:
                return getattr(importlib.import_module(module_name), attribute)
            except Exception as error:  # noqa: BLE001 - report it when the command is used
                return _broken_command(name, f"{type(error).__name__}: {error}")
        self._add_plugin_commands()
        return super().get_command(ctx, name)

    def resolve_command(self, ctx: click.Context, args: list[str]):
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError as error:
            from kotarena import plugins

            hint = plugins.untrusted_hint() if self.plugin_commands else ""
            if hint and args and not args[0].startswith("-"):
                raise click.UsageError(f"{error.message.rstrip('.')}. Packages {hint}", ctx) from None
            raise


def _broken_command(name: str, problem: str) -> click.Command:
    """A stand-in for a command whose module failed to import: it says why and fails."""

    def run() -> None:
        raise click.ClickException(f"the '{name}' command could not be loaded ({problem})")

    return click.Command(name, callback=run, help=f"(could not be loaded: {problem})")


@click.group(
    cls=LazyGroup,
    lazy=COMMANDS,
    plugin_commands=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.version_option(package_name="kotarena")
@click.option("--trust", "trust", multiple=True, metavar="DIST", expose_value=False, is_eager=True,
              callback=lambda ctx, param, value: _trust(value),
              help="Trust the installed package DIST (repeat): its plugins are imported by this command and the "
                   "processes it starts, its bots play unsandboxed, its games and commands are available. "
                   "Adds to KOTARENA_TRUST.")
def cli() -> None:
    """An arena for King of Tokyo bots.

    Only kotarena itself and the packages you trust (--trust, KOTARENA_TRUST) are
    imported by a command; other installed bots play in the sandbox.

    \b
    Examples:
      kotarena match --bot random --bot random --seed 7
      kotarena play --bot random --bot random
      kotarena scenario run scenarios/
    """


def _trust(packages: tuple[str, ...]) -> None:
    if packages:
        from kotarena import plugins

        plugins.trust(packages)


def add_plugin_commands(group: click.Group) -> None:
    """Let each plugin add its commands; a plugin that raises is recorded, not fatal."""
    from kotarena import plugins

    plugins.call_each("register_commands", lambda plugin, info: {"cli": group})


def main() -> None:
    """The console script: run the CLI; errors are one line unless KOTARENA_DEBUG=1."""
    try:
        cli.main(standalone_mode=True)
    except Exception as error:  # noqa: BLE001 - the last line of defence against tracebacks
        if os.environ.get("KOTARENA_DEBUG"):
            raise
        click.echo(f"Error: {error}", err=True)
        sys.exit(1)
