"""How a game ended, and the engine's error family."""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple


class Termination(StrEnum):
    """Why a game is over."""

    STARS = "stars"                    #: a monster ended a turn alive with 20 stars or more
    LAST_STANDING = "last_standing"    #: every other monster was eliminated
    ALL_ELIMINATED = "all_eliminated"  #: the last monsters were eliminated at once: nobody wins
    VICTORY_SPACE = "victory_space"    #: (Duel) a marker reached the winner's victory space
    SPOTLIGHT = "spotlight"            #: (Duel) both markers stood in the winner's spotlight zone


#: Each way a game ends as its text, for the paths that write one for every match (a
#: replay's result line, a league result): an enum's ``.value`` runs a Python descriptor.
TERMINATION_TEXT: dict[Termination, str] = {termination: termination.value for termination in Termination}


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
