"""Packed replay lines: one token per action, the table of tokens given by the game.

A league night stores an actions-only replay for every match, about 150 actions. Its
body is one ``packed`` line: one character for each common action (the game's table,
:meth:`~kotarena.engine.game.Game.replay_tokens`) and the action's text in braces for
the others, without seats, which the engine decides when the replay is played again
(``docs/replays.md``, "Packed actions"). A game's token table is part of the replay
format: a character's meaning never changes.
"""

from __future__ import annotations

from kotarena.engine.actions import Action, ActionError, parse_action
from kotarena.games import get_game

__all__ = ["action_line", "packed_body", "packed_token", "unpacked_texts"]


class _Tokens:
    """A game's token table both ways, and the token of each action met so far (actions
    are interned and hash by identity, so the cache stays as small as the vocabulary)."""

    def __init__(self, game: str) -> None:
        found = get_game(game)
        self.text_of: dict[str, str] = dict(found.replay_tokens())
        #: The game's verbs, which the actions written out in braces are read with.
        self.verbs = found.verbs
        self.token_of_text: dict[str, str] = {text: token for token, text in self.text_of.items()}
        self.token_of: dict[Action, str] = {}


_TABLES: dict[str, _Tokens] = {}


def _tokens(game: str) -> _Tokens:
    table = _TABLES.get(game)
    if table is None:
        table = _TABLES[game] = _Tokens(game)
    return table


def action_line(seat: int, text: str) -> str:
    """The body line of an action: ``a SEAT ACTION``."""
    return f"a {seat} {text}"


def packed_token(game: str, action: Action) -> str:
    """The token of ``action`` in a packed line of ``game``: one character, or its text in braces."""
    table = _tokens(game)
    token = table.token_of.get(action)
    if token is None:
        text = action.text
        if "{" in text or "}" in text:  # no action of the vocabulary has one; a card's could
            raise ValueError(f"the action {text!r} cannot be packed: it holds a brace")
        token = table.token_of[action] = table.token_of_text.get(text) or "{" + text + "}"
    return token


def packed_body(game: str, history: list[tuple[int, Action]]) -> str:
    """The tokens of a game's ``history`` (its ``(seat, action)`` pairs), in order."""
    return "".join(packed_token(game, action) for _, action in history)


def unpacked_texts(game: str, packed: str) -> list[str]:
    """The action texts of a packed line's tokens in ``game``, in order.

    Raises :class:`ValueError` naming the first character that begins no token (counting
    from 1).
    """
    tokens = _tokens(game)
    text_of = tokens.text_of
    texts: list[str] = []
    at = 0
    while at < len(packed):
        char = packed[at]
        if char == "{":
            end = packed.find("}", at)
            if end < 0:
                raise ValueError(f"character {at + 1}: '{{' without its '}}'")
            try:
                texts.append(parse_action(packed[at + 1:end], tokens.verbs).text)
            except ActionError as error:
                raise ValueError(f"character {at + 1}: {error}") from None
            at = end + 1
            continue
        text = text_of.get(char)
        if text is None:
            raise ValueError(f"character {at + 1}: {char!r} stands for no action")
        texts.append(text)
        at += 1
    return texts
