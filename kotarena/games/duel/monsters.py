"""The six Duel monsters: starting health and superpower (docs/duel.md, "Monsters").

Starting health is also the most a monster can have. Each superpower is a code the turn
machine plays (``turn.py``); the texts are how people read them.
"""

from __future__ import annotations

from typing import NamedTuple

from kotarena.engine.outcome import PositionError


class Monster(NamedTuple):
    """One monster board: its id (also the superpower's code), name, health, difficulty."""

    id: str
    name: str
    health: int
    difficulty: int
    power: str  #: the printed superpower's name
    text: str


MONSTERS: tuple[Monster, ...] = (
    Monster("gigazaur", "Gigazaur", 14, 1, "Blockbuster",
            "Each pair of power faces: pull the fame or the destruction marker 1."),
    Monster("xenoid", "Xenoid", 14, 1, "Alien Technology",
            "Each pair of power faces: add any face but power to your roll; one more power face "
            "in the same activation adds that face again."),
    Monster("space_penguin", "Space Penguin", 13, 2, "Cryo-Gadgets",
            "Each power face: gain 1 dice token (at most 2 held)."),
    Monster("mekadragon", "MekaDragon", 12, 2, "Nuclear Breath",
            "Your claws count as claws times power faces."),
    Monster("cyber_kitty", "Cyber Kitty", 13, 3, "Cat-astrophic Power",
            "Each pair of power faces: gain 2 energy; one more power face in the same activation: 2 more."),
    Monster("the_king", "The King", 15, 3, "Territorial",
            "Each pair of power faces: place one of your 2 blocking tokens on a free track space, "
            "or move one already placed."),
)
BY_ID = {monster.id: monster for monster in MONSTERS}
#: The names a table shows, in the order monsters are offered.
NAMES = tuple(monster.name for monster in MONSTERS)


def find_monster(name: str) -> Monster:
    """The monster called ``name`` (its name or id, any case; ``Alienoid`` is Xenoid's
    English name); :class:`PositionError` in one line if none."""
    key = name.strip().lower().replace(" ", "_").replace("-", "_")
    if key == "alienoid":
        key = "xenoid"
    for monster in MONSTERS:
        if key in (monster.id, monster.name.lower().replace(" ", "_")):
            return monster
    raise PositionError(f"no Duel monster is called {name!r}; the monsters: {', '.join(NAMES)}")
