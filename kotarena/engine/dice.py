"""Scripted dice for tests and scenarios, and the error for dice that do not fit.

Faces are small ints; what they are called is each game's (King of Tokyo's
``games/kot/faces.py``, Duel's ``games/duel/faces.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence


class DiceError(ValueError):
    """Text that does not name dice faces, or scripted dice that do not fit the roll."""


class ScriptedDice:
    """Dice that come up as written: each roll takes the next group of faces.

    A group must have exactly as many faces as dice are rolled, so a scenario whose
    dice do not match its actions fails loudly instead of drifting. ``names`` are the
    faces' names, by number, for the messages (the numbers themselves without them).
    """

    __slots__ = ("groups", "used", "names")

    def __init__(self, groups: Iterable[Sequence[int]] = (), *, names: Sequence[str] = ()) -> None:
        self.groups: list[tuple[int, ...]] = []
        self.used = 0
        self.names: tuple[str, ...] = tuple(names)
        self.extend(groups)

    def extend(self, groups: Iterable[Sequence[int]]) -> None:
        for group in groups:
            if isinstance(group, str):
                raise DiceError(f"scripted dice are face numbers, not text ({group!r}): the game reads its "
                                "faces' names (King of Tokyo: kotarena.games.kot.faces.scripted_dice)")
            self.groups.append(tuple(group))

    def copy(self) -> ScriptedDice:
        """An independent copy that rolls what this one has left (a game's copy rolls
        exactly what the game would)."""
        copy = ScriptedDice(names=self.names)
        copy.groups = self.groups[:]
        copy.used = self.used
        return copy

    @property
    def remaining(self) -> int:
        return len(self.groups) - self.used

    def shown(self, group: Sequence[int]) -> str:
        """Some faces as the messages write them: by name, or as numbers."""
        names = self.names
        return " ".join(names[face] if 0 <= face < len(names) else str(face) for face in group)

    def roll(self, count: int) -> list[int]:
        if self.used >= len(self.groups):
            raise DiceError(f"the scripted dice ran out: a roll of {count} dice has no faces written for it")
        group = self.groups[self.used]
        if len(group) != count:
            raise DiceError(
                f"scripted roll #{self.used + 1} gives {len(group)} faces ({self.shown(group)}) "
                f"but {count} dice are rolled"
            )
        self.used += 1
        return list(group)
