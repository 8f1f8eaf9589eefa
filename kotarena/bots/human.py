"""A person at the keyboard, playing through the same action text as every bot.

:class:`HumanBot` prints the table, asks for an action (``reroll 1 4``, ``stop``,
``stay``, ``yield``, ``buy 2``, ``sweep``, ``done``, and at the cards' decisions
``pass``, ``use CARD ...`` or ``cure P S``; ``?`` lists every legal one with what it
does, ``? CARD`` explains a card) and asks again, with a one-line reason, until the
answer is legal. A card in a ``use`` answer may be named as it is printed (``use Plot
Twist 3 claw``) or by its id (``use plot_twist 3 claw``).

A prompt with no person behind it would wait forever, so without a terminal (or with
``CI=true``) the bot refuses to start. ``KOTARENA_ASSUME_TTY=1`` lifts that check; it
exists for tests that feed answers through a pipe.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

import click

from kotarena.bots.base import Bot
from kotarena.engine.actions import ActionError, parse_action
from kotarena.games.kot.view import View

#: Set to 1 to let the human bot prompt without a terminal (for tests and pipes).
ASSUME_TTY_ENV = "KOTARENA_ASSUME_TTY"

#: Words people type that are not actions, and what to type instead.
_HINTS = {
    "keep": "name the dice to roll again instead, e.g. 'reroll 3 5'; 'stop' keeps them all",
    "roll": "say which dice to roll again, e.g. 'reroll 1 4', or 'stop' to keep them all",
    "rr": "say 'reroll' and the dice positions, e.g. 'reroll 1 4'",
    "leave": "to leave Tokyo type 'yield'",
    "pass": "type 'done' to end your turn without buying, 'stop' to keep your dice",
    "end": "type 'done' to end your turn",
    "y": "type 'yield' to leave Tokyo or 'stay' to stay",
    "n": "type 'yield' to leave Tokyo or 'stay' to stay",
    "yes": "type 'yield' to leave Tokyo or 'stay' to stay",
    "no": "type 'yield' to leave Tokyo or 'stay' to stay",
    "quit": "press Ctrl-C to stop playing",
    "exit": "press Ctrl-C to stop playing",
}


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
    games = frozenset({"kot", "origins", "duel"})  #: the games kotarena.cli.render draws

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

    def start(self, view: View) -> None:
        if self.ask is None:
            require_terminal()
            self.ask = _default_ask

    def choose(self, view: View):
        from kotarena.cli.render import render_table

        if self.ask is None:  # choose() without start(), e.g. straight from a test
            self.start(view)
        self.echo("")
        self.echo(render_table(view, me=view.player))
        while True:
            answer = self.ask(f"{view.names[view.player]} >")
            action, problem = self.understand(answer, view)
            if action is not None:
                return action
            self.echo(problem)

    def understand(self, answer: str, view: View):
        """``(action, None)`` for a legal answer, ``(None, message)`` otherwise.

        ``?`` and ``help`` return the legal actions, explained, as the message; ``?
        CARD`` (or ``help CARD``) what the card does.
        """
        from kotarena.cli.prompt import card_help, legal_help

        text = answer.strip()
        duel = type(view).__name__ == "DuelView"
        first, _, rest = text.partition(" ")
        if text.startswith("?") or first.lower() in ("help", "h"):
            key = text[1:].strip() if text.startswith("?") else rest.strip()
            if duel:
                from kotarena.cli.render_duel import duel_card_help, duel_help

                return None, duel_card_help(key) if key else duel_help(view)
            return None, card_help(view, key) if key else legal_help(view)
        if not duel and first.lower() == "use" and rest:
            text = "use " + _card_ids(rest, view)
        try:
            action = parse_action(text)
        except ActionError as error:
            hint = _HINTS.get(text.lower().split()[0]) if text else None
            return None, f"{error}: {hint}" if hint else f"{error}. Type ? for the legal actions."
        if action in view.legal:
            return action, None
        if duel:
            return None, f"'{action}' is not legal now ({view.kind} decision). Type ? for the legal actions."
        return None, f"'{action}' is not legal now: {why_illegal(action, view)}. Type ? for the legal actions."


def _card_ids(words: str, view: View) -> str:
    """A ``use`` answer's card named as printed (``Plot Twist 3 claw``) as its id
    (``plot_twist 3 claw``): the longest run of first words that names a card of the deck."""
    if view.deck is None:
        return words
    from kotarena.games.kot.cards import UnknownDeckError, get_deck

    deck = get_deck(view.deck)
    parts = words.split()
    for end in range(len(parts), 0, -1):
        try:
            info = deck.find(" ".join(parts[:end]))
        except UnknownDeckError:
            continue
        return " ".join([info.id, *parts[end:]])
    return words


def why_illegal(action, view: View) -> str:
    """A short reason an understood action is not legal at this decision."""
    kind = view.kind
    offered = sorted({a.kind for a in view.legal})
    # The usual actions belong to one decision each; the cards' (pass, use, cure) to those offering them.
    wanted = {"stop": "roll", "reroll": "roll", "stay": "yield", "yield": "yield",
              "buy": "buy", "sweep": "buy", "done": "buy"}.get(action.kind)
    if wanted != kind if wanted is not None else action.kind not in offered:
        return f"this is a {kind} decision ({', '.join(offered)})"
    if action.kind == "use":
        from kotarena.games.kot.action_words import card_name

        cards = sorted({a.args[0] for a in view.legal if a.kind == "use"})
        if action.args[0] not in cards:
            return f"the cards you can use now are {', '.join(card_name(c) for c in cards)}"
        return f"{card_name(action.args[0])} cannot do that now ('?' lists its choices)"
    if action.kind == "cure":
        return "you cannot spend that many hearts on those tokens"
    if action.kind == "reroll":
        return f"dice positions go from 1 to {len(view.dice)}"
    if action.kind == "buy":
        slot = action.args[0]
        if not 1 <= slot <= len(view.market):
            return f"market slots go from 1 to {len(view.market)}"
        card_id = view.market[slot - 1]
        if card_id is None:
            return f"market slot {slot} is empty"
        from kotarena.cli.render import card_cost, card_label

        return (f"{card_label(view.deck, card_id)} costs {card_cost(view.deck, card_id)} energy "
                f"and you have {view.energy[view.player]}")
    if action.kind == "sweep":
        return f"sweeping costs 2 energy and you have {view.energy[view.player]}"
    return "the rules do not allow it here"
