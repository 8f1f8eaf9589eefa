"""The legal-action tables the turn machine hands out: built once, shared by every game.

A decision's legal list and the set it is checked against come as one pair; the
engine never builds an action on the hot path (one reroll table per dice count, one buy
table per combination of affordable market slots).
"""

from __future__ import annotations

from typing import Final

from kotarena.engine.actions import Action
from kotarena.games.vocabulary import (
    BUY,
    BUY_ACTIONS,
    DONE_ACTION,
    PASS_ACTION,
    STAY_ACTION,
    SWEEP_ACTION,
    YIELD_ACTION,
    reroll_table,
)

#: A decision's legal actions, and the same as a set.
Table = tuple[tuple[Action, ...], frozenset[Action]]

YIELD_LEGAL: Final[Table] = ((STAY_ACTION, YIELD_ACTION), frozenset((STAY_ACTION, YIELD_ACTION)))
NO_LEGAL: Final[Table] = ((), frozenset())
#: The buy step's table when nothing is affordable: shared by every market size, so the
#: buy step recognises it (by its legal tuple: mypyc passes fixed-length tuples unboxed,
#: so the pair itself is a new object).
NOTHING_TO_BUY: Final[Table] = ((DONE_ACTION,), frozenset((DONE_ACTION,)))

_REROLL_TABLES: dict[int, Table] = {}


def reroll_legal(dice_count: int) -> Table:
    """``stop`` and every reroll of ``dice_count`` dice."""
    entry = _REROLL_TABLES.get(dice_count)
    if entry is None:
        table = reroll_table(dice_count)
        entry = _REROLL_TABLES[dice_count] = (table, frozenset(table))
    return entry


def buy_action(slot: int) -> Action:
    """``buy N`` for market slot ``slot`` (from 0)."""
    return BUY_ACTIONS[slot] if slot < 3 else Action.of(BUY, slot + 1)


def _buy_tables(size: int) -> list[Table]:
    """Index ``mask | sweep << size``: bit ``s`` of ``mask`` set when slot ``s+1`` is affordable."""
    tables = [NOTHING_TO_BUY]
    for index in range(1, 2 << size):
        legal = [DONE_ACTION]
        legal.extend(buy_action(s) for s in range(size) if index >> s & 1)
        if index >> size & 1:
            legal.append(SWEEP_ACTION)
        tables.append((tuple(legal), frozenset(legal)))
    return tables


#: The buy tables of the classic market (three slots); other sizes are made when first asked.
_BUY_LEGAL: Final = _buy_tables(3)
_OTHER_BUY_TABLES: dict[int, list[Table]] = {}


def buy_legal(size: int) -> list[Table]:
    """The buy tables of a market of ``size`` slots (see ``_buy_tables``)."""
    if size == 3:
        return _BUY_LEGAL
    tables = _OTHER_BUY_TABLES.get(size)
    if tables is None:
        tables = _OTHER_BUY_TABLES[size] = _buy_tables(size)
    return tables


def with_pass(offers: tuple[Action, ...]) -> Table:
    """A card decision's table: ``pass`` first, then what the cards offer."""
    legal = (PASS_ACTION, *offers)
    return legal, frozenset(legal)
