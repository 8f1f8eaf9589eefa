"""The sampled copy a search bot plays: a Duel state consistent with a view, the unseen
cards dealt into the deck from a seed (``Duel.sample``, ``View.sample_game``).
"""

from __future__ import annotations

import random

from kotarena.games.duel import turn
from kotarena.games.duel.cards import CARDS
from kotarena.games.duel.monsters import BY_ID
from kotarena.games.duel.state import State, shuffle
from kotarena.games.duel.view import View


def sample_state(view: View, seed: int | None) -> State:
    """The state ``view`` shows, with the deck dealt from the unseen cards by ``seed``."""
    rng = random.Random(seed)
    seen = [card for card in view.market if card] + list(view.gone) + [c for kept in view.keeps for c in kept]
    unseen = [card.id for card in CARDS if card.id not in seen] if view.deck_size else []
    shuffle(rng, unseen)
    state = State(view.names, [BY_ID[m] for m in view.monsters], seed=rng.randrange(2**63),
                  deck=unseen[:view.deck_size], record=False, game=view.game)
    state.deck_name = "duel"
    state.health, state.energy, state.tokens = list(view.health), list(view.energy), list(view.tokens)
    state.keeps = [list(view.keeps[0]), list(view.keeps[1])]
    state.market, state.gone = list(view.market), list(view.gone)
    state.board = view.board
    state.turn, state.active, state.first_player = view.turn, view.active, view.first_player
    state.dice, state.aside, state.added = list(view.dice), list(view.aside), list(view.added)
    state.rolls_left, state.rolls_used, state.power_left = view.rolls_left, view.rolls_used, view.power_left
    state.claws_times, state.penalty = view.claws_times, list(view.penalty)
    state.flags, state.marks, state.taken = set(view.flags), set(view.marks), list(view.taken)
    state.spent, state.claws_rolled, state.sweeps = view.spent, view.claws_rolled, view.sweeps
    state.bought, state.extra_turn = view.bought, view.extra_turn
    state.todo, state.answer = list(view.todo), view.answer
    state.outcome = view.outcome
    if view.outcome is None and view.to_move >= 0:
        # The pending decision is asked again from the step that asked it.
        state.todo.insert(0, _asking_step(view.answer, view.to_move))
        turn.advance(state)
    return state


def _asking_step(answer: tuple, seat: int) -> tuple:
    """The step that asks the decision ``answer`` reads."""
    name = answer[0]
    return {"tokens": ("tokens",), "reroll": ("reroll",), "power_choice": ("power_choice",),
            "order": ("order",), "buy": ("buy",), "pick": ("pick", *answer[1:])}.get(name) or (("hype", seat, answer[1]) if name == "hype" else ("effect", *answer[1:]))


__all__ = ["sample_state"]
