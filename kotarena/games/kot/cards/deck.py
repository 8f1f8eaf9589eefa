"""A deck table: each distinct card's facts and the effect that plays it, and the
physical cards a state plays with; and decks mixed from others by a deck specification
(``kot-2e+origins``, ``kot+origins:biofuel,supertower``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from kotarena.engine.game import UnknownDeckError
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

    def find(self, key: str) -> CardInfo:
        """The card whose id or (case-insensitive) name is ``key``."""
        wanted = key.strip().lower()
        for info in self.table:
            if info.id == wanted or info.name.lower() == wanted:
                return info
        raise UnknownDeckError(f"no card {key!r} in deck {self.name!r}")

    def __repr__(self) -> str:
        return f"Deck({self.name!r}, {len(self.table)} cards)"


#: The characters of a deck specification: ``+`` joins decks, ``:`` chooses cards, ``,`` separates them.
SPEC_SYNTAX = "DECK[:CARD,CARD...][+DECK[:CARD,...]...]"


def parse_deck_spec(spec: str) -> list[tuple[str, tuple[str, ...] | None]]:
    """The parts of a deck specification: ``(deck name, chosen cards or None for all)``.

    ``kot-2e+origins`` is every card of both decks; ``kot+origins:biofuel,Orb of Doom``
    the classic deck and two cards of Origins (cards by id or name, any case).
    Raises :class:`UnknownDeckError` for an empty part or an empty card list.
    """
    parts = []
    for part in spec.split("+"):
        name, colon, cards = part.partition(":")
        name = name.strip()
        chosen = tuple(card.strip() for card in cards.split(",")) if colon else None
        if not name or (chosen is not None and not all(chosen)):
            raise UnknownDeckError(f"bad deck specification {spec!r}: write {SPEC_SYNTAX}")
        parts.append((name, chosen))
    return parts


def mix_decks(spec: str, decks: Mapping[str, Deck], name: str | None = None) -> Deck:
    """The deck a specification names (:func:`parse_deck_spec`), built from ``decks``.

    A card that two parts both hold (the same card: the same effect) is in the mix with
    the copies of both, as when two boxes are shuffled together; the same id meaning
    different cards (Acid Attack of the first edition and of Origins) cannot be mixed.
    The deck's name is the specification with its cards by id (no blanks: replay
    headers and ladder files carry it), unless ``name`` is given. Raises
    :class:`UnknownDeckError` with a one-line reason.
    """
    mixed: dict[str, list] = {}  # id -> [facts, effect, copies, deck it came from]
    clashes: dict[str, str] = {}  # id -> the two decks where it is a different card
    canonical = []  # the parts with cards by id: the mix's name
    for deck_name, chosen in parse_deck_spec(spec):
        deck = decks.get(deck_name)
        if deck is None:
            raise UnknownDeckError(f"unknown deck {deck_name!r} in {spec!r}; known decks: {', '.join(decks)}")
        table = deck.table if chosen is None else tuple(dict.fromkeys(deck.find(key) for key in chosen))
        canonical.append(deck_name if chosen is None else f"{deck_name}:{','.join(info.id for info in table)}")
        for info in table:
            effect = deck.effects[info.id]
            have = mixed.get(info.id)
            if have is None:
                mixed[info.id] = [info, effect, info.copies, deck_name]
            elif have[1] is effect:
                have[2] += info.copies
            else:
                clashes[info.id] = f"{have[3]!r} and {deck_name!r}"
    if clashes:
        decks_named = ", ".join(dict.fromkeys(clashes.values()))
        raise UnknownDeckError(f"cannot mix {decks_named}: {', '.join(clashes)} differ between them "
                               f"(editions with other wordings)")
    return Deck(name or "+".join(canonical), [(info if info.copies == copies else replace(info, copies=copies), effect)
                               for info, effect, copies, _ in mixed.values()])
