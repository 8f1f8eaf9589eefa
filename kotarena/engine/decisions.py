"""A pending decision: who must choose, what kind of question, and every legal answer."""

from __future__ import annotations

from typing import NamedTuple

from kotarena.engine.actions import Action


class Decision(NamedTuple):
    """The question the game is waiting on.

    ``player`` is the seat that must answer (not always the active monster: a monster
    attacked in Tokyo decides whether to yield). ``kind`` names the question
    (``"roll"``, ``"yield"``, ``"buy"``; cards add more) and ``legal`` lists every legal
    answer, so a bot may ignore kinds it does not know and still pick a legal action.
    """

    player: int
    kind: str
    legal: tuple[Action, ...]
