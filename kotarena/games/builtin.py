"""The built-in plugin that registers kotarena's own games through the public hook."""

from __future__ import annotations

from kotarena.hookspecs import hookimpl


@hookimpl
def register_games(register) -> None:
    from kotarena.games.kot import KING_OF_TOKYO

    register(KING_OF_TOKYO)
