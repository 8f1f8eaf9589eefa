"""Helpers for testing the engine and bots: an invariant checker and random games.

:func:`invariants` looks at one :class:`~kotarena.games.kot.state.GameState` and lists every
rule of the table it breaks ("monster #2 (Kraken) is dead but in Tokyo City"; the
number is the seat index of the state's lists, from 0). An empty list means the state
is sound. It reads the state only, so it can run after every
action of a game, a search or a scenario::

    from kotarena.testing import invariants

    game.apply("reroll 1 2")
    assert not invariants(game), invariants(game)

:func:`random_game` plays one seeded game with uniformly random legal actions and
checks the invariants after every action; when something breaks it raises
:class:`InvariantError`, whose message holds the seed and the actions that reproduce
it. :func:`random_games` plays many, cycling through player counts and decks. Both are
what the engine's own property tests run, and a quick way to fuzz a change to the
rules or a card: ``for game in random_games(500): ...``.

:func:`missing` is how a test says that something it needs is not on this machine (a
server, a browser, a toolchain): a skip with the reason, except in CI, where the
project installs what its tests need, so there the test fails.
"""

from __future__ import annotations

import itertools
import os
import random as _random_module
from collections.abc import Callable, Iterable, Iterator
from typing import NoReturn

from kotarena.engine.actions import Action
from kotarena.engine.game import Game, GameState
from kotarena.games import get_game, new_game

__all__ = [
    "DEFAULT_STEP_CAP",
    "check_game",
    "InvariantError",
    "StepCapError",
    "invariants",
    "missing",
    "random_game",
    "random_games",
    "uniform",
]

#: Actions after which :func:`random_game` gives up on a game. Random play ends far
#: sooner (a few hundred actions at most); a game that runs this long is stuck.
DEFAULT_STEP_CAP = 2000


class InvariantError(AssertionError):
    """A random game reached a state that breaks the rules; the message reproduces it.

    ``problems`` lists the broken invariants, ``seed``, ``players`` and ``deck`` are the
    arguments of :func:`~kotarena.games.new_game` (with ``game``), and ``actions`` the action texts
    applied before the problem showed.
    """

    def __init__(self, problems: list[str], *, seed: int, players: int, deck: str | None,
                 actions: list[str], after: str, game: str = "kot") -> None:
        self.problems = problems
        self.game = game
        self.seed = seed
        self.players = players
        self.deck = deck
        self.actions = actions
        self.after = after
        deck_arg = "None" if deck is None else repr(deck)
        super().__init__(
            f"{after}: " + "; ".join(problems)
            + f"\n  reproduce: game = new_game({game!r}, players={players}, seed={seed}, deck={deck_arg})"
            + f"\n  then apply {len(actions)} actions: {actions!r}"
        )


    def __reduce__(self):
        # Keyword-only arguments: pickle (a soak's worker processes) needs them spelled out.
        return (_rebuild_invariant_error, (type(self), self.problems, dict(
            seed=self.seed, players=self.players, deck=self.deck, actions=self.actions, after=self.after,
            game=self.game)))


def missing(reason: str) -> NoReturn:
    """Skip the calling test because ``reason`` (what is missing here) stops it, or fail
    it where ``CI`` is set: CI installs everything the suite needs, so there a missing
    piece is a broken set-up, not a machine without it."""
    import pytest

    if os.environ.get("CI"):
        pytest.fail(f"required in CI: {reason}")
    pytest.skip(reason)


def _rebuild_invariant_error(cls: type, problems: list[str], kwargs: dict) -> InvariantError:
    return cls(problems, **kwargs)


class StepCapError(InvariantError):
    """A random game did not end within the step cap."""


# ---------------------------------------------------------------- invariants


def _who(state: GameState, p: int) -> str:
    try:
        return f"monster #{p} ({state.names[p]})"
    except (IndexError, TypeError):
        return f"monster #{p}"


def invariants(state: GameState) -> list[str]:
    """Every rule of its game that ``state`` breaks, as readable sentences (empty: none).

    The game's own checker (:meth:`~kotarena.engine.game.Game.invariants`); for King of
    Tokyo it checks the per-player facts, Tokyo, the cards, the pending decision and a
    finished game's outcome (:mod:`kotarena.games.kot.invariants`).
    """
    return get_game(state.game).invariants(state)


def uniform(state: GameState, rng: _random_module.Random) -> Action:
    """The default policy of :func:`random_game`: every legal action equally likely."""
    legal = state.legal
    return legal[int(rng.random() * len(legal))]


