"""Plugin packages found through entry points, and what happens when one misbehaves.

The packages are real projects under tests/fixtures/plugins/, "installed" by the
``install`` fixture (see conftest.py). Every hook in kotarena.hookspecs has a
``test_hook_<name>...`` test here (tests/test_docs.py checks that).
"""

from __future__ import annotations

import json
import re
import sys

import click
import pytest
from click.testing import CliRunner

from kotarena import plugins
from kotarena.bots.command import CommandBot
from kotarena.bots.registry import get_bot, get_bots
from kotarena.cli import add_plugin_commands, cli
from kotarena.conformance import check_bot
from kotarena.games import games, get_game, new_game
from kotarena.games.kot import KingOfTokyo
from kotarena.hookspecs import hookimpl
from kotarena.match import play
from kotarena.testing import check_game
from kotarena.tournament.ladder import LadderError, parse_ladder

BROKEN = ("kotarena-broken-import", "kotarena-raising", "kotarena-duplicate", "kotarena-misspelt")
ALL = ("kotarena-good", *BROKEN)


def run(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def errors_by_package(data: dict) -> dict[str, str]:
    return {error["package"]: error["error"] for error in data["errors"]}


def test_hook_register_bots_makes_a_plugins_bot_playable(install, monkeypatch):
    install("kotarena-good")
    monkeypatch.setenv("KOTARENA_TRUST", "kotarena-good")

    info = get_bot("good-bot")
    assert (info.package, info.version, info.plugin) == ("kotarena-good", "0.1.0", "good")
    assert info.description == "Always takes the first legal action."
    game = play(new_game(players=2, seed=5), [info.make(seed=1), get_bot("random").make(seed=2)])
    assert game.outcome is not None


def test_hook_register_commands_adds_a_plugins_command(install, monkeypatch):
    install("kotarena-good")
    monkeypatch.setenv("KOTARENA_TRUST", "kotarena-good")
    group = click.Group("kotarena")  # a fresh group: plugin commands must not leak into `cli`

    add_plugin_commands(group)

    result = CliRunner().invoke(group, ["good-hello"])
    assert result.exit_code == 0
    assert result.output == "hello from kotarena-good\n"


def test_hook_register_commands_that_raises_costs_only_that_plugin(site, monkeypatch):
    monkeypatch.setenv("KOTARENA_TRUST", "")

    class Raising:
        @hookimpl
        def register_commands(self, cli):
            raise RuntimeError("no commands today")

    class Adding:
        @hookimpl
        def register_commands(self, cli):
            cli.add_command(click.Command("fine", callback=lambda: click.echo("fine")))

    pm = plugins.get_plugin_manager()
    pm.register(Raising(), name="raising-commands")
    pm.register(Adding(), name="adding-commands")
    group = click.Group("kotarena")

    add_plugin_commands(group)

    assert CliRunner().invoke(group, ["fine"]).output == "fine\n"
    messages = [e.message for e in plugins.plugin_errors() if e.plugin == "raising-commands"]
    assert messages == ["register_commands raised RuntimeError: no commands today"]


def test_broken_packages_are_rows_in_kotarena_bots_and_the_other_bots_still_work(install, monkeypatch):
    install(*ALL)
    monkeypatch.setenv("KOTARENA_TRUST", ",".join(ALL))

    text = run("bots")
    data = json.loads(run("bots", "--json"))

    bots = {bot["name"]: bot["package"] for bot in data["bots"]}
    assert bots["good-bot"] == "kotarena-good"
    assert bots["random"] == "kotarena", "a duplicate name must not replace the built-in bot"
    assert "misspelt-bot" not in bots
    errors = errors_by_package(data)
    assert errors["kotarena-broken-import"] == (
        "failed to import: ModuleNotFoundError: No module named 'kotarena_no_such_dependency'")
    assert errors["kotarena-raising"] == "register_bots raised RuntimeError: the bot's weights file is missing"
    assert errors["kotarena-duplicate"] == (
        "bot name 'random' is already taken by package 'kotarena'; this one is ignored")
    assert errors["kotarena-misspelt"] == "unknown hook 'register_bot' (did you mean 'register_bots'?)"
    for package in BROKEN:
        assert f"error: package {package!r}" in text
    assert re.search(r"^good-bot +kotarena-good ", text, re.MULTILINE)


def test_kotarena_plugins_lists_hooks_versions_and_every_broken_package(install, monkeypatch):
    install(*ALL)
    monkeypatch.setenv("KOTARENA_TRUST", ",".join(ALL))

    data = json.loads(run("plugins", "--json"))

    loaded = {p["package"]: p for p in data["plugins"]}
    assert loaded["kotarena-good"]["hooks"] == ["register_bots", "register_commands"]
    assert loaded["kotarena-good"]["version"] == "0.1.0"
    assert loaded["kotarena"]["builtin"] is True
    # The raising and duplicate plugins load fine; their trouble shows when their hook runs.
    assert set(errors_by_package(data)) == set(BROKEN)
    text = run("plugins")
    for package in BROKEN:
        assert f"error: package {package!r}" in text


def test_a_broken_plugin_does_not_stop_checking_a_good_bot(install, monkeypatch):
    install(*ALL)
    monkeypatch.setenv("KOTARENA_TRUST", ",".join(ALL))

    report = check_bot("good-bot", games=1, worker=False)

    assert report.ok, report.text()


def imported(data: dict) -> set[str]:
    """The packages whose bots ``kotarena bots --json`` lists as imported (trusted)."""
    return {bot["package"] for bot in data["bots"] if not bot["sandboxed"]}


def test_trust_variable_imports_only_the_named_packages(install, monkeypatch):
    install(*ALL)
    monkeypatch.setenv("KOTARENA_TRUST", "Kotarena_Good")  # names are normalised

    data = json.loads(run("bots", "--json"))

    assert imported(data) == {"kotarena", "kotarena-good"}
    assert "kotarena_good" in sys.modules
    assert not {"kotarena_raising", "kotarena_duplicate", "kotarena_misspelt"} & set(sys.modules)


def test_empty_trust_variable_imports_only_kotarena(install, monkeypatch):
    install(*ALL)
    monkeypatch.setenv("KOTARENA_TRUST", "")

    data = json.loads(run("bots", "--json"))

    assert imported(data) == {"kotarena"}
    assert "random" in {bot["name"] for bot in data["bots"]}
    assert not {"kotarena_good", "kotarena_raising", "kotarena_duplicate"} & set(sys.modules)


def test_untrusted_packages_are_listed_from_the_sandbox_and_never_imported(install, monkeypatch, sandbox):
    install(*ALL)
    monkeypatch.delenv("KOTARENA_TRUST", raising=False)

    data = json.loads(run("bots", "--json"))

    good = next(bot for bot in data["bots"] if bot["name"] == "good-bot")
    assert (good["package"], good["sandboxed"]) == ("kotarena-good", True)
    errors = errors_by_package(data)
    assert set(BROKEN) <= set(errors)
    assert errors["kotarena-broken-import"] == (  # (met in the sandbox, word for word)
        "failed to import: ModuleNotFoundError: No module named 'kotarena_no_such_dependency'")
    assert not {"kotarena_good", "kotarena_raising", "kotarena_duplicate"} & set(sys.modules)
    assert "(sandboxed) Always takes the first legal action." in run("bots")


def test_unknown_bot_names_the_plugin_problems(install, monkeypatch):
    install("kotarena-broken-import")
    monkeypatch.setenv("KOTARENA_TRUST", "kotarena-broken-import")

    result = CliRunner().invoke(cli, ["bots", "check", "broken-import"])

    assert result.exit_code == 1
    assert result.output.startswith("Error: unknown bot 'broken-import'. Its package kotarena-broken-import failed "
                                    "to load: failed to import: ModuleNotFoundError: No module named "
                                    "'kotarena_no_such_dependency'.")
    assert len(result.output.strip().splitlines()) == 1


def test_trace_plugins_variable_prints_hook_calls_to_stderr(install, monkeypatch, capsys):
    install("kotarena-good")
    monkeypatch.setenv("KOTARENA_TRUST", "kotarena-good")
    monkeypatch.setenv("KOTARENA_TRACE_PLUGINS", "1")

    assert "good-bot" in get_bots()

    assert "register_bots [hook]" in capsys.readouterr().err


# ---------------------------------------------------------------- register_games


def test_hook_register_games_makes_a_plugins_game_playable_by_name_and_alias(install, monkeypatch):
    install("kotarena-pig")
    monkeypatch.setenv("KOTARENA_TRUST", "kotarena-pig")

    assert list(games()) == ["kot", "origins", "duel", "pig"]  # kotarena's own first
    assert get_game("pig-dice").spec.title == "Pig"
    state = play(new_game("pig", players=3, seed=4), [get_bot("pig-greedy").make(seed=s) for s in range(3)])
    assert state.outcome is not None and state.outcome.ranks.count(0) == 1
    assert max(state.banked) >= 20
    assert check_game("pig", games=3) > 0  # the harness every game passes (tests/engine/test_game_api.py)
    report = check_bot("pig-greedy", games=2, worker=False)  # bots check plays the games a bot declares
    assert report.ok, report.checks
    assert "games: pig;" in report.checks[0].detail


def test_hook_register_games_game_is_played_by_match_and_listed_by_games(install, monkeypatch):
    install("kotarena-pig")
    monkeypatch.setenv("KOTARENA_TRUST", "kotarena-pig")

    result = CliRunner().invoke(cli, ["match", "--game", "pig", "--bot", "pig-greedy", "--bot", "random",
                                      "--seed", "3", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["game"] == "pig" and data["deck"] is None
    assert [set(seat) for seat in data["seats"]] == [{"seat", "bot", "monster", "banked", "rank"}] * 2
    narrated = run("match", "--game", "pig", "--bot", "pig-greedy", "--bot", "pig-greedy", "--seed", "3", "-v")
    assert "\nroll 0 " in narrated  # the game's own events, in their text form
    listed = json.loads(run("games", "--json"))["games"]
    assert [g["name"] for g in listed] == ["kot", "origins", "duel", "pig"]
    assert listed[3]["decisions"] == {"roll": "roll the die again (roll), or bank this turn's points (hold)"}


def test_hook_register_games_bots_sit_only_at_the_games_they_declare(install, monkeypatch):
    install("kotarena-pig")
    monkeypatch.setenv("KOTARENA_TRUST", "kotarena-pig")

    result = CliRunner().invoke(cli, ["match", "--bot", "pig-greedy", "--bot", "random", "--seed", "1"])
    assert result.exit_code == 1
    assert "the pig-greedy bot does not play King of Tokyo (it plays: pig;" in result.output
    assert get_bot("random").plays("pig") and get_bot("random").plays("kot")
    assert not get_bot("pig-greedy").plays("classic")


def test_hook_register_games_ladders_seat_only_bots_that_play_their_game(install, monkeypatch):
    install("kotarena-pig")
    monkeypatch.setenv("KOTARENA_TRUST", "kotarena-pig")
    known = list(get_bots())

    with pytest.raises(LadderError) as refused:
        parse_ladder('players = 2\nbots = ["random", "pig-greedy"]', source="kot.toml", known_bots=known)
    assert str(refused.value) == (
        "kot.toml: bots[1].name: the pig-greedy bot does not play King of Tokyo (it plays: pig; "
        "a bot lists the games it plays in its 'games')")

    everyone = parse_ladder('players = 2\nallow_repeats = true\nbots = "all"', source="kot.toml", known_bots=known)
    assert [e.bot for e in everyone.entrants] == ["random"]  # not pig-greedy, not human
    pig = parse_ladder('game = "pig"\ndeck = "none"\nplayers = 2\nbots = "all"', source="pig.toml",
                       known_bots=known)
    assert [e.bot for e in pig.entrants] == ["random", "pig-greedy"]


def test_hook_register_bots_a_king_of_tokyo_bot_sits_at_origins_only_if_it_says_so(install, monkeypatch):
    # good-bot declares no games: it plays the classic game only (the default).
    install("kotarena-good")
    monkeypatch.setenv("KOTARENA_TRUST", "kotarena-good")
    known = list(get_bots())

    for game in ("origins", "origins:two-player-variant=off", "kot-origins"):
        with pytest.raises(LadderError) as refused:
            parse_ladder(f'game = "{game}"\nplayers = 2\nbots = ["random", "good-bot"]', source="o.toml",
                         known_bots=known)
        assert str(refused.value).startswith(
            "o.toml: bots[1].name: the good-bot bot does not play King of Tokyo: Origins")
    everyone = parse_ladder('game = "origins"\nplayers = 2\nallow_repeats = true\nbots = "all"', source="o.toml",
                            known_bots=known)
    assert "good-bot" not in [e.bot for e in everyone.entrants]
    assert "good-bot" in [e.bot for e in parse_ladder('players = 2\nallow_repeats = true\nbots = "all"',
                                                      source="kot.toml", known_bots=known).entrants]
    result = CliRunner().invoke(cli, ["match", "--game", "origins", "--bot", "good-bot", "--bot", "random"])
    assert result.exit_code == 1 and "the good-bot bot does not play King of Tokyo: Origins" in result.output


def test_hook_register_games_that_raises_or_takes_a_name_costs_only_that_plugin(site, monkeypatch):
    monkeypatch.setenv("KOTARENA_TRUST", "")

    class Raising:
        @hookimpl
        def register_games(self, register):
            raise RuntimeError("no games today")

    class Impostor:
        @hookimpl
        def register_games(self, register):
            register(KingOfTokyo())  # answers to "kot", which is taken
            register("not a game")

    pm = plugins.get_plugin_manager()
    pm.register(Raising(), name="raising-games")
    pm.register(Impostor(), name="impostor-games")

    assert list(games()) == ["kot", "origins", "duel"]
    messages = sorted(e.message for e in plugins.plugin_errors() if e.plugin in ("raising-games", "impostor-games"))
    assert messages == ["game name 'kot' is already taken; this one is ignored",
                        "register_games raised RuntimeError: no games today",
                        "register_games raised TypeError: register() needs a Game, got 'not a game'"]


def test_hook_seat_program_seats_a_command_bots_program_where_the_bot_object_is_called():
    seated = []

    class Seat:
        def choose(self, view):
            return view.legal[0], 0.25

        def finish(self, view):
            seated.append("finished")

        def close(self):
            seated.append("closed")

    class SeatsHere:
        @hookimpl
        def seat_program(self, bot, view):
            seated.append((type(bot).__name__, bot.seed, view.player))
            return Seat()

    class Program(CommandBot):
        name = "program"
        games = frozenset({"kot"})
        command = ("/bin/false",)

    assert "seat_program" in {info.name: info.hooks for info in plugins.plugins()}["kotarena.sandbox.builtin"]
    plugins.get_plugin_manager().register(SeatsHere(), name="seats-here")  # (called before the built-in one)
    program = Program(seed=3)
    game = play(new_game(players=2, seed=5), [program, get_bot("random").make(seed=2)])
    assert game.outcome is not None
    assert seated == [("Program", 3, 0), "finished"]
    assert program.last_cpu == 0.25
