"""What the engine knows about a card without its effect: id, name, cost, type."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

KEEP: Final = "keep"
DISCARD: Final = "discard"


@dataclass(frozen=True, slots=True)
class CardInfo:
    """One distinct card of a deck.

    ``id`` is the stable key used in replays, scenarios and views; ``copies`` is how
    many of it the deck holds.
    """

    id: str
    name: str
    cost: int
    type: str
    copies: int = 1
    second_edition_name: str = ""
    text: str = ""  #: what the card does, in our own words
