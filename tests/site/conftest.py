"""A small results database for the site and export tests: two nights of a
four-player ladder with cards, a night of Origins for two, a night of Duel, all random
bots, and a short night where a bot forfeits (a few seconds to play; built once for the
session)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from site_nights import play_nights

from kotarena.cli import cli

FAILBOTS = Path(__file__).parent.parent / "fixtures" / "failbots"

FOUR = """
name = "four"
game = "kot"
deck = "kot"
players = 4
games = 8
seed = 5
allow_repeats = true

[[bots]]
name = "random"
label = "alpha"

[[bots]]
name = "random"
label = "beta"

[[bots]]
name = "random"
label = "gamma"

[[bots]]
name = "random"
label = "delta"

[[bots]]
name = "random"
label = "epsilon"
"""

TWO = """
name = "duo"
game = "origins"
players = 2
games = 4
seed = 9

[[bots]]
name = "random"
label = "left"

[[bots]]
name = "random"
label = "right"
"""

#: Duel in duplicate pairs, the seats choosing their monsters (a "monster" decision
#: before the first turn, which the viewer shows in the setup).
DUEL = """
name = "duel"
game = "duel:monsters=choice"
players = 2
games = 4
seed = 6
duplicate = true

[[bots]]
name = "random"
label = "north"

[[bots]]
name = "random"
label = "south"
"""

#: The failbots' bot that raises (tests/fixtures/failbots), trusted so that it plays in
#: the night's own process and needs no sandbox.
FORFEITS = """
name = "forfeits"
game = "kot"
players = 2
games = 2
seed = 4

[[bots]]
name = "random"
label = "steady"

[[bots]]
name = "fail-raise"
label = "broken"
trusted = true
params = { fail_on = 4 }
"""


@pytest.fixture(scope="session")
def season_db(tmp_path_factory) -> str:
    """The path of a database holding nights 1 and 2 of ladder 'four', night 1 of 'duo',
    'duel' and 'forfeits'."""
    folder = tmp_path_factory.mktemp("season")
    db = str(folder / "season.db")
    ladders = []
    for name, text, nights in (("four", FOUR, 2), ("duo", TWO, 1), ("duel", DUEL, 1), ("forfeits", FORFEITS, 1)):
        path = folder / f"{name}.toml"
        path.write_text(text)
        ladders.append((path, nights))
    play_nights(db, ladders, FAILBOTS, "kotarena_failbots")
    return db


@pytest.fixture(scope="session")
def built_site(season_db, tmp_path_factory):
    """The site of ``season_db``, built once (in this process: ``--workers 0``)."""
    out = tmp_path_factory.mktemp("site") / "site"
    result = CliRunner().invoke(cli, ["site", "build", str(out), "--workers", "0", "-q", "--db", season_db])
    assert result.exit_code == 0, result.output
    return out