def random_game(
    seed: int,
    players: int = 4,
    deck: str | None = "default",
    *,
    game: str = "kot",
    record: bool = False,
    step_cap: int = DEFAULT_STEP_CAP,
    check: Callable[[GameState], list[str]] | None = invariants,
    policy: Callable[[GameState, _random_module.Random], Action] = uniform,
    pause_between_turns: bool = False,
) -> GameState:
    """Play one game with random legal actions; return the finished state.

    The game is ``new_game(game, players, seed=seed, deck=deck)``; the actions come
    from ``policy(state, rng)`` (by default :func:`uniform`) with ``rng`` seeded from
    ``seed`` too, so ``(seed, players, deck)`` names the whole game. ``check`` (by
    default :func:`invariants`) runs on the new game and after every action; a
    non-empty answer raises :class:`InvariantError`, as does an action from the legal
    list that the engine refuses or crashes on. A game still going after ``step_cap``
    actions raises :class:`StepCapError`. With ``pause_between_turns`` the game stops
    after every turn and is checked there too before :meth:`GameState.next_turn`.
    """
    name = game
    game = new_game(name, players, seed=seed, deck=deck, record=record)
    game.pause_between_turns = pause_between_turns
    rng = _random_module.Random(seed ^ 0x5EED)
    done: list[str] = []

    def failure(problems: list[str], after: str, error: type[InvariantError] = InvariantError) -> InvariantError:
        return error(problems, seed=seed, players=players, deck=deck, actions=list(done), after=after, game=name)

    if check is not None and (problems := check(game)):
        raise failure(problems, "after setting up")
    while game.outcome is None:
        if len(done) >= step_cap:
            raise failure([f"the game is not over after {step_cap} actions "], "step cap", StepCapError)
        if game.between_turns:
            game.next_turn()
            if check is not None and (problems := check(game)):
                raise failure(problems, f"after next_turn() following action {len(done)}")
            continue
        if not game.legal:
            raise failure([f"nobody can act (to_move={game.to_move}, kind={game.kind!r})"], f"after {len(done)} actions")
        action = policy(game, rng)
        try:
            game.apply(action)
        except Exception as error:  # any crash on an offered action is a bug to reproduce
            raise failure([f"the action {str(action)!r} raised {type(error).__name__}: {error}"],
                          f"action {len(done) + 1}") from error
        done.append(str(action))
        if check is not None and (problems := check(game)):
            raise failure(problems, f"after action {len(done)} ({str(action)!r} by {_who(game, game.history[-1][0])})")
    return game


def random_games(
    count: int,
    *,
    players: Iterable[int] = (2, 3, 4, 5, 6),
    decks: Iterable[str | None] = ("default", None),
    seed: int = 0,
    game: str = "kot",
    record: bool = False,
    step_cap: int = DEFAULT_STEP_CAP,
    check: Callable[[GameState], list[str]] | None = invariants,
    policy: Callable[[GameState, _random_module.Random], Action] = uniform,
) -> Iterator[GameState]:
    """Play ``count`` random games (see :func:`random_game`), yielding each finished state.

    Games cycle through every combination of ``players`` and ``decks``, with seeds
    ``seed``, ``seed + 1``, ... so a failure names its game exactly.
    """
    tables = list(itertools.product(players, decks))
    for i in range(count):
        n, deck = tables[i % len(tables)]
        yield random_game(seed + i, n, deck, game=game, record=record, step_cap=step_cap, check=check, policy=policy)


# ---------------------------------------------------------------- the game seam


