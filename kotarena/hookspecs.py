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

    from kotarena.engine.game import Game

PROJECT = "kotarena"

hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)

RegisterBot = Callable[..., None]
RegisterGame = Callable[["Game"], None]


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
def register_games(register: RegisterGame) -> None:
    """Offer games that kotarena can play.

    Call ``register(game)`` once per game, with an instance of a
    :class:`~kotarena.engine.game.Game` subclass. ``game.spec.name`` (and its aliases)
    name the game in ladders (``game = "..."``) and on the command line (``--game``);
    they must not be taken by another game. kotarena's own games are registered through
    this hook too (``docs/games.md`` says how a game is put together).

    :param register: ``register(game)``.
    """


@hookspec(firstresult=True)
def seat_program(bot: object, view: object) -> object:
    """Seat a command-line bot's program for one game, where the bot object itself is
    called (:class:`~kotarena.bots.command.CommandBot`'s ``start``, through the Python API).

    Return the seat: an object with ``choose(view)`` (the action and the CPU seconds it
    took), ``finish(view)`` and ``close()``; the first plugin to return one seats the
    program. kotarena's sandbox implements it (:mod:`kotarena.sandbox.builtin`), so the
    program runs in the sandbox like any sandboxed bot.

    :param bot: the :class:`~kotarena.bots.command.CommandBot` (its class, ``seed``,
        ``params`` and ``time_limit``).
    :param view: the first view of the game, the bot's seat's.
    """


@hookspec
def register_commands(cli: click.Group) -> None:
    """Add commands to the ``kotarena`` command line, e.g. ``kotarena smash-bot train``.

    :param cli: the root click group; call ``cli.add_command(...)`` or decorate with
        ``@cli.command()``.
    """


__all__ = ["Game", "hookimpl", "hookspec", "register_bots", "register_commands", "register_games", "seat_program"]
