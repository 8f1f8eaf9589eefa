"""Seeds: the secret of a sealed night, its public commitment, and the bots' own seeds.

A bot is handed a seed for its own random choices. That seed must not tell it the
game's seed, from which the dice and the deck's order follow: a bot that knew it would
know every roll and every card to come. So a bot's seed is a keyed one-way function
(BLAKE2b with a key) of the game's seed and the seat, :func:`bot_seed`, whose key a
bot never sees: for a league night, :func:`bot_key` of the night's seed; for a
command given a seed by its user (``kotarena match --seed 7``), the key of that seed,
since the user knows it anyway.

A night whose ladder names no seed is *sealed*: it draws its seed in secret
(:func:`draw_seed`), stores it (so a killed night resumes the same matches) and shows
only its :func:`commitment` until the night ends, then publishes the seed, which
anyone can check against the commitment and replay the night from. See
``docs/seeds.md``.
"""

from __future__ import annotations

import hashlib
import secrets

#: Seeds are 0 to 2**63 - 1 (they are stored as 64-bit signed integers).
SEED_BITS = 63


def draw_seed() -> int:
    """A secret seed from the operating system's cryptographic generator."""
    return secrets.randbits(SEED_BITS)


def commitment(seed: int) -> str:
    """The public commitment to a night's secret ``seed``: SHA-256 of its text, in hex.

    Published when the night starts; the seed published when it ends must hash to it,
    which shows the seed was not drawn again once the night was under way.
    """
    return hashlib.sha256(f"kotarena night seed {seed}".encode()).hexdigest()


def bot_key(seed: int) -> bytes:
    """The key of the bot seeds of everything played from ``seed`` (a night's seed, or
    the seed a user gave a command)."""
    return hashlib.blake2b(f"kotarena/bot-seeds/{seed}".encode(), digest_size=32).digest()


def bot_seed(game_seed: int, seat: int, key: bytes | None = None) -> int:
    """The seed of the bot in ``seat`` of a game seeded ``game_seed``.

    A keyed one-way function: without ``key`` no one can tell from a bot seed the game
    seed it came from, nor another seat's bot seed. ``key`` defaults to
    :func:`bot_key` of ``game_seed`` itself, which hides the game seed from a bot as
    well (finding it from a bot seed means trying every seed) but is no secret to
    whoever knows the game seed: the commands that play one game from a user's seed use
    it. The same arguments always give the same seed.
    """
    if key is None:
        key = bot_key(game_seed)
    digest = hashlib.blake2b(f"{game_seed}/{seat}".encode(), key=key, digest_size=8).digest()
    return int.from_bytes(digest, "big") >> (64 - SEED_BITS)


def bot_seeds(game_seed: int, seats: int, key: bytes | None = None) -> tuple[int, ...]:
    """:func:`bot_seed` of each of ``seats`` seats."""
    if key is None:
        key = bot_key(game_seed)
    return tuple(bot_seed(game_seed, seat, key) for seat in range(seats))
