"""Dice faces, their text forms, and scripted dice for tests and scenarios."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

ONE, TWO, THREE, ENERGY, HEART, CLAW = range(6)
FACES = (ONE, TWO, THREE, ENERGY, HEART, CLAW)
FACE_NAMES = ("1", "2", "3", "energy", "heart", "claw")

_ALIASES = {
    "1": ONE, "2": TWO, "3": THREE,
    "energy": ENERGY, "e": ENERGY, "lightning": ENERGY,
    "heart": HEART, "h": HEART,
    "claw": CLAW, "c": CLAW, "smash": CLAW, "attack": CLAW,
}


class DiceError(ValueError):
    """Text that does not name dice faces, or scripted dice that do not fit the roll."""


def parse_faces(text: str | Sequence[str]) -> tuple[int, ...]:
    """Parse faces such as ``"1 2 claw heart e"`` into face numbers."""
    words = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    faces = []
    for word in words:
        face = _ALIASES.get(str(word).strip().lower())
        if face is None:
            raise DiceError(f"unknown die face {word!r}; faces are 1 2 3 energy heart claw")
        faces.append(face)
    return tuple(faces)


def format_faces(faces: Iterable[int]) -> str:
    """The text form of some faces: ``"1 2 claw"``."""
    return " ".join(FACE_NAMES[f] for f in faces)


class ScriptedDice:
    """Dice that come up as written: each roll takes the next group of faces.

    A group must have exactly as many faces as dice are rolled, so a scenario whose
    dice do not match its actions fails loudly instead of drifting.
    """

    __slots__ = ("groups", "used")

    def __init__(self, groups: Iterable[Sequence[int] | str] = ()) -> None:
        self.groups: list[tuple[int, ...]] = []
        self.used = 0
        self.extend(groups)

    def extend(self, groups: Iterable[Sequence[int] | str]) -> None:
        for group in groups:
            self.groups.append(parse_faces(group) if isinstance(group, str) else tuple(group))

    def copy(self) -> ScriptedDice:
        """An independent copy that rolls what this one has left (a game's copy rolls
        exactly what the game would)."""
        copy = ScriptedDice()
        copy.groups = self.groups[:]
        copy.used = self.used
        return copy

    @property
    def remaining(self) -> int:
        return len(self.groups) - self.used

    def roll(self, count: int) -> list[int]:
        if self.used >= len(self.groups):
            raise DiceError(f"the scripted dice ran out: a roll of {count} dice has no faces written for it")
        group = self.groups[self.used]
        if len(group) != count:
            raise DiceError(
                f"scripted roll #{self.used + 1} gives {len(group)} faces ({format_faces(group)}) "
                f"but {count} dice are rolled"
            )
        self.used += 1
        return list(group)
