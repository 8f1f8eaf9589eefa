"""The native build: the hot modules compiled with mypyc, pure Python otherwise.

``pip install .`` compiles the modules in ``NATIVE_MODULES`` to C extensions (games
about 1.8 times as fast; see "Speed" in docs/cards.md and "Throughput" in
docs/league.md). Their source stays ordinary Python, which is what runs when they are
not compiled:

* an editable install (``pip install -e .``) stays pure, so an edited module takes
  effect without a rebuild;
* ``KOTARENA_PURE=1`` at install time builds pure Python;
* a machine without a C compiler gets pure Python (the reason is in pip's verbose
  output, ``pip install -v .``), unless ``KOTARENA_NATIVE=1`` asks for the native
  build, which then fails loudly (CI).

``kotarena.engine.NATIVE`` tells which one is installed; ``kotarena bench`` shows it.
"""

from __future__ import annotations

import os
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

NATIVE_MODULES = [
    # The game-neutral core on the hot path: scripted dice (kotarena.engine.NATIVE tells
    # the build by this module), the match loop.
    "kotarena/engine/dice.py",
    "kotarena/match.py",
    # King of Tokyo's turn machine: the state, its rules and tables, each step, the
    # view and the sampled copy (not its cards, position, events or invariants).
    "kotarena/games/kot/kinds.py",
    "kotarena/games/kot/rules.py",
    "kotarena/games/kot/tables.py",
    "kotarena/games/kot/hooks.py",
    "kotarena/games/kot/damage.py",
    "kotarena/games/kot/end.py",
    "kotarena/games/kot/market.py",
    "kotarena/games/kot/tokyo.py",
    "kotarena/games/kot/resolve.py",
    "kotarena/games/kot/roll.py",
    "kotarena/games/kot/choices.py",
    "kotarena/games/kot/state.py",
    "kotarena/games/kot/view.py",
    "kotarena/games/kot/sample.py",
    # Duel's turn machine: the state, the board, the steps, the cards' moments, the view
    # and the sampled copy (not its card table, monsters, rulings, position, events or
    # invariants).
    "kotarena/games/duel/track.py",
    "kotarena/games/duel/effects.py",
    "kotarena/games/duel/turn.py",
    "kotarena/games/duel/state.py",
    "kotarena/games/duel/view.py",
    "kotarena/games/duel/sample.py",
    # TrueSkill's update, run for every match a league night rates. The rest of the
    # league (runner, seat hosts, storage) is glue and stays Python.
    "kotarena/free_for_all.py",
]

REQUIRED = os.environ.get("KOTARENA_NATIVE") == "1"
PURE = os.environ.get("KOTARENA_PURE") == "1" or "editable_wheel" in sys.argv or "develop" in sys.argv
#: Only the commands that build binaries need the C sources (mypyc takes a few seconds
#: to write them); metadata and source distributions do not.
BUILDS = bool({"bdist_wheel", "build", "build_ext", "install"} & set(sys.argv[1:]))


class OptionalBuildExt(build_ext):
    """Builds the extensions, or none of them: a partly compiled engine would fail to
    import (each module needs the shared library), so a failure removes what was built."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # compiler missing or failing: any of distutils' errors
            if REQUIRED:
                raise
            for extension in self.extensions:
                path = self.get_ext_fullpath(extension.name)
                if os.path.exists(path):
                    os.remove(path)
            self.warn(f"kotarena: the native engine did not build ({error}); installing pure Python")


class FreshBuildPy(build_py):
    """Drops compiled modules left in the build directory by an earlier build.

    pip builds a local checkout in place, and setuptools puts whatever is in ``build/``
    into the wheel: without this, a pure build after a native one (or a native one
    after the list of modules changed) would ship the old binaries.
    """

    def run(self) -> None:
        package = os.path.join(self.build_lib, "kotarena")
        for folder, _, files in os.walk(package):
            for name in files:
                if name.endswith((".so", ".pyd")):
                    os.remove(os.path.join(folder, name))
        super().run()


def native_extensions() -> list:
    if PURE or not BUILDS:
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        if REQUIRED:
            raise
        return []
    # The compiled modules are type checked; the modules they import (and third-party
    # packages without type information) only lend them their types.
    options = ["--follow-imports=silent", "--ignore-missing-imports"]
    try:
        # The runtime the modules share lives inside the package, not at the top level.
        return mypycify([*NATIVE_MODULES, *options], group_name="kotarena._native", opt_level="3")
    except BaseException as error:  # mypy's type check stops with SystemExit
        if REQUIRED:
            raise
        print(f"kotarena: the native engine was not generated ({error!r}); installing pure Python", file=sys.stderr)
        return []


setup(ext_modules=native_extensions(), cmdclass={"build_ext": OptionalBuildExt, "build_py": FreshBuildPy})
