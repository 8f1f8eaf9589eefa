"""Duel's actions: the shared vocabulary it plays with and its own six verbs (``spend``,
``power``, ``hype``, ``block``, ``pick``, ``resolve``), each with how its arguments read.

``Duel.verbs`` declares them, so the core parses them as any game's (``verb arg ...``);
their readers check the arguments, for the prompt's one-line usage messages.
"""

from __future__ import annotations

import re
from typing import Final

from kotarena.engine.actions import Action, ActionError, Verb
from kotarena.games.duel.faces import ADDABLE, FACE_NAMES
from kotarena.games.duel.rules import MARKET_SIZE, MAX_DICE, MAX_TOKENS
from kotarena.games.vocabulary import BUY, PASS_ACTION, SHARED_VERBS

SPEND: Final = "spend"
POWER: Final = "power"
HYPE: Final = "hype"
BLOCK: Final = "block"
PICK: Final = "pick"
RESOLVE: Final = "resolve"

_WORD = re.compile(r"[a-z][a-z0-9_]*\Z")
_INT_WORD = re.compile(r"-?[0-9]+\Z")
_TRACKS = ("fame", "destruction")


def _spend(rest: list[str]) -> tuple:
    if len(rest) != 1 or not rest[0].isdigit():
        raise ActionError("'spend' takes one count of dice tokens, e.g. 'spend 1'")
    return (int(rest[0]),)


def _power(rest: list[str]) -> tuple:
    if not 1 <= len(rest) <= 2 or not all(_WORD.match(word) for word in rest):
        raise ActionError("'power' takes a track or a face, e.g. 'power fame' or 'power claw claw'")
    return tuple(rest)


def _hype(rest: list[str]) -> tuple:
    if not 2 <= len(rest) <= 3 or rest[0] not in _TRACKS or not all(_INT_WORD.match(word) for word in rest[1:]):
        raise ActionError("'hype' takes a track and one or two spaces, e.g. 'hype fame 3' or 'hype fame 4 3'")
    return (rest[0], *(int(word) for word in rest[1:]))


def _block(rest: list[str]) -> tuple:
    if len(rest) != 3 or rest[0] not in ("1", "2") or rest[1] not in _TRACKS or not _INT_WORD.match(rest[2]):
        raise ActionError("'block' takes a token (1 or 2), a track and a space, e.g. 'block 1 fame 3'")
    return (int(rest[0]), rest[1], int(rest[2]))


def _pick(rest: list[str]) -> tuple:
    if len(rest) != 1 or not _WORD.match(rest[0]):
        raise ActionError("'pick' names a monster by its id, e.g. 'pick the_king'")
    return (rest[0],)


def _resolve(rest: list[str]) -> tuple:
    if len(rest) != 1 or not _WORD.match(rest[0]):
        raise ActionError("'resolve' names one part of the roll, e.g. 'resolve fame' or 'resolve power'")
    return (rest[0],)


VERBS: dict[str, Verb] = {
    **{name: SHARED_VERBS[name] for name in ("stop", "reroll", "buy", "sweep", "done", "pass", "use")},
    SPEND: Verb(SPEND, "spend N", "spend N dice tokens for special dice before the first roll", _spend),
    POWER: Verb(POWER, "power WHAT", "activate your superpower with this choice: a track (Gigazaur), "
                "a face or the same face twice (Xenoid)", _power),
    HYPE: Verb(HYPE, "hype TRACK A [B]", "put the bought card's hype token on these spaces of a track, "
               "its first bonus on A", _hype),
    BLOCK: Verb(BLOCK, "block N TRACK S", "put The King's blocking token N on space S of a track", _block),
    PICK: Verb(PICK, "pick MONSTER", "choose your monster, by id", _pick),
    RESOLVE: Verb(RESOLVE, "resolve PART", "resolve this part of the roll next: power, cards, a face, "
                  "or an end-of-turn card (resolve in_shape)", _resolve),
}

# The actions the turn offers that never change, built once (not per decision).
#: ``spend K`` for each K a turn may spend.
SPEND_ACTIONS: Final[tuple[Action, ...]] = tuple([Action.of(SPEND, k) for k in range(MAX_DICE + 1)])
#: ``buy SLOT`` by slot (index 0 unused).
BUY_ACTIONS: Final[tuple[Action, ...]] = tuple([Action.of(BUY, slot) for slot in range(MARKET_SIZE + 1)])

#: Each superpower's ``power`` actions (pass first), where the board plays no part.
POWER_ACTIONS: Final[dict[str, tuple[Action, ...]]] = {
    "gigazaur": (PASS_ACTION, Action.of(POWER, "fame"), Action.of(POWER, "destruction")),
    "xenoid": (PASS_ACTION, *[Action.of(POWER, FACE_NAMES[f]) for f in ADDABLE]),
    "xenoid_3": (PASS_ACTION, *[Action.of(POWER, FACE_NAMES[f]) for f in ADDABLE],
                 *[Action.of(POWER, FACE_NAMES[f], FACE_NAMES[f]) for f in ADDABLE]),
    "space_penguin": (PASS_ACTION, *[Action.of(POWER, *(("token",) * n)) for n in range(1, MAX_TOKENS + 1)]),
    "cyber_kitty": (PASS_ACTION, Action.of(POWER, "energy")),
    "cyber_kitty_3": (PASS_ACTION, Action.of(POWER, "energy"), Action.of(POWER, "energy", "energy")),
    "mekadragon": (PASS_ACTION, Action.of(POWER, "multiply")),
}

__all__ = ["BLOCK", "BUY_ACTIONS", "HYPE", "PICK", "POWER", "POWER_ACTIONS", "RESOLVE", "SPEND", "SPEND_ACTIONS", "VERBS"]
