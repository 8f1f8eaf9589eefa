"""Card decks: one table per deck, looked up by deck name.

A deck is a tuple of :class:`CardInfo`; the engine refers to a card in play by its
index in the deck's *card list* (copies expanded), so two copies of Extra Head are two
different physical cards with the same id.
"""

from __future__ import annotations

from kotarena.cards.info import DISCARD, KEEP, CardInfo
from kotarena.cards.kot import KOT_CARDS

DECKS: dict[str, tuple[CardInfo, ...]] = {"kot": KOT_CARDS}


class UnknownDeckError(ValueError):
    """A deck name that no table answers to."""


def deck_cards(deck: str) -> tuple[CardInfo, ...]:
    """The physical cards of a deck, copies expanded, in table order."""
    try:
        table = DECKS[deck]
    except KeyError:
        raise UnknownDeckError(f"unknown deck {deck!r}; known decks: {', '.join(sorted(DECKS))}, none") from None
    return tuple(info for info in table for _ in range(info.copies))


def deck_effects(deck: str) -> tuple:
    """The :class:`~kotarena.cards.effects.Effect` of each physical card of a deck.

    Cards whose effect is not written yet get the base ``Effect`` (they do nothing).
    """
    from kotarena.cards.effects import Effect

    effects = _effect_tables().get(deck, {})
    nothing = Effect()
    return tuple(effects.get(info.id, nothing) for info in deck_cards(deck))


def _effect_tables() -> dict:
    # Imported on first use: effects import the engine, which imports this package.
    from kotarena.cards.kot_effects import KOT_EFFECTS

    return {"kot": KOT_EFFECTS}


def find_card(deck: str, key: str) -> CardInfo:
    """Look a card up by id or (case-insensitive) name."""
    wanted = key.strip().lower()
    for info in DECKS[deck]:
        if info.id == wanted or info.name.lower() == wanted:
            return info
    raise UnknownDeckError(f"no card {key!r} in deck {deck!r}")


__all__ = ["CardInfo", "DECKS", "DISCARD", "KEEP", "deck_cards", "deck_effects", "find_card", "UnknownDeckError"]
