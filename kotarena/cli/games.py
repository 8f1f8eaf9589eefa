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

    rows = [
        {"name": g.spec.name, "title": g.spec.title, "min_players": g.spec.min_players,
         "max_players": g.spec.max_players, "deck": g.spec.deck, "decks": list(g.spec.decks),
         "rules_version": g.spec.rules_version, "aliases": list(g.spec.aliases),
         "decisions": dict(g.decision_kinds),
         "options": {o.name: {"values": list(o.values), "default": o.default, "help": o.help}
                     for o in g.options.values()}}
        for g in registered().values()
    ]
    if json_:
        echo_json({"games": rows})
        return
    click.echo(table_text(
        ("name", "title", "players", "decks", "rules", "aliases", "options"),
        [(r["name"], r["title"], f"{r['min_players']}-{r['max_players']}", ", ".join(r["decks"]) or "none",
          r["rules_version"], ", ".join(r["aliases"]),
          ", ".join(f"{k}={'|'.join(o['values'])}" for k, o in r["options"].items())) for r in rows],
    ))
