"""``kotarena replay FILE``: play a replay file again, check it, and print it turn by turn.

What it shows counts seats from 1, as every command does (text and JSON alike); the
file keeps its own format, which counts them from 0 (``docs/replays.md``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator

import click

from kotarena.engine.game import GameState
from kotarena.forfeits import clean_detail
from kotarena.games import get_game
from kotarena.replay import Replay, ReplayError, read_replay, replay_from_text, reproduce


def turns_text(replay: Replay) -> Iterator[str]:
    """The replay turn by turn: a heading per turn, then its events indented.

    Events before the first turn (the market dealt, the roll-off) come under "Setup".
    """
    names = replay.players
    game = get_game(replay.game)
    yield "Setup"
    for event in replay.log:
        if event[0] == "turn" and len(event) == 3:
            yield game.event_text(event, names)
        else:
            yield "  " + game.event_text(event, names)


def header_text(replay: Replay, source: str) -> Iterator[str]:
    yield f"Replay {source}: {replay.game} (rules version {replay.rules_version}), seed {replay.seed}, " \
          f"{'cards: ' + replay.deck if replay.deck else 'no cards'}, " \
          f"first player: {'chosen by the game' if replay.first_player is None else replay.players[replay.first_player]}"
    yield "Seats:"
    for seat, name in enumerate(replay.players):
        bot = f" ({replay.bots[seat]})" if replay.bots and replay.bots[seat] is not None else ""
        yield f"  {seat + 1}: {name}{bot}"
    if replay.created_with:
        yield f"  written by {replay.created_with}"


def _from_1(seat: int | None) -> int | None:
    return None if seat is None or seat < 0 else seat + 1


def shown_json(replay: Replay) -> dict:
    """The replay as ``--json`` prints it: the header, the actions, the events (each as
    its game's :meth:`~kotarena.engine.game.Game.event_data`, with ``lines`` the same
    events in words) and the outcome, every seat and place counted from 1."""
    game = get_game(replay.game)
    header = replay.header()
    header["first_player"] = _from_1(header["first_player"])
    outcome = None
    if replay.outcome is not None:
        outcome = {**replay.outcome.to_json(), "winner": _from_1(replay.outcome.winner),
                   "ranks": [rank + 1 for rank in replay.outcome.ranks]}
    return {
        "header": header,
        "actions": [{"seat": _from_1(seat), "action": text} for seat, text in replay.actions],
        "events": [game.event_data(event) for event in replay.log],
        "lines": [game.event_text(event, replay.players) for event in replay.log],
        "outcome": outcome,
    }


def ending_text(state: GameState) -> str:
    from kotarena.games import get_game

    if state.outcome is not None:
        return f"Outcome: {get_game(state.game).words.ending(state.outcome, state.names)}"
    if state.between_turns:
        return f"Not over: stopped after turn {state.turn}"
    return f"Not over: turn {state.turn}, waiting for {state.names[state.to_move]} to decide ({state.kind})"


def _stored_match(match_id: int, db: str | None) -> tuple[str, list[dict]]:
    """The replay text of a match stored by a league night, as stored, and its seats
    that forfeited (``queries.match_forfeits``)."""
    from kotarena.cli.league import results_db
    from kotarena.storage.queries import match_forfeits, match_replay

    engine = results_db(db)
    text = match_replay(engine, match_id)
    if text is None:
        raise click.ClickException(f"no stored match with id {match_id} (see 'kotarena matches')")
    return text, match_forfeits(engine, match_id)


def forfeits_text(forfeits: list[dict]) -> Iterator[str]:
    """A stored match's forfeits: each seat, why (a traceback's last frames for an
    error), and that the autopilot played the seat on."""
    if not forfeits:
        return
    yield "Forfeits (the autopilot played each of these seats from then on; whatever it won is no win):"
    for seat in forfeits:
        detail = clean_detail(seat["forfeit_detail"] or "").split("\n")
        yield f"  seat {seat['seat']} ({seat['entrant']}): {seat['forfeit']}: {detail[0]}"
        for line in detail[1:]:
            yield f"    {line}"


def _save(text: str, path: str, match_id: int) -> None:
    try:
        with open(path, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
    except OSError as error:
        raise click.ClickException(f"cannot save match {match_id}'s replay to {path}: "
                                   f"{error.strerror or error}") from None
    click.echo(f"saved match {match_id}'s replay to {path}", err=True)


@click.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True), required=False)
@click.option("--match", "match_id", type=click.IntRange(min=1, max=2**63 - 1), help="Replay the stored match with this id (see 'kotarena matches').")
@click.option("--db", "db", envvar="KOTARENA_DB", metavar="PATH_OR_URL",
              help="Results database for --match (default: the user data directory; env KOTARENA_DB).")
@click.option("--save", "save", type=click.Path(dir_okay=False), metavar="FILE",
              help="With --match: also write the stored replay to FILE, as stored (a replay file).")
@click.option("--json", "json_", is_flag=True, help="Print the replay as JSON: header, actions, events, outcome.")
@click.option("-q", "--quiet", is_flag=True, help="Only check that the replay reproduces; print one line.")
def replay(file: str | None, match_id: int | None, db: str | None, save: str | None, json_: bool,
           quiet: bool) -> None:
    """Play the replay FILE again, check that it reproduces, and print it turn by turn.

    The game is set up from the file's header and seed, the recorded actions are
    played in order, and every event the engine logs must match the file. A file
    that is malformed or does not reproduce is an error (exit code 1). FILE may be
    '-' for standard input. The format is described in docs/replays.md.

    \b
    Examples:
      kotarena match --bot random --bot random --seed 7 --replay game.replay
      kotarena replay game.replay
      kotarena replay -q game.replay
      kotarena replay --match 12
      kotarena replay --match 12 -q --save match12.replay
    """
    if (file is None) == (match_id is None):
        raise click.UsageError("give either a replay FILE or --match ID")
    if save is not None and match_id is None:
        raise click.UsageError("--save writes a stored match's replay: give it with --match ID")
    forfeits: list[dict] = []
    try:
        if match_id is not None:
            text, forfeits = _stored_match(match_id, db)
            if save is not None:  # saved first: a replay that no longer plays out can still be shared
                _save(text, save, match_id)
            parsed = replay_from_text(text, source=f"match {match_id}")
        elif file == "-":
            parsed = read_replay(sys.stdin)
        else:
            parsed = read_replay(file)
        state = reproduce(parsed)
    except ReplayError as error:
        hint = ""
        if file is not None and file.isdigit() and not os.path.exists(file):
            hint = f" (to replay the stored match with id {file}: kotarena replay --match {file})"
        elif "unknown game" in str(error):
            from kotarena.plugins import with_hint

            raise click.ClickException(with_hint(str(error))) from None
        raise click.ClickException(f"{error}{hint}") from None
    if not parsed.has_events:
        # An actions-only replay (the league stores those): show the events the
        # engine regenerated while checking it.
        from dataclasses import replace

        regenerated = Replay.from_state(state, bots=parsed.bots)
        parsed = replace(regenerated, source=parsed.source, created_with=parsed.created_with,
                         first_player=parsed.first_player)
    source = parsed.source

    if json_:
        from kotarena.cli.output import echo_json

        echo_json({**shown_json(parsed), "reproduced": True, **({"forfeits": forfeits} if match_id is not None else {})})
        return
    if quiet:
        turns = state.outcome.turns if state.outcome is not None else state.turn
        forfeited = "".join(f"; seat {seat['seat']} forfeited ({seat['forfeit']})" for seat in forfeits)
        click.echo(f"{source}: reproduced: yes ({len(parsed.players)} players, seed {parsed.seed}, "
                   f"{len(parsed.actions)} actions, {turns} turns{forfeited})")
        return
    for line in header_text(parsed, source):
        click.echo(line)
    click.echo("")
    for line in turns_text(parsed):
        click.echo(line)
    click.echo("")
    click.echo(ending_text(state))
    for line in forfeits_text(forfeits):
        click.echo(line)
    click.echo("reproduced: yes")
