"""The pettingzoo extra is installed wherever the suite must run the environment."""

from __future__ import annotations

import importlib.util
import os

import pytest


def test_the_pettingzoo_extra_is_installed_where_the_suite_runs():
    missing = [name for name in ("pettingzoo", "numpy") if importlib.util.find_spec(name) is None]
    if missing:
        message = f"{', '.join(missing)} missing: pip install -e '.[test]' brings the pettingzoo extra"
        if os.environ.get("CI"):
            pytest.fail(f"the PettingZoo environment is tested in CI: {message}")
        pytest.skip(message)
    import kotarena.pettingzoo

    assert kotarena.pettingzoo.env("kot", players=2).unwrapped.metadata["name"] == "kotarena_v0"
