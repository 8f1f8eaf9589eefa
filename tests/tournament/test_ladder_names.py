"""A ladder's name is a plain word, never a path: it names the directory of its bots' logs
beside the results (and its pages on the site), so ``name = "../../x"`` would put a
bot-controlled log outside ``bot-logs/``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kotarena.ladder_names import path_name
from kotarena.storage import open_db
from kotarena.tournament.ladder import Entrant, Ladder, LadderError, load_ladder, parse_ladder
from kotarena.tournament.night import seating_for

BOTS = '\n[[bots]]\nname = "random"\n[[bots]]\nname = "random"\nlabel = "other"\n'


def ladder_named(name: str) -> str:
    return f'name = "{name}"\nplayers = 2\nseed = 1\n' + BOTS


@pytest.mark.parametrize("name", ["classic-4p", "duel", "v1.2_test", "A", "x" * 64, "_private", "-dash"])
def test_a_ladder_name_is_letters_digits_dots_underscores_and_dashes(name):
    assert parse_ladder(ladder_named(name)).name == name


@pytest.mark.parametrize("name", ["../../x", "..", ".", ".hidden", "a/b", "a\\\\b", "two words", "x" * 65, "tab\\t",
                                  "café", "a:b"])
def test_any_other_name_is_refused_in_one_line_naming_the_file_and_the_rule(name):
    with pytest.raises(LadderError) as error:
        parse_ladder(ladder_named(name), source="ladders/bad.toml")
    message = str(error.value)
    assert message.startswith("ladders/bad.toml: name: ") and "\n" not in message
    assert "letters, digits, '.', '_' and '-', not starting with a dot, at most 64 characters" in message


def test_a_ladder_that_names_none_takes_its_files_name_which_must_follow_the_rule(tmp_path):
    good = tmp_path / "weekly-4p.toml"
    good.write_text("players = 2\nseed = 1\n" + BOTS)
    assert load_ladder(good).name == "weekly-4p"
    bad = tmp_path / "my ladder.toml"
    bad.write_text("players = 2\nseed = 1\n" + BOTS)
    with pytest.raises(LadderError, match=r"my ladder.toml: name: 'my ladder' is not a ladder name .*the file's name"):
        load_ladder(bad)


def test_the_bots_logs_of_a_ladder_stored_under_any_name_stay_in_bot_logs(tmp_path):
    engine = open_db(tmp_path / "results.db")
    logs = (tmp_path / "bot-logs").resolve()
    for name in ("../../x", "..", "/etc", "a/../../b", "weekly"):
        # (a Ladder made directly, as from a record an older kotarena stored unchecked)
        ladder = Ladder(name=name, entrants=[Entrant("random", "random")], players=(2,), seed=1)
        log_dir = Path(seating_for(engine, ladder, unsandboxed=True).log_dir)
        assert log_dir.parent == logs and log_dir.resolve().parent == logs, (name, log_dir)
    assert Path(seating_for(engine, Ladder(name="weekly", entrants=[], seed=1), unsandboxed=True).log_dir).name == "weekly"


def test_names_that_are_not_ladder_names_get_directories_of_their_own():
    assert path_name("weekly") == "weekly"
    unsafe = ["../x", "./x", "_x", "..x", "/x"]
    directories = [path_name(name) for name in unsafe]
    assert len(set(directories)) == len(unsafe)
    assert all("/" not in d and not d.startswith(".") for d in directories)
