"""``kotarena compare``: duplicate deals played until the SPRT decides, through the real
engine and the installed example bots, and the command that prints the verdict."""

from __future__ import annotations

import json
from collections import deque

import pytest
from click.testing import CliRunner

from kotarena import plugins
from kotarena.bots import registry
from kotarena.bots.base import Bot
from kotarena.cli import cli
from kotarena.compare import CAP, CompareError, Comparison, Deal, run
from kotarena.hookspecs import hookimpl
from kotarena.sprt import H0, H1, SPRT


def final(comparison: Comparison):
    """The last standing of a run: the one with the decision."""
    return deque(run(comparison), maxlen=1)[0]


# ------------------------------------------------------------------ deals

def test_a_two_player_deal_seats_each_bot_once_in_each_seat():
    deal = Comparison(a="random", b="heuristic", seed=40).deal(2)

    assert deal.seed == 42
    assert deal.tables() == [(("B", "A"), 0, 1), (("A", "B"), 1, 0)]


def test_with_more_players_b_then_a_take_the_same_seat_which_moves_round_the_table():
    comparison = Comparison(a="random", b="heuristic", players=4)
    first, second = comparison.deal(0).tables()

    assert first == (("B", "field", "field", "field"), 0, -1)
    assert second == (("A", "field", "field", "field"), -1, 0)
    assert [comparison.deal(i).tables()[0][1] for i in range(6)] == [0, 1, 2, 3, 0, 1]


def test_deals_are_picklable_for_worker_processes():
    import pickle

    deal = Deal(3, 10, "kot", 4, True, "random", "heuristic", "random")
    assert pickle.loads(pickle.dumps(deal)) == deal


# ------------------------------------------------------------------ verdicts on the engine

@pytest.mark.parametrize("players", [2, 4])
def test_the_heuristic_bot_is_found_better_than_random(players):
    standing = final(Comparison(a="random", b="heuristic", players=players, seed=1, max_games=400))

    assert standing.decision == H1
    assert standing.llr >= standing.comparison.sprt.upper
    assert standing.estimate().low > 0.5
    assert standing.b.wins > standing.a.wins


@pytest.mark.parametrize("players", [2, 4])
def test_a_bot_compared_with_itself_is_not_found_better(players):
    # Same seed, same bot seeds, same seat: the two games of every deal are the same
    # game, so every pair is a draw and the evidence runs to H0.
    standing = final(Comparison(a="heuristic", b="heuristic", players=players, seed=5, max_games=400))

    assert standing.decision == H0
    middle = standing.scores.index(0.5)
    assert standing.counts[middle] == standing.pairs


def test_the_run_stops_at_the_cap_with_no_verdict():
    standing = final(Comparison(a="random", b="random", seed=3, max_games=21))

    assert (standing.decision, standing.games, standing.pairs) == (CAP, 20, 10)
    assert standing.comparison.sprt.lower < standing.llr < standing.comparison.sprt.upper


def test_every_pair_is_a_standing_and_only_the_last_has_a_decision():
    standings = list(run(Comparison(a="random", b="heuristic", seed=2, max_games=400)))

    assert [s.pairs for s in standings] == list(range(1, len(standings) + 1))
    assert [s.decision for s in standings[:-1]] == [None] * (len(standings) - 1)
    assert standings[-1].decision == H1


@pytest.mark.parametrize("players", [2, 3])
def test_workers_play_the_same_run_as_one_process(players):
    def facts(workers: int) -> list[tuple]:
        comparison = Comparison(a="random", b="heuristic", players=players, seed=9, max_games=60,
                                sprt=SPRT(elo0=0, elo1=400), workers=workers)
        return [(s.counts, s.llr, s.decision, s.b, s.a) for s in run(comparison)]

    assert facts(2) == facts(0)


# ------------------------------------------------------------------ failing bots

class RaisingBot(Bot):
    """Raises on its third decision."""

    name = "compare-raises"

    def choose(self, view):
        self.calls = getattr(self, "calls", 0) + 1
        if self.calls == 3:
            raise ZeroDivisionError("out of ideas")
        return self.pick(view.legal)


class IllegalBot(Bot):
    """Answers with something that is not an action."""

    name = "compare-illegal"

    def choose(self, view):
        return "dance"


class PigBot(Bot):
    """Plays only a game that is not King of Tokyo."""

    name = "compare-pig"
    games = frozenset({"pig"})

    def choose(self, view):
        return view.legal[0]


class TestBots:
    @hookimpl
    def register_bots(self, register):
        for cls in (RaisingBot, IllegalBot, PigBot):
            register(cls)


@pytest.fixture
def test_bots():
    """This file's misbehaving bots, registered beside the installed ones for one test."""
    plugins.get_plugin_manager().register(TestBots(), name="compare-test-bots")
    registry.reset()
    yield
    plugins.reset()


@pytest.mark.parametrize("workers", [0, 2])
def test_a_bot_that_raises_ends_the_run_with_an_error_naming_it(test_bots, workers):
    comparison = Comparison(a="random", b="compare-raises", seed=4, workers=workers)

    with pytest.raises(CompareError) as raised:
        final(comparison)
    assert str(raised.value) == ("bot 'compare-raises' at seat 1 raised ZeroDivisionError: out of ideas "
                                 "(role B, deal seed 4)")


def test_a_bot_that_answers_illegally_ends_the_run_with_an_error_naming_it(test_bots):
    expected = (r"^bot 'compare-illegal' at seat [23] \(([^)]+)\): 'dance' is not legal for \1 now \(roll\); "
                r"legal: stop, reroll 1, .* \(role field, deal seed 4\)$")
    with pytest.raises(CompareError, match=expected):
        final(Comparison(a="random", b="random", field="compare-illegal", players=3, seed=4))


