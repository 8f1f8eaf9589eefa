"""The bot contract: one required method, ``choose(view) -> action``."""

from __future__ import annotations

import abc
import random
from collections.abc import Mapping
from typing import Any, ClassVar

from kotarena.engine.actions import Action
from kotarena.engine.game import ANY_GAME

#: A bot's ``games`` for a bot that plays every game (it reads only the legal actions).
ALL_GAMES: frozenset[str] = frozenset({ANY_GAME})


class Bot(abc.ABC):
    """One seat's decision maker. Subclass it and implement :meth:`choose`.

    A fresh instance is made for every seat of every game, with a ``seed`` for the
    bot's own randomness (use ``self.rng`` or ``self.random``, never the global
    ``random`` module, so the same seed plays the same game) and the parameters a
    ladder file or the command line gives (``self.params``).
    """

    #: The bot's name in ladders, ratings and on the command line.
    name: ClassVar[str] = ""
    #: One line saying how the bot plays (defaults to the docstring's first line).
    description: ClassVar[str] = ""
    #: The games the bot plays, by name or alias (``"*"``, :data:`ALL_GAMES`: every
    #: game). Ladders, ``bots = "all"``, ``play`` and ``match`` seat a bot only in a
    #: game it names here; a bot that says nothing plays classic King of Tokyo.
    games: ClassVar[frozenset[str]] = frozenset({"kot"})
    #: The parameters the bot takes (a ladder's ``params``), each with the type of its
    #: value: ``int``, ``float`` (an integer will do), ``str`` or ``bool``. A ladder
    #: that gives the bot any other parameter, or a value of another type, is refused
    #: when it is loaded, so a misspelt parameter cannot silently leave the default in
    #: place. ``None`` declares nothing: every parameter reaches the bot unchecked.
    parameters: ClassVar[Mapping[str, type] | None] = None

    def __init__(self, *, seed: int | None = None, **params: object) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.random = self.rng.random
        self.params = params

    @abc.abstractmethod
    def choose(self, view: Any) -> Action:
        """Return one action of ``view.legal`` (the pending decision is in ``view.kind``).

        ``view`` is what this seat may see of the game being played: every game's view
        has ``player``, ``kind``, ``legal`` and ``outcome``; King of Tokyo's is a
        :class:`kotarena.View`.
        """

    def start(self, view: Any) -> None:  # noqa: B027 - an optional hook: doing nothing is right
        """Called once before the game's first decision, with this seat's view."""

    def finish(self, view: Any) -> None:  # noqa: B027 - an optional hook: doing nothing is right
        """Called once when the game is over; ``view.outcome`` says how it ended."""

    def pick(self, options):
        """A uniformly random element of ``options``, the same on every Python version."""
        return options[int(self.random() * len(options))]
