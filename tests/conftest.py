"""Shared fixtures: a private database for every test, and tables with scripted dice.

Engine tests describe a table the way the rulebook does ("Cyber Bunny is in Tokyo
City; Giga Zaur rolls 1 2 3 3 heart energy") and then play it through the real
engine. ``table`` builds such a position; ``act`` plays actions in order; ``events``
reads the event log; ``snapshot`` captures everything a rejected action must leave
untouched.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pytest

from kotarena.games.kot import State
from kotarena.games.kot.faces import scripted_dice
from kotarena.games.kot.position import MonsterSetup, build_position


@pytest.fixture(autouse=True)
def _private_database(tmp_path, monkeypatch):
    """No test ever touches the user's real results database."""
    monkeypatch.setenv("KOTARENA_DB", str(tmp_path / "kotarena.db"))


@pytest.fixture(scope="session")
def sandbox() -> None:
    """The sandbox must work where the suite runs (CI installs bubblewrap); elsewhere
    these tests say why they cannot run."""
    from kotarena.sandbox.jail import sandbox_problem
    from kotarena.testing import missing

    problem = sandbox_problem()
    if problem is not None:
        missing(f"no sandbox here: {problem}")


@pytest.fixture(autouse=True)
def _no_sandbox_left():
    """A test that played untrusted bots in this process (``--workers 0``) ends their
    fork servers: the next test starts with no process of another's."""
    yield
    import sys

    seat = sys.modules.get("kotarena.sandbox.seat")
    if seat is not None:
        seat.close_servers()


@pytest.fixture(autouse=True)
def _plugins_as_found():
    """A test that trusts distributions (``KOTARENA_TRUST``: ``--trust``, a ladder's
    trusted bots) or seals the bot registry with the sandbox's catalogue leaves the
    plugins as it found them for the next."""
    import os

    from kotarena import plugins
    from kotarena.bots import registry

    before = os.environ.get("KOTARENA_TRUST")
    yield
    changed = os.environ.get("KOTARENA_TRUST") != before
    if changed:
        if before is None:
            os.environ.pop("KOTARENA_TRUST", None)
        else:
            os.environ["KOTARENA_TRUST"] = before
    if changed or registry.catalogue() is not None:
        plugins.reset()


def build_table(
    *monsters: str | MonsterSetup,
    dice: Iterable[str] = (),
    first: str | int | None = None,
    deck: str | None = None,
    pause_between_turns: bool = True,
    **options,
) -> State:
    """A position at the start of ``first``'s turn (default: the first monster listed).

    Monsters are names (a fresh monster) or :class:`MonsterSetup` values, in seat order.
    ``dice`` are the scripted rolls, one string per roll, starting with ``first``'s
    opening roll. Without a deck there is no buy step, so a turn ends right after its
    dice resolve. The game pauses between turns (``state.next_turn()`` goes on), so a
    test scripts only the turns it plays.
    """
    setups = [MonsterSetup(m) if isinstance(m, str) else m for m in monsters]
    return build_position(
        setups,
        first=setups[0].name if first is None else first,
        deck=deck,
        dice=scripted_dice(list(dice)),
        pause_between_turns=pause_between_turns,
        **options,
    )


@pytest.fixture
def table():
    """Build a position with scripted dice: ``table("Alienoid", MonsterSetup(...), dice=[...])``."""
    return build_table


def play_actions(state: State, *actions: str) -> State:
    """Apply the actions in order (each must be legal when its turn comes)."""
    for action in actions:
        state.apply(action)
    return state


@pytest.fixture
def act():
    """Apply actions in order: ``act(state, "reroll 1 2", "stop")``."""
    return play_actions


def log_events(state: State, *kinds: str) -> list[tuple]:
    """The logged events of the given kinds (all events when none is given), in order."""
    return [event for event in state.log if not kinds or event[0] in kinds]


@pytest.fixture
def events():
    """Read the event log: ``events(state, "damage", "enter")``."""
    return log_events


def take_snapshot(state: State) -> tuple:
    """Everything about a state that an action could change, as a comparable value."""
    views: Sequence = tuple(state.view(p) for p in range(state.n))
    return (
        views,
        state.to_move, state.kind, state.legal,
        tuple(state.deck), tuple(state.discard), tuple(map(tuple, state.owned)),
        tuple(state.history), len(state.log) if state.log is not None else None,
        state._script.used if state._script is not None else None,
    )


@pytest.fixture
def snapshot():
    """Capture a state to check that a rejected action changed nothing."""
    return take_snapshot
