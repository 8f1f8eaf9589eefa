"""``kotarena cards``: the cards of a deck, with what each one does."""

from __future__ import annotations

import click


@click.command()
@click.option("--deck", default="kot", show_default=True, metavar="DECK",
              help="The deck to list: a deck name (kot, kot-2e, origins, ...) or a mix such as "
                   "'kot+origins:biofuel,supertower'.")
@click.option("--json", "json_", is_flag=True, help="Print JSON.")
def cards(deck: str, json_: bool) -> None:
    """List a deck's cards: name, cost, type, copies and effect.

    A card marked "no" under "effect" is in the deck (it can be bought, kept and
    discarded) but its effect is not played yet. The decks: kot (the classic deck,
    first edition), kot-2e (second edition), origins (King of Tokyo: Origins),
    origins-new (its 14 new cards) and the mixes kot+origins-new, kot-2e+origins-new
    and kot-2e+origins; any other mix is DECK[:CARD,...]+DECK[:CARD,...].

    \b
    Examples:
      kotarena cards
      kotarena cards --deck origins
      kotarena cards --deck 'kot+origins:biofuel,orb_of_doom' --json
    """
    from kotarena.cli.output import echo_json, table_text
    from kotarena.games.kot.cards import UnknownDeckError, get_deck
    from kotarena.games.kot.cards.effects import Effect

    try:
        found = get_deck(deck)
    except UnknownDeckError as error:
        raise click.ClickException(str(error)) from None
    table = found.table
    by_id = {info.id: type(effect) is not Effect for info, effect in zip(found.cards, found.card_effects)}
    rows = [
        {"id": c.id, "name": c.name, "cost": c.cost, "type": c.type, "copies": c.copies,
         "second_edition_name": c.second_edition_name, "effect": c.text, "implemented": by_id[c.id]}
        for c in sorted(table, key=lambda c: c.name.lower())
    ]
    if json_:
        echo_json({"deck": deck, "cards": rows})
        return
    click.echo(table_text(
        ("name", "cost", "type", "copies", "played", "effect"),
        [(r["name"], r["cost"], r["type"], r["copies"], "yes" if r["implemented"] else "no", r["effect"]) for r in rows],
    ))
