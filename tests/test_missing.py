"""A test whose requirement is missing skips here with the reason, and fails in CI."""

from __future__ import annotations

import pytest

from kotarena.testing import missing


def test_a_missing_requirement_skips_with_its_reason_outside_ci(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="no browser here"):
        missing("no browser here")


def test_in_ci_a_missing_requirement_fails_the_test(monkeypatch):
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="required in CI: no browser here"):
        missing("no browser here")
