"""The King of Tokyo family's card decks, looked up by deck name.

A deck is a table (:class:`~kotarena.games.kot.cards.deck.Deck`): each distinct card's
facts (:class:`CardInfo`) and the effect that plays it, built from shared effect
blocks. A game hands the deck it plays to its states (``KingOfTokyo.blank``); a state
refers to a card in play by its index in the deck's *physical cards* (copies
expanded), so two copies of Extra Head are two different cards with the same id.
"""

from __future__ import annotations

from kotarena.games.kot.cards.classic import CLASSIC_DECK
from kotarena.games.kot.cards.deck import Deck
from kotarena.games.kot.cards.info import DISCARD, KEEP, CardInfo

_DECKS: dict[str, Deck] = {deck.name: deck for deck in (CLASSIC_DECK,)}
#: Each deck's distinct cards by deck name, in table order.
DECKS: dict[str, tuple[CardInfo, ...]] = {name: deck.table for name, deck in _DECKS.items()}


class UnknownDeckError(ValueError):
    """A deck name that no table answers to."""


def get_deck(deck: str) -> Deck:
    """The deck called ``deck``."""
    try:
        return _DECKS[deck]
    except KeyError:
        raise UnknownDeckError(f"unknown deck {deck!r}; known decks: {', '.join(sorted(DECKS))}, none") from None


def deck_cards(deck: str) -> tuple[CardInfo, ...]:
    """The physical cards of a deck, copies expanded, in table order."""
    return get_deck(deck).cards


def deck_effects(deck: str) -> tuple:
    """The :class:`~kotarena.games.kot.cards.effects.Effect` of each physical card of a deck."""
    return get_deck(deck).card_effects


def find_card(deck: str, key: str) -> CardInfo:
    """Look a card up by id or (case-insensitive) name."""
    wanted = key.strip().lower()
    for info in DECKS[deck]:
        if info.id == wanted or info.name.lower() == wanted:
            return info
    raise UnknownDeckError(f"no card {key!r} in deck {deck!r}")


__all__ = [
    "CardInfo", "DECKS", "DISCARD", "Deck", "KEEP", "UnknownDeckError", "deck_cards", "deck_effects", "find_card",
    "get_deck",
]
