"""A stored game as the replay viewer shows it: one frame per turn, each with the turn's
events in words and a picture of the table once the turn is over.

Everything here goes through the game seam (``new_game``, ``pause_between_turns``,
``next_turn``, ``turn``, ``decision``, ``legal``, ``Game.event_lines``, ``Game.snapshot``,
``Game.purchases``), so the viewer shows any game kotarena plays without knowing it; the
drawn table of the games kotarena ships is :mod:`kotarena.site.boards`'. A game that
pauses between turns is pictured at each pause; one that does not, whenever its turn
number moves on.
"""

from __future__ import annotations

import functools
from typing import Any

from kotarena.decision_times import unpack_times
from kotarena.engine.actions import Action, parse_action
from kotarena.engine.outcome import EngineError
from kotarena.games import get_game, new_game
from kotarena.replay import Replay, ReplayError, replay_from_text
from kotarena.sandbox.botlog import log_steps, log_text
from kotarena.site.boards import board, texts

#: The most legal actions a decision keeps for the viewer (a King of Tokyo roll has 64,
#: a buy with a full purse a few dozen): beyond it, how many more there were.
LEGAL_SHOWN = 80


def game_frames(replay: Replay) -> tuple[list[dict[str, Any]], list[tuple[int, str]], str | None]:
    """Play ``replay`` again from its seed and picture it turn by turn.

    Returns three things. The frames: each ``{"title", "player", "lines", "state",
    "board", "decisions"}``, that is its title, whose turn it was (a seat, or ``None``),
    its events in words, the game's :meth:`snapshot <kotarena.engine.game.Game.snapshot>`
    at its end, the drawn table then (:func:`kotarena.site.boards.board`, ``None`` for a
    game the viewer does not draw) and the decisions taken in it, each ``{"seat",
    "kind", "legal", "more", "choice"}``: the seat that decided, the kind of question,
    its legal actions in words (at most :data:`LEGAL_SHOWN`, ``more`` saying how many
    were left out) and the action it chose. The first frame, ``"Setup"``, holds what
    happened before the first turn and the table at the first turn's first decision,
    without the dice (nobody rolled yet: the first roll is the first turn's), then comes
    one frame per turn. What each seat bought (``Game.purchases``). And ``None``, or for
    a replay that does not play out as stored, why (the frames then stop where it went
    wrong).
    """
    frames, bought, problem, _ = _played(replay)
    return frames, bought, problem


def _played(replay: Replay) -> tuple[list[dict[str, Any]], list[tuple[int, str]], str | None, dict[str, Any]]:
    """:func:`game_frames`'s three, and the texts of the cards and monsters the frames
    show (:func:`kotarena.site.boards.texts`, only those named)."""
    try:
        game = get_game(replay.game)
        if replay.rules_version > game.spec.rules_version:
            return [], [], (f"written under {game.spec.title} rules version {replay.rules_version}, "
                            f"newer than this kotarena's {game.spec.rules_version}"), {}
        state = new_game(game.spec.name, list(replay.players), seed=replay.seed, deck=replay.deck,
                         first_player=replay.first_player, record=True)
    except (EngineError, ValueError) as error:
        return [], [], f"cannot set the game up: {error}", {}
    names = state.names
    log = state.log if state.log is not None else []
    # Setup is what came before the first turn's own events, where the log marks turns
    # with a "turn" event (King of Tokyo's does); otherwise whatever was logged so far.
    start = next((at for at, event in enumerate(log) if event[0] == "turn"), len(log))
    frames = [{"title": "Setup", "player": None, "lines": game.event_lines(log[:start], names),
               "state": game.snapshot(state), "board": board(game, state), "decisions": []}]
    state.pause_between_turns = True
    done = start  # the log's events already in a frame
    decided: list[dict[str, Any]] = []  # the decisions since the last frame

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
            frames[0]["board"] = board(game, state)
            frames[0]["decisions"] += decided
            decided.clear()
            done += first_turn
            return
        frames.append({"title": f"Turn {number}", "player": player, "lines": game.event_lines(events, names),
                       "state": game.snapshot(state), "board": board(game, state), "decisions": list(decided)})
        decided.clear()
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
            decided.append(_decision(state, action))
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
    _hide_dice(frames[0])
    named = _named(frames)
    cards = {key: text for key, text in texts(game, state).items() if key in named}
    return frames, game.purchases(log), problem, cards


def _decision(state: Any, action: str) -> dict[str, Any]:
    """The decision ``state`` asks, and ``action`` its answer, for the viewer."""
    decision = state.decision
    legal = [choice.text for choice in state.legal]
    return {"seat": decision.player, "kind": str(decision.kind), "legal": legal[:LEGAL_SHOWN],
            "more": max(0, len(legal) - LEGAL_SHOWN), "choice": action}


