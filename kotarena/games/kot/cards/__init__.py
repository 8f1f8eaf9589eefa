"""Card decks: one table per deck, looked up by deck name.

A deck is a tuple of :class:`CardInfo`; the engine refers to a card in play by its
index in the deck's *card list* (copies expanded), so two copies of Extra Head are two
different physical cards with the same id.
"""

from __future__ import annotations

from kotarena.games.kot.cards.info import DISCARD, KEEP, CardInfo
from kotarena.games.kot.cards.kot import KOT_CARDS

DECKS: dict[str, tuple[CardInfo, ...]] = {"kot": KOT_CARDS}


class UnknownDeckError(ValueError):
    """A deck name that no table answers to."""


#: Expanded decks by name, with the table they were expanded from: every new game
#: asks for its deck, and a table only changes if someone registers a new one.
_EXPANDED: dict[str, tuple[tuple[CardInfo, ...], tuple[CardInfo, ...], tuple]] = {}


def _expanded(deck: str) -> tuple[tuple[CardInfo, ...], tuple]:
    try:
        table = DECKS[deck]
    except KeyError:
        raise UnknownDeckError(f"unknown deck {deck!r}; known decks: {', '.join(sorted(DECKS))}, none") from None
    cached = _EXPANDED.get(deck)
    if cached is None or cached[0] is not table:
        from kotarena.games.kot.cards.effects import Effect

        cards = tuple(info for info in table for _ in range(info.copies))
        effects = _effect_tables().get(deck, {})
        nothing = Effect()
        cached = _EXPANDED[deck] = (table, cards, tuple(effects.get(info.id, nothing) for info in cards))
    return cached[1], cached[2]


def deck_cards(deck: str) -> tuple[CardInfo, ...]:
    """The physical cards of a deck, copies expanded, in table order."""
    return _expanded(deck)[0]


def deck_effects(deck: str) -> tuple:
    """The :class:`~kotarena.games.kot.cards.effects.Effect` of each physical card of a deck.

    Cards whose effect is not written yet get the base ``Effect`` (they do nothing).
    """
    return _expanded(deck)[1]


def _effect_tables() -> dict:
    # Imported on first use: effects import the engine, which imports this package.
    from kotarena.games.kot.cards.kot_effects import KOT_EFFECTS

    return {"kot": KOT_EFFECTS}


def find_card(deck: str, key: str) -> CardInfo:
    """Look a card up by id or (case-insensitive) name."""
    wanted = key.strip().lower()
    for info in DECKS[deck]:
        if info.id == wanted or info.name.lower() == wanted:
            return info
    raise UnknownDeckError(f"no card {key!r} in deck {deck!r}")


__all__ = ["CardInfo", "DECKS", "DISCARD", "KEEP", "deck_cards", "deck_effects", "find_card", "UnknownDeckError"]
