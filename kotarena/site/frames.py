"""A stored game as the replay viewer shows it: one frame per turn, each with the turn's
events in words and a picture of the table once the turn is over.

Everything here goes through the game seam (``new_game``, ``pause_between_turns``,
``next_turn``, ``turn``, ``Game.event_lines``, ``Game.snapshot``, ``Game.purchases``), so
the viewer shows any game kotarena plays without knowing it. A game that pauses between
turns is pictured at each pause; one that does not, whenever its turn number moves on.
"""

from __future__ import annotations

import functools
from typing import Any

from kotarena.engine.actions import Action, parse_action
from kotarena.engine.outcome import EngineError
from kotarena.games import get_game, new_game
from kotarena.replay import Replay, ReplayError, replay_from_text


def game_frames(replay: Replay) -> tuple[list[dict[str, Any]], list[tuple[int, str]], str | None]:
    """Play ``replay`` again from its seed and picture it turn by turn.

    Returns three things. The frames: each ``{"title", "player", "lines", "state"}``,
    that is its title, whose turn it was (a seat, or ``None``), its events in words and
    the game's :meth:`snapshot <kotarena.engine.game.Game.snapshot>` at its end; the
    first, ``"Setup"``, holds what happened before the first turn and the table at the
    first turn's first decision, then comes one frame per turn. What each seat bought
    (``Game.purchases``). And ``None``, or for a replay that does not play out as
    stored, why (the frames then stop where it went wrong).
    """
    try:
        game = get_game(replay.game)
        if replay.rules_version > game.spec.rules_version:
            return [], [], (f"written under {game.spec.title} rules version {replay.rules_version}, "
                            f"newer than this kotarena's {game.spec.rules_version}")
        state = new_game(game.spec.name, list(replay.players), seed=replay.seed, deck=replay.deck,
                         first_player=replay.first_player, record=True)
    except (EngineError, ValueError) as error:
        return [], [], f"cannot set the game up: {error}"
    names = state.names
    log = state.log if state.log is not None else []
    # Setup is what came before the first turn's own events, where the log marks turns
    # with a "turn" event (King of Tokyo's does); otherwise whatever was logged so far.
    start = next((at for at, event in enumerate(log) if event[0] == "turn"), len(log))
    frames = [{"title": "Setup", "player": None, "lines": game.event_lines(log[:start], names),
               "state": game.snapshot(state)}]
    state.pause_between_turns = True
    done = start  # the log's events already in a frame

    def close_turn(number: int) -> None:
        nonlocal done
        events = log[done:]
        # Whose turn it was: the first to act in it (between turns the game may already
        # name the next player as its active one).
        player = next((event[1] for event in events if event[0] == "act"), None)
        if number < 1:
            # Decisions before the first turn (Duel's monster choice) are the setup's, as
            # is the table at the first turn's first decision; the turn's events are its own.
            first_turn = next((at for at, event in enumerate(events) if event[0] == "turn"), len(events))
            frames[0]["lines"] += game.event_lines(events[:first_turn], names)
            frames[0]["state"] = game.snapshot(state)
            done += first_turn
            return
        frames.append({"title": f"Turn {number}", "player": player, "lines": game.event_lines(events, names),
                       "state": game.snapshot(state)})
        done = len(log)

    problem = None
    for _, action in replay.actions:
        try:
            if state.outcome is not None:
                raise EngineError(f"action {action!r} after the game is over")
            if state.between_turns:
                close_turn(state.turn)
                state.next_turn()
            turn = state.turn
            state.apply(_parsed(action))
            # A game that does not pause between turns: a turn ends where the number moves on.
            if state.turn != turn and not state.between_turns and state.outcome is None:
                close_turn(turn)
        except (EngineError, ValueError) as error:  # (an action that does not parse is a ValueError)
            problem = f"the replay does not play out: {error}"
            break
    if state.between_turns or state.outcome is not None or done < len(log):
        close_turn(state.turn)
    if problem is None and state.outcome != replay.outcome:
        problem = "the replay does not play out: the game ends otherwise than stored"
    return frames, game.purchases(log), problem


@functools.lru_cache(maxsize=4096)
def _parsed(text: str) -> Action:
    # A site plays every stored game again: their actions are a few hundred texts in all.
    return parse_action(text)


def viewer_data(match_id: int, replay_text: str, entrants: list[str]) -> tuple[dict[str, Any], list[tuple[int, str]]]:
    """The viewer's data for stored match ``match_id`` (its replay as stored, the ladder's
    label of each seat's bot), JSON-ready, and what each seat bought."""
    try:
        replay = replay_from_text(replay_text, source=f"match {match_id}")
    except ReplayError as error:
        return {"match": match_id, "game": None, "players": [], "entrants": entrants, "frames": [],
                "error": str(error)}, []
    frames, bought, problem = game_frames(replay)
    try:
        title = get_game(replay.game).spec.title
    except (EngineError, ValueError):
        title = replay.game
    # The seed as text: a JavaScript number holds whole numbers exactly only up to 2**53,
    # and seeds go up to 2**63.
    return {"match": match_id, "game": title, "seed": str(replay.seed), "deck": replay.deck,
            "players": list(replay.players), "entrants": entrants, "frames": frames, "error": problem}, bought
