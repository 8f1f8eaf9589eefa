"""The Go heuristic bot: a program in the sandbox that plays the Python heuristic's game."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from kotarena_heuristic import HeuristicBot

from kotarena.bots.random_bot import RandomBot
from kotarena.conformance import check_bot
from kotarena.games import new_game
from kotarena.match import bot_seed, play
from kotarena.tournament.matches import MatchJob, play_match
from kotarena.tournament.seats import SeatSpec

PACKAGE = Path(__file__).parent.parent


def _game(game: str, seed: int, bot_class: type, players: int) -> list:
    """One game with ``bot_class`` at the first seat and ``random`` at the others: its actions."""
    state = new_game(game, players=players, seed=seed)
    bots = [bot_class(seed=bot_seed(seed, 0))] + [RandomBot(seed=bot_seed(seed, p)) for p in range(1, players)]
    play(state, bots)
    return [(player, action.text) for player, action in state.history]


@pytest.mark.parametrize("game", ["kot", "origins"])
def test_the_go_bot_makes_every_decision_the_python_heuristic_makes(go_bot, game):
    for seed in range(6):
        players = 2 + seed % 3
        assert _game(game, seed, go_bot, players) == _game(game, seed, HeuristicBot, players), f"seed {seed}"


def test_the_go_bot_passes_bots_check_in_every_decision_kind_of_its_games(go_bot):
    report = check_bot("go-heuristic", games=1, worker=False)
    assert report.ok, report.text()
    assert "origins start" in report.check("decision kinds").detail
    # Its decisions' time is its program's, counted by its seat's cgroup: a few
    # hundredths of a millisecond to a millisecond, never zero for every decision.
    assert report.max_time > 0


def test_the_card_table_is_the_decks():
    sys.path.insert(0, str(PACKAGE))
    try:
        from gen_cards import TABLE, table_text
    finally:
        sys.path.remove(str(PACKAGE))
    entry = re.compile(r'"(\w+)":\s*\{cost: (\d+), keep: (\w+)\}')
    assert entry.findall(TABLE.read_text()) == entry.findall(table_text()), "run: python gen_cards.py"


@pytest.mark.parametrize("trusted", [False, True])
def test_a_ladder_seats_the_go_bot_in_the_sandbox_even_when_trusted(go_bot, tmp_path, trusted):
    # (The coordinator names each seat's bot from its registry, as night_jobs does.)
    seats = (SeatSpec("go", "go-heuristic", trusted=trusted, package="kotarena-go-heuristic", version="0.1.0"),
             SeatSpec("heuristic", "heuristic", trusted=True), SeatSpec("random", "random"))
    job = MatchJob(index=0, key="go", game="kot", deck="kot", seed=4, first_player=None, seats=seats,
                   time_limit=1.0, log_dir=str(tmp_path))
    result = play_match(job)
    go = result.seats[0]
    assert result.status == "done" and go.forfeit is None
    # Its package and version are the job's (never the seat's word), its CPU time its
    # cgroup's: the program ran in a sandboxed seat, not in this process.
    assert (go.package, go.version) == ("kotarena-go-heuristic", "0.1.0")
    assert go.decisions > 0 and go.cpu_seconds > 0
