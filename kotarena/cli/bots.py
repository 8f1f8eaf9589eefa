"""``kotarena bots`` (list, ``check``, ``new``) and ``kotarena plugins``.

Listing shows what is installed and what failed to load; ``check`` runs the
conformance checker (:mod:`kotarena.conformance`); ``new`` writes a pip-installable bot
project from the templates shipped in ``kotarena/templates/bot/``.
"""

from __future__ import annotations

import re
from importlib.resources import files
from pathlib import Path

import click

from kotarena import plugins as plugin_registry
from kotarena.bots.registry import get_bots
from kotarena.cli.botstore import STORE_COMMANDS
from kotarena.cli.output import echo_json, table_text

#: Template file -> path in the new project (``{module}`` and friends filled in).
TEMPLATE_FILES = {
    "pyproject.toml.tmpl": "pyproject.toml",
    "README.md.tmpl": "README.md",
    "bot.py.tmpl": "{module}.py",
    "test_bot.py.tmpl": "tests/test_{underscored}.py",
}


@click.group(invoke_without_command=True)
@click.option("--json", "json_", is_flag=True, help="Print JSON instead of a table.")
@click.pass_context
def bots(ctx: click.Context, json_: bool) -> None:
    """List the installed bots (name, package, version, games, description).

    Packages that failed to load are listed after the bots, with the reason.

    \b
    Examples:
      kotarena bots
      kotarena bots new "Smash Bot"
      kotarena bots check smash-bot
    """
    if ctx.invoked_subcommand is not None:
        return
    installed = known_bots()
    errors = plugin_registry.plugin_errors()
    if json_:
        echo_json({
            "bots": [{**info.to_json(), "name": name} for name, info in installed.items()],
            "errors": [{"plugin": e.plugin, "package": e.package, "error": e.message} for e in errors],
        })
        return
    rows = [(name, i.package, i.version, ",".join(i.games), ("(sandboxed) " if i.sealed else "") + i.description)
            for name, i in installed.items()]
    click.echo(table_text(("name", "package", "version", "games", "description"), rows))
    for error in errors:
        click.echo(f"error: package {error.package!r} (plugin {error.plugin!r}): {error.message}")


def known_bots() -> dict:
    """Every installed bot by the name it answers to: the trusted ones, imported here,
    and the untrusted ones as they declared themselves in the sandbox (never imported
    here: see :func:`kotarena.sandbox.untrusted.know_untrusted`)."""
    from kotarena.sandbox.catalogue import CatalogueError
    from kotarena.sandbox.untrusted import know_untrusted

    try:
        know_untrusted()
    except CatalogueError as error:
        raise click.ClickException(str(error)) from None
    return get_bots()


@bots.command()
@click.argument("name")
@click.option("--games", default=2, show_default=True, type=click.IntRange(1, 1000),
              help="Games per player count, with and without cards.")
@click.option("--seed", default=0, show_default=True, type=int, help="Seed of the first game.")
@click.option("--time-limit", default=1.0, show_default=True, type=click.FloatRange(min=0, min_open=True),
              help="Seconds of CPU time one decision may take.")
@click.option("--json", "json_", is_flag=True, help="Print the report as JSON.")
@click.option("--trust", "trust", multiple=True, metavar="NAME",
              help="Trust the bot NAME, or the package NAME (repeat): checked in this process, with your rights. "
                   "An untrusted bot is checked in the sandbox, as a ladder seats it.")
@click.pass_context
def check(ctx: click.Context, name: str, games: int, seed: int, time_limit: float, json_: bool,
          trust: tuple[str, ...]) -> None:
    """Check that the installed bot NAME is fit for the ladder.

    Plays seeded games against the random bot at every player count, with and without
    cards, and checks: registration, no exceptions, only legal answers, views left
    untouched, same seed -> same actions, decision time, and that the bot works in a
    separate worker process. The bot is seated as a ladder seats it: a bot you do not
    trust (--trust) plays in the sandbox, and fails here where it would fail there.
    Prints one line per check; exits 1 if any fails.
    """
    from kotarena.bots.registry import AmbiguousBotError, UnknownBotError, load_failure
    from kotarena.conformance import check_bot
    from kotarena.sandbox.catalogue import CatalogueError
    from kotarena.sandbox.relay import sandbox_refusal
    from kotarena.sandbox.untrusted import find_bot, trust_names

    try:
        trust_names(trust)
        refusal = sandbox_refusal(find_bot(name))
        if refusal:
            raise click.ClickException(refusal)
        report = check_bot(name, games=games, seed=seed, time_limit=time_limit)
    except AmbiguousBotError as error:
        raise click.ClickException(str(error)) from None
    except UnknownBotError as error:
        failed = plugin_registry.plugin_errors()
        named = load_failure(name)  # (then the error says it already)
        hint = f" ({len(failed)} plugin problem(s): see 'kotarena plugins')" if failed and not named else ""
        raise click.ClickException(f"{error}{hint}") from None
    except CatalogueError as error:
        raise click.ClickException(str(error)) from None
    if json_:
        echo_json(report.to_json())
    else:
        click.echo(report.text())
    if not report.ok:
        ctx.exit(1)


