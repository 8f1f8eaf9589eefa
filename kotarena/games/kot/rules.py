"""The rules of a King of Tokyo game, as one value.

A :class:`Rules` holds the numbers the turn machine plays by (stars to win, starting
health, dice, rerolls, market, Tokyo Bay, what Tokyo gives). The game object carries
its rules (``KingOfTokyo.rules``) and hands them to every state it starts, so a variant
of the same family (King of Tokyo: Origins, a two-player variant) is another value of
this type, not another engine. :data:`CLASSIC` is the classic game of the seeds.

The turn machine reads these numbers from ``state.rules`` on its hot paths; the module
is compiled with the engine, so each read is a native attribute load.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CLASSIC", "MONSTERS", "Rules"]

#: The classic game's monsters, in seat order (the names seats get when none are given).
MONSTERS = ("Alienoid", "Cyber Bunny", "Giga Zaur", "Kraken", "Meka Dragon", "The King")


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

    def bay_opens(self, players: int) -> bool:
        """Whether a game of ``players`` monsters starts with Tokyo Bay open."""
        return 0 < self.bay_min_players <= players


#: The classic game of the seeds (first edition): 20 stars, 10 health, six dice, two
#: rerolls, a market of three, Tokyo Bay with 5 or more monsters.
CLASSIC = Rules()
