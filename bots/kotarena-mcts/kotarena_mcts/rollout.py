"""Playing a sampled game forward, fast: the heuristic bot's rules on raw states.

A rollout asks no bot and builds no view: every seat, ours included, answers with the
rules of :mod:`kotarena_heuristic`, which read only fields a state shares with a view
and never anything a seat could not see. They do see the dice and deck order of the
sampled game, as every player would once they happen.

A rollout stops at the game's end (reward 1 for a win, 0 otherwise) or, earlier, when
our turn has come round ``horizon`` times; the reward is then the fitted model's chance
that we win from there (:mod:`kotarena_mcts.value`). Short rollouts see the
consequences of a choice through everybody's next turn, cost a few turns instead of a
whole game, and vary far less than a won-or-lost game does.
"""

from __future__ import annotations

from kotarena_heuristic.cards import Offer, buy_action, energy_wanted
from kotarena_heuristic.duel import duel_action
from kotarena_heuristic.rolls import roll_action
from kotarena_heuristic.tokyo import yield_action

from kotarena.engine.actions import Action
from kotarena.games.kot.state import State
from kotarena_mcts.value import duel_win_probability, win_probability


def state_offers(state: State) -> list[Offer]:
    """The face-up cards of a state's market, with their cost and type."""
    info = state.cards_info
    return [(slot, info[card]) for slot, card in enumerate(state.market, 1) if card >= 0]


def policy(state: State) -> Action:
    """The heuristic's answer to the state's pending decision, for whoever must decide.

    Rollouts never sweep the market: a sweep only reshuffles what the heuristic may buy.
    """
    kind = state.kind
    seat = state.to_move
    legal = state.legal
    if kind == "roll":
        wanted = energy_wanted(state, seat, state_offers(state)) if state.cards_info else 0
        return roll_action(state, seat, legal, wanted)
    if kind == "yield":
        return yield_action(state, seat, legal)
    if kind == "buy":
        return buy_action(state, seat, state_offers(state), legal, swept=True)
    return legal[0]


def rollout(state: State, me: int, horizon: int = 1) -> float:
    """Play ``state`` forward (in place) and return ``me``'s reward, between 0 and 1.

    :param horizon: stop when ``me``'s turn is about to start for the ``horizon``-th
        time and return the model's win probability; 0 plays to the end of the game.
    """
    state.pause_between_turns = True
    left = horizon
    duel = state.game.partition(":")[0] == "duel"
    while state.outcome is None:
        if state.to_move < 0:  # between two turns
            if not duel and not state.alive[me]:
                return 0.0
            if state.active == me and horizon:
                left -= 1
                if left == 0:
                    return duel_win_probability(state, me) if duel else win_probability(state, me)
            state.next_turn()
            continue
        state.apply(duel_action(state, state.to_move, state.legal) if duel else policy(state))
    return 1.0 if state.outcome.winner == me else 0.0
