"""``kotarena cards``: the cards of a deck, with what each one does."""

from __future__ import annotations

import click


@click.command()
@click.option("--game", "game_name", default="kot", show_default=True, metavar="NAME",
              help="The game whose deck to list (a name or alias; 'kotarena games' lists them).")
@click.option("--deck", default=None, metavar="DECK",
              help="The deck to list: one the game plays (kot, kot-2e, origins, ...) or a mix such as "
                   "'kot+origins:biofuel,supertower'. Default: the game's deck.")
@click.option("--json", "json_", is_flag=True, help="Print JSON.")
def cards(game_name: str, deck: str | None, json_: bool) -> None:
    """List a deck's cards: name, cost, type, copies and effect.

    A card marked "no" under "effect" is in the deck (it can be bought, kept and
    discarded) but its effect is not played yet. The decks: kot (the classic deck,
    first edition), kot-2e (second edition), origins (King of Tokyo: Origins),
    origins-new (its 14 new cards) and the mixes kot+origins-new, kot-2e+origins-new
    and kot-2e+origins; any other mix is DECK[:CARD,...]+DECK[:CARD,...].

    \b
    Examples:
      kotarena cards
      kotarena cards --game origins
      kotarena cards --game duel
      kotarena cards --deck 'kot+origins:biofuel,orb_of_doom' --json
    """
    from kotarena.cli.output import echo_json, table_text
    from kotarena.games import get_game
    from kotarena.games.kot.cards import UnknownDeckError
    from kotarena.games.kot.cards.effects import Effect
    from kotarena.plugins import with_hint

    try:
        game = get_game(game_name)
    except ValueError as error:
        raise click.ClickException(with_hint(str(error))) from None
    spec = game.spec
    if deck is None:
        deck = spec.deck
    card_rows = getattr(game, "card_rows", None)
    if card_rows is not None:  # a game with a deck of its own (Duel)
        try:
            game.check_deck(deck)
        except ValueError as error:
            raise click.ClickException(str(error)) from None
        rows = card_rows()
        if json_:
            echo_json({"game": spec.name, "deck": deck, "cards": rows})
        else:
            click.echo(table_text(("name", "cost", "type", "hype token", "effect"),
                                  [(r["name"], r["cost"], r["type"], r["hype"] or "", r["effect"]) for r in rows]))
        return
    deck_of = getattr(game, "deck", None)
    if deck is None or deck_of is None:
        raise click.ClickException(f"{spec.title} is played without cards")
    try:
        found = deck_of(deck)
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
        echo_json({"game": spec.name, "deck": deck, "cards": rows})
        return
    click.echo(table_text(
        ("name", "cost", "type", "copies", "played", "effect"),
        [(r["name"], r["cost"], r["type"], r["copies"], "yes" if r["implemented"] else "no", r["effect"]) for r in rows],
    ))
