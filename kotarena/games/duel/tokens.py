"""Duel's packed replay tokens: one character for each common action (not dice tokens
or hype tokens).

:data:`PACKED_TOKENS` is the table behind ``Duel.replay_tokens()``; the generic packing
and unpacking live in :mod:`kotarena.replay.packed`. A character's meaning never changes.
"""

from __future__ import annotations

PACKED_TOKENS: dict[str, str] = {
    "s": "stop", "d": "done", "p": "pass", "w": "sweep", "0": "spend 0", "1": "spend 1", "2": "spend 2",
    "F": "power fame", "D": "power destruction",
}

__all__ = ["PACKED_TOKENS"]
