"""League fixtures: the misbehaving-bots plugin, on ``sys.path`` like an installed package.

``tests/fixtures/failbots`` holds a module and its ``.dist-info`` (with the entry
point), so ``importlib.metadata`` discovers it exactly as it discovers a pip-installed
bot. ``PYTHONPATH`` carries it into subprocesses (resume tests run the real CLI).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from kotarena import plugins

FAILBOTS = Path(__file__).parent.parent / "fixtures" / "failbots"


@pytest.fixture
def failbots(monkeypatch):
    """Make the failbots plugin visible (and only it besides what is installed)."""
    monkeypatch.syspath_prepend(str(FAILBOTS))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(FAILBOTS), os.environ.get("PYTHONPATH")])))
    monkeypatch.delenv("KOTARENA_LOAD_PLUGINS", raising=False)
    plugins.reset()
    yield FAILBOTS
    plugins.reset()
    sys.modules.pop("kotarena_failbots", None)


def write_ladder(path: Path, text: str) -> Path:
    path.write_text(text)
    return path
