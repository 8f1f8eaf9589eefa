"""Builds the Go program with the package: ``go build`` into ``kotarena_go_heuristic/bin``.

Both a regular install (the program lands in the wheel) and an editable one (it lands
in the source tree, where the editable package is imported from) build it; Go 1.19 or
newer is needed (Debian: ``apt-get install golang-go``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).parent.resolve()
PROGRAM = Path("kotarena_go_heuristic") / "bin" / "go-heuristic"


class build_go(build_py):
    """build_py, then the Go program."""

    def run(self) -> None:
        super().run()
        go = shutil.which("go")
        if go is None:
            raise SystemExit("error: kotarena-go-heuristic needs Go to build its program "
                             "(Debian: apt-get install golang-go)")
        editable = getattr(self, "editable_mode", False)
        target = (HERE if editable else Path(self.build_lib).resolve()) / PROGRAM
        target.parent.mkdir(parents=True, exist_ok=True)
        env = dict(os.environ, CGO_ENABLED="0")  # a static program: nothing to load in the sandbox
        env.setdefault("GOCACHE", str(Path(os.environ.get("HOME") or "/tmp") / ".cache" / "go-build"))
        subprocess.run([go, "build", "-trimpath", "-o", str(target), "."], cwd=HERE / "go", env=env, check=True)


setup(cmdclass={"build_py": build_go})
