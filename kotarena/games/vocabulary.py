"""The King of Tokyo family's action vocabulary: the verbs King of Tokyo, Origins and
Duel share, how their arguments read, and the actions their turn machines offer.

=================  ============================================================
``stop``           keep the dice as they are and go on to resolving them
``reroll 1 4 5``   reroll the dice at these positions (kept dice are the others)
``stay``           stay in Tokyo after being attacked
``yield``          leave Tokyo to the attacker
``buy 2``          buy the card in market slot 2
``sweep``          pay 2 energy to discard the market and reveal three new cards
``done``           end the buy step
``pass``           decline what a card decision offers (always the first legal action)
``use stretchy 3   use a card: ``use <card id>`` and the card's arguments (ints for
claw``             dice positions, seats, slots and amounts; face names for faces)
``cure 1 0``       spend heart results on tokens: poison tokens, shrink tokens
=================  ============================================================

Dice positions and market slots count from 1. A game of the family declares these as
its verbs (:data:`SHARED_VERBS`, King of Tokyo's ``Game.verbs``; Duel takes the seven it
plays and adds its own), and reading text with them (``parse_action(text, game.verbs)``)
checks the arguments and writes an action in its canonical form: ``reroll 4 1`` reads as
``reroll 1 4``. The core's :func:`~kotarena.engine.actions.parse_action` needs none of
this: the canonical text of every action here reads as any ``verb arg ...`` does, to the
very action the engine offers.

Why a module of the games and not of either game: the verbs are the family's, not King
of Tokyo's alone, and Duel is not built on King of Tokyo's package (it imports nothing of
it); both import this, and the core, which imports no game, knows none of it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from itertools import combinations
from typing import Final

from kotarena.engine.actions import Action, ActionError, Verb, parse_action

# Final, so that the compiled turn machines take these as constants.
STOP: Final = "stop"
REROLL: Final = "reroll"
STAY: Final = "stay"
YIELD: Final = "yield"
BUY: Final = "buy"
SWEEP: Final = "sweep"
DONE: Final = "done"
PASS: Final = "pass"
USE: Final = "use"
CURE: Final = "cure"

#: A card id, as ``use`` takes it.
_CARD_ID = re.compile(r"[a-z][a-z0-9_]*\Z")
_INT_WORD = re.compile(r"-?[0-9]+\Z")


def _nothing(kind: str):
    def read(rest: list[str]) -> tuple:
        if rest:
            raise ActionError(f"'{kind}' takes no arguments (got {' '.join(rest)!r})")
        return ()

    return read


def _numbers(kind: str, rest: list[str]) -> list[int]:
    try:
        return [int(word) for word in rest]
    except ValueError:
        raise ActionError(f"'{kind}' takes numbers, got {' '.join(rest)!r}") from None


def _reroll(rest: list[str]) -> tuple:
    numbers = _numbers(REROLL, rest)
    if not numbers:
        raise ActionError("'reroll' needs dice positions, e.g. 'reroll 1 4'; use 'stop' to keep all dice")
    if len(set(numbers)) != len(numbers):
        raise ActionError("'reroll' names a die twice")
    return tuple(sorted(numbers))


def _buy(rest: list[str]) -> tuple:
    numbers = _numbers(BUY, rest)
    if len(numbers) != 1:
        raise ActionError("'buy' takes one market slot, e.g. 'buy 2'")
    return (numbers[0],)


def _cure(rest: list[str]) -> tuple:
    numbers = _numbers(CURE, rest)
    if len(numbers) != 2 or min(numbers) < 0:
        raise ActionError("'cure' takes two counts, poison then shrink tokens, e.g. 'cure 1 0'")
    return tuple(numbers)


def _use(rest: list[str]) -> tuple:
    if not rest or not _CARD_ID.match(rest[0]):
        raise ActionError("'use' names a card by its id, e.g. 'use stretchy 3 claw'")
    return (rest[0], *(int(word) if _INT_WORD.match(word) else word for word in rest[1:]))


#: The family's verbs, with their readers (King of Tokyo's and Origins' ``Game.verbs``;
#: Duel takes the ones it plays).
SHARED_VERBS: Mapping[str, Verb] = {verb.name: verb for verb in (
    Verb(STOP, "stop", "keep the dice as they are and resolve them", _nothing(STOP)),
    Verb(REROLL, "reroll P ...", "reroll the dice at positions P (the others are kept)", _reroll),
    Verb(STAY, "stay", "stay in Tokyo", _nothing(STAY)),
    Verb(YIELD, "yield", "leave Tokyo to the attacker", _nothing(YIELD)),
    Verb(BUY, "buy N", "buy the card in market slot N", _buy),
    Verb(SWEEP, "sweep", "pay 2 energy to discard the market and reveal new cards", _nothing(SWEEP)),
    Verb(DONE, "done", "end the buy step", _nothing(DONE)),
    Verb(PASS, "pass", "decline what the decision offers", _nothing(PASS)),
    Verb(USE, "use CARD ...", "use a card, with its arguments", _use),
    Verb(CURE, "cure P S", "spend hearts on P poison and S shrink tokens", _cure),
)}


def read_action(text: str) -> Action:
    """``text`` as an action: a verb of the family's read with its grammar (``reroll 4 1``
    is ``reroll 1 4``, ``reroll 1 1`` an :class:`ActionError`), any other ``verb arg ...``
    as the core reads it (an action no game of the family offers: illegal, which is the
    game's call to say)."""
    words = text.split(None, 1)
    return parse_action(text, SHARED_VERBS if not words or words[0].lower() in SHARED_VERBS else None)


def reroll_table(dice_count: int) -> tuple[Action, ...]:
    """``stop`` followed by every non-empty reroll of ``dice_count`` dice."""
    positions = range(1, dice_count + 1)
    table = [Action.of(STOP)]
    for size in range(1, dice_count + 1):
        table.extend(Action.of(REROLL, *combo) for combo in combinations(positions, size))
    return tuple(table)


STOP_ACTION = Action.of(STOP)
STAY_ACTION = Action.of(STAY)
YIELD_ACTION = Action.of(YIELD)
SWEEP_ACTION = Action.of(SWEEP)
DONE_ACTION = Action.of(DONE)
BUY_ACTIONS = (Action.of(BUY, 1), Action.of(BUY, 2), Action.of(BUY, 3))
PASS_ACTION = Action.of(PASS)

__all__ = [
    "BUY", "BUY_ACTIONS", "CURE", "DONE", "DONE_ACTION", "PASS", "PASS_ACTION", "REROLL", "SHARED_VERBS", "STAY",
    "STAY_ACTION", "STOP", "STOP_ACTION", "SWEEP", "SWEEP_ACTION", "USE", "YIELD", "YIELD_ACTION", "read_action",
    "reroll_table",
]
