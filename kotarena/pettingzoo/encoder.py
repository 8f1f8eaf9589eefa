"""What the environment needs to know of one game: a fixed action table, a numeric
observation of a view, and a picture of the table.

The environment (:mod:`kotarena.pettingzoo.env`) is game-neutral: it plays any game
through the game seam (:mod:`kotarena.engine.game`). What it cannot know is how a
game's actions line up as fixed indices and how a view becomes numbers; an
:class:`Encoder` for the game, player count and deck says that, and the registry
(:mod:`kotarena.pettingzoo.registry`) finds the one for a game.
"""

from __future__ import annotations

import abc
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from kotarena.engine.actions import Action
from kotarena.engine.game import GameState
from kotarena.games import get_game


class EncoderError(ValueError):
    """A game, player count or deck that no encoder can encode, or an encoder that
    contradicts itself (an action listed twice)."""


@dataclass(frozen=True)
class Field:
    """One named stretch of the observation vector: where it starts, how long it is and
    what it holds (the docs' table of the layout is made of these)."""

    name: str
    start: int
    size: int
    help: str


class Layout:
    """The observation vector's fields, in order, with each entry's bounds.

    ``add`` appends a field of ``size`` entries, each between 0 and ``high`` (a count
    without a cap has ``high=np.inf``); ``slot(name)`` is where that field lives.
    """

    def __init__(self) -> None:
        self.fields: list[Field] = []
        self._high: list[float] = []

    def add(self, name: str, size: int, help: str, high: float = 1.0) -> None:
        self.fields.append(Field(name, len(self._high), size, help))
        self._high.extend([high] * size)

    @property
    def size(self) -> int:
        return len(self._high)

    def slot(self, name: str) -> slice:
        for field in self.fields:
            if field.name == name:
                return slice(field.start, field.start + field.size)
        raise KeyError(name)

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """The lowest and highest value of every entry (all are 0 or more)."""
        high = np.array(self._high, dtype=np.float32)
        return np.zeros_like(high), high


class Encoder(abc.ABC):
    """The fixed action table and the observation vector of one game, at one player
    count and with one deck.

    ``actions[i]`` is the action that index ``i`` stands for, in every position of
    every game with these settings: the action space is ``Discrete(len(actions))`` and
    the mask marks the indices of the legal actions. ``layout`` names the stretches of
    the vector :meth:`encode` returns.
    """

    actions: tuple[Action, ...]
    layout: Layout

    def __init__(self, actions: Iterable[Action], layout: Layout) -> None:
        self.actions = tuple(actions)
        self.index: dict[Action, int] = {}
        for i, action in enumerate(self.actions):
            if action in self.index:
                raise EncoderError(f"action {action.text!r} is listed twice in the action table")
            self.index[action] = i
        self.layout = layout

    @abc.abstractmethod
    def encode(self, view: Any) -> np.ndarray:
        """The observation vector (``float32``, ``layout.size`` long) of a seat's view."""

    def render(self, state: GameState) -> str:
        """The table as text, as a person reads it: the game's own words (``Game.words``:
        the table, and once the game is over the ending and the standings), the same
        pictures ``kotarena play`` shows."""
        return get_game(state.game).words.picture(state)

    def mask(self, legal: Sequence[Action]) -> np.ndarray:
        """The action mask (``int8``, 1 at the index of each legal action).

        A legal action the table leaves out (the encoder documents which) gets no
        index; the table keeps, in every decision, at least one action of each legal
        list, so the mask is never empty while a seat must decide.
        """
        mask = np.zeros(len(self.actions), dtype=np.int8)
        index = self.index
        for action in legal:
            i = index.get(action)
            if i is not None:
                mask[i] = 1
        return mask


__all__ = ["Encoder", "EncoderError", "Field", "Layout"]
