"""Trust is per distribution, and a bot name belongs to its distribution.

The referee imports kotarena's own plugins and the trusted distributions' only
(``KOTARENA_TRUST``, ``kotarena --trust``, a ladder's ``trusted`` bots, a command's
``--trust``); every other bot is known from what it declared in the sandbox. A plain
name two distributions register is refused for both, a third party cannot take one of
kotarena's own names, and ``DIST:NAME`` always names the one meant.

``tests/fixtures/hostilenames`` is the adversary: a package that registers ``heuristic``
(the example bot's name) and ``random`` (kotarena's), and whose import-time code marks
where it ran and rewrites the ratings of a results database.
"""

from __future__ import annotations

import importlib.metadata
import os
import sys
from pathlib import Path

import pytest
from sqlmodel import Session, select

from kotarena import plugins
from kotarena.bots.registry import (
    AmbiguousBotError,
    UnknownBotError,
    bot_names,
    get_bot,
    get_bots,
    seal,
)
from kotarena.sandbox.untrusted import trust_names
from kotarena.testing import missing
from kotarena.tournament.ladder import LadderError, parse_ladder

HOSTILE_NAMES = Path(__file__).resolve().parent.parent / "fixtures" / "hostilenames"


def declared(name: str, package: str, **extra) -> dict:
    """A bot as the sandboxed catalogue reports it."""
    return {"name": name, "package": package, "version": "0.1", "plugin": package.split("-")[-1],
            "games": ["*"], "description": f"{name} of {package}", "parameters": None, "path": [], **extra}


@pytest.fixture
def two_heuristics(monkeypatch):
    """The registry sealed with a catalogue where two packages register ``heuristic``,
    and a third party registers ``random`` (neither of them trusted)."""
    monkeypatch.setenv("KOTARENA_TRUST", "")
    plugins.reset()
    seal({"bots": [declared("heuristic", "kotarena-heuristic"), declared("heuristic", "kotarena-hostilenames"),
                   declared("random", "kotarena-hostilenames"), declared("mcts", "kotarena-mcts")],
          "errors": []})
    yield
    plugins.reset()


def test_a_plain_name_two_distributions_register_is_refused_for_both_in_one_line(two_heuristics):
    with pytest.raises(AmbiguousBotError) as refused:
        get_bot("heuristic")

    assert str(refused.value) == (
        "bot name 'heuristic' is registered by both kotarena-heuristic and kotarena-hostilenames, so neither plays "
        "as 'heuristic': name the one you mean as 'kotarena-heuristic:heuristic' or "
        "'kotarena-hostilenames:heuristic'")
    assert "heuristic" not in bot_names()


def test_dist_colon_name_names_each_bot_whatever_others_register(two_heuristics):
    assert get_bot("kotarena-heuristic:heuristic").package == "kotarena-heuristic"
    assert get_bot("kotarena-hostilenames:heuristic").package == "kotarena-hostilenames"
    assert get_bot("Kotarena_Heuristic:heuristic").package == "kotarena-heuristic"  # package names are normalised
    assert get_bot("kotarena-mcts:mcts") is get_bot("mcts")
    # Listings name the ambiguous bots by their full names.
    assert {"kotarena-heuristic:heuristic", "kotarena-hostilenames:heuristic", "mcts"} <= set(get_bots())


def test_a_third_party_bot_named_like_one_of_kotarenas_own_is_refused_for_the_third_party(two_heuristics):
    assert get_bot("random").package == "kotarena"
    with pytest.raises(UnknownBotError):
        get_bot("kotarena-hostilenames:random")
    messages = [(e.package, e.message) for e in plugins.plugin_errors() if e.package == "kotarena-hostilenames"]
    assert messages == [("kotarena-hostilenames",
                         "bot name 'random' is already taken by package 'kotarena'; this one is ignored")]


def test_a_sealed_bot_is_never_made_here(two_heuristics):
    info = get_bot("mcts")
    assert info.sealed and info.cls is None
    with pytest.raises(RuntimeError, match="plays only in the sandbox"):
        info.make(seed=1)


def test_where_the_sandbox_is_missing_a_command_refuses_an_untrusted_bot_in_one_line(two_heuristics, monkeypatch):
    from click.testing import CliRunner

    import kotarena.sandbox.jail as jail
    from kotarena.cli import cli

    monkeypatch.setattr(jail, "sandbox_problem", lambda: "bubblewrap is not installed")

    result = CliRunner().invoke(cli, ["match", "--bot", "mcts", "--bot", "random"])

    assert result.exit_code == 1
    assert result.output == ("Error: the mcts bot is not trusted, so it plays in the sandbox, which cannot be had "
                             "here: bubblewrap is not installed; install what is missing, or trust it with "
                             "--trust mcts\n")


