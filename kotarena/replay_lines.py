"""The body of an actions-only replay: ``a SEAT ACTION`` lines, or one ``packed`` line.

A league night stores an actions-only replay for every match, about 150 actions. As
``a SEAT ACTION`` lines that is about 2 KB of text, and writing it cost a night's
workers 30-36 µs a game, a tenth of what a game costs (``docs/throughput-log.md``,
eleventh session): every way of writing 150 lines cost about the same. So the league
writes the body as one ``packed`` line instead: one character for each common action
and the action's text in braces for the others, without seats, which the engine
decides when the replay is played again (``docs/replays.md``, "Packed actions").

The token table (King of Tokyo's, :mod:`kotarena.games.kot.tokens`) is part of replay
format version 2: a character's meaning never changes. This module is compiled with the
engine (``NATIVE_MODULES`` in ``setup.py``).
"""

from __future__ import annotations

from kotarena.engine.actions import Action, ActionError, parse_action

# The King of Tokyo table, for now the only one (a game's table is Game.replay_tokens()).
from kotarena.games.kot.tokens import PACKED_TOKENS

__all__ = ["PACKED_TOKENS", "action_line", "joined_replay", "packed_body", "packed_token", "unpacked_texts"]

_TOKEN_OF_TEXT: dict[str, str] = {text: token for token, text in PACKED_TOKENS.items()}

#: For each action packed so far, its token. Actions are interned and hash by identity,
#: so the table stays as small as the vocabulary a process meets.
_TOKENS: dict[Action, str] = {}


def action_line(seat: int, text: str) -> str:
    """The body line of an action: ``a SEAT ACTION``."""
    return f"a {seat} {text}"


def packed_token(action: Action) -> str:
    """The token of ``action`` in a packed line: one character, or its text in braces."""
    token = _TOKENS.get(action)
    if token is None:
        text = action.text
        if "{" in text or "}" in text:  # no action of the vocabulary has one; a card's could
            raise ValueError(f"the action {text!r} cannot be packed: it holds a brace")
        token = _TOKENS[action] = _TOKEN_OF_TEXT.get(text) or "{" + text + "}"
    return token


def packed_body(history: list[tuple[int, Action]]) -> str:
    """The tokens of a game's ``history`` (its ``(seat, action)`` pairs), in order."""
    tokens = _TOKENS
    parts: list[str] = []
    for _, action in history:
        token = tokens.get(action)
        if token is None:
            token = packed_token(action)
        parts.append(token)
    return "".join(parts)


def unpacked_texts(packed: str) -> list[str]:
    """The action texts of a packed line's tokens, in order.

    Raises :class:`ValueError` naming the first character that begins no token (counting
    from 1).
    """
    texts: list[str] = []
    at = 0
    while at < len(packed):
        char = packed[at]
        if char == "{":
            end = packed.find("}", at)
            if end < 0:
                raise ValueError(f"character {at + 1}: '{{' without its '}}'")
            try:
                texts.append(parse_action(packed[at + 1:end]).text)
            except ActionError as error:
                raise ValueError(f"character {at + 1}: {error}") from None
            at = end + 1
            continue
        text = PACKED_TOKENS.get(char)
        if text is None:
            raise ValueError(f"character {at + 1}: {char!r} stands for no action")
        texts.append(text)
        at += 1
    return texts


def joined_replay(before: str, seed: int | None, after: str, history: list[tuple[int, Action]], result: str) -> str:
    """An actions-only replay's text: the header lines ``before`` and ``after`` its seed
    line, the packed line of ``history``, the ``result`` line, and a final newline."""
    return f"{before}\nseed {seed}\n{after}\npacked {packed_body(history)}\n{result}\n"
