"""Sandbox fixtures: the hostile bots' plugin, and what a test needs to watch processes.

``tests/fixtures/hostilebots`` is "installed" by being on ``sys.path`` (its ``.dist-info``
holds the entry point), like the failbots of the league tests: it is no package of
kotarena's, so a night seats its bots untrusted, in the sandbox.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bot_packages import installed

HOSTILE = Path(__file__).parent.parent / "fixtures" / "hostilebots"


@pytest.fixture
def hostile(monkeypatch, sandbox):
    """Make the hostile bots visible (as an installed third-party package)."""
    yield from installed(monkeypatch, HOSTILE, "kotarena_hostile")
