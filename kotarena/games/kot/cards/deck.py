"""A deck table: each distinct card's facts and the effect that plays it, and the
physical cards a state plays with."""

from __future__ import annotations

from collections.abc import Sequence

from kotarena.games.kot.cards.effects import Effect
from kotarena.games.kot.cards.info import CardInfo


class Deck:
    """One deck: ``name``, its distinct cards in table order (``table``, each
    :class:`CardInfo` with its ``copies``) and each card's effect by id (``effects``).

    A state refers to a card in play by its index in :attr:`cards`, the physical cards
    (copies expanded), so two copies of Extra Head are two different cards with the
    same id; :attr:`card_effects` is each physical card's effect (copies share one).
    """

    def __init__(self, name: str, entries: Sequence[tuple[CardInfo, Effect]]) -> None:
        self.name = name
        self.table: tuple[CardInfo, ...] = tuple(info for info, _ in entries)
        self.effects: dict[str, Effect] = {}
        for info, effect in entries:
            if info.id in self.effects:
                raise ValueError(f"deck {name!r} lists {info.id!r} twice")
            effect.claim(info.id)
            self.effects[info.id] = effect
        self.cards: tuple[CardInfo, ...] = tuple(info for info in self.table for _ in range(info.copies))
        self.card_effects: tuple[Effect, ...] = tuple(self.effects[info.id] for info in self.cards)

    def __repr__(self) -> str:
        return f"Deck({self.name!r}, {len(self.table)} cards)"
