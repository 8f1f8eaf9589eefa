"""King of Tokyo's dice faces and their text forms (every game of the family but Duel,
which has its own, ``games/duel/faces.py``).

A die shows 1, 2, 3, an energy, a heart or a claw. Faces are small ints (0 to 5, in that
order) so the dice of a roll are a plain list; a replay's ``roll`` events hold them so.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from kotarena.engine.dice import DiceError, ScriptedDice

# Final: the compiled turn machine reads them as constants, not module globals.
ONE: Final = 0
TWO: Final = 1
THREE: Final = 2
ENERGY: Final = 3
HEART: Final = 4
CLAW: Final = 5
FACES = (ONE, TWO, THREE, ENERGY, HEART, CLAW)
FACE_NAMES = ("1", "2", "3", "energy", "heart", "claw")

_ALIASES = {
    "1": ONE, "2": TWO, "3": THREE,
    "energy": ENERGY, "e": ENERGY, "lightning": ENERGY,
    "heart": HEART, "h": HEART,
    "claw": CLAW, "c": CLAW, "smash": CLAW, "attack": CLAW,
}


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


def scripted_dice(groups: Iterable[str | Sequence[int]] = ()) -> ScriptedDice:
    """Scripted King of Tokyo dice: each group the faces of one roll, as text (``"1 2 3
    claw claw heart"``) or face numbers."""
    return ScriptedDice([parse_faces(group) if isinstance(group, str) else group for group in groups],
                        names=FACE_NAMES)


__all__ = ["CLAW", "ENERGY", "FACES", "FACE_NAMES", "HEART", "ONE", "THREE", "TWO", "format_faces", "parse_faces",
           "scripted_dice"]
