"""The one place that says which encoder encodes which game.

An entry maps a game's name to a factory ``(game, players, deck) -> Encoder``. A game
with options (``origins:two-player-variant=off``) is found under its own name first,
then under the names it answers to (its base game's). The built-in games are here; a
new game adds its line to :data:`ENCODERS`, and a plugin's game calls
:func:`register_encoder` before making an environment of it.
"""

from __future__ import annotations

from collections.abc import Callable

from kotarena.engine.game import Game
from kotarena.pettingzoo.duel import DuelEncoder
from kotarena.pettingzoo.encoder import Encoder, EncoderError
from kotarena.pettingzoo.kot import KingOfTokyoEncoder

#: Builds the encoder of a game for a player count and a deck (``"default"``, a deck
#: name, or ``None``).
EncoderFactory = Callable[[Game, int, "str | None"], Encoder]

#: Each game's encoder factory, by the game's name.
ENCODERS: dict[str, EncoderFactory] = {
    "kot": KingOfTokyoEncoder,  # type: ignore[dict-item]
    "origins": KingOfTokyoEncoder,  # type: ignore[dict-item]
    "duel": DuelEncoder,  # type: ignore[dict-item]
}


def register_encoder(game: str, factory: EncoderFactory) -> None:
    """Encode the game called ``game`` (its name, as ``GameSpec.name``) with ``factory``."""
    ENCODERS[game] = factory


def encoder_for(game: Game, players: int, deck: str | None = "default") -> Encoder:
    """The encoder of ``game`` for ``players`` seats and ``deck``.

    Raises :class:`EncoderError` for a game no entry encodes, naming the games that have one.
    """
    game.spec.check_players(players)
    for name in (game.spec.name, *game.spec.aliases):
        factory = ENCODERS.get(name)
        if factory is not None:
            return factory(game, players, deck)
    raise EncoderError(f"no PettingZoo encoder for the game {game.spec.name!r} (encoded: {', '.join(sorted(ENCODERS))}); "
                       "see docs/pettingzoo.md, 'Another game'")


__all__ = ["ENCODERS", "EncoderFactory", "encoder_for", "register_encoder"]
