"""The rules of a King of Tokyo game, as one value: its numbers and its named steps.

A :class:`Rules` holds the numbers the turn machine plays by (stars to win, starting
health, dice, rerolls, market, Tokyo Bay, what Tokyo gives) and its :class:`Steps`, the
steps of the turn a variant may replace. The game object carries its rules
(``KingOfTokyo.rules``) and hands them to every state it starts, so a variant of the
same family (King of Tokyo: Origins, a two-player variant) is another value of this
type, not another engine. :data:`CLASSIC` is the classic game of the seeds.

The turn machine reads the numbers from ``state.rules`` on its hot paths; the module is
compiled with the engine, so each read is a native attribute load. It goes on through
the step table where a step lives in a module above the one it leaves (the damage
queue resuming the attack, the end of a turn starting the next), so no step module
imports one above it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from kotarena.games.kot import damage, end, market, roll, tokyo

if TYPE_CHECKING:
    from kotarena.games.kot.state import State

__all__ = [
    "CLASSIC", "CLASSIC_STEPS", "MONSTERS", "ORIGINS", "ORIGINS_STEPS", "ORIGINS_TWO_PLAYERS", "Rules", "Steps",
]

#: The classic game's monsters, in seat order (the names seats get when none are given).
MONSTERS = ("Alienoid", "Cyber Bunny", "Giga Zaur", "Kraken", "Meka Dragon", "The King")


@dataclass(frozen=True)
class Steps:
    """The named steps of the turn: what the turn machine calls where a variant may
    play differently, and where a step goes on with one in a module above its own.

    Each is a function of the state (see the classic ones for what they do and leave);
    a variant gives its own with ``dataclasses.replace(CLASSIC_STEPS, enter_tokyo=...)``.
    """

    #: Who takes the first turn: the classic roll-off (most claws, ties roll again).
    roll_off: Callable[[State], int]
    #: A turn starts: what Tokyo gives, start-of-turn cards, the first roll.
    start_turn: Callable[[State], None]
    #: The claws have landed: attack effects, yields, then ``enter_tokyo``.
    after_attack: Callable[[State], None]
    #: The Enter Tokyo step, between the resolved dice (and any yields) and the buy step.
    #: Classic: the attacker takes a place freed by its attack from outside (claws that
    #: find Tokyo empty take it themselves: ``Rules.claws_take_tokyo``).
    enter_tokyo: Callable[[State], None]
    #: Card damage outside an attack has landed: back to the buy step.
    after_card_damage: Callable[[State], None]
    #: Card damage dealt while the dice resolve (no claws: not an attack) has landed.
    #: Classic: on to the buy step (``after_card_damage``); Origins: the Enter Tokyo step.
    after_dice_damage: Callable[[State], None]
    #: Card damage a reroll cost (Orb of Doom) has landed, at the reroll itself: the
    #: roll goes on, unless the damage ended the game or eliminated the roller.
    after_reroll_damage: Callable[[State], None]
    #: The turn is over: a win on stars, or the next turn.
    finish_turn: Callable[[State], None]
    #: A monster at 0 health is out: what it leaves and loses (``(state, seat)``).
    eliminate: Callable[[State, int], None]


#: The classic game's steps.
CLASSIC_STEPS = Steps(
    roll_off=roll.roll_off,
    start_turn=roll.start_turn,
    after_attack=tokyo.after_attack,
    enter_tokyo=tokyo.attacker_moves_in,
    after_card_damage=market.after_card_damage,
    after_dice_damage=market.after_card_damage,
    after_reroll_damage=roll.after_reroll_damage,
    finish_turn=end.finish_turn,
    eliminate=damage.eliminate,
)

#: King of Tokyo: Origins' steps (seed 001): whoever ends the resolve step with Tokyo
#: empty enters it, card damage while the dice resolve goes on to that step, and an
#: eliminated monster loses its energy as well as its cards.
ORIGINS_STEPS = replace(
    CLASSIC_STEPS,
    enter_tokyo=tokyo.enter_when_empty,
    after_dice_damage=tokyo.after_dice_damage,
    eliminate=damage.eliminate_losing_energy,
)


@dataclass(frozen=True)
class Rules:
    """The numbers of one King of Tokyo game (the defaults are the classic game's)."""

    #: A monster that ends a turn alive with this many stars wins.
    stars_to_win: int = 20
    #: Every monster's health, and its maximum, at the start.
    starting_health: int = 10
    #: Dice a monster rolls (cards and shrink tokens change it).
    dice: int = 6
    #: Die positions whose faces each roll fixes in advance: room for the most dice a
    #: monster can roll (six black and two green), so cards never change other rolls' faces.
    die_slots: int = 8
    #: Rerolls after the first roll.
    rerolls: int = 2
    #: Energy paid to sweep the market.
    sweep_cost: int = 2
    #: Face-up cards.
    market_size: int = 3
    #: Tokyo Bay is used while this many monsters are alive, in a game of at least as
    #: many (0: a game without Tokyo Bay).
    bay_min_players: int = 5
    #: The monsters' names when none are given, in seat order.
    monsters: tuple[str, ...] = MONSTERS
    #: What starting a turn in Tokyo gives.
    start_tokyo_stars: int = 2
    start_tokyo_energy: int = 0
    #: What taking Tokyo gives.
    take_tokyo_stars: int = 1
    take_tokyo_energy: int = 0
    #: Claws from outside that find Tokyo empty take Tokyo City instead of dealing
    #: damage (classic); without, they hit nobody and the Enter Tokyo step decides.
    claws_take_tokyo: bool = True
    #: The steps a variant plays its own way.
    steps: Steps = field(default=CLASSIC_STEPS)

    def bay_opens(self, players: int) -> bool:
        """Whether a game of ``players`` monsters starts with Tokyo Bay open."""
        return 0 < self.bay_min_players <= players


#: The classic game of the seeds (first edition): 20 stars, 10 health, six dice, two
#: rerolls, a market of three, Tokyo Bay with 5 or more monsters.
CLASSIC = Rules()

#: King of Tokyo: Origins (seed 001): the classic numbers, Tokyo City only (no Bay),
#: entering Tokyo by the Enter Tokyo step rather than by claws, and its own steps.
ORIGINS = Rules(bay_min_players=0, claws_take_tokyo=False, steps=ORIGINS_STEPS)

#: Origins' two-player variant (seed 001, "Additional rules"): entering Tokyo gives 1
#: energy instead of 1 star, starting the turn there 2 energy instead of 2 stars.
ORIGINS_TWO_PLAYERS = replace(ORIGINS, take_tokyo_stars=0, take_tokyo_energy=1, start_tokyo_stars=0,
                              start_tokyo_energy=2)
