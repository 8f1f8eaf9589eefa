"""Playing a replay again from its seed, checking every event and the result."""

from __future__ import annotations

from kotarena.engine.game import GameState
from kotarena.engine.outcome import EngineError
from kotarena.games import get_game, new_game
from kotarena.replay.model import Replay, ReplayError, entry_text, result_text


def reproduce(replay: Replay) -> GameState:
    """Play the replay's actions again from its seed and check every event.

    Returns the game as the replay leaves it (over, or waiting on the decision after
    the last action; a replay that stops between two turns leaves the state with
    ``between_turns`` set: call ``next_turn()`` to go on). Raises :class:`ReplayError`
    naming the first line that the engine does not reproduce, with the line the file
    has (``expected``) and the line the engine gives (``got``); an action that is not
    legal where it stands; or a header the engine refuses.
    """
    source = replay.source

    def header_line(key: str) -> int | None:
        return replay.header_lines.get(key)

    try:
        game = get_game(replay.game)
    except EngineError as error:
        raise ReplayError(str(error), source=source, line=header_line("game")) from None
    spec = game.spec
    if replay.rules_version > spec.rules_version:
        raise ReplayError(
            f"the replay was written under {spec.title} rules version {replay.rules_version}; "
            f"this kotarena plays version {spec.rules_version}, an older one",
            source=source, line=header_line("rules-version"))
    if replay.rules_version < spec.rules_version:
        # Written under older rules: it still replays if its game met none of the rules
        # changed since (most games do), and is checked line by line as any other.
        try:
            return _reproduce(replay, game, header_line)
        except ReplayError as error:
            raise ReplayError(
                f"{error.message} (the replay was written under rules version {replay.rules_version}; this "
                f"kotarena plays version {spec.rules_version}, whose changes this game met)",
                source=error.source, line=error.line, expected=error.expected, got=error.got) from None
    return _reproduce(replay, game, header_line)


def _reproduce(replay: Replay, game, header_line) -> GameState:
    source = replay.source
    spec = game.spec
    if replay.deck is not None:
        try:
            game.check_deck(replay.deck)
        except EngineError as error:
            raise ReplayError(str(error), source=source, line=header_line("deck")) from None
    if replay.first_player is not None and not 0 <= replay.first_player < len(replay.players):
        raise ReplayError(f"first player {replay.first_player} is not a seat (seats count from 0)",
                          source=source, line=header_line("first"))
    try:
        state = new_game(spec.name, list(replay.players), seed=replay.seed,
                         deck=replay.deck, first_player=replay.first_player, record=True)
    except ValueError as error:
        raise ReplayError(f"cannot set up the game: {error}", source=source, line=header_line("players")) from None
    # Stop between turns, so a replay written while a game was paused there ends there too.
    state.pause_between_turns = True
    log = state.log
    if not replay.has_events:
        return _reproduce_actions(replay, state)
    done = 0  # how many of the engine's events have been matched with the file
    lines = replay.lines or (None,) * len(replay.log)

    def mismatch(line: int | None, expected: str, got: str) -> ReplayError:
        return ReplayError(f"the game does not reproduce: the file has {expected!r}, the engine gives {got!r}",
                           source=source, line=line, expected=expected, got=got)

    for number, entry in zip(lines, replay.log):
        if done == len(log) and state.between_turns:
            state.next_turn()
        if entry[0] == "act":
            if done < len(log):
                raise mismatch(number, entry_text(entry), entry_text(log[done]))
            _apply(state, entry, source, number)
        elif done == len(log):
            raise mismatch(number, entry_text(entry), _waiting(state))
        if log[done] != entry:
            raise mismatch(number, entry_text(entry), entry_text(log[done]))
        done += 1
    end = replay.result_line
    if done < len(log):
        raise mismatch(end, result_text(replay.outcome), entry_text(log[done]))
    if state.outcome != replay.outcome:
        raise mismatch(end, result_text(replay.outcome), result_text(state.outcome))
    state.pause_between_turns = False
    return state


def _reproduce_actions(replay: Replay, state: GameState) -> GameState:
    """Play an actions-only replay; only its result line can be checked."""
    lines = replay.lines or (None,) * len(replay.log)
    on_line = 0  # the entry's place among those of its line (a packed line holds many)
    for at, (number, entry) in enumerate(zip(lines, replay.log)):
        on_line = on_line + 1 if at and number is not None and lines[at - 1] == number else 1
        if state.between_turns:
            state.next_turn()
        _apply(state, entry, replay.source, number, on_line)
    if state.outcome != replay.outcome:
        raise ReplayError(
            f"the game does not reproduce: the file has {result_text(replay.outcome)!r}, "
            f"the engine gives {result_text(state.outcome)!r}",
            source=replay.source, line=replay.result_line,
            expected=result_text(replay.outcome), got=result_text(state.outcome))
    state.pause_between_turns = False
    return state


def _waiting(state: GameState) -> str:
    """What the engine does instead of logging another event."""
    if state.outcome is not None:
        return "nothing more: the game is over"
    if state.between_turns:
        return "nothing more"
    return f"nothing more until {state.names[state.to_move]} (seat {state.to_move}) decides ({state.kind})"


def _apply(state: GameState, entry: tuple, source: str, number: int, on_line: int = 1) -> None:
    _, seat, text = entry
    # A packed line's actions share its line number: say which of them is to blame.
    which = f" (action {on_line} of the packed line)" if seat is None else ""
    if state.outcome is not None:
        raise ReplayError(f"action {text!r} after the game is over{which}", source=source, line=number)
    if seat is not None and seat != state.to_move:
        mover = state.names[state.to_move]
        raise ReplayError(f"seat {seat} acts ({text!r}) but it is {mover}'s (seat {state.to_move}) "
                          f"decision ({state.kind})", source=source, line=number)
    try:
        state.apply(text)
    except EngineError as error:
        raise ReplayError(f"illegal action{which}: {error}", source=source, line=number) from None

