"""kotarena's games as PettingZoo AEC environments, for reinforcement learning.

An optional extra: ``pip install 'kotarena[pettingzoo]'`` brings PettingZoo, Gymnasium
and NumPy. ``docs/pettingzoo.md`` documents the action tables, the observation vector,
rewards and seeds.

>>> from kotarena.pettingzoo import env
>>> game = env("kot", players=2)
>>> game.reset(seed=7)
>>> for agent in game.agent_iter():
...     observation, reward, termination, truncation, info = game.last()
...     action = None if termination or truncation else game.action_space(agent).sample(observation["action_mask"])
...     game.step(action)
"""

from __future__ import annotations

try:
    import numpy  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as missing:  # pragma: no cover - the message is the point
    raise ImportError(f"kotarena.pettingzoo needs the pettingzoo extra ({missing.name} is missing): "
                      "pip install 'kotarena[pettingzoo]'") from missing

from pettingzoo.utils import wrappers

from kotarena.pettingzoo.encoder import Encoder, EncoderError, Field, Layout
from kotarena.pettingzoo.env import KotarenaEnv, place_rewards
from kotarena.pettingzoo.registry import ENCODERS, encoder_for, register_encoder


def raw_env(game: str = "kot", players: int = 4, deck: str | None = "default",
            render_mode: str | None = None) -> KotarenaEnv:
    """The environment itself, without PettingZoo's order-enforcing wrapper."""
    return KotarenaEnv(game, players, deck, render_mode)


def env(game: str = "kot", players: int = 4, deck: str | None = "default",
        render_mode: str | None = None) -> wrappers.OrderEnforcingWrapper:
    """The environment for ``game``, ``players`` seats and ``deck``, wrapped so that a
    call out of order (``step`` before ``reset``) is a clear error (PettingZoo's
    convention for ``env()``)."""
    return wrappers.OrderEnforcingWrapper(raw_env(game, players, deck, render_mode))


__all__ = [
    "ENCODERS", "Encoder", "EncoderError", "Field", "KotarenaEnv", "Layout", "encoder_for", "env", "place_rewards",
    "raw_env", "register_encoder",
]
