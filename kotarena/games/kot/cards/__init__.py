"""The King of Tokyo family's card decks, looked up by deck name or deck specification.

A deck is a table (:class:`~kotarena.games.kot.cards.deck.Deck`): each distinct card's
facts (:class:`CardInfo`) and the effect that plays it, built from shared effect
blocks. A game hands the deck it plays to its states (``KingOfTokyo.blank``); a state
refers to a card in play by its index in the deck's *physical cards* (copies
expanded), so two copies of Extra Head are two different cards with the same id.

The decks (``DECKS``, ``docs/cards.md``):

* ``kot``: the classic deck, first edition (66 cards), the classic game's deck;
* ``kot-2e``: the classic deck, second edition (66 cards);
* ``origins``: King of Tokyo: Origins (50 cards, 36 of them second-edition classic cards);
* ``origins-new``: the 14 cards new in Origins (starred), to add to a classic deck;
* the mixes seed 001 suggests: ``kot+origins-new``, ``kot-2e+origins-new`` and
  ``kot-2e+origins`` (all 50 Origins cards: the repeated ones come twice).

Any other mix is a deck specification (:func:`get_deck`): decks joined by ``+``, each
with all its cards or ``:`` and the chosen ones (``kot+origins:biofuel,Orb of Doom``).
"""

from __future__ import annotations

from kotarena.engine.game import UnknownDeckError
from kotarena.games.kot.cards.classic import CLASSIC_DECK
from kotarena.games.kot.cards.deck import SPEC_SYNTAX, Deck, mix_decks, parse_deck_spec
from kotarena.games.kot.cards.info import DISCARD, KEEP, CardInfo
from kotarena.games.kot.cards.origins import ORIGINS_DECK, ORIGINS_NEW
from kotarena.games.kot.cards.second_edition import SECOND_EDITION_DECK

_DECKS: dict[str, Deck] = {deck.name: deck for deck in (CLASSIC_DECK, SECOND_EDITION_DECK, ORIGINS_DECK)}
#: The decks each card table comes from (the others are mixes of their cards).
BASE_DECKS: tuple[str, ...] = tuple(_DECKS)
_DECKS["origins-new"] = mix_decks(f"origins:{','.join(ORIGINS_NEW)}", _DECKS, name="origins-new")
for _spec in ("kot+origins-new", "kot-2e+origins-new", "kot-2e+origins"):
    _DECKS[_spec] = mix_decks(_spec, _DECKS)
#: Each named deck's distinct cards by deck name, in table order.
DECKS: dict[str, tuple[CardInfo, ...]] = {name: deck.table for name, deck in _DECKS.items()}
_MIXED: dict[str, Deck] = {}  # decks built from specifications, by specification


def get_deck(deck: str) -> Deck:
    """The deck called ``deck``, or the mix a deck specification names (see
    :func:`~kotarena.games.kot.cards.deck.parse_deck_spec`).

    Raises :class:`UnknownDeckError` (one line: the unknown deck or card, and what is
    known) otherwise.
    """
    found = _DECKS.get(deck) or _MIXED.get(deck)
    if found is None:
        if "+" not in deck and ":" not in deck:
            raise UnknownDeckError(f"unknown deck {deck!r}; known decks: {', '.join(DECKS)} "
                                   f"(or a mix: {SPEC_SYNTAX})")
        found = _MIXED[deck] = mix_decks(deck, _DECKS)
    return found


def deck_cards(deck: str) -> tuple[CardInfo, ...]:
    """The physical cards of a deck, copies expanded, in table order."""
    return get_deck(deck).cards


def deck_effects(deck: str) -> tuple:
    """The :class:`~kotarena.games.kot.cards.effects.Effect` of each physical card of a deck."""
    return get_deck(deck).card_effects


def find_card(deck: str, key: str) -> CardInfo:
    """Look a card of a deck up by id or (case-insensitive) name."""
    return get_deck(deck).find(key)


__all__ = [
    "BASE_DECKS", "CardInfo", "DECKS", "DISCARD", "Deck", "KEEP", "SPEC_SYNTAX", "UnknownDeckError", "deck_cards",
    "deck_effects", "find_card", "get_deck", "mix_decks", "parse_deck_spec",
]
