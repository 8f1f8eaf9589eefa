"""The built-in random bot: every legal action equally likely."""

from __future__ import annotations

from typing import Any

from kotarena.bots.base import ALL_GAMES, Bot
from kotarena.engine.actions import Action


class RandomBot(Bot):
    """Picks uniformly among the legal actions (a baseline and a fuzzer)."""

    name = "random"
    games = ALL_GAMES  # it reads nothing but the legal actions
    parameters = {}  # none

    def choose(self, view: Any) -> Action:
        legal = view.legal
        return legal[int(self.random() * len(legal))]
