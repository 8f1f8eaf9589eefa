"""How a game ended, and the engine's error family."""

from __future__ import annotations

import re
from typing import ClassVar, NamedTuple

_WORD = re.compile(r"[a-z][a-z0-9_]*\Z")


class Termination(str):
    """Why a game is over: one word that the game declares among its endings
    (``Game.endings``, which also says it in words), such as ``"stars"`` or, for a
    plugin's game, ``"checkmate"``.

    Any word makes a termination (lowercase letters, digits and underscores, a letter
    first), so the core knows no game's endings. A termination is its text (it compares,
    hashes and writes as the word) and is interned: ``Termination("stars") is
    Termination("stars")``. ``value`` is the word, as an enum member's was.
    """

    __slots__ = ()

    def __new__(cls, word: str) -> Termination:
        known = _TERMINATIONS.get(word)
        if known is not None:
            return known
        if not isinstance(word, str) or not _WORD.match(word):
            raise ValueError(f"{word!r} is not a termination: a termination is one lowercase word "
                             "(letters, digits, underscores), e.g. 'checkmate'")
        made = super().__new__(cls, word)
        _TERMINATIONS[str(word)] = made
        return made

    @property
    def value(self) -> str:
        return str.__str__(self)

    def __repr__(self) -> str:
        return f"Termination({self.value!r})"

    def __reduce__(self):
        return (Termination, (self.value,))

    # The built-in games' endings by name, for their modules (King of Tokyo's and Duel's
    # own words are declared with their games, in ``Game.endings``).
    STARS: ClassVar[Termination]
    LAST_STANDING: ClassVar[Termination]
    ALL_ELIMINATED: ClassVar[Termination]
    VICTORY_SPACE: ClassVar[Termination]
    SPOTLIGHT: ClassVar[Termination]


_TERMINATIONS: dict[str, Termination] = {}
Termination.STARS = Termination("stars")
Termination.LAST_STANDING = Termination("last_standing")
Termination.ALL_ELIMINATED = Termination("all_eliminated")
Termination.VICTORY_SPACE = Termination("victory_space")
Termination.SPOTLIGHT = Termination("spotlight")


class Outcome(NamedTuple):
    """The result of a finished game.

    ``ranks[p]`` is player ``p``'s finishing place, 0 for the best; equal numbers are
    ties. The winner (if any) is alone in place 0; the other survivors follow by
    stars (equal stars tie); then the eliminated, the last eliminated first
    (monsters eliminated by the same damage tie).

    A named tuple of immutable values: every seat's final view holds the game's own
    outcome, and nothing a bot does to it (not even ``object.__setattr__``, which gets
    past a frozen dataclass) can change the game's result.
    """

    winner: int | None
    termination: Termination
    ranks: tuple[int, ...]
    turns: int

    def to_json(self) -> dict:
        return {
            "winner": self.winner,
            "termination": self.termination.value,
            "ranks": list(self.ranks),
            "turns": self.turns,
        }

    @classmethod
    def from_json(cls, data: dict) -> Outcome:
        """The outcome :meth:`to_json` wrote."""
        return cls(data["winner"], Termination(data["termination"]), tuple(data["ranks"]), data["turns"])


class EngineError(ValueError):
    """Base class of the errors the engine raises for bad input."""


class IllegalActionError(EngineError):
    """An action that is not among the legal actions of the pending decision."""


class GameOverError(EngineError):
    """An action given to a game that has ended."""


class PositionError(EngineError):
    """A described position that cannot exist (two monsters in Tokyo City, ...)."""
