"""The conformance checker catches each way a bot can be unfit for the ladder.

The misbehaving bots live at the top of this module so the worker check can pickle
them by reference.
"""

from __future__ import annotations

import json
import multiprocessing
import random

import pytest
from click.testing import CliRunner

from kotarena import Action, Bot, conformance, plugins
from kotarena.bots import registry
from kotarena.bots.random_bot import RandomBot
from kotarena.bots.registry import UnknownBotError
from kotarena.cli import cli
from kotarena.conformance import CHECK_NAMES, check_bot
from kotarena.decision_positions import find_positions, option_variants
from kotarena.games import get_game
from kotarena.hookspecs import hookimpl


class RaisesWhenBuying(Bot):
    """Cannot count its energy."""

    name = "raises-when-buying"

    def choose(self, view):
        if view.kind == "buy":
            return view.legal[1 // 0]
        return self.pick(view.legal)


class FailsToProbe(Bot):
    """Plays on until another monster's roll could be probed, which it never meets in
    its own games (it never buys Psychic Probe)."""

    name = "fails-to-probe"

    def choose(self, view):
        if view.kind == "probe":
            raise RuntimeError("what is a probe?")
        return view.legal[0]


class StaysWhileRolling(Bot):
    """Answers 'stay' to every question."""

    name = "stays"

    def choose(self, view):
        return Action.of("stay")


class AnswersInText(Bot):
    """Answers with the text of an action, which the ladder accepts too."""

    name = "answers-in-text"

    def choose(self, view):
        return view.legal[-1].text


class UsesTheRandomModule(Bot):
    """Ignores its seed."""

    name = "uses-the-random-module"

    def choose(self, view):
        return random.choice(view.legal)


class SlowOnce(Bot):
    """Thinks hard about its first decision."""

    name = "slow-once"
    calls_left_to_be_slow = 1

    def choose(self, view):
        if SlowOnce.calls_left_to_be_slow:
            SlowOnce.calls_left_to_be_slow -= 1
            total = 0
            for i in range(2_000_000):  # CPU time, not sleep: the limit counts CPU
                total += i
        return self.pick(view.legal)


class Hangs(Bot):
    """Never answers."""

    name = "hangs"

    def choose(self, view):
        while True:
            pass


class EditsTheView(Bot):
    """Scribbles on an action of its view (the one thing a view lets itself be changed in)."""

    name = "edits-the-view"
    edited: dict[int, tuple[Action, str]] = {}

    def choose(self, view):
        action = view.legal[0]
        EditsTheView.edited.setdefault(id(action), (action, action.text))
        object.__setattr__(action, "text", action.text + "!")
        return action


class NeedsAParameter(Bot):
    """Cannot be made with a seed alone."""

    name = "needs-a-parameter"

    def __init__(self, *, seed=None, depth):
        super().__init__(seed=seed)

    def choose(self, view):
        return view.legal[0]


class DependsOnItsProcess(Bot):
    """Plays differently outside the main process."""

    name = "depends-on-its-process"

    def choose(self, view):
        main = multiprocessing.current_process().name == "MainProcess"
        return view.legal[0] if main else view.legal[-1]


class PlaysChess(Bot):
    """Only knows chess."""

    name = "plays-chess"
    games = frozenset({"chess"})

    def choose(self, view):
        return view.legal[0]


class Badly_Named(Bot):  # noqa: N801 - the name is the point
    name = "badly named"

    def choose(self, view):
        return view.legal[0]


def verdicts(report) -> dict[str, bool]:
    return {check.name: check.passed for check in report.checks}


def detail(report, name: str) -> str:
    return report.check(name).detail


@pytest.fixture
def quick(monkeypatch):
    """check_bot with one game per setting, no worker and no decision kinds: a fraction
    of a second."""

    def run(bot, **options):
        return check_bot(bot, **{"games": 1, "worker": False, "kinds": False, **options})

    monkeypatch.setenv("KOTARENA_TRUST", "")
    plugins.reset()
    yield run
    plugins.reset()


def test_random_bot_passes_every_check_including_the_worker_process(quick):
    report = check_bot(RandomBot, games=1)

    assert report.ok, report.text()
    assert [check.name for check in report.checks] == list(CHECK_NAMES)
    # King of Tokyo at 2-6 players and Origins at 2-4, each with and without cards.
    assert detail(report, "no exceptions") == "18 games finished (2-6 players, with and without cards)"
    assert detail(report, "worker process").endswith("views sent to a spawned process: same answers")
    assert report.decisions > 100 and 0 < report.mean_time <= report.max_time


def test_an_installed_bot_can_be_checked_by_name(quick):
    report = quick("random")

    assert report.bot == "random"
    assert detail(report, "registration").startswith("'random', installed from kotarena ")


def test_an_exception_is_reported_with_the_decision_kind_and_where_it_was_raised(quick):
    report = quick(RaisesWhenBuying)

    assert verdicts(report)["no exceptions"] is False
    assert verdicts(report)["legal answers"] is True
    # Only the five games with cards have a buy step.
    assert detail(report, "no exceptions").startswith("5 game(s) failed; first: game 1 (kot, 2 players, cards, ")
    assert ("choose() on a 'buy' decision raised ZeroDivisionError: integer division or modulo by zero (test_conformance.py:"
            in detail(report, "no exceptions"))


def test_an_illegal_answer_is_reported_with_the_decision_kind_and_the_answer(quick):
    report = quick(StaysWhileRolling)

    assert verdicts(report)["legal answers"] is False
    assert "answered 'stay' to a 'roll' decision (legal: stop, reroll 1, reroll 2, " in detail(report, "legal answers")
    assert detail(report, "legal answers").startswith("10 illegal answer(s); first: game 1 ")


def test_an_answer_in_text_form_is_legal(quick):
    assert quick(AnswersInText).ok


def test_a_bot_ignoring_its_seed_is_not_deterministic(quick):
    report = quick(UsesTheRandomModule)

    assert verdicts(report)["deterministic"] is False
    assert "use self.rng / self.random, not the random module" in detail(report, "deterministic")
    assert verdicts(report)["legal answers"] is True


def test_a_decision_over_the_time_limit_fails_with_max_and_mean(quick):
    SlowOnce.calls_left_to_be_slow = 1

    report = quick(SlowOnce, time_limit=0.01)

    assert verdicts(report)["decision time"] is False
    assert "1 over the limit, slowest: a 'roll' decision in game 1 " in detail(report, "decision time")
    assert detail(report, "decision time").startswith("max ")
    assert ", mean " in detail(report, "decision time")


def test_a_decision_that_hangs_is_interrupted_and_checking_stops(quick, monkeypatch):
    monkeypatch.setattr(conformance, "WALL_GRACE", 0.0)

    report = quick(Hangs, time_limit=0.02)

    assert not report.ok
    assert "was still running after 0.2s; checking stopped" in detail(report, "no exceptions")
    assert verdicts(report)["decision time"] is False
    assert detail(report, "deterministic") == "not checked: checking stopped when a decision hung"


def test_a_bot_that_changes_its_view_is_caught(quick):
    try:
        report = quick(EditsTheView)
    finally:  # the scribbled actions are shared by every game: put them back
        for action, text in EditsTheView.edited.values():
            object.__setattr__(action, "text", text)
        EditsTheView.edited.clear()

    assert verdicts(report)["view untouched"] is False
    assert "the view of a 'roll' decision changed while choose() ran" in detail(report, "view untouched")


def test_a_bot_that_cannot_be_made_fails_no_exceptions(quick):
    report = quick(NeedsAParameter)

    assert "__init__ raised TypeError: " in detail(report, "no exceptions")
    assert "missing 1 required keyword-only argument: 'depth'" in detail(report, "no exceptions")
    # Without a single decision there is nothing to vouch for.
    assert report.passed == 1
    assert detail(report, "legal answers") == "not checked: the bot made no decision"


def test_a_class_defined_inside_a_function_cannot_go_to_a_worker(quick):
    class LocalBot(RandomBot):
        name = "local"

    report = quick(LocalBot, worker=True)

    assert verdicts(report)["worker process"] is False
    assert "cannot be pickled by reference" in detail(report, "worker process")
    assert "define it at the top level of an importable module" in detail(report, "worker process")


def test_a_bot_that_plays_differently_in_a_worker_fails_the_worker_check(quick):
    report = quick(DependsOnItsProcess, worker=True)

    assert verdicts(report)["deterministic"] is True
    assert verdicts(report)["worker process"] is False
    assert "decision 1 was 'stop' here and 'reroll 1 2 3 4 5 6' in the worker" in detail(report, "worker process")


def test_registration_needs_a_known_game_and_a_usable_name(quick):
    chess = quick(PlaysChess)
    badly_named = quick(Badly_Named)

    assert "plays none of the games kotarena knows (games = ['chess']; known: kot, origins, duel)" in detail(chess, "registration")
    assert detail(chess, "no exceptions") == "no game was played (see registration)"
    assert "name 'badly named' should be letters, digits" in detail(badly_named, "registration")
    assert "no description" in detail(badly_named, "registration")


def test_check_bot_refuses_what_is_not_a_bot(quick):
    with pytest.raises(TypeError, match="needs a Bot subclass or a bot name"):
        check_bot(object)
    with pytest.raises(UnknownBotError):
        check_bot("no-such-bot")


def test_every_decision_kind_of_the_bots_games_is_asked_even_those_its_games_never_meet(quick):
    report = quick(FailsToProbe, kinds=True)

    assert report.check("no exceptions").passed  # its own games never asked it to probe
    kinds = report.check("decision kinds")
    assert not kinds.passed
    assert "choose() on a 'probe' decision raised RuntimeError: what is a probe?" in kinds.detail


def test_the_decision_kinds_check_names_each_kind_answered(quick):
    kinds = quick(RandomBot, kinds=True).check("decision kinds")

    assert kinds.passed
    for kind in ("kot roll", "kot yield", "kot buy", "kot probe", "origins start"):
        assert kind in kinds.detail
    # Every kind of Duel, the monster choice from the game with its option monsters=choice.
    for kind in get_game("duel").decision_kinds:
        assert f"duel {kind}" in kinds.detail or kind == "monster"
    assert "duel:monsters=choice monster" in kinds.detail and "duel" not in kinds.detail.partition("never arose")[2]


def test_a_kind_only_an_option_brings_is_looked_for_in_the_game_with_that_option():
    assert option_variants("duel")[0] == "duel:monsters=choice"
    assert option_variants("origins") == ["origins:two-player-variant=off"]
    assert option_variants("kot") == []
    positions, played = find_positions("duel", search_games=40)
    assert set(positions) == set(get_game("duel").decision_kinds)
    assert positions["monster"].game == "duel:monsters=choice" and positions["roll"].game == "duel"
    assert played == 40 + 1  # the whole budget without the option, then one game with it


def test_report_text_has_one_line_per_check_and_a_summary(quick):
    report = quick(StaysWhileRolling)
    lines = report.text().splitlines()

    assert lines[0].startswith("checking bot 'stays' (seed 0, 1 game per player count and deck")
    assert [line[:6] for line in lines[1:-1]] == ["PASS  ", "PASS  ", "FAIL  ", "PASS  ", "PASS  ", "PASS  "]
    assert lines[-1] == "5 passed, 1 failed"
    assert report.to_json()["checks"][1] == report.check("no exceptions").to_json()


def test_same_seed_same_report_and_another_seed_other_games(quick):
    first, again, other = quick(RandomBot, seed=4), quick(RandomBot, seed=4), quick(RandomBot, seed=5)

    assert first.decisions == again.decisions
    assert first.decisions != other.decisions


@pytest.fixture
def installed(quick):
    """Install RaisesWhenBuying and RandomBot under another name, as if from a package."""

    class Plugin:
        @hookimpl
        def register_bots(self, register):
            register(RaisesWhenBuying)

    plugins.get_plugin_manager().register(Plugin(), name="test-plugin")
    registry.reset()


def test_cli_check_prints_the_report_and_exits_1_on_failure(installed):
    result = CliRunner().invoke(cli, ["bots", "check", "raises-when-buying", "--games", "1"])

    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert "FAIL  no exceptions" in result.output
    assert "FAIL  decision kinds" in result.output  # (buy is one of them)
    assert lines[-1] == "6 passed, 2 failed"


def test_cli_check_json_for_ci(installed):
    result = CliRunner().invoke(cli, ["bots", "check", "random", "--games", "1", "--seed", "3", "--json"])

    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["bot"], data["ok"], data["seed"], data["failed"]) == ("random", True, 3, 0)
    assert [check["name"] for check in data["checks"]] == list(CHECK_NAMES)
    assert data["max_time"] >= data["mean_time"] > 0


def test_cli_check_of_an_unknown_bot_is_a_one_line_error(installed):
    result = CliRunner().invoke(cli, ["bots", "check", "randm"])

    assert result.exit_code == 1
    assert result.output.startswith("Error: unknown bot 'randm'. Did you mean 'random'?")
    assert len(result.output.strip().splitlines()) == 1
