"""The engine's two builds: compiled with mypyc (``pip install .``) or Python source
(editable installs, ``KOTARENA_PURE=1``). Both play the same games, so every other test
holds for both; CI runs the suite once on each (see tox.ini)."""

from __future__ import annotations

import os

from kotarena import free_for_all, match
from kotarena.engine import NATIVE, dice
from kotarena.games.kot import state, view


def test_the_hot_modules_are_compiled_all_together_or_not_at_all():
    # Each compiled module needs the shared runtime: a half-compiled engine cannot load.
    modules = (state, view, dice, match, free_for_all)
    compiled = {module.__name__: not module.__file__.endswith(".py") for module in modules}
    assert set(compiled.values()) == {NATIVE}


def test_the_build_is_the_one_ci_installed():
    expected = os.environ.get("KOTARENA_EXPECT_NATIVE")
    assert expected in (None, "0", "1")
    if expected is not None:
        assert NATIVE is (expected == "1")
