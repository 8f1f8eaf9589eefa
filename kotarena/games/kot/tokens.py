"""King of Tokyo's packed replay tokens: one character for each common action.

:data:`PACKED_TOKENS` is the table behind ``KingOfTokyo.replay_tokens()``; the generic
packing and unpacking live in :mod:`kotarena.replay.packed`. The table is part of replay
format version 2: a character's meaning never changes.
"""

from __future__ import annotations

__all__ = ["PACKED_TOKENS"]

#: Base-64 digits: the digit of ``mask`` stands for the reroll of the dice whose bits are
#: set (bit 0 for die 1, ..., bit 5 for die 6); ``A`` (no die) stands for ``stop``.
_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def _reroll_text(mask: int) -> str:
    if mask == 0:
        return "stop"
    return "reroll " + " ".join(str(die + 1) for die in range(6) if mask >> die & 1)


#: The one-character tokens of a packed line and the action each stands for. Any other
#: action is written as its text in braces: ``{use stretchy 3 claw}``. The characters
#: avoid space, ``#`` (comments), ``"`` and ``\\`` (quoting) and the braces.
PACKED_TOKENS: dict[str, str] = {
    **{_DIGITS[mask]: _reroll_text(mask) for mask in range(64)},
    "=": "stay", ">": "yield", "[": "buy 1", "|": "buy 2", "]": "buy 3",
    "*": "sweep", ".": "done", "-": "pass",
}
