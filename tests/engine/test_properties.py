"""Never stuck, never wrong: thousands of random games keep every invariant of the table.

Each game is played with random legal actions and checked with
:func:`kotarena.testing.invariants` after every single action. A failure message
holds the seed and the actions that reproduce it.

The suite plays ``DEFAULT_GAMES`` games in total; set ``KOTARENA_SOAK_GAMES`` to play
more (``KOTARENA_SOAK_GAMES=100000 python -m pytest tests/engine/test_properties.py -s``
prints the longest game of each table at the end of a soak).
"""

from __future__ import annotations

import os
from collections import Counter

import pytest

from kotarena.games import new_game
from kotarena.games.kot.end import LAST_STANDING, STARS
from kotarena.testing import DEFAULT_STEP_CAP, InvariantError, StepCapError, invariants, random_game, random_games

PLAYER_COUNTS = (2, 3, 4, 5, 6)
DECKS = ("default", None)
TABLES = [(n, deck) for n in PLAYER_COUNTS for deck in DECKS]

DEFAULT_GAMES = 1500
GAMES = int(os.environ.get("KOTARENA_SOAK_GAMES") or DEFAULT_GAMES)
GAMES_PER_TABLE = max(1, GAMES // len(TABLES))

# Seeds of different tests stay apart, so each test explores games of its own.
INVARIANT_SEEDS = 1_000_000
REPLAY_SEEDS = 2_000_000


def _table_id(table: tuple[int, str | None]) -> str:
    n, deck = table
    return f"{n}p-{'cards' if deck else 'nocards'}"


@pytest.mark.parametrize("table", TABLES, ids=_table_id)
def test_random_games_keep_every_invariant_after_every_action(table):
    players, deck = table
    first = INVARIANT_SEEDS + 10_000 * players + (0 if deck else 5_000)
    longest = 0
    terminations = Counter()
    for seed in range(first, first + GAMES_PER_TABLE):
        game = random_game(seed, players, deck)
        longest = max(longest, len(game.history))
        terminations[game.outcome.termination.value] += 1
    if GAMES != DEFAULT_GAMES:  # a soak: say how long the games ran
        print(f"\n{_table_id(table)}: {GAMES_PER_TABLE} games, longest {longest} actions, {dict(terminations)}")
    # Random play ends games long before the cap; a game near it would be suspicious.
    assert longest < DEFAULT_STEP_CAP // 2
    assert sum(terminations.values()) == GAMES_PER_TABLE


@pytest.mark.parametrize("table", [(2, "default"), (5, None), (6, "default")], ids=_table_id)
def test_random_games_paused_between_turns_keep_every_invariant(table):
    players, deck = table
    for seed in range(INVARIANT_SEEDS + 900_000, INVARIANT_SEEDS + 900_015):
        game = random_game(seed, players, deck, pause_between_turns=True)
        assert game.outcome is not None


def test_random_games_with_a_cautious_policy_keep_every_invariant():
    """Stopping early, always staying in Tokyo and buying whenever possible reach other states."""

    def cautious(state, rng):
        texts = {a.text: a for a in state.legal}
        if "stay" in texts:
            return texts["stay"]
        buys = [a for a in state.legal if a.kind == "buy"]
        if buys:
            return buys[int(rng.random() * len(buys))]
        if "stop" in texts and rng.random() < 0.6:
            return texts["stop"]
        return state.legal[int(rng.random() * len(state.legal))]

    games = list(random_games(100, seed=INVARIANT_SEEDS + 950_000, policy=cautious))
    assert {g.outcome.termination for g in games} == {STARS, LAST_STANDING}


def test_random_games_reach_the_interesting_corners_of_the_rules():
    """The property tests above are only as good as the states they visit."""
    seen = Counter()
    for game in random_games(120, seed=INVARIANT_SEEDS + 800_000, players=(4, 5, 6), decks=("default",),
                             record=True):
        for event in game.log:
            if event[0] == "leave":
                seen[f"leave {event[2]} ({event[3]})"] += 1
            elif event[0] == "enter":
                seen[f"enter {event[2]}"] += 1
            else:
                seen[event[0]] += 1
        seen[game.outcome.termination.value] += 1
    for corner in ("enter city", "enter bay", "leave city (yield)", "leave bay (yield)",
                   "leave city (eliminated)", "leave bay (eliminated)", "leave bay (bay closed)",
                   "bay closed", "buy", "sweep", "reshuffle", "heal", "stars", "last_standing"):
        assert seen[corner], f"no random game reached {corner!r}: {dict(seen)}"


@pytest.mark.parametrize("table", TABLES, ids=_table_id)
def test_replaying_the_seed_and_the_history_reproduces_the_game(table):
    players, deck = table
    for seed in range(REPLAY_SEEDS + 100 * players, REPLAY_SEEDS + 100 * players + 4):
        played = random_game(seed, players, deck, record=True, check=None)
        replay = new_game("kot", players, seed=seed, deck=deck)
        for seat, action in played.history:
            assert replay.to_move == seat
            replay.apply(action.text)
        assert replay.log == played.log
        assert replay.outcome == played.outcome
        assert replay.history == played.history
        assert [replay.view(p) for p in range(players)] == [played.view(p) for p in range(players)]


# ------------------------------------------------ the checker itself finds problems


def _midgame(players: int = 5, deck: str | None = "default"):
    """A game some turns in, with somebody in Tokyo City."""
    game = new_game("kot", players, seed=31, deck=deck)
    while game.city < 0 or game.turn < 4:
        game.apply(game.legal[-1])
    return game


def test_a_sound_game_has_no_broken_invariants():
    game = _midgame()
    assert invariants(game) == []


@pytest.mark.parametrize(
    ("corrupt", "message"),
    [
        (lambda g: g.health.__setitem__(1, 11), "has 11 health, outside 0..10"),
        (lambda g: g.health.__setitem__(1, -1), "has -1 health"),
        (lambda g: g.alive.__setitem__(1, False), "is dead with"),
        (lambda g: g.stars.__setitem__(2, -3), "has -3 stars"),
        (lambda g: g.energy.__setitem__(0, -1), "has -1 energy"),
        (lambda g: setattr(g, "bay", g.city), "in Tokyo City and Tokyo Bay at once"),
        (lambda g: setattr(g, "city", 9), "Tokyo City holds seat 9"),
        (lambda g: setattr(g, "bay_open", False), "Tokyo Bay is closed with 5 monsters alive"),
        (lambda g: g.deck.append(g.market[0]), "cards not conserved"),
        (lambda g: g.deck.pop(), "missing"),
        (lambda g: g.market.__setitem__(1, 999), "market slot 2 holds card index 999"),
        (lambda g: setattr(g, "legal", ()), "has no legal action"),
        (lambda g: setattr(g, "peek", g.market[0]), "Made in a Lab shows card index"),
    ],
)
def test_the_checker_names_a_broken_invariant(corrupt, message):
    game = _midgame()
    corrupt(game)
    problems = invariants(game)
    assert any(message in problem for problem in problems), problems


def test_the_checker_finds_a_dead_monster_in_tokyo_and_deciding():
    game = _midgame()
    seat = game.city
    game.health[seat] = 0
    game.alive[seat] = False
    game.alive_count -= 1
    game.eliminated_at[seat] = (game.turn, 1)
    game.to_move = seat
    problems = " | ".join(invariants(game))
    assert "is dead but in Tokyo City" in problems
    assert "is dead but must decide" in problems


def test_the_checker_finds_the_bay_used_by_fewer_than_five():
    game = _midgame(players=4)
    game.bay_open = True
    assert any("Tokyo Bay is open in a 4-player game" in p for p in invariants(game))


def test_the_checker_finds_a_wrong_buy_list():
    game = new_game("kot", 3, seed=8)
    while game.kind != "buy":
        game.apply("stop" if game.kind == "roll" else game.legal[0])
    game.energy[game.to_move] = 100  # now every card is affordable, but the list says otherwise
    assert any("is offered" in p for p in invariants(game))


def test_the_checker_finds_a_wrong_outcome():
    game = random_game(77, 4, None)
    assert invariants(game) == []
    game.outcome = game.outcome._replace(ranks=(0,) * 4)
    assert any("not alone in first place" in p for p in invariants(game))


def test_a_broken_invariant_in_a_random_game_names_the_seed_and_the_actions():
    def stars_stay_below_five(state):
        return [f"{state.names[p]} has {s} stars" for p, s in enumerate(state.stars) if s >= 5]

    with pytest.raises(InvariantError) as raised:
        random_game(12, 3, "default", check=stars_stay_below_five)
    error = raised.value
    assert error.seed == 12 and error.players == 3 and error.deck == "default"
    assert "new_game('kot', players=3, seed=12, deck='default')" in str(error)
    # The actions in the message really lead to the broken state.
    game = new_game("kot", 3, seed=12)
    for text in error.actions:
        game.apply(text)
    assert stars_stay_below_five(game) == error.problems


def test_a_game_past_the_step_cap_is_reported_as_stuck():
    with pytest.raises(StepCapError, match="not over after 10 actions"):
        random_game(5, 4, step_cap=10)


def test_a_broken_invariant_crosses_a_process_boundary_whole():
    """A soak's worker sends the error back pickled: it must arrive with its seed and actions."""
    import pickle

    with pytest.raises(StepCapError) as raised:
        random_game(5, 2, step_cap=10, game="duel")
    copy = pickle.loads(pickle.dumps(raised.value))
    assert type(copy) is StepCapError and str(copy) == str(raised.value) and copy.actions == raised.value.actions