LADDER = 'players = 2\ngames = 2\nseed = 1\n'


def test_a_ladder_refuses_an_ambiguous_bot_name(two_heuristics):
    with pytest.raises(LadderError) as refused:
        parse_ladder(LADDER + 'bots = ["heuristic", "random"]', source="l.toml", known_bots=bot_names())
    assert "bots[0].name: bot name 'heuristic' is registered by both kotarena-heuristic and " in str(refused.value)


def test_a_ladder_names_the_bot_it_means_by_its_distribution(two_heuristics):
    ladder = parse_ladder(LADDER + 'bots = ["kotarena-heuristic:heuristic", "random"]', source="l.toml",
                          known_bots=bot_names())
    assert [e.bot for e in ladder.entrants] == ["kotarena-heuristic:heuristic", "random"]


def test_a_ladders_trusted_list_refuses_an_ambiguous_name(two_heuristics):
    with pytest.raises(LadderError) as refused:
        parse_ladder(LADDER + 'allow_repeats = true\nbots = "all"\ntrusted = ["heuristic"]', source="l.toml",
                     known_bots=bot_names())
    assert "trusted: bot name 'heuristic' is registered by both" in str(refused.value)


def test_all_bots_seats_each_of_two_same_named_bots_under_its_full_name(two_heuristics):
    ladder = parse_ladder(LADDER + 'allow_repeats = true\nbots = "all"\ntrusted = ["kotarena-mcts:mcts"]',
                          source="l.toml", known_bots=bot_names())
    entrants = {e.label: e.trusted for e in ladder.entrants}
    assert entrants == {"random": None, "mcts": True, "kotarena-heuristic:heuristic": None,
                        "kotarena-hostilenames:heuristic": None}


# ---------------------------------------------------------------- real packages


@pytest.fixture
def hostile_names(monkeypatch, tmp_path):
    """The hostilenames package installed (on sys.path with its .dist-info, for this
    process and the processes it starts), untrusted, its import-time code armed."""
    marker = tmp_path / "imported.log"
    monkeypatch.syspath_prepend(str(HOSTILE_NAMES))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(HOSTILE_NAMES), os.environ.get("PYTHONPATH")])))
    monkeypatch.setenv("HOSTILENAMES_MARKER", str(marker))
    monkeypatch.delenv("KOTARENA_TRUST", raising=False)
    plugins.reset()
    yield marker
    plugins.reset()
    sys.modules.pop("kotarena_hostilenames", None)


def test_an_untrusted_distribution_is_known_by_its_metadata_and_never_imported(hostile_names):
    assert plugins.untrusted()["kotarena-hostilenames"] == ("kotarena-hostilenames", "0.1")
    assert "heuristic" not in get_bots() or get_bots()["heuristic"].package != "kotarena-hostilenames"
    assert "kotarena_hostilenames" not in sys.modules
    assert not hostile_names.exists()


def test_trusting_a_distribution_imports_it_here(hostile_names, monkeypatch):
    monkeypatch.setenv("KOTARENA_TRUST", "kotarena-hostilenames")
    plugins.reset()

    info = get_bot("kotarena-hostilenames:names-program")

    assert info.cls is not None and "kotarena_hostilenames" in sys.modules
    assert hostile_names.read_text().startswith(f"imported in process {os.getpid()}")


def test_trusting_a_bot_by_name_trusts_its_distribution(sandbox, hostile_names, monkeypatch):
    monkeypatch.setenv("KOTARENA_TRUST", "")
    plugins.reset()

    assert trust_names(["names-program"]) == {"kotarena-hostilenames"}

    assert os.environ["KOTARENA_TRUST"] == "kotarena-hostilenames"  # (for the processes it starts too)
    assert get_bot("names-program").cls is not None


def _has(distribution: str) -> bool:
    try:
        importlib.metadata.distribution(distribution)
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


@pytest.fixture
def real_heuristic() -> None:
    """The example bot kotarena-heuristic, installed (tox installs it; CI requires it)."""
    if not _has("kotarena-heuristic"):
        missing("the example bot kotarena-heuristic")


def _night_ladder(tmp_path: Path, bot: str) -> Path:
    path = tmp_path / "names.toml"
    path.write_text(f'name = "names"\nplayers = 2\ngames = 4\nseed = 3\n'
                    f'[[bots]]\nname = "{bot}"\nlabel = "the-heuristic"\n[[bots]]\nname = "random"\n')
    return path


