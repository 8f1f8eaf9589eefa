"""The built-in plugin that registers kotarena's own games through the public hook."""

from __future__ import annotations

from kotarena.hookspecs import hookimpl


@hookimpl
def register_games(register) -> None:
    from kotarena.games.kot import KING_OF_TOKYO, ORIGINS_GAME

    register(KING_OF_TOKYO)
    register(ORIGINS_GAME)
    from kotarena.games.duel import DUEL_GAME

    register(DUEL_GAME)
