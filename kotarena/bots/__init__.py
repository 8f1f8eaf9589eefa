"""Bots: the :class:`Bot` contract, the built-in bots and the registry of installed ones."""

from kotarena.bots.base import ALL_GAMES, Bot

__all__ = ["ALL_GAMES", "Bot"]
