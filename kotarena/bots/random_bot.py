"""The built-in random bot: every legal action equally likely."""

from __future__ import annotations

from kotarena.bots.base import ALL_GAMES, Bot
from kotarena.engine.actions import Action
from kotarena.games.kot.view import View


class RandomBot(Bot):
    """Picks uniformly among the legal actions (a baseline and a fuzzer)."""

    name = "random"
    games = ALL_GAMES  # it reads nothing but the legal actions
    parameters = {}  # none

    def choose(self, view: View) -> Action:
        legal = view.legal
        return legal[int(self.random() * len(legal))]
