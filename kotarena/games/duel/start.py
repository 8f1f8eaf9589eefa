"""The start of a game of Duel: the seats' monster picks (when the table lets them
choose), the roll-off for the first player, and the second player's energy.

The steps ``pick`` and ``begin`` of the turn's queue (``turn.STEPS``) call these; the
game object calls ``begin`` when the seats do not choose.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from kotarena.engine.actions import Action
from kotarena.games.duel.faces import CLAW
from kotarena.games.duel.monsters import MONSTERS, find_monster
from kotarena.games.duel.rules import STANDARD_DICE
from kotarena.games.duel.rulings import SECOND_PLAYER_ENERGY
from kotarena.games.duel.verbs import PICK

if TYPE_CHECKING:  # (the state calls the turn, which calls these)
    from kotarena.games.duel.state import State


def roll_off(state: State) -> int:
    """Each monster rolls six dice; most claws goes first, ties roll again.

    The roll-off has dice of its own (scripted dice excepted) and is not logged: a
    replay records the first player and sets the table up without it, to the same game."""
    rng = random.Random(f"duel-roll-off:{state.seed}")
    while True:
        claws = [(state.scripted.roll(STANDARD_DICE) if state.scripted is not None
                  else [int(rng.random() * 6) for _ in range(STANDARD_DICE)]).count(CLAW) for _ in (0, 1)]
        if claws[0] != claws[1]:
            return 0 if claws[0] > claws[1] else 1


def begin(state: State, first: int) -> None:
    """The first player (``-1``: by the roll-off) and the other seat's energy."""
    if first < 0:
        first = roll_off(state)
    state.first_player = state.active = first
    state.energy[1 - first] += SECOND_PLAYER_ENERGY


def ask_pick(state: State, seat: int, named: str = "") -> None:
    """Ask ``seat`` for its monster: any the other seat has not taken, or only ``named``
    (the monster a table given by names seats there, so that a replay, which names the
    monsters the seats picked, asks the same decisions again)."""
    taken = state.monsters[0].id if seat == 1 else None
    offered = [named] if named else [m.id for m in MONSTERS if m.id != taken]
    state.ask(seat, "monster", [Action.of(PICK, monster) for monster in offered], ("pick", seat, named))


def pick(state: State, action: Action, seat: int, named: str = "") -> None:
    """A seat's monster: its name and health follow."""
    monster = find_monster(action.args[0])
    monsters = list(state.monsters)
    monsters[seat] = monster
    state.monsters = tuple(monsters)
    names = list(state.names)
    names[seat] = monster.name
    state.names = tuple(names)
    state.health[seat] = monster.health
    state.say("pick", seat, monster.id)


__all__ = ["ask_pick", "begin", "pick", "roll_off"]
