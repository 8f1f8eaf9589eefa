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
=================  ============================================================

These are the shared vocabulary, which the built-in games use and any game may. Any
other text of the form ``verb arg ...`` (a lowercase word, then whole numbers and
words) is an action too: a game declares its own verbs (:attr:`Game.verbs
<kotarena.engine.game.Game.verbs>`, each a :class:`Verb`, Duel's ``power fame`` and a
plugin's ``bet 3`` alike), and whether an action is legal is the game's call, so the
core parses every game's actions without knowing them. Given a game's verbs,
:func:`parse_action` also checks a verb's arguments and refuses a verb the game does
not have.

Card actions are parsed by grammar, not only looked up among interned actions, so a
replay can parse a card action before it is legal. Their meaning is documented with
the cards (``docs/cards.md``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
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

#: Kinds whose arguments are integers (dice positions, market slots).
_INT_ARGS = {REROLL, BUY, CURE}
#: Kinds that take no argument at all.
_NO_ARGS = {STOP, STAY, YIELD, SWEEP, DONE, PASS}
#: A card id, as ``use`` takes it.
_CARD_ID = re.compile(r"[a-z][a-z0-9_]*\Z")
_INT_WORD = re.compile(r"-?[0-9]+\Z")
#: A word argument of a game's own verb (a track, a face, a monster's id).
_ARG_WORD = re.compile(r"[a-z0-9_][a-z0-9_-]*\Z")


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


@dataclass(frozen=True)
class Verb:
    """One verb of a game's actions (:attr:`Game.verbs <kotarena.engine.game.Game.verbs>`):
    its word, how it is written, what it does, and how its arguments read.

    ``read`` turns the words after the verb into the action's arguments, raising
    :class:`ActionError` with a one-line usage when they do not fit; without one the
    arguments read as :func:`parse_action` reads any verb's (whole numbers as ints,
    other words as they are).
    """

    name: str
    usage: str
    help: str
    read: Callable[[list[str]], tuple] | None = None


#: The shared vocabulary as verbs, for a game that plays with it (the default of
#: ``Game.verbs``; a game that uses some of it lists those).
SHARED_VERBS: Mapping[str, Verb] = {verb.name: verb for verb in (
    Verb(STOP, "stop", "keep the dice as they are and resolve them"),
    Verb(REROLL, "reroll P ...", "reroll the dice at positions P (the others are kept)"),
    Verb(STAY, "stay", "stay in Tokyo"),
    Verb(YIELD, "yield", "leave Tokyo to the attacker"),
    Verb(BUY, "buy N", "buy the card in market slot N"),
    Verb(SWEEP, "sweep", "pay 2 energy to discard the market and reveal new cards"),
    Verb(DONE, "done", "end the buy step"),
    Verb(PASS, "pass", "decline what the decision offers"),
    Verb(USE, "use CARD ...", "use a card, with its arguments"),
    Verb(CURE, "cure P S", "spend hearts on P poison and S shrink tokens"),
)}


def parse_action(text: str, verbs: Mapping[str, Verb] | None = None) -> Action:
    """Parse the text form of an action (extra spaces and case are forgiven).

    >>> parse_action("reroll 4 1")
    Action('reroll 1 4')
    >>> parse_action("bet 3")  # a verb of some game's: any ``verb arg ...`` reads
    Action('bet 3')

    ``verbs`` are a game's (:attr:`Game.verbs`): given them, a verb that is not among
    them is refused, and a verb's own ``read`` checks its arguments. Raises
    :class:`ActionError` with a readable message for text that is no action.
    """
    words = text.strip().lower().split()
    if not words:
        raise ActionError("empty action; type an action such as 'stop' or 'reroll 1 2'")
    kind, rest = words[0], words[1:]
    if verbs is not None:
        verb = verbs.get(kind)
        if verb is None:
            known = ", ".join(verbs)
            raise ActionError(f"unknown action {text.strip()!r}" + (f" (the actions: {known})" if known else ""))
        if verb.read is not None:
            return Action.of(kind, *verb.read(rest))
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
    action = _INTERNED.get(" ".join(words))
    if action is not None:  # an action some card or game registered
        return action
    return Action.of(kind, *read_words(kind, rest, text))


def read_words(kind: str, rest: Sequence[str], text: str = "") -> tuple:
    """The arguments of a verb without a grammar of its own: whole numbers as ints,
    other words as they are (:class:`ActionError` for a verb or word that is neither)."""
    if not _CARD_ID.match(kind):
        raise ActionError(f"unknown action {(text or kind).strip()!r}")
    args: list[object] = []
    for word in rest:
        if _INT_WORD.match(word):
            args.append(int(word))
        elif _ARG_WORD.match(word):
            args.append(word)
        else:
            raise ActionError(f"unknown action {(text or kind).strip()!r}: {word!r} is not a number or a word")
    return tuple(args)


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
