"""The pettingzoo extra is installed wherever the suite must run the environment."""

from __future__ import annotations

import importlib.util

from kotarena.testing import missing


def test_the_pettingzoo_extra_is_installed_where_the_suite_runs():
    absent = [name for name in ("pettingzoo", "numpy") if importlib.util.find_spec(name) is None]
    if absent:
        missing(f"{', '.join(absent)} missing: pip install -e '.[test]' brings the pettingzoo extra")
    import kotarena.pettingzoo

    assert kotarena.pettingzoo.env("kot", players=2).unwrapped.metadata["name"] == "kotarena_v0"
