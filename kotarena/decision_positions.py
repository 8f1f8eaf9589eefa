"""Positions where each decision kind of a game arises, found by playing random games.

The conformance checker (:mod:`kotarena.conformance`) asks a bot every kind of
decision the games it declares can ask (``Game.decision_kinds``), not only those its
own games happen to meet: some kinds come only with a card few games see (Psychic
Probe's ``probe``, Mimic's ``start``). :func:`find_positions` plays seeded games of
``random`` bots, at every player count and with each of the game's decks, until every
kind has arisen or the budget is spent, and keeps a copy of the game at the first
decision of each kind. It knows nothing of any game's rules, so it serves any game, and
any bot: the checker seats the bot (a Python class or a program on the protocol) at
the deciding seat and plays the game on from there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kotarena.bots.random_bot import RandomBot
from kotarena.engine.game import split_game_name
from kotarena.games import get_game, get_spec, new_game
from kotarena.match import bot_seed

#: Random games played at most, per game, looking for the decision kinds.
SEARCH_GAMES = 400


@dataclass(frozen=True)
class Position:
    """A game paused at a decision of ``kind`` (``state`` is a copy: play it on freely);
    ``game`` names its options where only an option brings the kind."""

    game: str
    kind: str
    state: Any
    seed: int
    players: int
    deck: str | None

    @property
    def seat(self) -> int:
        """The seat that decides."""
        return self.state.to_move


def find_positions(game: str, *, seed: int = 0, search_games: int = SEARCH_GAMES) -> tuple[dict[str, Position], int]:
    """The first position of each decision kind of ``game`` that random play reaches,
    and how many games were played looking.

    A kind that only a game option brings (Duel's ``monster`` decision comes with
    ``duel:monsters=choice``) is looked for next in the game with each other value of
    each of its options, in the order the option lists them, with a smaller budget each
    (``search_games // 8``); its position's ``game`` is then that configured game."""
    kinds = set(get_game(game).decision_kinds)
    found: dict[str, Position] = {}
    played = _search(game, kinds, found, seed, search_games)
    for variant in option_variants(game):
        if kinds <= set(found):
            break
        played += _search(variant, kinds, found, seed, max(1, search_games // 8))
    return found, played


def option_variants(game: str) -> list[str]:
    """The names of ``game`` with one of its options set to another value, each option's
    values in their order (``duel:monsters=choice``, ``duel:monsters=gigazaur/xenoid``, ...)."""
    name, chosen = split_game_name(game)
    base = get_game(name)
    variants = []
    for option in base.options.values():
        now = chosen.get(option.name, option.default)
        variants += [base.configured({**chosen, option.name: value}).spec.name
                     for value in option.values if value != now]
    return variants


def _search(game: str, kinds: set[str], found: dict[str, Position], seed: int, budget: int) -> int:
    """Play up to ``budget`` random games of ``game`` until every kind is in ``found``,
    adding the first position of each new kind; how many games were played."""
    spec = get_spec(game)
    decks = ["default", *[d for d in spec.decks if d != spec.deck]]
    counts = range(spec.min_players, spec.max_players + 1)
    played = 0
    while played < budget and not kinds <= set(found):
        deck = decks[played % len(decks)]
        players = counts[(played // len(decks)) % len(counts)]
        game_seed = seed * 100_000 + played
        state = new_game(game, players=players, seed=game_seed, deck=deck, record=False)
        bots = [RandomBot(seed=bot_seed(game_seed, p)) for p in range(players)]
        while state.outcome is None:
            kind = state.kind
            if kind not in found and kind in kinds:
                found[kind] = Position(game, kind, state.clone(), game_seed, players, deck)
            player = state.to_move
            state.apply(bots[player].choose(state.view(player)))
        played += 1
    return played


__all__ = ["SEARCH_GAMES", "Position", "find_positions", "option_variants"]
