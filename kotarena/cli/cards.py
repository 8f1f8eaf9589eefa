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
    from kotarena.plugins import with_hint

    try:
        game = get_game(game_name)
    except ValueError as error:
        raise click.ClickException(with_hint(str(error))) from None
    deck = deck or game.spec.deck
    try:
        listed = game.words.cards(deck)
    except ValueError as error:  # a game without cards, or a deck it cannot play
        raise click.ClickException(str(error)) from None
    if json_:
        echo_json({"game": game.spec.name, "deck": deck, "cards": listed.data})
        return
    click.echo(table_text(listed.headers, listed.rows))