def test_in_a_sealed_night_the_impostor_never_takes_the_real_bots_seat(sandbox, real_heuristic, hostile_names,
                                                                       tmp_path):
    from kotarena.storage.db import open_db
    from kotarena.storage.models import BotVersion, Seat
    from kotarena.tournament.night import load_sealed_ladder, run_night

    with pytest.raises(LadderError) as refused:
        load_sealed_ladder(_night_ladder(tmp_path, "heuristic"))
    assert ("bot name 'heuristic' is registered by both kotarena-heuristic and kotarena-hostilenames"
            in str(refused.value))

    engine = open_db(tmp_path / "results.db")
    ladder = load_sealed_ladder(_night_ladder(tmp_path, "kotarena-heuristic:heuristic"))
    report = run_night(engine, ladder, workers=0)

    assert report.finished and report.played == 4
    with Session(engine) as session:
        played = session.exec(select(BotVersion.package).join(Seat, Seat.bot_version_id == BotVersion.id)
                              .where(Seat.entrant == "the-heuristic")).all()
    assert set(played) == {"kotarena-heuristic"}
    logs = "".join(path.read_text() for path in (tmp_path / "bot-logs").rglob("*.log"))
    assert "IMPOSTOR" not in logs
    assert not hostile_names.exists(), hostile_names.read_text()


def test_a_trusted_command_line_bot_plays_sandboxed_and_its_package_is_never_imported(sandbox, hostile_names,
                                                                                      tmp_path):
    from kotarena.storage.db import open_db
    from kotarena.storage.models import Seat
    from kotarena.tournament.night import load_sealed_ladder, run_night

    path = tmp_path / "program.toml"
    path.write_text('name = "program"\nplayers = 2\ngames = 2\nseed = 3\n'
                    '[[bots]]\nname = "names-program"\ntrusted = true\n[[bots]]\nname = "random"\n')
    engine = open_db(tmp_path / "results.db")

    report = run_night(engine, load_sealed_ladder(path), workers=2)

    assert report.finished
    with Session(engine) as session:
        forfeits = session.exec(select(Seat.forfeit).where(Seat.entrant == "names-program")).all()
    assert forfeits == ["crash", "crash"]  # (its program quits: it played, in the sandbox)
    assert "kotarena_hostilenames" not in sys.modules
    assert not hostile_names.exists(), hostile_names.read_text()


# ---------------------------------------------------------------- a bot that cannot be imported


def test_league_run_names_the_import_error_the_sandbox_met_instead_of_unknown_bot(install, sandbox, tmp_path,
                                                                                   monkeypatch):
    from click.testing import CliRunner

    from kotarena.cli import cli

    install("kotarena-broken-import")
    monkeypatch.delenv("KOTARENA_TRUST", raising=False)
    path = tmp_path / "broken.toml"
    path.write_text('name = "broken"\nplayers = 2\ngames = 2\nseed = 1\nbots = ["broken-import", "random"]\n')

    result = CliRunner().invoke(cli, ["league", "run", str(path), "--db", str(tmp_path / "r.db"), "-q"])

    assert result.exit_code == 1
    assert ("bots[0].name: unknown bot 'broken-import': its package kotarena-broken-import failed to load: failed to "
            "import: ModuleNotFoundError: No module named 'kotarena_no_such_dependency'") in result.output
    assert "kotarena_broken_import" not in sys.modules


def test_bots_check_of_an_untrusted_bot_names_the_import_error_the_sandbox_met(install, sandbox, monkeypatch):
    from click.testing import CliRunner

    from kotarena.cli import cli

    install("kotarena-broken-import")
    monkeypatch.delenv("KOTARENA_TRUST", raising=False)

    result = CliRunner().invoke(cli, ["bots", "check", "broken-import"])

    assert result.exit_code == 1
    assert result.output.startswith("Error: unknown bot 'broken-import'. Its package kotarena-broken-import failed "
                                    "to load: failed to import: ModuleNotFoundError: No module named "
                                    "'kotarena_no_such_dependency'.")
    assert "kotarena_broken_import" not in sys.modules


def test_bots_check_fails_a_bot_where_a_ladder_fails_it(hostile_names, sandbox, tmp_path):
    from click.testing import CliRunner

    from kotarena.cli import cli
    from kotarena.storage.db import open_db
    from kotarena.storage.models import Seat
    from kotarena.tournament.night import load_sealed_ladder, run_night

    path = tmp_path / "threads.toml"
    path.write_text('name = "threads"\nplayers = 2\ngames = 2\nseed = 1\nbots = ["names-threads", "random"]\n')
    engine = open_db(tmp_path / "results.db")
    run_night(engine, load_sealed_ladder(path), workers=0)
    with Session(engine) as session:
        refused = session.exec(select(Seat.forfeit_detail).where(Seat.entrant == "names-threads")).all()
    assert refused and all("starts threads when imported" in detail for detail in refused)

    result = CliRunner().invoke(cli, ["bots", "check", "names-threads", "--games", "1"])

    assert result.exit_code == 1
    assert "FAIL  no exceptions" in result.output and "starts threads when imported" in result.output
    assert "kotarena_hostilenames" not in sys.modules
