"""The actions worth searching: legal actions up to equivalence.

Six dice give 64 roll answers (``stop`` and 63 rerolls), but two rerolls that keep
the same faces are the same choice: keeping ``claw claw 3`` from ``claw 3 claw 1 1 2``
does not depend on which claw is which. Grouping rerolls by the multiset of kept
faces leaves ``prod(count + 1)`` choices over the faces showing, typically 12 to 30,
and at most 64 only when all six faces differ. Every other decision kind is searched
as listed.
"""

from __future__ import annotations

from collections.abc import Sequence

from kotarena.engine.actions import Action


def kept_faces(dice: Sequence[int], action: Action) -> tuple[int, ...]:
    """The sorted faces a roll answer keeps (``stop`` keeps them all)."""
    if action.kind != "reroll":
        return tuple(sorted(dice))
    rerolled = action.args
    return tuple(sorted(face for position, face in enumerate(dice, 1) if position not in rerolled))


def distinct_actions(kind: str | None, dice: Sequence[int], legal: Sequence[Action],
                     first: Action | None = None) -> list[Action]:
    """``legal`` without actions equivalent to an earlier one, ``first`` (if given) first."""
    ordered = list(legal) if first is None else [first, *(a for a in legal if a != first)]
    if kind != "roll":
        return ordered
    seen: set[tuple[int, ...]] = set()
    distinct = []
    for action in ordered:
        if action.kind not in ("stop", "reroll"):
            distinct.append(action)  # an answer some card adds: never merged
            continue
        key = kept_faces(dice, action)
        if key not in seen:
            seen.add(key)
            distinct.append(action)
    return distinct
