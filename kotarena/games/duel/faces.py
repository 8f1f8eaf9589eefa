"""Duel's dice faces and their text forms.

Every Duel die, standard or special, shows the same six faces (docs/duel.md): a claw,
a heart, an energy, fame (a star), destruction (a ruined building) and power (!).
Faces are small ints so the dice of a roll are a plain list.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from kotarena.engine.dice import DiceError

# Final: the compiled modules read them as constants, not module globals.
CLAW: Final = 0
HEART: Final = 1
ENERGY: Final = 2
FAME: Final = 3
DESTRUCTION: Final = 4
POWER: Final = 5
FACES = (CLAW, HEART, ENERGY, FAME, DESTRUCTION, POWER)
FACE_NAMES = ("claw", "heart", "energy", "fame", "destruction", "power")
#: The faces Xenoid's superpower may add (every face but power).
ADDABLE = (CLAW, HEART, ENERGY, FAME, DESTRUCTION)

_ALIASES = {
    "claw": CLAW, "c": CLAW, "smash": CLAW,
    "heart": HEART, "h": HEART,
    "energy": ENERGY, "e": ENERGY,
    "fame": FAME, "f": FAME, "star": FAME,
    "destruction": DESTRUCTION, "d": DESTRUCTION, "building": DESTRUCTION,
    "power": POWER, "p": POWER, "!": POWER,
}


def face_of(word: str) -> int:
    """The face a word names (``claw``, ``fame``, ``!``, ...); :class:`DiceError` if none."""
    face = _ALIASES.get(str(word).strip().lower())
    if face is None:
        raise DiceError(f"unknown Duel die face {word!r}; faces are {' '.join(FACE_NAMES)}")
    return face


def parse_faces(text: str | Sequence[str]) -> tuple[int, ...]:
    """Faces such as ``"claw fame fame power"`` as face numbers."""
    words = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return tuple(face_of(word) for word in words)


def format_faces(faces: Iterable[int]) -> str:
    """The text form of some faces: ``"claw fame power"``."""
    return " ".join(FACE_NAMES[f] for f in faces)
