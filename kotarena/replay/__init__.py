"""Replay files: a game written down line by line, and checked by playing it again.

A replay holds what is needed to play a game again (game, rules version, monsters,
seed, deck, who started) and everything that happened: each action (``a`` lines) and
each event (``e`` lines) in the order they happened, then the result. Playing the
actions again from the seed must give the very same events; :func:`reproduce` does
that and names the first line that differs. An actions-only replay (the league
stores those) may hold its actions as one ``packed`` line instead (format version 2).
The format is described in ``docs/replays.md``.

>>> import io
>>> from kotarena.games import new_game
>>> game = new_game("kot", 2, seed=7, deck=None)
>>> while not game.is_over:
...     game.apply(game.legal[0])
>>> buffer = io.StringIO()
>>> write_replay(game, buffer)
>>> replay = read_replay(io.StringIO(buffer.getvalue()))
>>> reproduce(replay).outcome == game.outcome
True
"""

from kotarena.replay.model import (
    FORMAT_VERSION,
    HEADER_KEYS,
    MAGIC,
    READ_VERSIONS,
    Replay,
    ReplayError,
    entry_text,
    result_text,
)
from kotarena.replay.playing import reproduce
from kotarena.replay.reading import read_replay, replay_from_text
from kotarena.replay.writing import actions_replay_text, replay_text, write_replay

__all__ = [
    "FORMAT_VERSION", "HEADER_KEYS", "MAGIC", "READ_VERSIONS", "Replay", "ReplayError", "actions_replay_text",
    "entry_text", "read_replay", "replay_from_text", "replay_text", "reproduce", "result_text", "write_replay",
]
