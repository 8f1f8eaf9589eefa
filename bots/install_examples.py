"""Install the example bots into the running Python (tox runs this before the suite).

The Python bots always; the Go bot where Go is installed, since it builds a program at
install time. Without Go its tests skip, or fail where ``CI`` is set (``.ci/run``
installs Go first).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent

bots = [HERE / "kotarena-heuristic", HERE / "kotarena-mcts"]
if shutil.which("go"):
    bots.append(HERE / "kotarena-go-heuristic")
else:
    print("Go is not installed: the Go example bot is not built, and its tests will skip "
          "(Debian: apt-get install golang-go)", file=sys.stderr)
subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", *map(str, bots)], check=True)