def _hide_dice(setup: dict[str, Any]) -> None:
    """The setup frame pictures the table at the first turn's first decision, by when
    the first player has rolled: that roll is the first turn's, so the setup shows no dice."""
    setup["state"]["table"].pop("dice", None)
    if setup["board"] is not None:
        setup["board"]["dice"] = []


@functools.lru_cache(maxsize=4096)
def _parsed(text: str) -> Action:
    # A site plays every stored game again: their actions are a few hundred texts in all.
    return parse_action(text)


def viewer_data(match_id: int, replay_text: str, entrants: list[str], times: list[str | None] | None = None,
                logs: list[str | None] | None = None) -> tuple[dict[str, Any], list[tuple[int, str]]]:
    """The viewer's data for stored match ``match_id`` (its replay as stored, the ladder's
    label of each seat's bot, each seat's stored decision times and bot's lines), JSON-ready,
    and what each seat bought.

    Each decision a seat's bot answered gets its ``time`` in seconds
    (:func:`decision_times`) and the lines its bot wrote while deciding it as ``log``
    (:func:`decision_logs`); ``timing`` says per seat how the times were measured, ``logs``
    holds each seat's lines of the game (``None`` where its bot wrote none, or none was kept)."""
    try:
        replay = replay_from_text(replay_text, source=f"match {match_id}")
    except ReplayError as error:
        return {"match": match_id, "game": None, "players": [], "entrants": entrants, "frames": [],
                "error": str(error)}, []
    frames, bought, problem, cards = _played(replay)
    timing = decision_times(frames, times or [])
    decision_logs(frames, logs or [])
    try:
        title = get_game(replay.game).spec.title
    except (EngineError, ValueError):
        title = replay.game
    # A decision's legal actions are most often a list seen before (every roll offers the
    # same rerolls): the game keeps each list once and its decisions name it by number.
    lists: dict[tuple[str, ...], int] = {}
    for frame in frames:
        for decision in frame["decisions"]:
            decision["legal"] = lists.setdefault(tuple(decision["legal"]), len(lists))
    # The seed as text: a JavaScript number holds whole numbers exactly only up to 2**53,
    # and seeds go up to 2**63.
    return {"match": match_id, "game": title, "seed": str(replay.seed), "deck": replay.deck,
            "players": list(replay.players), "entrants": entrants, "frames": frames, "cards": cards,
            "legal": [list(legal) for legal in lists], "timing": timing,
            "logs": [log_text(log) for log in logs or [None] * len(entrants)], "error": problem}, bought


def decision_times(frames: list[dict[str, Any]], times: list[str | None]) -> list[str | None]:
    """Give each decision of ``frames`` its seat's stored time (``times``: each seat's
    packed text, :mod:`kotarena.decision_times`) as ``time``, in seconds: a seat's k-th
    decision in the game is its bot's k-th answer. A seat's decisions beyond its bot's
    answers (the autopilot's, after a forfeit) get none. Returns how each seat's times
    were measured (``cpu``, ``tick``, ``share``; ``None`` for a seat with none stored)."""
    unpacked = [unpack_times(text) for text in times]
    asked = [0] * len(unpacked)
    for frame in frames:
        for decision in frame["decisions"]:
            seat = decision["seat"]
            if 0 <= seat < len(unpacked) and unpacked[seat] is not None:
                answered = unpacked[seat][1]  # type: ignore[index]
                if asked[seat] < len(answered):
                    decision["time"] = answered[asked[seat]]
                asked[seat] += 1
    return [found[0] if found else None for found in unpacked]


def decision_logs(frames: list[dict[str, Any]], logs: list[str | None]) -> None:
    """Give each decision of ``frames`` the lines its seat's bot wrote while deciding it
    (``logs``: each seat's stored lines, :func:`kotarena.sandbox.botlog.log_steps`) as
    ``log``, one text, where it wrote any: a seat's k-th decision is its bot's k-th
    answer, as for the times. Lines stored without their steps (before kotarena kept
    them) are the game's only."""
    by_decision: list[dict[int, list[str]]] = []
    for log in logs:
        steps: dict[int, list[str]] = {}
        for step, lines in log_steps(log):
            if type(step) is int:
                steps.setdefault(step, []).extend(lines)
        by_decision.append(steps)
    asked = [0] * len(by_decision)
    for frame in frames:
        for decision in frame["decisions"]:
            seat = decision["seat"]
            if 0 <= seat < len(by_decision) and by_decision[seat]:
                asked[seat] += 1
                lines = by_decision[seat].get(asked[seat])
                if lines:
                    decision["log"] = "\n".join(lines)


def _named(frames: list[dict[str, Any]]) -> set[str]:
    """The ids of the cards and monsters the frames' drawn tables show."""
    named: set[str] = set()
    for frame in frames:
        drawn = frame["board"]
        if drawn is None:
            continue
        named.update(card for card in drawn.get("market", ()) if card)
        for seat in drawn["seats"]:
            named.update(seat.get("cards", ()))
            if "monster" in seat:
                named.add(seat["monster"])
    return named
