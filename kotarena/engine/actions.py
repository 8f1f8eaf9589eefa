"""The action vocabulary: small immutable values with one text form.

Every choice a player makes is an :class:`Action`. Bots return them, the human prompt
parses them, replay and scenario files store their text. ``str(action)`` is the
canonical text and :func:`parse_action` its inverse; both round-trip exactly.

Actions are interned: ``parse_action("reroll 1 2")`` returns the very object the
engine lists among the legal actions, so comparing and hashing are cheap on the hot
path.

Text forms (dice positions count from 1, market slots from 1):

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
``spend 2``        (Duel) spend this many dice tokens for special dice before the first roll
``power fame``     (Duel) activate the superpower with this choice: a track
                   (Gigazaur), one face or the same face twice (Xenoid)
``hype fame 3 4``  (Duel) put the bought card's hype token on these printed spaces
                   of a track, its first bonus on the first space named
``block 1 fame 3`` (Duel) put The King's blocking token 1 or 2 on a track space
``pick the_king``  (Duel) choose one's monster, by id, when the table lets bots choose
``resolve fame``   (Duel) resolve this part of the roll next: ``power``, ``cards``, a face,
                   or an end-of-turn card (``resolve in_shape``)
=================  ============================================================

Card actions are parsed by grammar, not only looked up among interned actions, so a
replay can parse a card action before it is legal. Their meaning is documented with
the cards (``docs/cards.md``).
"""

from __future__ import annotations

import re
from itertools import combinations
from typing import Final

# Final, so that the compiled engine takes these as constants (see cards/moments.py).
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
SPEND: Final = "spend"
POWER: Final = "power"
HYPE: Final = "hype"
BLOCK: Final = "block"
PICK: Final = "pick"
RESOLVE: Final = "resolve"

#: Kinds whose arguments are integers (dice positions, market slots).
_INT_ARGS = {REROLL, BUY, CURE, SPEND}
#: Kinds that take no argument at all.
_NO_ARGS = {STOP, STAY, YIELD, SWEEP, DONE, PASS}
#: A card id, as ``use`` takes it.
_CARD_ID = re.compile(r"[a-z][a-z0-9_]*\Z")
_INT_WORD = re.compile(r"-?[0-9]+\Z")


class ActionError(ValueError):
    """Text that is not an action of the vocabulary."""


class Action:
    """One choice: a kind and its arguments, with a canonical text form.

    Build actions with :func:`parse_action` or :meth:`Action.of`; never mutate them.
    There is one object per text (``Action(kind, args)`` returns it too), so actions
    compare and hash by identity, at C speed: the engine checks every answer against
    a set of legal actions.
    """

    __slots__ = ("kind", "args", "text")

    kind: str
    args: tuple
    text: str

    def __new__(cls, kind: str, args: tuple = ()) -> Action:
        return Action.of(kind, *args)

    @staticmethod
    def of(kind: str, *args: object) -> Action:
        """The interned action with this kind and these arguments."""
        # Cards build their offers on every decision: looking the arguments up is
        # cheaper than writing the text. Different arguments with the same text (a
        # number and its digits) still meet in one interned action.
        action = _BY_ARGS.get((kind, args))
        if action is None:
            text = " ".join((kind, *map(str, args)))
            action = _INTERNED.get(text)
            if action is None:
                action = object.__new__(Action)
                object.__setattr__(action, "kind", kind)
                object.__setattr__(action, "args", tuple(args))
                object.__setattr__(action, "text", text)
                _INTERNED[text] = action
            _BY_ARGS[(kind, args)] = action
        return action

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action({self.text!r})"

    def __reduce__(self):
        # Unpickling goes through parse_action so the copy is the interned object.
        return (parse_action, (self.text,))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("actions are immutable")

    def __copy__(self) -> Action:
        return self

    def __deepcopy__(self, memo: dict) -> Action:
        return self


_INTERNED: dict[str, Action] = {}
_BY_ARGS: dict[tuple, Action] = {}


