"""How a game ended, and the engine's error family."""

from __future__ import annotations

import re
from typing import NamedTuple

_WORD = re.compile(r"[a-z][a-z0-9_]*\Z")


class Termination(str):
    """Why a game is over: one word that the game declares among its endings
    (``Game.endings``, which also says it in words), such as ``"stars"`` or, for a
    plugin's game, ``"checkmate"``.

    Any word makes a termination (lowercase letters, digits and underscores, a letter
    first), so the core knows no game's endings. A termination is its text (it compares,
    hashes and writes as the word) and is interned: ``Termination("stars") is
    Termination("stars")``. ``value`` is the word, as an enum member's was. A game names
    its own as constants where it ends (King of Tokyo's ``STARS`` in
    ``games/kot/end.py``, Duel's in ``games/duel/endings.py``).
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


_TERMINATIONS: dict[str, Termination] = {}


class Outcome(NamedTuple):
    """The result of a finished game.

    ``ranks[p]`` is player ``p``'s finishing place, 0 for the best; equal numbers are
    ties. The winner (if any) is alone in place 0; the game ranks the others (King of
    Tokyo: the other survivors by stars, then the eliminated, the last eliminated
    first).

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


class UnknownGameError(EngineError):
    """A game name that no game answers to (or a game option it does not take)."""


class UnknownDeckError(EngineError):
    """A deck name (or deck specification) that a game cannot play, or a card name its
    deck does not hold."""
