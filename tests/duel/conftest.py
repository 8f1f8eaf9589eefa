"""Duel tables for tests: a position at the start of a turn, with scripted dice."""

from __future__ import annotations

import pytest

from kotarena.games.duel.position import build_position, duel_dice


def _duel(monsters=("Gigazaur", "Xenoid"), dice=(), **position):
    position.setdefault("pause_between_turns", True)
    return build_position(monsters, dice=duel_dice(*dice), **position)


def _play(state, *actions):
    for action in actions:
        state.apply(action)
    return state


@pytest.fixture
def duel():
    """``duel(monsters, dice, **position)``: a table paused at the end of the turn."""
    return _duel


@pytest.fixture
def play():
    """``play(state, *actions)``: answer the decisions in turn."""
    return _play
