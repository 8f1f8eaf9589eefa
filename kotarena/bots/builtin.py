"""The built-in plugin: registers kotarena's own bots through the public hook."""

from __future__ import annotations

from kotarena.hookspecs import hookimpl


@hookimpl
def register_bots(register) -> None:
    from kotarena.bots.random_bot import RandomBot

    register(RandomBot)
    # Imported after the random bot is registered: the human bot pulls in click and
    # the renderer, and a problem there must not cost the random bot.
    from kotarena.bots.human import HumanBot

    register(HumanBot)
