"""Writing replays: a recorded game with its events, or the league's packed actions-only form."""

from __future__ import annotations

import functools
import io
import os
from collections.abc import Sequence
from typing import IO

from kotarena.engine.game import GameState
from kotarena.games import get_spec
from kotarena.replay.model import Replay, result_text
from kotarena.replay.packed import packed_body


def write_replay(state: GameState, file: str | os.PathLike | IO[str], *,
                 bots: Sequence[str | None] | None = None) -> None:
    """Write the replay of ``state`` to a path or a text stream.

    ``state`` comes from :func:`~kotarena.games.new_game` with ``record=True`` (any
    seed); it may be over or not. ``bots`` names the bot in each seat (for readers
    only: a replay plays the recorded actions, not the bots).
    """
    text = "\n".join(Replay.from_state(state, bots=bots).text_lines()) + "\n"
    if isinstance(file, str | os.PathLike):
        with open(file, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
    else:
        file.write(text)


def actions_replay_text(state: GameState, *, first_player: int | None,
                        bots: Sequence[str | None] | None = None) -> str:
    """The packed actions-only replay of ``state`` as a string: what
    ``Replay.actions_only(...).text_lines()`` write, put together from the game's
    actions without reading their texts back (the league stores one for every match)."""
    before, after = _head_around_seed(state.game, tuple(state.names), state.deck_name, first_player,
                                      None if bots is None else tuple(bots))
    body = f"packed {packed_body(state.game, state.history)}\n" if state.history else ""
    return f"{before}\nseed {state.seed}\n{after}\n{body}{result_text(state.outcome)}\n"


@functools.lru_cache(maxsize=4096)  # a night seats its bots in a few hundred orders
def _head_around_seed(game: str, players: tuple, deck: str | None, first_player: int | None,
                      bots: tuple | None) -> tuple[str, str]:
    """The header lines of an actions-only replay before and after its seed line."""
    from kotarena import __version__

    replay = Replay(game=game, rules_version=get_spec(game).rules_version, players=players, seed=0, deck=deck,
                    first_player=first_player, bots=bots, created_with=f"kotarena {__version__}", log=(),
                    outcome=None, lines=(), result_line=0)
    lines = list(replay.head_lines(2))
    at = lines.index("seed 0")
    return "\n".join(lines[:at]), "\n".join(lines[at + 1:])


def replay_text(state: GameState, *, bots: Sequence[str | None] | None = None) -> str:
    """The replay of ``state`` as a string (what :func:`write_replay` writes)."""
    buffer = io.StringIO()
    write_replay(state, buffer, bots=bots)
    return buffer.getvalue()

