"""Sandbox fixtures: the hostile bots' plugin, and what a test needs to watch processes.

``tests/fixtures/hostilebots`` is "installed" by being on ``sys.path`` (its ``.dist-info``
holds the entry point), like the failbots of the league tests: it is no package of
kotarena's, so a night seats its bots untrusted, in the sandbox.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from kotarena import plugins

HOSTILE = Path(__file__).parent.parent / "fixtures" / "hostilebots"


@pytest.fixture
def hostile(monkeypatch, sandbox):
    """Make the hostile bots visible (as an installed third-party package)."""
    monkeypatch.syspath_prepend(str(HOSTILE))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(HOSTILE), os.environ.get("PYTHONPATH")])))
    monkeypatch.delenv("KOTARENA_TRUST", raising=False)
    plugins.reset()
    yield HOSTILE
    plugins.reset()
    sys.modules.pop("kotarena_hostile", None)
