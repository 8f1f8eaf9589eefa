"""The action vocabulary: small immutable values with one text form.

Every choice a player makes is an :class:`Action`. Bots return them, the human prompt
parses them, replay and scenario files store their text. ``str(action)`` is the
canonical text and :func:`parse_action` its inverse; both round-trip exactly.

Actions are interned: ``parse_action("reroll 1 2")`` returns the very object the
engine lists among the legal actions, so comparing and hashing are cheap on the hot
path.

The core knows no game's verbs. Any text of the form ``verb arg ...`` (a lowercase
word, then whole numbers and words) is an action, read the same way in every process,
whatever game was loaded: ``parse_action("bet 3")`` is ``Action('bet 3')``. A game
declares its verbs (:attr:`Game.verbs <kotarena.engine.game.Game.verbs>`, each a
:class:`Verb`: King of Tokyo's ``reroll 1 4``, Duel's ``power fame``, a plugin's ``bet
3``); given them, :func:`parse_action` refuses a verb the game does not have and reads
a verb's arguments with the verb's own reader, which checks them and may write them in a
canonical order. Whether an action is legal is the game's call.

The canonical text of every action a game offers reads, with or without its verbs, to
the very object the game lists: so replays, bots' answers and pickles need no game to
be parsed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

#: A verb: a lowercase word.
_VERB = re.compile(r"[a-z][a-z0-9_]*\Z")
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


def parse_action(text: str, verbs: Mapping[str, Verb] | None = None) -> Action:
    """Parse the text form of an action (extra spaces and case are forgiven).

    >>> parse_action("Bet  3")  # any ``verb arg ...`` reads, whatever game was loaded
    Action('bet 3')
    >>> parse_action("stop")
    Action('stop')

    ``verbs`` are a game's (:attr:`Game.verbs`): given them, a verb that is not among
    them is refused, and a verb's own ``read`` checks its arguments (King of Tokyo's
    ``reroll 4 1`` reads as ``reroll 1 4``). A game that declares no verbs (an empty
    mapping) has its actions read as without. Raises :class:`ActionError` with a
    readable message for text that is no action.
    """
    words = text.strip().lower().split()
    if not words:
        example = f"such as {next(iter(verbs.values())).usage!r}" if verbs else "(a verb and its arguments)"
        raise ActionError(f"empty action; type an action {example}")
    kind, rest = words[0], words[1:]
    if verbs:
        verb = verbs.get(kind)
        if verb is None:
            raise ActionError(f"unknown action {text.strip()!r} (the actions: {', '.join(verbs)})")
        if verb.read is not None:
            return Action.of(kind, *verb.read(rest))
    action = _INTERNED.get(" ".join(words))
    if action is not None:  # an action some card or game registered
        return action
    return Action.of(kind, *read_words(kind, rest, text))


def read_words(kind: str, rest: Sequence[str], text: str = "") -> tuple:
    """The arguments of a verb without a grammar of its own: whole numbers as ints,
    other words as they are (:class:`ActionError` for a verb or word that is neither)."""
    if not _VERB.match(kind):
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
