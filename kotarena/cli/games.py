"""``kotarena games``: the games kotarena can play (built-in and from plugins)."""

from __future__ import annotations

import click


@click.command()
@click.option("--json", "json_", is_flag=True, help="Print JSON.")
def games(json_: bool) -> None:
    """List the games kotarena can play: name, title, players, decks, rules version.

    A game's name (or an alias) is what 'play --game', 'match --game', 'bench --game'
    and a ladder's 'game' key take. A game's options follow its name after a colon:
    'origins:two-player-variant=off'.

    \b
    Examples:
      kotarena games
      kotarena games --json
    """
    from kotarena.cli.output import echo_json, table_text
    from kotarena.games import games as registered

    found = list(registered().values())
    if json_:
        echo_json({"games": [
            {"name": g.spec.name, "title": g.spec.title, "min_players": g.spec.min_players,
             "max_players": g.spec.max_players, "deck": g.spec.deck, "decks": list(g.spec.decks),
             "rules_version": g.spec.rules_version, "aliases": list(g.spec.aliases),
             "decisions": dict(g.decision_kinds),
             "options": {o.name: {"values": list(o.values), "default": o.default, "help": o.help}
                         for o in g.options.values()}}
            for g in found
        ]})
        return
    click.echo(table_text(
        ("name", "title", "players", "decks", "rules", "aliases", "options"),
        [(g.spec.name, g.spec.title, f"{g.spec.min_players}-{g.spec.max_players}", ", ".join(g.spec.decks) or "none",
          g.spec.rules_version, ", ".join(g.spec.aliases),
          ", ".join(f"{o.name}={o.shown or '|'.join(o.values)}" for o in g.options.values())) for g in found],
    ))
    from kotarena.plugins import untrusted_hint

    hint = untrusted_hint()
    if hint:
        click.echo(f"(packages {hint})")