@pytest.mark.parametrize(("a", "b", "options", "message"), [
    ("random", "no-such-bot", {}, "unknown bot 'no-such-bot'"),
    ("compare-pig", "random", {}, "the compare-pig bot does not play King of Tokyo (it plays: pig;"),
    ("random", "random", {"players": 3, "field": "compare-pig"}, "the compare-pig bot does not play"),
    ("random", "human", {}, "the human bot needs a person at a terminal"),
    ("random", "random", {"players": 7}, "7 players; King of Tokyo is for 2 to 6 players"),
])
def test_a_comparison_that_cannot_be_played_is_refused_before_any_game(test_bots, a, b, options, message):
    with pytest.raises(ValueError) as refused:
        Comparison(a=a, b=b, **options).check()
    assert message in str(refused.value)


# ------------------------------------------------------------------ the command

def compare(*args: str):
    return CliRunner().invoke(cli, ["compare", *args])


def test_compare_prints_the_seed_the_verdict_and_both_bots():
    result = compare("random", "heuristic", "--seed", "7")

    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "seed: 7 (deal i uses seed 7 + i)"
    assert lines[1] == "H1 accepted: heuristic is better than random."
    assert lines[2].startswith("games   ") and "seeds 7 to " in lines[2]
    assert lines[5].startswith("llr     ") and "(H0 at -2.94, H1 at 2.94; elo0 0, elo1 10" in lines[5]
    assert lines[-2].split()[:2] == ["heuristic", "B"] and lines[-1].split()[:2] == ["random", "A"]


def test_compare_reports_progress_on_stderr_every_n_games():
    result = compare("random", "heuristic", "--seed", "7", "--report-every", "50")

    progress = result.stderr.splitlines()
    games = result.stdout.splitlines()[2].split()[1]
    assert [line.split()[1] for line in progress] == [str(n) for n in range(50, int(games), 50)] + [games]
    assert all(" llr " in line and "[-2.94, 2.94]" in line for line in progress)


def test_compare_json_has_the_decision_the_estimate_and_the_counts():
    result = compare("random", "heuristic", "--players", "4", "--seed", "7", "--json", "--report-every", "0")

    assert result.exit_code == 0, result.output
    assert result.stderr == "seed: 7 (deal i uses seed 7 + i)\n"
    data = json.loads(result.stdout)
    assert (data["a"], data["b"], data["players"], data["field"], data["model"]) == (
        "random", "heuristic", 4, "random", "trinomial")
    assert data["decision"] == "H1" and data["llr"] >= data["sprt"]["upper"]
    assert data["games"] == 2 * data["pairs"] == 2 * sum(p["pairs"] for p in data["pair_scores"])
    assert [p["label"] for p in data["pair_scores"]] == ["worse", "same", "better"]
    assert data["score"]["low"] <= data["score"]["mean"] <= data["score"]["high"]
    assert data["elo"]["low"] <= data["elo"]["mean"] <= data["elo"]["high"]
    assert [(b["role"], b["bot"], b["games"]) for b in data["bots"]] == [
        ("B", "heuristic", data["pairs"]), ("A", "random", data["pairs"])]


def test_compare_with_the_same_seed_gives_the_same_result():
    first = compare("random", "heuristic", "--seed", "12", "--json")
    again = compare("random", "heuristic", "--seed", "12", "--json", "--workers", "2")

    assert first.stdout == again.stdout


def test_compare_plays_the_deck_it_is_given_and_says_which():
    mixed = compare("random", "random", "--seed", "3", "--deck", "kot-2e+origins-new", "--max-games", "4", "--json")
    default = compare("random", "random", "--seed", "3", "--max-games", "4", "--json")
    text = compare("random", "random", "--seed", "3", "--deck", "kot-2e", "--max-games", "4")

    assert mixed.exit_code == default.exit_code == text.exit_code == 0, mixed.output + default.output
    assert json.loads(mixed.stdout)["deck"] == "kot-2e+origins-new"
    assert json.loads(default.stdout)["deck"] == "default"
    assert "King of Tokyo, deck kot-2e)" in text.stdout.splitlines()[2]


def test_a_deal_with_a_named_deck_deals_that_decks_cards():
    from kotarena.games import new_game

    deal = Comparison(a="random", b="random", deck="origins-new", seed=5).deal(0)
    state = new_game(deal.game, players=deal.players, seed=deal.seed, deck=deal.deck, record=False)

    assert state.deck_name == "origins-new"


def test_compare_exits_0_when_the_cap_comes_first():
    result = compare("random", "random", "--seed", "1", "--max-games", "10")

    assert result.exit_code == 0
    assert "Inconclusive: the cap of 10 games came before H0 or H1 was accepted." in result.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["random", "no-such-bot"], "Error: unknown bot 'no-such-bot'"),
    (["compare-pig", "random"], "Error: the compare-pig bot does not play King of Tokyo"),
    (["random", "heuristic", "--field", "random"], "Error: --field fills the other seats of games of three"),
    (["random", "heuristic", "--elo0", "10", "--elo1", "5"], "Error: elo0 (10) must be less than elo1 (5)"),
    (["compare-raises", "random", "--seed", "4"], "Error: bot 'compare-raises' at seat 2 raised "),
    (["random", "heuristic", "--deck", "no-such-deck"], "Error: unknown deck 'no-such-deck'"),
    (["random", "heuristic", "--deck", "kot-2e", "--no-deck"], "Error: --deck and --no-deck together"),
])
def test_compare_errors_are_one_line(test_bots, args, message):
    result = compare(*args)

    assert result.exit_code == 1
    errors = result.stderr.strip().splitlines()
    assert len(errors) == 1 and errors[0].startswith(message), result.stderr
