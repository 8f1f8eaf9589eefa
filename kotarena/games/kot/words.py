"""What a person reads of a King of Tokyo game (classic and Origins): its ``Game.words``.

The table (:mod:`~kotarena.games.kot.table`), the prompt's help for a decision and for
a card (:mod:`~kotarena.games.kot.prompt`), answers that name a card as it is printed,
the reasons an answer is not legal, how a game ends, the standings and the card list.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kotarena.engine.actions import Action, ActionError
from kotarena.engine.outcome import Outcome
from kotarena.engine.words import CardList, Words, read_answer, table_text
from kotarena.games.kot.cards import UnknownDeckError, get_deck
from kotarena.games.kot.end import ALL_ELIMINATED, LAST_STANDING, STARS
from kotarena.games.kot.prompt import card_help, legal_help
from kotarena.games.kot.table import card_cost, card_label, question, render_table

if TYPE_CHECKING:
    from kotarena.games.kot.game import KingOfTokyo
    from kotarena.games.kot.view import View

#: How a King of Tokyo game ends (``Game.endings``): each termination and how the
#: winner won.
ENDINGS = {
    STARS: "by reaching 20 stars",
    LAST_STANDING: "as the last monster standing",
    ALL_ELIMINATED: "",  # nobody wins: the last monsters fell together
}

#: Words people type that are not actions, and what to type instead.
HINTS = {
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


class KotWords(Words):
    """King of Tokyo's words (see the module docstring)."""

    game: KingOfTokyo

    def table(self, seen: Any, me: int | None = None) -> str:
        return render_table(seen, self.game, me)

    def question(self, view: Any) -> str:
        return question(view)

    def help(self, view: Any, topic: str = "") -> str:
        return card_help(view, topic) if topic.strip() else legal_help(view)

    def explain(self, topic: str, view: Any = None) -> str:
        return card_help(view, topic)

    def read(self, text: str, view: Any) -> Action:
        first, _, rest = text.strip().partition(" ")
        if first.lower() == "use" and rest:
            text = "use " + _card_ids(rest, view)
        try:
            return read_answer(text, self.game.verbs, view)
        except ActionError as error:
            hint = HINTS.get(text.lower().split()[0]) if text.strip() else None
            if hint:
                raise ActionError(f"{str(error).partition(' (the actions:')[0]}: {hint}") from None
            raise

    def why_illegal(self, action: Action, view: Any) -> str:
        return why_illegal(action, view)

    def ending(self, outcome: Outcome, names: Sequence[str]) -> str:
        """``"Kraken wins by reaching 20 stars after 23 turns"`` and the like."""
        termination = outcome.termination.value
        if outcome.winner is None and termination == "all_eliminated" and len(names) == 2:
            return f"nobody wins: both monsters fell together, after {outcome.turns} turns"
        if outcome.winner is None:
            return f"nobody wins: the last monsters were eliminated together, after {outcome.turns} turns"
        how = ENDINGS.get(termination, termination)
        return f"{names[outcome.winner]} wins {how} after {outcome.turns} turns".replace("  ", " ")

    def standings(self, state: Any) -> str:  # (a King of Tokyo State)
        """Final places (1 = best), with stars and health, once the game is over."""
        outcome = state.outcome
        assert outcome is not None
        order = sorted(range(state.n), key=lambda seat: (outcome.ranks[seat], seat))
        rows = [
            (outcome.ranks[seat] + 1, state.names[seat], state.stars[seat], state.health[seat],
             "alive" if state.alive[seat] else "eliminated")
            for seat in order
        ]
        return table_text(("place", "monster", "stars", "health", "status"), rows)

    def cards(self, deck: str | None) -> CardList:
        """The cards of a deck the game plays (a name or a mix): name, cost, type, copies,
        whether its effect is played, effect."""
        from kotarena.games.kot.cards.effects import Effect

        deck = deck or self.game.spec.deck
        if deck is None:
            raise UnknownDeckError(f"{self.game.spec.title} is played without cards")
        found = self.game.deck(deck)
        played = {info.id: type(effect) is not Effect for info, effect in zip(found.cards, found.card_effects)}
        data = [
            {"id": c.id, "name": c.name, "cost": c.cost, "type": c.type, "copies": c.copies,
             "second_edition_name": c.second_edition_name, "effect": c.text, "implemented": played[c.id]}
            for c in sorted(found.table, key=lambda c: c.name.lower())
        ]
        rows = [(r["name"], r["cost"], r["type"], r["copies"], "yes" if r["implemented"] else "no", r["effect"])
                for r in data]
        return CardList(("name", "cost", "type", "copies", "played", "effect"), rows, data)


def _card_ids(words: str, view: View) -> str:
    """A ``use`` answer's card named as printed (``Plot Twist 3 claw``) as its id
    (``plot_twist 3 claw``): the longest run of first words that names a card of the deck."""
    if view.deck is None:
        return words
    deck = get_deck(view.deck)
    parts = words.split()
    for end in range(len(parts), 0, -1):
        try:
            info = deck.find(" ".join(parts[:end]))
        except UnknownDeckError:
            continue
        return " ".join([info.id, *parts[end:]])
    return words


def why_illegal(action: Action, view: View) -> str:
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
        return (f"{card_label(view.deck, card_id)} costs {card_cost(view.deck, card_id)} energy "
                f"and you have {view.energy[view.player]}")
    if action.kind == "sweep":
        return f"sweeping costs 2 energy and you have {view.energy[view.player]}"
    return "the rules do not allow it here"


__all__ = ["ENDINGS", "HINTS", "KotWords", "why_illegal"]
