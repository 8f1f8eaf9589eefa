"""The Go bot must be built where the suite runs: CI builds it with the package
(``.ci/run`` installs Go); elsewhere its tests say why they cannot run."""

from __future__ import annotations

import pytest


@pytest.fixture
def go_bot(monkeypatch):
    """The installed Go heuristic bot, its program built, and a sandbox to seat it in;
    its package and the heuristic bot's trusted (imported here), as the tests call them
    directly."""
    from kotarena import plugins
    from kotarena.bots.command import ProgramMissingError

    monkeypatch.setenv("KOTARENA_TRUST", "kotarena-go-heuristic,kotarena-heuristic")
    plugins.reset()
    from kotarena.sandbox.jail import sandbox_problem
    from kotarena.testing import missing

    try:
        from kotarena_go_heuristic import GoHeuristicBot

        GoHeuristicBot.argv()
        problem = sandbox_problem()
    except (ImportError, ProgramMissingError) as error:
        problem = f"the Go bot is not built and installed ({error}); pip install ./bots/kotarena-go-heuristic"
    if problem is not None:
        missing(problem)
    return GoHeuristicBot


@pytest.fixture(autouse=True)
def _no_sandbox_left():
    """End the fork servers a test started (the program's seats), as kotarena's own
    suite does after each test."""
    yield
    from kotarena.sandbox.seat import close_servers

    close_servers()
