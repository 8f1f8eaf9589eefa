"""The golden replays can be written again, byte for byte, by the commands that
docs/replays.md names (tests/regenerate_replays.py), and they hold what the docs say
they cover."""

from __future__ import annotations

import pytest
from regenerate_replays import GOLDEN, ROOT, command, regenerate

from kotarena.replay import read_replay

DOCS = ROOT / "docs" / "replays.md"


def test_every_golden_replay_the_tests_play_has_its_command_and_the_docs_name_the_script():
    stored = {path.relative_to(ROOT).as_posix()
              for folder in ("tests/replays", "tests/duel/replays") for path in (ROOT / folder).glob("*.replay")}
    assert stored == set(GOLDEN)
    docs = DOCS.read_text(encoding="utf-8")
    assert "python tests/regenerate_replays.py" in docs
    for path, arguments in GOLDEN.items():  # the classic game's commands are shown as they run
        if path.startswith("tests/replays/"):
            assert f"kotarena match {' '.join(arguments)} --replay {path}\n" in docs


@pytest.mark.parametrize("path", sorted(GOLDEN))
def test_the_documented_command_writes_the_golden_replay_again_byte_for_byte(path, tmp_path):
    written = regenerate(path, tmp_path)
    assert written == tmp_path / path and written.read_bytes() == (ROOT / path).read_bytes(), (
        f"{' '.join(command(path))} no longer writes {path}; see docs/replays.md, 'Golden replays'")


def event_kinds(path: str) -> set[str]:
    return {entry[0] for entry in read_replay(ROOT / path).log if entry[0] != "act"}


def test_the_classic_golden_replays_meet_what_the_docs_say_they_cover():
    six, five, two = (f"tests/replays/{name}.replay" for name in
                      ("six-players-cards-seed72", "five-players-no-cards-seed139", "two-players-cards-seed11"))
    assert {"buy", "sweep", "bay closed", "change die", "camouflage", "prevent", "extra turn", "take card",
            "discard", "eliminated"} <= event_kinds(six)
    assert read_replay(ROOT / five).deck is None and {"bay closed", "eliminated"} <= event_kinds(five)
    assert {"charge", "discharge", "eliminated"} <= event_kinds(two)
    assert read_replay(ROOT / two).outcome.termination == "last_standing"
    assert {len(read_replay(ROOT / path).players) for path in (six, five, two)} == {6, 5, 2}


def test_the_replay_the_docs_quote_is_a_golden_replay_as_stored():
    text = DOCS.read_text(encoding="utf-8")
    stored = (ROOT / "tests/replays/two-players-cards-seed11.replay").read_text(encoding="utf-8").splitlines()
    quoted = text.split("`tests/replays/two-players-cards-seed11.replay`:\n\n```\n", 1)[1].split("\n```", 1)[0]
    start, end = quoted.split("\n...\n")
    assert start.splitlines() == stored[:len(start.splitlines())]
    assert end.splitlines() == stored[-len(end.splitlines()):]