def check_game(
    game: Game | str,
    *,
    games: int = 3,
    seed: int = 0,
    step_cap: int = DEFAULT_STEP_CAP,
) -> int:
    """Check that ``game`` keeps the game seam's promises, as PettingZoo's ``api_test``
    checks an environment; returns the number of decisions checked.

    For every player count it plays ``games`` random games (with the game's own deck
    and, where the game has one, without cards) and checks, at every decision: the
    pending decision agrees with ``to_move``, ``kind`` and ``legal``; every seat's view
    is a ``view_type`` that survives pickling, and only the deciding seat's view holds
    legal actions, and it turns into JSON (``to_json()``); a copy (``clone``) played on with the same action reaches the same
    decision while ``child`` leaves its parent untouched; an action outside the legal
    list is refused and changes nothing; the game's invariants hold. A game played
    again from the same seed with the same actions is the same game. At the end: the
    outcome ranks every seat (the winner alone first), no action is legal, and the
    seat facts are JSON with the game's ``seat_fact_names``, and the ``snapshot`` and
    ``purchases`` people see are JSON, one snapshot entry a seat. The replay tokens are
    single characters that stand for actions. Raises :class:`AssertionError` naming
    the game, table and action where a promise is broken.
    """
    import json
    import pickle

    from kotarena.engine.actions import parse_action
    from kotarena.engine.outcome import EngineError, GameOverError

    game = game if isinstance(game, Game) else get_game(game)
    spec = game.spec
    assert spec.min_players <= spec.max_players, f"{spec.name}: no player count is allowed"
    assert len(game.default_names) >= spec.max_players, f"{spec.name}: fewer default names than seats"
    for token, text in game.replay_tokens().items():
        assert len(token) == 1 and token not in ' #{}"\\', f"{spec.name}: bad replay token {token!r}"
        parse_action(text)
    impossible = Action.of("use", "no_such_card_anywhere")
    decisions = 0
    for players in range(spec.min_players, spec.max_players + 1):
        for deck in dict.fromkeys(("default", None) if spec.deck is not None else (None,)):
            for index in range(games):
                table = f"{spec.name}, {players} players, deck {deck}, seed {seed + index}"
                rng = _random_module.Random(seed + index)
                state = game.new_state(players, seed=seed + index, deck=deck, record=True)
                again = game.new_state(players, seed=seed + index, deck=deck, record=True)
                assert (state.game, state.n, len(state.names)) == (spec.name, players, players), table
                assert state.seed == seed + index and not state.history, table
                while state.outcome is None:
                    assert len(state.history) < step_cap, f"{table}: not over after {step_cap} actions"
                    if state.between_turns:
                        state.next_turn()
                        again.next_turn()
                        continue
                    where = f"{table}, action {len(state.history) + 1}"
                    decision = state.decision
                    assert decision is not None and decision == (state.to_move, state.kind, state.legal), where
                    assert state.legal, f"{where}: a decision with no legal action"
                    for seat in range(players):
                        view = state.view(seat)
                        assert isinstance(view, game.view_type), f"{where}: view of seat {seat} is {type(view)}"
                        assert pickle.loads(pickle.dumps(view)) == view, f"{where}: view does not pickle"
                        json.dumps(view.to_json())  # views cross process and language boundaries
                        if seat != state.to_move:
                            assert not view.legal, f"{where}: seat {seat} sees legal actions out of turn"
                    problems = game.invariants(state)
                    assert not problems, f"{where}: {problems}"
                    before = len(state.history)
                    try:
                        state.apply(impossible)
                        raise AssertionError(f"{where}: {impossible.text!r} was accepted")
                    except EngineError:
                        pass
                    assert len(state.history) == before, f"{where}: a refused action changed the history"
                    action = state.legal[int(rng.random() * len(state.legal))]
                    copy = state.clone()
                    child = state.child(action)
                    assert len(state.history) == before, f"{where}: child() changed its parent"
                    state.apply(action)
                    copy.apply(action)
                    again.apply(action)
                    for other, what in ((copy, "clone"), (child, "child"), (again, "the same seed")):
                        assert (other.to_move, other.kind, other.legal, other.outcome) == (
                            state.to_move, state.kind, state.legal, state.outcome), f"{where}: {what} differs"
                    decisions += 1
                assert again.log == state.log, f"{table}: the same seed and actions logged other events"
                outcome = state.outcome
                assert len(outcome.ranks) == players and min(outcome.ranks) == 0, f"{table}: ranks {outcome.ranks}"
                if outcome.winner is not None:
                    assert outcome.ranks.count(0) == 1 and outcome.ranks[outcome.winner] == 0, table
                assert state.decision is None and not state.legal, f"{table}: a decision after the end"
                try:
                    state.apply(impossible)
                    raise AssertionError(f"{table}: an action was accepted after the end")
                except GameOverError:
                    pass
                for seat in range(players):
                    facts = game.seat_facts(state, seat)
                    assert tuple(facts) == game.seat_fact_names, f"{table}: seat facts {tuple(facts)}"
                    json.dumps(facts)
                picture = game.snapshot(state)  # what the site's replay viewer shows
                assert len(picture["seats"]) == players, f"{table}: a snapshot of {len(picture['seats'])} seats"
                assert all(0 <= seat < players for seat in picture["out"]), f"{table}: snapshot out {picture['out']}"
                json.dumps(picture)
                json.dumps(game.purchases(state.log or ()))
    return decisions