@bots.command()
@click.argument("name")
@click.option("--dir", "directory", default=".", show_default=True,
              type=click.Path(file_okay=False, path_type=Path),
              help="Where to create the project directory.")
def new(name: str, directory: Path) -> None:
    """Create a pip-installable bot project for a bot called NAME.

    Writes kotarena-<name>/ with a pyproject.toml declaring the entry point, the bot
    module, tests (the conformance check and one position) and a README.
    """
    try:
        names = project_names(name)
    except ValueError as error:
        raise click.ClickException(str(error)) from None
    if names["slug"] in known_bots():
        raise click.ClickException(f"a bot named {names['slug']!r} is already installed; choose another name")
    target = directory / names["package"]
    if target.exists():
        raise click.ClickException(f"{target} already exists; choose another name or --dir")
    written = write_project(target, names)
    click.echo(f"Created {target}/ for the bot {names['slug']!r}:")
    for path in written:
        click.echo(f"  {path.relative_to(target)}")
    click.echo(
        "Next:\n"
        f"  pip install -e '{target}[test]'\n"
        "  kotarena bots\n"
        f"  kotarena bots check {names['slug']}\n"
        f"  kotarena play --bot {names['slug']} --bot random"
    )


def project_names(name: str) -> dict[str, str]:
    """Every spelling of a bot's name the templates need, from what the user typed.

    ``"Smash Bot"`` gives slug ``smash-bot`` (the bot's name), package
    ``kotarena-smash-bot``, module ``kotarena_smash_bot`` and class ``SmashBot``.
    """
    words = re.findall(r"[a-z0-9]+", name.lower())
    if words[:1] == ["kotarena"]:
        words = words[1:]
    if not words:
        raise ValueError(f"{name!r} is not a usable bot name; use letters, digits and spaces, e.g. 'Smash Bot'")
    if not words[0][0].isalpha():
        raise ValueError(f"a bot name must start with a letter, not {name!r}")
    slug = "-".join(words)
    underscored = "_".join(words)
    class_name = "".join(word.capitalize() for word in words)
    if not class_name.endswith("Bot"):
        class_name += "Bot"
    return {
        "slug": slug,
        "underscored": underscored,
        "title": " ".join(word.capitalize() for word in words),
        "package": f"kotarena-{slug}",
        "module": f"kotarena_{underscored}",
        "class_name": class_name,
    }


def render(template: str, names: dict[str, str]) -> str:
    """Fill ``{{key}}`` placeholders; an unknown key is a bug in the template."""
    return re.sub(r"\{\{(\w+)\}\}", lambda match: names[match.group(1)], template)


def write_project(target: Path, names: dict[str, str]) -> list[Path]:
    """Write the bot project into ``target`` (which must not exist); returns the files."""
    source = files("kotarena").joinpath("templates", "bot")
    target.mkdir(parents=True)
    written = []
    for template, relative in TEMPLATE_FILES.items():
        path = target / relative.format(**names)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(render(source.joinpath(template).read_text(encoding="utf-8"), names), encoding="utf-8")
        written.append(path)
    return written


@click.command()
@click.option("--json", "json_", is_flag=True, help="Print JSON instead of a table.")
def plugins(json_: bool) -> None:
    """List plugin packages, the hooks they implement, and load errors.

    Only trusted packages' plugins are imported (kotarena's own, --trust,
    KOTARENA_TRUST); the others are listed as sandboxed, with the bots they declared in
    the sandbox.
    """
    bots = known_bots()  # calling register_bots is what finds plugins that raise or reuse a name
    loaded = plugin_registry.plugins()
    errors = plugin_registry.plugin_errors()
    sandboxed: dict[tuple[str, str], dict] = {}
    for dist, (package, version) in sorted(plugin_registry.untrusted().items()):
        plugged = sorted({info.plugin for info in bots.values() if plugin_registry.normal(info.package) == dist})
        sandboxed[(package, version)] = {"name": ",".join(plugged) or "?", "package": package, "version": version,
                                         "hooks": ["register_bots"] if plugged else [], "builtin": False,
                                         "sandboxed": True}
    if json_:
        echo_json({
            "plugins": [
                {"name": p.name, "package": p.package, "version": p.version, "hooks": p.hooks, "builtin": p.builtin,
                 "sandboxed": False}
                for p in loaded
            ] + list(sandboxed.values()),
            "errors": [{"plugin": e.plugin, "package": e.package, "error": e.message} for e in errors],
        })
        return
    rows = [(p.name, p.package, p.version, ",".join(p.hooks), "yes" if p.builtin else "") for p in loaded]
    rows += [(p["name"], p["package"], p["version"], ",".join(p["hooks"]) + " (sandboxed: not trusted)", "")
             for p in sandboxed.values()]
    click.echo(table_text(("plugin", "package", "version", "hooks", "builtin"), rows))
    for error in errors:
        click.echo(f"error: package {error.package!r} (plugin {error.plugin!r}): {error.message}")


for _command in STORE_COMMANDS:  # install, uninstall, list: the bot store (kotarena.cli.botstore)
    bots.add_command(_command)
