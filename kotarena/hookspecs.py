"""The hooks a kotarena plugin can implement.

A plugin is a module (or object) with functions marked ``@hookimpl``; a package makes
itself known through the ``kotarena`` entry-point group::

    [project.entry-points.kotarena]
    smash-bot = "kotarena_smash_bot"

pluggy only discovers and registers plugins: the engine and the runner call a bot's
``choose`` method directly, never through a hook. Hooks are called with keyword
arguments, and an implementation may accept any subset of a hook's parameters, so a
hook can grow new parameters without breaking existing plugins.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    import click

    from kotarena.bots.base import Bot

PROJECT = "kotarena"

hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)

RegisterBot = Callable[..., None]


@hookspec
def register_bots(register: RegisterBot) -> None:
    """Offer bots that can take a seat at the table.

    Call ``register(BotClass)`` once per bot. ``BotClass.name`` is the bot's name in
    ladders, ratings and on the command line (it must be unique among installed bots);
    ``BotClass.description`` (or the first line of its docstring) describes it, and
    ``BotClass.games`` says which games it can play.

    :param register: ``register(bot_class, *, name=None, description=None)``; ``name``
        and ``description`` override the class attributes.
    """


@hookspec
def register_commands(cli: click.Group) -> None:
    """Add commands to the ``kotarena`` command line, e.g. ``kotarena smash-bot train``.

    :param cli: the root click group; call ``cli.add_command(...)`` or decorate with
        ``@cli.command()``.
    """


__all__ = ["Bot", "hookimpl", "hookspec", "register_bots", "register_commands"]