def parse_action(text: str) -> Action:
    """Parse the text form of an action (extra spaces and case are forgiven).

    >>> parse_action("reroll 4 1")
    Action('reroll 1 4')

    Raises :class:`ActionError` with a readable message for anything else.
    """
    words = text.strip().lower().split()
    if not words:
        raise ActionError("empty action; type an action such as 'stop' or 'reroll 1 2'")
    kind, rest = words[0], words[1:]
    if kind in _NO_ARGS:
        if rest:
            raise ActionError(f"'{kind}' takes no arguments (got {' '.join(rest)!r})")
        return Action.of(kind)
    if kind in _INT_ARGS:
        try:
            numbers = [int(word) for word in rest]
        except ValueError:
            raise ActionError(f"'{kind}' takes numbers, got {' '.join(rest)!r}") from None
        if kind == BUY:
            if len(numbers) != 1:
                raise ActionError("'buy' takes one market slot, e.g. 'buy 2'")
            return Action.of(BUY, numbers[0])
        if kind == SPEND:
            if len(numbers) != 1 or numbers[0] < 0:
                raise ActionError("'spend' takes one count of dice tokens, e.g. 'spend 1'")
            return Action.of(SPEND, numbers[0])
        if kind == CURE:
            if len(numbers) != 2 or min(numbers) < 0:
                raise ActionError("'cure' takes two counts, poison then shrink tokens, e.g. 'cure 1 0'")
            return Action.of(CURE, *numbers)
        if not numbers:
            raise ActionError("'reroll' needs dice positions, e.g. 'reroll 1 4'; use 'stop' to keep all dice")
        if len(set(numbers)) != len(numbers):
            raise ActionError("'reroll' names a die twice")
        return Action.of(REROLL, *sorted(numbers))
    if kind == USE:
        if not rest or not _CARD_ID.match(rest[0]):
            raise ActionError("'use' names a card by its id, e.g. 'use stretchy 3 claw'")
        args = [int(word) if _INT_WORD.match(word) else word for word in rest[1:]]
        return Action.of(USE, rest[0], *args)
    if kind in (POWER, HYPE, BLOCK, PICK, RESOLVE):
        return _parse_duel(kind, rest)
    action = _INTERNED.get(" ".join(words))
    if action is not None:  # an action some card registered
        return action
    raise ActionError(f"unknown action {text.strip()!r}")


def _parse_duel(kind: str, rest: list[str]) -> Action:
    """Duel's decisions: ``power WORD [WORD]``, ``hype TRACK A [B]``, ``block N TRACK CELL``,
    ``pick MONSTER``, ``resolve PART``."""
    if kind == RESOLVE:
        if len(rest) != 1 or not _CARD_ID.match(rest[0]):
            raise ActionError("'resolve' names one part of the roll, e.g. 'resolve fame' or 'resolve power'")
        return Action.of(RESOLVE, rest[0])
    if kind == PICK:
        if len(rest) != 1 or not _CARD_ID.match(rest[0]):
            raise ActionError("'pick' names a monster by its id, e.g. 'pick the_king'")
        return Action.of(PICK, rest[0])
    if kind == POWER:
        if not 1 <= len(rest) <= 2 or not all(_CARD_ID.match(word) for word in rest):
            raise ActionError("'power' takes a track or a face, e.g. 'power fame' or 'power claw claw'")
        return Action.of(POWER, *rest)
    if kind == HYPE:
        if not 2 <= len(rest) <= 3 or rest[0] not in ("fame", "destruction") or not all(
                _INT_WORD.match(word) for word in rest[1:]):
            raise ActionError("'hype' takes a track and one or two spaces, e.g. 'hype fame 3' or 'hype fame 4 3'")
        return Action.of(HYPE, rest[0], *(int(word) for word in rest[1:]))
    if (len(rest) != 3 or rest[0] not in ("1", "2") or rest[1] not in ("fame", "destruction")
            or not _INT_WORD.match(rest[2])):
        raise ActionError("'block' takes a token (1 or 2), a track and a space, e.g. 'block 1 fame 3'")
    return Action.of(BLOCK, int(rest[0]), rest[1], int(rest[2]))


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
