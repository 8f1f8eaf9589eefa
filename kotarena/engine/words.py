"""What a person reads of a game: the seam member :attr:`Game.words <kotarena.engine.game.Game.words>`.

A :class:`Words` draws the table, says who must decide what, explains a decision's legal
actions and a named thing (a card, a monster, a superpower, a token), reads a person's
answer as an action, says how a game ended and the final standings, and lists a game's
cards. ``kotarena play``, ``kotarena cards``, ``kotarena replay``, the human bot and the
PettingZoo environment's ``render`` ask a game's words and nothing else.

This default works for any game from what the seam already holds: the seats' facts
(:meth:`Game.seat_facts` for a state; for a view, the per-seat fields of
``view.to_json()``, in :attr:`Game.seat_fact_names` order), the legal actions, the
game's :attr:`Game.decision_kinds`, :attr:`Game.verbs` and :attr:`Game.endings`. A game
that wants its own pictures gives ``words`` a subclass (King of Tokyo's and Duel's are
in their packages).

Everything returns text (no printing), so the same words serve a terminal, a pipe and
a test. Seats are shown counting from 1, as players type them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from kotarena.engine.actions import Action, ActionError, Verb, parse_action
from kotarena.engine.outcome import Outcome, UnknownDeckError
from kotarena.plain_table import table_text  # (the games' tables lay theirs out with it too)

#: View fields every view has, which the default table does not show as facts.
_VIEW_FIELDS = frozenset({"player", "game", "names", "legal", "outcome", "kind", "to_move", "deck", "seed"})
_WIDTH = 22


def help_row(text: str, what: str) -> str:
    """One line of a help listing: the action text, then what it does."""
    return f"  {text:<{_WIDTH}} {what}".rstrip() if len(text) < _WIDTH else f"  {text}\n  {'':<{_WIDTH}} {what}"


def _shown(value: object) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(map(_shown, value)) or "-"
    return "" if value is None else str(value)


def read_answer(text: str, verbs: Any, view: Any) -> Action:
    """``text`` read with a game's ``verbs``; an answer that is one of the legal
    actions is taken even if its verb is missing from them (a game's verbs explain
    its actions and check a person's answers: they never refuse a legal one)."""
    try:
        return parse_action(text, verbs)
    except ActionError:
        try:
            action = parse_action(text)
        except ActionError:
            action = None
        if action is not None and action in view.legal:
            return action
        raise


class Described(Protocol):
    """What the default words read of a game: every :class:`~kotarena.engine.game.Game`
    has it. (Named by what it offers, not by its class: ``kotarena.engine.game`` imports
    this module, which therefore imports nothing of it.)"""

    spec: Any  # the game's GameSpec: its title
    view_type: type
    decision_kinds: Mapping[str, str]
    seat_fact_names: tuple[str, ...]
    verbs: Mapping[str, Verb]
    endings: Mapping[str, str]

    def seat_facts(self, state: Any, seat: int) -> dict[str, object]: ...


class CardList:
    """A deck's cards as ``kotarena cards`` prints them: the table's columns and rows,
    and the same cards as JSON-ready dicts."""

    def __init__(self, headers: Sequence[str], rows: Sequence[Sequence[object]], data: list[dict]) -> None:
        self.headers = tuple(headers)
        self.rows = [tuple(row) for row in rows]
        self.data = data


class Words:
    """Everything a person reads of one game (see the module docstring)."""

    def __init__(self, game: Described) -> None:
        self.game = game

    # ------------------------------------------------------------------ the table

    def table(self, seen: Any, me: int | None = None) -> str:
        """The whole table as text: a title line, one row per seat, what belongs to no
        seat, and the pending decision (or the ending). ``seen`` is a seat's view or a
        state (the environment's render); ``me`` marks one seat as "(you)"."""
        names = list(seen.names)
        columns, rows, extras = self._facts(seen)
        active = getattr(seen, "to_move", -1)
        title = self.game.spec.title
        turn = getattr(seen, "turn", None)
        lines = [f"{title}, turn {turn}" if isinstance(turn, int) else title]
        table_rows = []
        for seat, name in enumerate(names):
            marks = ("*" if seat == active and seen.outcome is None else "") + (" (you)" if seat == me else "")
            table_rows.append((seat + 1, name + marks, *(_shown(value) for value in rows[seat])))
        lines.append(table_text(("#", "seat", *columns), table_rows))
        lines.extend(f"{key.replace('_', ' ')}: {_shown(value)}" for key, value in extras)
        decision = self.decision(seen, me)
        if decision:
            lines.append(decision)
        return "\n".join(lines)

    def _facts(self, seen: Any) -> tuple[list[str], list[list[object]], list[tuple[str, object]]]:
        """The seats' facts as columns and rows, and the facts of no seat."""
        n = len(seen.names)
        if isinstance(seen, self.game.view_type) and hasattr(seen, "to_json"):
            data = seen.to_json()
            per_seat = [key for key, value in data.items() if key not in _VIEW_FIELDS
                        and isinstance(value, (list, tuple)) and len(value) == n]
            order = [key for key in self.game.seat_fact_names if key in per_seat]
            order += [key for key in per_seat if key not in order]
            extras = [(key, value) for key, value in data.items() if key not in _VIEW_FIELDS
                      and key not in per_seat and key != "turn" and value not in (None, [], ())]
            return [key.replace("_", " ") for key in order], [[data[key][seat] for key in order]
                                                             for seat in range(n)], extras
        facts = [self.game.seat_facts(seen, seat) for seat in range(n)]
        order = list(self.game.seat_fact_names)
        return order, [[seat_facts.get(key) for key in order] for seat_facts in facts], []

    def decision(self, seen: Any, me: int | None = None) -> str:
        """Who must decide what (in the words of :attr:`Game.decision_kinds`), or how
        the game ended."""
        if seen.outcome is not None:
            return f"Game over: {self.ending(seen.outcome, seen.names)}"
        seat = getattr(seen, "to_move", -1)
        if seat is None or seat < 0:
            return ""
        asked = self.question(seen)
        if seat == me:
            return f"Your decision ({seen.names[seat]}): {asked}"
        return f"{seen.names[seat]} to decide: {asked}"

    def question(self, view: Any) -> str:
        """What the pending decision asks."""
        kind = view.kind
        return self.game.decision_kinds.get(kind, f"{kind} decision") if kind else ""

    # ------------------------------------------------------------------ help

    def help(self, view: Any, topic: str = "") -> str:
        """``?`` at a prompt: every legal action of ``view`` with what it does, or, with a
        ``topic``, what the thing so named is (:meth:`explain`)."""
        if topic.strip():
            return self.explain(topic.strip(), view)
        lines = [f"Legal actions ({view.kind} decision: {self.question(view)}):"]
        for action in view.legal:
            lines.append(help_row(action.text, self.action_help(action, view)))
        return "\n".join(lines)

    def action_help(self, action: Action, view: Any) -> str:
        """What one legal action does: its verb's help (:attr:`Game.verbs`)."""
        verb = self.game.verbs.get(action.kind)
        return verb.help if verb is not None else ""

    def explain(self, topic: str, view: Any = None) -> str:
        """What the thing called ``topic`` is: by default one of the game's verbs or
        decision kinds."""
        key = topic.strip().lower()
        verb = self.game.verbs.get(key)
        if verb is not None:
            return f"{verb.usage}: {verb.help}"
        if key in self.game.decision_kinds:
            return f"the {key} decision: {self.game.decision_kinds[key]}"
        return f"Nothing in {self.game.spec.title} is called {topic!r}; '?' lists the legal actions."

    # ------------------------------------------------------------------ answers

    def read(self, text: str, view: Any) -> Action:
        """A person's answer as an action of the game's (:class:`ActionError`, one line,
        for text that is none)."""
        return read_answer(text, self.game.verbs, view)

    def why_illegal(self, action: Action, view: Any) -> str:
        """A short reason an understood action is not legal at this decision."""
        offered = ", ".join(dict.fromkeys(a.kind for a in view.legal))
        return f"this is a {view.kind} decision ({offered})"

    # ------------------------------------------------------------------ the end

    def ending(self, outcome: Outcome, names: Sequence[str]) -> str:
        """``"Kraken wins by reaching 20 stars after 23 turns"``: the winner and how, in the
        words of :attr:`Game.endings` (the termination's word where it has none)."""
        termination = outcome.termination.value
        how = self.game.endings.get(termination, f"({termination.replace('_', ' ')})")
        if outcome.winner is None:
            return f"nobody wins ({termination.replace('_', ' ')}), after {outcome.turns} turns"
        return f"{names[outcome.winner]} wins {how} after {outcome.turns} turns".replace("  ", " ")

    def standings(self, state: Any) -> str:
        """The final places (1 = best) with each seat's facts, once the game (a ``GameState``) is over."""
        outcome = state.outcome
        assert outcome is not None, "standings are for a game that is over"
        order = sorted(range(state.n), key=lambda seat: (outcome.ranks[seat], seat))
        columns = list(self.game.seat_fact_names)
        rows = []
        for seat in order:
            facts = self.game.seat_facts(state, seat)
            rows.append((outcome.ranks[seat] + 1, state.names[seat], *(_shown(facts.get(key)) for key in columns)))
        return table_text(("place", "seat", *columns), rows)

    def picture(self, state: Any) -> str:
        """A state (a ``GameState``) as the PettingZoo environment renders it: the table, and once the game
        is over how it ended and the standings."""
        table = self.table(state)
        if state.outcome is None:
            return table
        return "\n".join((table, self.ending(state.outcome, state.names), self.standings(state)))

    # ------------------------------------------------------------------ cards

    def cards(self, deck: str | None) -> CardList:
        """The cards of ``deck`` (the game's default deck for ``None``) as ``kotarena
        cards`` lists them; :class:`ValueError` in one line for a game without cards or
        a deck it cannot play."""
        raise UnknownDeckError(f"{self.game.spec.title} is played without cards")


__all__ = ["CardList", "Described", "Words", "help_row", "read_answer", "table_text"]
