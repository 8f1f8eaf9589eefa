"""A person at the keyboard, playing through the same action text as every bot.

:class:`HumanBot` plays any game: it prints the table, asks for an action in the
game's verbs (King of Tokyo's ``reroll 1 4``, ``stop``, ``buy 2``, ``use CARD ...``;
Duel's ``power fame``; a plugin game's own), ``?`` lists every legal one with what it
does, ``? NAME`` explains a named thing (a card, a monster, a superpower, a token), and
asks again, with a one-line reason, until the answer is legal. Everything it shows and
how it reads an answer are the game's words (``Game.words``,
:class:`kotarena.engine.words.Words`), so a game of a plugin's is played as the
built-in ones are.

A prompt with no person behind it would wait forever, so without a terminal (or with
``CI=true``) the bot refuses to start. ``KOTARENA_ASSUME_TTY=1`` lifts that check; it
exists for tests that feed answers through a pipe.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

import click

from kotarena.bots.base import ALL_GAMES, Bot
from kotarena.engine.actions import ActionError
from kotarena.engine.words import Words
from kotarena.games import get_game

#: Set to 1 to let the human bot prompt without a terminal (for tests and pipes).
ASSUME_TTY_ENV = "KOTARENA_ASSUME_TTY"


class NoTerminalError(RuntimeError):
    """The human bot was asked to play where nobody can answer."""


def terminal_problem() -> str | None:
    """Why a person could not answer prompts here, or ``None`` if they can."""
    if os.environ.get(ASSUME_TTY_ENV, "") not in ("", "0"):
        return None
    if os.environ.get("CI", "").lower() in ("true", "1"):
        return "the human bot needs a person at a terminal, and CI is set"
    stdin = sys.stdin
    if stdin is None or not stdin.isatty():
        return "the human bot needs a person at a terminal, and standard input is not one"
    return None


def require_terminal() -> None:
    """Raise :class:`NoTerminalError` unless someone can answer prompts."""
    problem = terminal_problem()
    if problem:
        raise NoTerminalError(f"{problem} (play in a terminal, or set {ASSUME_TTY_ENV}=1 to pipe answers in)")


def _default_ask(text: str) -> str:
    return click.prompt(text, prompt_suffix=" ")


class HumanBot(Bot):
    """A person at the keyboard: shows the table and prompts for each decision."""

    name = "human"
    games = ALL_GAMES  #: every game: what it shows and reads are the game's words

    def __init__(
        self,
        *,
        seed: int | None = None,
        ask: Callable[[str], str] | None = None,
        echo: Callable[[str], None] | None = None,
        **params: object,
    ) -> None:
        super().__init__(seed=seed, **params)
        #: Called with the prompt text; returns what the person typed.
        self.ask = ask
        #: Called with each line (or block of lines) to show.
        self.echo = echo or click.echo

    def start(self, view) -> None:
        if self.ask is None:
            require_terminal()
            self.ask = _default_ask

    def choose(self, view):
        if self.ask is None:  # choose() without start(), e.g. straight from a test
            self.start(view)
        self.echo("")
        self.echo(words_of(view).table(view, me=view.player))
        while True:
            answer = self.ask(f"{view.names[view.player]} >")
            action, problem = self.understand(answer, view)
            if action is not None:
                return action
            self.echo(problem)

    def understand(self, answer: str, view):
        """``(action, None)`` for a legal answer, ``(None, message)`` otherwise.

        ``?`` and ``help`` return the legal actions, explained, as the message; ``?
        NAME`` (or ``help NAME``) what the thing so named is.
        """
        words = words_of(view)
        text = answer.strip()
        first, _, rest = text.partition(" ")
        if text.startswith("?") or first.lower() in ("help", "h"):
            return None, words.help(view, text[1:].strip() if text.startswith("?") else rest.strip())
        try:
            action = words.read(text, view)
        except ActionError as error:
            return None, f"{error}. Type ? for the legal actions."
        if action in view.legal:
            return action, None
        return None, f"'{action}' is not legal now: {words.why_illegal(action, view)}. Type ? for the legal actions."


def words_of(view) -> Words:
    """The words of the game a view belongs to."""
    return get_game(view.game).words
