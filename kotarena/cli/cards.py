"""``kotarena cards``: the cards of a deck, with what each one does."""

from __future__ import annotations

import click


@click.command()
@click.option("--game", "game_name", default="kot", show_default=True, metavar="NAME",
              help="The game whose deck to list (a name or alias; 'kotarena games' lists them).")
@click.option("--deck", default=None, metavar="NAME", help="The deck to list (one the game plays). Default: the game's deck.")
@click.option("--json", "json_", is_flag=True, help="Print JSON.")
def cards(game_name: str, deck: str | None, json_: bool) -> None:
    """List a deck's cards: name, cost, type, copies and effect.

    A card marked "no" under "effect" is in the deck (it can be bought, kept and
    discarded) but its effect is not played yet.

    \b
    Examples:
      kotarena cards
      kotarena cards --game origins
      kotarena cards --deck kot --json
    """
    from kotarena.cli.output import echo_json, table_text
    from kotarena.games import get_game
    from kotarena.games.kot.cards import DECKS, UnknownDeckError, deck_cards, deck_effects
    from kotarena.games.kot.cards.effects import Effect

    try:
        game = get_game(game_name)
    except ValueError as error:
        raise click.ClickException(str(error)) from None
    spec = game.spec
    if deck is None:
        deck = spec.deck
        if deck is None:
            raise click.ClickException(f"{spec.title} is played without cards")
    if deck not in spec.decks or deck not in DECKS:
        known = ", ".join(name for name in spec.decks if name in DECKS) or "none"
        raise click.ClickException(f"unknown deck {deck!r} for {spec.title}; known decks: {known}")
    try:
        table = DECKS[deck]
        effects = deck_effects(deck)
    except (KeyError, UnknownDeckError):
        raise click.ClickException(f"unknown deck {deck!r}; known decks: {', '.join(sorted(DECKS))}") from None

    by_id = {info.id: type(effect) is not Effect for info, effect in zip(deck_cards(deck), effects)}
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
