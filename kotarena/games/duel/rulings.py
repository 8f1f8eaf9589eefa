"""Every choice the sources leave open in Duel that the engine makes at one place, each
one named constant, in one place.

Each constant has its row in the rulings table of ``docs/duel.md`` (section "Rulings"),
with its source (the seed rulebook, 002, and ``duel_components.md`` section 6) and the
tests that pin it. Change a ruling here and only here. Uncertain facts with nothing to
switch (the special dice's faces, the energy bank, the monster boards' other side) are
written in that section, not here: a constant no code reads would switch nothing.
"""

from __future__ import annotations

from typing import Final

#: A track space counts as inside a spotlight zone only if every printed space it
#: touches lies in the zone (the seed's "entirely inside"). A space of a token that
#: changes a track's length spans a fraction of the printed spaces under it; this rule
#: decides the spaces that straddle the zone's border.
SPOTLIGHT_DISTANCES: Final = (3, 4, 5)

#: Adrenaline Augment counts a marker in either player's spotlight zone (Game Park).
ADRENALINE_COUNTS_BOTH_SIDES: Final = True

#: Tesla Impulse gives its 2 energy even when the rival has no keep card to discard.
#: Game Park gives none then; the printed card makes no such condition.
TESLA_ENERGY_WITHOUT_DISCARD: Final = True

#: Sweeping the market (2 energy) may be repeated in one turn while energy lasts: the
#: seed sets no limit (Game Park allows one sweep a turn).
SWEEPS_PER_TURN: Final[int | None] = None

#: A hype bonus is gained where a pull ends; a space the marker only passes over gives
#: nothing. Seed 002: "У той момент, коли ви переміщуєте маркер ... на поділку з
#: бонусом ажіотажу, застосуйте ефект" (the moment you move the marker onto a space
#: with a bonus): a pull is one move, onto the space where it ends. The King's tokens
#: have their own text for a pull that "потрапляє на" (comes onto) one on its way, and
#: a win is a state of the board, checked at every space ("в будь-який момент").
BONUS_ON_SPACES_PASSED: Final = False

#: A pull that only passes through the rival's spotlight zone while the other marker
#: stands there does not make the rival win; ending there does. Seed 002 gives the
#: instant win to the one who pulls: "Якщо ви дотягнули маркер ... або якщо обидва
#: маркери розташовані в зонах уваги на вашій стороні ігрового поля, ви миттєво
#: перемагаєте" (so the puller wins on the first space of its own zone), and "Гра може
#: завершитися в будь-який момент" holds for the rival once the marker stands still.
#: Game Park checks only the puller's win at each space.
RIVAL_WINS_ON_SPACES_PASSED: Final = False

#: Operation Media ("for each claw you resolved in your roll this turn") counts every
#: claw the roll counted: the faces, Acid Attack's extra claw ("your roll always counts
#: one extra claw"), Adrenaline Augment's ("add one claw to your roll") and MekaDragon's
#: multiple (seed 002: "Можете вважати [claws] у ваших результатах кидка як [claws] ×
#: [power]", counted in the roll's result).
OPERATION_MEDIA_COUNTS_EXTRA_CLAWS: Final = True

#: The second player's starting bonus (the seed's icon was lost; Game Park: 1 energy).
SECOND_PLAYER_ENERGY: Final = 1

#: Both monsters at 0 health at once (Jets Scrambled, The Party Is Over!): nobody wins.
BOTH_KNOCKED_OUT_IS_A_DRAW: Final = True

#: When the deck runs out, the cards out of play are shuffled into a new deck (the seed
#: is silent; without it a long game ends with an empty market).
RESHUFFLE_WHEN_DECK_RUNS_OUT: Final = True
