"""What a person reads of a Duel game: its ``Game.words``.

The table with both tracks (:mod:`~kotarena.games.duel.table`), what each decision's
actions do, what a card, a monster, a superpower or a hype token is, how a game ends,
the standings and the card list.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kotarena.engine.actions import Action
from kotarena.engine.words import CardList, Words, read_answer
from kotarena.games.duel.cards import card_named
from kotarena.games.duel.help import question
from kotarena.games.duel.table import card_help, legal_help, render_table, standings
from kotarena.games.duel.verbs import VERBS

if TYPE_CHECKING:
    from kotarena.games.duel.game import Duel

#: How a Duel game ends (``Game.endings``): each termination and how the winner won.
ENDINGS = {
    "victory_space": "with a marker on its victory space",
    "spotlight": "with both markers in its spotlight zone",
    "last_standing": "as the last monster standing",
    "all_eliminated": "",  # nobody wins: both monsters fell together
}


class DuelWords(Words):
    """Duel's words (see the module docstring)."""

    game: Duel

    def table(self, seen: Any, me: int | None = None) -> str:
        view: Any = seen if isinstance(seen, self.game.view_type) else seen.view(max(seen.to_move, 0))
        text = render_table(view, me)
        if view.outcome is not None:
            text += f"\nGame over: {self.ending(view.outcome, view.names)}"
        return text

    def question(self, view: Any) -> str:
        return question(view)

    def help(self, view: Any, topic: str = "") -> str:
        return card_help(topic) if topic.strip() else legal_help(view)

    def explain(self, topic: str, view: Any = None) -> str:
        return card_help(topic)

    def read(self, text: str, view: Any) -> Action:
        words = text.strip().split()
        if len(words) > 1 and words[0].lower() == "use":  # a card named as printed: its id
            for end in range(len(words), 1, -1):
                try:
                    card = card_named(" ".join(words[1:end]))
                except KeyError:
                    continue
                text = " ".join(["use", card.id, *words[end:]])
                break
        return read_answer(text, VERBS, view)

    def why_illegal(self, action: Action, view: Any) -> str:
        offered = ", ".join(dict.fromkeys(a.kind for a in view.legal))
        return f"this is the {view.kind} decision ({offered})"

    def standings(self, state: Any) -> str:
        return standings(state)

    def cards(self, deck: str | None) -> CardList:
        """Duel's own deck: name, cost, type, hype token, effect."""
        self.game.check_deck(deck or "duel")
        data = self.game.card_rows()
        rows = [(r["name"], r["cost"], r["type"], r["hype"] or "", r["effect"]) for r in data]
        return CardList(("name", "cost", "type", "hype token", "effect"), rows, data)


__all__ = ["ENDINGS", "DuelWords"]
