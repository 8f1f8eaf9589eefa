"""The environment's tests need the pettingzoo extra (the ``test`` extra brings it).

Where it is missing they are not collected, and ``test_pettingzoo_extra.py`` says why: it skips
with the reason there and fails in CI, where the extra is always installed.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

MISSING = [name for name in ("pettingzoo", "numpy") if importlib.util.find_spec(name) is None]

collect_ignore = [path.name for path in Path(__file__).parent.glob("test_*.py")
                  if path.name != "test_pettingzoo_extra.py"] if MISSING else []
