"""Reading an editable install's finder survives CPython 3.11's spurious AST error."""

from __future__ import annotations

import ast

from kotarena.sandbox import jail

FINDER = 'MAPPING: dict[str, str] = {"smash_bot": "/home/me/smash-bot/smash_bot"}\nNAMESPACES = {}\n'


def test_a_spurious_systemerror_while_parsing_a_finder_is_tried_again(tmp_path, monkeypatch):
    finder = tmp_path / "__editable___smash_bot_1_0_finder.py"
    finder.write_text(FINDER)
    real, calls = ast.parse, []

    def flaky(source, *args, **kwargs):
        calls.append(source)
        if len(calls) == 1:
            raise SystemError("AST constructor recursion depth mismatch (before=39, after=36)")
        return real(source, *args, **kwargs)

    monkeypatch.setattr(jail.ast, "parse", flaky)

    assert jail._finder_targets(str(finder)) == ["/home/me/smash-bot/smash_bot"]
    assert len(calls) == 2


def test_a_finder_that_never_parses_binds_nothing(tmp_path, monkeypatch):
    finder = tmp_path / "__editable___smash_bot_1_0_finder.py"
    finder.write_text(FINDER)

    def broken(source, *args, **kwargs):
        raise SystemError("AST constructor recursion depth mismatch")

    monkeypatch.setattr(jail.ast, "parse", broken)

    assert jail._finder_targets(str(finder)) == []
