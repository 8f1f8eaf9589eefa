"""Write the golden replays again: the ``kotarena match`` commands that made them.

    python tests/regenerate_replays.py            # rewrite tests/replays and tests/duel/replays
    python tests/regenerate_replays.py --into DIR # write them under DIR instead (to compare)

Run it from the repository root after a deliberate rules change (and the game's
``rules_version`` bump: docs/replays.md, "Golden replays"). The test suite runs the same
commands into a temporary directory and checks that they remake every stored file byte for
byte (tests/test_replay_regeneration.py), so these commands cannot drift from the files.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Each golden replay, as its path from the repository root, and the ``kotarena match``
#: arguments that play and write it (``--replay PATH`` is added).
GOLDEN: dict[str, tuple[str, ...]] = {
    "tests/replays/six-players-cards-seed72.replay": ("--bot", "random", "--players", "6", "--seed", "72"),
    "tests/replays/five-players-no-cards-seed139.replay": ("--bot", "random", "--players", "5", "--seed", "139",
                                                          "--no-deck"),
    "tests/replays/two-players-cards-seed11.replay": ("--bot", "random", "--players", "2", "--seed", "11"),
    "tests/duel/replays/heuristic-random-seed7.replay": ("--game", "duel", "--bot", "heuristic", "--bot", "random",
                                                         "--seed", "7", "--monster", "Gigazaur",
                                                         "--monster", "Xenoid"),
    "tests/duel/replays/random-choice-seed11.replay": ("--game", "duel:monsters=choice", "--bot", "random",
                                                       "--bot", "random", "--seed", "11"),
}


def command(path: str, into: Path = ROOT) -> list[str]:
    """The command that writes golden replay ``path`` under ``into``."""
    return [sys.executable, "-m", "kotarena", "match", *GOLDEN[path], "--replay", str(into / path)]


def regenerate(path: str, into: Path = ROOT) -> Path:
    """Play and write golden replay ``path`` under ``into``; the file written."""
    target = into / path
    target.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(command(path, into), check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
    return target


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--into", type=Path, default=ROOT, help="directory to write under (default: the repository)")
    args = parser.parse_args(argv)
    for path in GOLDEN:
        print(regenerate(path, args.into.resolve()))


if __name__ == "__main__":
    main()
