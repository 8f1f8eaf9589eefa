"""The heuristic bot: King of Tokyo by rules of thumb, from its own view only.

Each decision kind has its rules in a module of its own:

* :mod:`kotarena_heuristic.rolls`: which dice to keep, toward goals chosen from the
  situation (claws, hearts, number triples, energy for a card);
* :mod:`kotarena_heuristic.tokyo`: whether to yield Tokyo after an attack;
* :mod:`kotarena_heuristic.cards`: which cards to buy, by their worth in energy;
* :mod:`kotarena_heuristic.duel`: King of Tokyo: Duel, which knows the tracks.

Decisions of a kind the bot does not know (cards add kinds) get the first legal
action, which by convention is the one that passes or declines.

The rules are plain functions of ``(table, seat, ...)`` that read only fields a view
and a game state share, so :mod:`kotarena_mcts` reuses them as its fast rollout
policy.
"""

from __future__ import annotations

from kotarena.bots.base import Bot
from kotarena.engine.actions import Action
from kotarena.games.kot.view import View
from kotarena.hookspecs import hookimpl
from kotarena_heuristic.cards import buy_action, energy_wanted, view_offers
from kotarena_heuristic.duel import duel_action
from kotarena_heuristic.rolls import roll_action
from kotarena_heuristic.tokyo import yield_action

__all__ = ["HeuristicBot", "register_bots"]


class HeuristicBot(Bot):
    """Keeps dice toward a goal chosen from its situation, yields Tokyo by health, buys cards by worth."""

    name = "heuristic"
    games = frozenset({"kot", "origins", "duel"})  #: King of Tokyo, Origins and Duel
    parameters = {}  # none

    def __init__(self, *, seed: int | None = None, **params: object) -> None:
        super().__init__(seed=seed, **params)
        self._swept_turn = -1

    def choose(self, view: View) -> Action:
        kind = view.kind
        me = view.player
        legal = view.legal
        if view.game.partition(":")[0] == "duel":
            return duel_action(view, me, legal)
        if kind == "roll":
            return roll_action(view, me, legal, energy_wanted(view, me, view_offers(view)))
        if kind == "yield":
            return yield_action(view, me, legal)
        if kind == "buy":
            action = buy_action(view, me, view_offers(view), legal, swept=self._swept_turn == view.turn)
            if action.kind == "sweep":
                self._swept_turn = view.turn  # one sweep a turn: never sweep aimlessly
            return action
        return legal[0]


@hookimpl
def register_bots(register) -> None:
    """Tell kotarena about the heuristic bot."""
    register(HeuristicBot)
