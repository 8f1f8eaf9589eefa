"""``kotarena play`` (a person against bots) and ``kotarena match`` (bots only).

Both commands run games through :func:`kotarena.match.play`, the loop the tournament
runner uses too. ``play`` wraps each bot so the events since the last decision are
printed before the next one; that keeps a single game loop in the project.

Seats count from 1 on the command line and in the output (JSON included); a seat's
place is 1 for the winner.
"""

from __future__ import annotations

import importlib.util
import secrets
from collections.abc import Callable, Sequence

import click

from kotarena.bots.base import Bot
from kotarena.bots.registry import BotInfo
from kotarena.engine.game import Game, GameState
from kotarena.forfeits import BotFailure
from kotarena.games import games, get_game, new_game
from kotarena.match import BotMoveError, bot_seed
from kotarena.match import play as play_game

#: The game ``play`` and ``match`` play without ``--game``.
DEFAULT_GAME = "kot"


# ------------------------------------------------------------ shared options

def parse_seed(ctx: click.Context, param: click.Parameter, value: str | None) -> int | None:
    """``--seed`` as a whole number >= 0 (a one-line error otherwise)."""
    if value is None:
        return None
    try:
        seed = int(value.strip())
    except ValueError:
        raise click.ClickException(f"bad seed {value!r}: a seed is a whole number such as 42") from None
    if not 0 <= seed <= MAX_SEED:
        raise click.ClickException(f"bad seed {value!r}: a seed is a whole number from 0 to {MAX_SEED} (2**63 - 1)")
    return seed


#: The largest seed: results store seeds as 64-bit integers.
MAX_SEED = 2**63 - 1


def _deck_name(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--deck`` as given; an empty name is refused (it meant no deck, or a typo)."""
    if value is not None and not value.strip():
        raise click.BadParameter("names no deck: give a deck of the game's ('kotarena games' lists them), "
                                 "or --no-deck to play without cards", ctx, param)
    return value


def pick_seed(seed: int | None) -> int:
    """The given seed, or a fresh one small enough to type back in."""
    return secrets.randbelow(10**9) if seed is None else seed


seed_option = click.option(
    "--seed", callback=parse_seed, metavar="S",
    help="Seed for dice, deck and bots (a whole number); the same seed plays the same game. Default: a random one, printed.",
)
no_deck_option = click.option("--no-deck", is_flag=True, help="Play without cards: no market, no buy step.")
_deck_name_option = click.option(
    "--deck", "deck_name", metavar="NAME", callback=_deck_name,
    help="The deck to play, one of the game's ('kotarena games' lists them). Default: the game's own deck.")


def deck_option(command):
    """``--no-deck`` and ``--deck NAME``: play without cards, or with a deck of the game's."""
    return no_deck_option(_deck_name_option(command))


def parse_game(ctx: click.Context, param: click.Parameter, value: str) -> Game:
    """``--game`` as a registered game (a one-line error naming the known ones otherwise)."""
    from kotarena.plugins import with_hint

    try:
        return get_game(value)
    except ValueError as error:
        raise click.ClickException(with_hint(str(error))) from None


game_option = click.option(
    "--game", "game", default=DEFAULT_GAME, show_default=True, metavar="NAME", callback=parse_game,
    shell_complete=lambda ctx, param, incomplete: [name for name in games() if name.startswith(incomplete)],
    help="The game to play (a name or alias; 'kotarena games' lists them).",
)
monster_option = click.option(
    "--monster", "monsters", multiple=True, metavar="NAME",
    help="Monster name for the next seat (repeat; seats without one get the usual monsters).",
)
replay_option = click.option(
    "--replay", "replay_path", type=click.Path(dir_okay=False, writable=True), metavar="FILE",
    help="Write the game's replay to FILE.",
)


def monster_names(game: Game, players: int, given: Sequence[str]) -> list[str]:
    """``given`` names for the first seats, then the game's usual names not already taken."""
    if len(given) > players:
        raise click.ClickException(f"{len(given)} --monster names for {players} seats")
    names = [name.strip() for name in given]
    if any(not name for name in names):
        raise click.ClickException("a --monster name is empty")
    if len({name.lower() for name in names}) != len(names):
        raise click.ClickException("two --monster names are the same; every monster needs its own name")
    taken = {name.lower() for name in names}
    spare = [m for m in game.default_names if m.lower() not in taken]
    return names + spare[: players - len(names)]


def check_players(game: Game, count: int, how: str = "") -> None:
    spec = game.spec
    if not spec.min_players <= count <= spec.max_players:
        raise click.ClickException(
            f"{count} players{f' ({how})' if how else ''}; {spec.title} is for {spec.players_text}"
        )


trust_option = click.option(
    "--trust", "trust", multiple=True, metavar="NAME",
    help="Trust the bot NAME, or the package NAME, for this command (repeat): its package is imported here and "
         "its bots play in this process, with your rights. Untrusted bots play in the sandbox, as on a ladder.")


def seat_infos(names: Sequence[str], game: Game, trust: Sequence[str] = ()) -> list[BotInfo]:
    """The bots ``names`` (plain or ``DIST:NAME``), each of which must play ``game``,
    after trusting ``trust``; a one-line error for an unknown bot, an ambiguous name, or
    an untrusted bot where the sandbox cannot be had."""
    from kotarena.sandbox.catalogue import CatalogueError
    from kotarena.sandbox.relay import sandbox_refusal
    from kotarena.sandbox.untrusted import find_bot, trust_names

    try:
        trust_names(trust)
        infos = [find_bot(name) for name in names]
        for info in infos:
            info.check_plays(game.name)
    except (ValueError, CatalogueError) as error:
        raise click.ClickException(str(error)) from None
    for info in infos:
        refusal = sandbox_refusal(info)
        if refusal:
            raise click.ClickException(refusal)
    return infos


def seat_all(infos: Sequence[BotInfo], seed: int) -> list[Bot]:
    """The bots of one game's seats, seeded as ``match`` seeds them, each sandboxed bot
    in the instance of its slot (the k-th seat a bot takes at this deal: slot k)."""
    from kotarena.sandbox.relay import deal_slots, seat_bot

    slots = deal_slots([info.qualified for info in infos])
    return [seat_bot(info, bot_seed(seed, s), slots[s]) for s, info in enumerate(infos)]


def is_human(info: BotInfo) -> bool:
    from kotarena.bots.human import HumanBot

    return info.cls is not None and issubclass(info.cls, HumanBot)


def check_replay_support() -> None:
    if importlib.util.find_spec("kotarena.replay") is None:
        raise click.ClickException("--replay needs the kotarena.replay module, which this installation does not have")


def save_replay(state: GameState, path: str, bot_names: Sequence[str]) -> None:
    from kotarena.replay import write_replay

    try:
        write_replay(state, path, bots=list(bot_names))
    except OSError as error:
        raise click.ClickException(f"cannot write the replay to {path}: {error.strerror or error}") from None


def start_game(game: Game, names: Sequence[str] | int, seed: int, no_deck: bool, record: bool,
               deck_name: str | None = None) -> GameState:
    """A new game for ``play`` and ``match``: ``names`` are the seats' monsters, or only
    how many seats there are, so that the game gives them as it does at a ladder's table
    (Duel draws them from the seed, or lets each seat pick)."""
    if no_deck and deck_name:
        raise click.ClickException("--deck and --no-deck together: choose one")
    deck = None if no_deck else deck_name or "default"
    try:
        players = names if isinstance(names, int) else list(names)
        return new_game(game.name, players=players, seed=seed, deck=deck, record=record)
    except ValueError as error:
        raise click.ClickException(str(error)) from None


def run(state: GameState, bots: Sequence[Bot]) -> GameState:
    try:
        return play_game(state, bots)
    except BotMoveError as error:
        raise click.ClickException(str(error)) from None
    except BotFailure as error:  # a command-line bot's program, judged as on the ladder
        raise click.ClickException(f"{error.detail} ({error.kind})") from None


def summary(state: GameState, seed: int, bot_names: Sequence[str]) -> dict:
    """The result of one finished game as JSON-ready data (seats and places from 1); each
    seat holds its game's facts (for King of Tokyo: monster, stars, health, alive)."""
    outcome = state.outcome
    game = get_game(state.game)
    winner = outcome.winner
    return {
        "seed": seed,
        "game": state.game,
        "deck": state.deck_name,
        "winner": None if winner is None else winner + 1,
        "winner_monster": None if winner is None else state.names[winner],
        "winner_bot": None if winner is None else bot_names[winner],
        "termination": outcome.termination.value,
        "turns": outcome.turns,
        "seats": [
            {
                "seat": seat + 1,
                "bot": bot_names[seat],
                "monster": state.names[seat],
                **game.seat_facts(state, seat),
                "rank": outcome.ranks[seat] + 1,
            }
            for seat in range(state.n)
        ],
    }


def summary_text(data: dict) -> str:
    from kotarena.cli.output import table_text

    if data["winner"] is None:
        result = "winner: nobody (all eliminated)"
    else:
        result = f"winner: {data['winner_monster']} (seat {data['winner']}, {data['winner_bot']})"
    # The game's facts but "alive" (health 0 says it), in the game's order.
    facts = [key for key in get_game(data["game"]).seat_fact_names if key not in ("monster", "alive")]
    columns = ("seat", "bot", "monster", *facts, "rank")
    rows = [tuple(s[key] for key in columns) for s in data["seats"]]
    return "\n".join([
        result,
        f"termination: {data['termination']}   turns: {data['turns']}   cards: {'yes' if data['deck'] else 'no'}",
        table_text(columns, rows),
    ])


# ------------------------------------------------------------ narration

class Narrator:
    """Prints the events a game logged since the last time it was asked."""

    def __init__(self, state: GameState, echo: Callable[[str], None]) -> None:
        self.state = state
        self.echo = echo
        self.seen = 0

    def flush(self) -> None:
        log = self.state.log
        for line in get_game(self.state.game).event_lines(log[self.seen:], self.state.names):
            self.echo(line)
        self.seen = len(log)


class Narrated(Bot):
    """A bot that lets the narrator catch up before each of its decisions."""

    def __init__(self, inner: Bot, narrator: Narrator) -> None:
        super().__init__(seed=inner.seed)
        self.inner = inner
        self.narrator = narrator
        self.name = inner.name or type(inner).__name__

    def start(self, view):
        self.inner.start(view)

    def choose(self, view):
        self.narrator.flush()
        return self.inner.choose(view)

    def finish(self, view):
        self.inner.finish(view)


# ------------------------------------------------------------ play

@click.command()
@click.option("--bot", "bots", multiple=True, metavar="NAME",
              help="An opponent (repeat for more seats). Default: 'random' bots, "
                   "three where the game seats four (one in Duel).")
@click.option("--seat", type=int, default=1, show_default=True, metavar="N", help="Your seat, counting from 1.")
@game_option
@seed_option
@monster_option
@deck_option
@replay_option
@trust_option
def play(bots: tuple[str, ...], seat: int, game: Game, seed: int | None, monsters: tuple[str, ...],
         no_deck: bool, deck_name: str | None, replay_path: str | None, trust: tuple[str, ...]) -> None:
    """Play a game (King of Tokyo unless --game says another) at the terminal against bots.

    You answer each decision with an action: 'reroll 1 4' (dice positions), 'stop',
    'stay', 'yield', 'buy 2' (market slot), 'sweep', 'done', and when a card offers a
    choice 'pass' or 'use CARD ...' (e.g. 'use Stretchy 3 claw'). '?' lists every
    legal action with what it does; '? CARD' explains a card.

    \b
    Examples:
      kotarena play
      kotarena play --bot random --bot random --seat 2 --seed 7
      kotarena play --bot random --monster Gigazaur --no-deck
      kotarena play --game origins --bot heuristic
      kotarena play --game duel
    """
    from kotarena.bots.human import NoTerminalError, require_terminal

    # A table of four where the game seats four, else as many as it seats at most.
    opponents = list(bots) or ["random"] * (min(4, game.spec.max_players) - 1)
    players = len(opponents) + 1
    check_players(game, players, f"you and {len(opponents)} bot{'s' if len(opponents) != 1 else ''}")
    if not 1 <= seat <= players:
        raise click.ClickException(f"--seat {seat} is not a seat of a {players}-player game (1 to {players})")
    infos = seat_infos(opponents, game, trust)
    if replay_path:
        check_replay_support()
    try:
        require_terminal()
    except NoTerminalError as error:
        raise click.ClickException(str(error)) from None

    seed = pick_seed(seed)
    names = monster_names(game, players, monsters)
    bot_names = list(opponents)
    bot_names.insert(seat - 1, "human")
    from kotarena.bots.registry import get_bot

    infos.insert(seat - 1, get_bot("human"))

    click.echo(f"seed: {seed}")
    state = start_game(game, names if monsters else players, seed, no_deck, record=True, deck_name=deck_name)
    names = state.names
    others = ", ".join(f"{names[s]} ({bot_names[s]})" for s in range(players) if s != seat - 1)
    click.echo(f"You are {names[seat - 1]} (seat {seat}). Opponents: {others}.")
    click.echo("Type ? at a prompt for the legal actions, ? NAME for what a card (or anything else named) is.")

    narrator = Narrator(state, click.echo)
    seated = [Narrated(bot, narrator) for bot in seat_all(infos, seed)]
    run(state, seated)
    narrator.flush()

    words = game.words
    click.echo("")
    click.echo(words.table(state.view(seat - 1), me=seat - 1))
    click.echo("")
    click.echo(words.standings(state))
    click.echo(f"{words.ending(state.outcome, state.names)}. (seed {seed})")
    if replay_path:
        save_replay(state, replay_path, bot_names)
        click.echo(f"replay written to {replay_path}")


# ------------------------------------------------------------ match

def seat_bots(game: Game, bots: Sequence[str], players: int | None) -> list[str]:
    """The bot name of every seat: one per --bot, or one --bot copied to --players seats."""
    names = list(bots) or ["random"]
    if players is None:
        spec = game.spec  # one bot: four seats, or as near as the game allows (Duel: two)
        players = len(names) if len(names) > 1 else min(max(4, spec.min_players), spec.max_players)
    if len(names) == 1:
        names = names * players
    elif len(names) != players:
        raise click.ClickException(
            f"--players {players} but {len(names)} --bot options: give one --bot per seat, "
            "or a single --bot to fill every seat"
        )
    check_players(game, len(names))
    return names


def tally(results: Sequence[dict]) -> dict:
    """Wins and mean place per bot name over several games."""
    by_bot: dict[str, dict] = {}
    for result in results:
        for seat in result["seats"]:
            entry = by_bot.setdefault(seat["bot"], {"bot": seat["bot"], "seats": 0, "wins": 0, "rank_sum": 0})
            entry["seats"] += 1
            entry["rank_sum"] += seat["rank"]
            if result["winner"] == seat["seat"]:
                entry["wins"] += 1
    games = len(results)
    bots = []
    for entry in by_bot.values():
        bots.append({
            "bot": entry["bot"],
            "seats": entry["seats"] // games,
            "wins": entry["wins"],
            "win_rate": round(entry["wins"] / games, 4),
            "mean_rank": round(entry["rank_sum"] / entry["seats"], 3),
        })
    seat_wins = [0] * len(results[0]["seats"])
    for result in results:
        if result["winner"] is not None:
            seat_wins[result["winner"] - 1] += 1
    return {
        "bots": bots,
        "seat_wins": seat_wins,
        "no_winner": sum(1 for r in results if r["winner"] is None),
        "mean_turns": round(sum(r["turns"] for r in results) / games, 2),
    }


def tally_text(data: dict) -> str:
    from kotarena.cli.output import table_text

    rows = [(b["bot"], b["seats"], b["wins"], f"{100 * b['win_rate']:.1f}%", f"{b['mean_rank']:.2f}")
            for b in data["bots"]]
    return "\n".join([
        table_text(("bot", "seats", "wins", "win%", "mean rank"), rows),
        "wins by seat: " + "  ".join(f"{seat}: {wins}" for seat, wins in enumerate(data["seat_wins"], start=1)),
        f"no winner: {data['no_winner']}   mean turns: {data['mean_turns']}",
    ])


@click.command()
@click.option("--bot", "bots", multiple=True, metavar="NAME",
              help="The bot in the next seat (repeat). One --bot fills every seat. Default: random.")
@click.option("--players", type=int, metavar="N",
              help="Number of seats (2-6 in King of Tokyo, 2-4 in Origins, 2 in Duel). Default: one per --bot, or 4 "
                   "with a single bot (2 in Duel).")
@game_option
@seed_option
@click.option("--games", type=click.IntRange(min=1), default=1, show_default=True, metavar="N",
              help="Play N games with seeds S, S+1, ... and print each bot's wins.")
@monster_option
@deck_option
@click.option("--json", "json_", is_flag=True, help="Print JSON (the seed goes to stderr).")
@click.option("-v", "--verbose", is_flag=True, help="Print every game's events.")
@replay_option
@trust_option
def match(bots: tuple[str, ...], players: int | None, game: Game, seed: int | None, games: int,
          monsters: tuple[str, ...],
          no_deck: bool, deck_name: str | None, json_: bool, verbose: bool, replay_path: str | None,
          trust: tuple[str, ...]) -> None:
    """Play bots against each other and print the result.

    \b
    Examples:
      kotarena match --bot random --bot random --bot random --seed 7
      kotarena match --bot random --players 4 --games 100
      kotarena match --bot random --bot random --json --replay game.jsonl
      kotarena match --game kot --bot heuristic --bot random --games 50
      kotarena match --game origins:two-player-variant=off --bot mcts --bot heuristic
    """
    from kotarena.cli.output import echo_json

    seat_names = seat_bots(game, bots, players)
    infos = seat_infos(seat_names, game, trust)
    if any(is_human(info) for info in infos):
        raise click.ClickException("'kotarena match' is for bots only; play against them with 'kotarena play'")
    if replay_path:
        if games > 1:
            raise click.ClickException("--replay writes one game; use it without --games")
        check_replay_support()
    names = monster_names(game, len(seat_names), monsters)
    seed = pick_seed(seed)
    seed_text = f"seed: {seed}" + (f" (games use seeds {seed} to {seed + games - 1})" if games > 1 else "")
    click.echo(seed_text, err=json_)

    results = []
    for index in range(games):
        game_seed = seed + index
        state = start_game(game, names if monsters else len(names), game_seed, no_deck,
                           record=verbose or bool(replay_path), deck_name=deck_name)
        run(state, seat_all(infos, game_seed))
        if verbose:
            if games > 1:
                click.echo(f"=== game {index + 1} (seed {game_seed}) ===", err=json_)
            for line in game.event_lines(state.log, state.names):
                click.echo(line, err=json_)
        results.append(summary(state, game_seed, seat_names))
        if replay_path:
            save_replay(state, replay_path, seat_names)

    if games == 1:
        data = results[0]
        if replay_path:
            data["replay"] = replay_path
        if json_:
            echo_json(data)
        else:
            click.echo(summary_text(data))
            if replay_path:
                click.echo(f"replay written to {replay_path}")
        return
    totals = tally(results)
    if json_:
        echo_json({"seed": seed, "game": game.name, "games": games, "players": len(seat_names),
                   "deck": results[0]["deck"],
                   **totals, "results": results})
        return
    click.echo(f"{games} games, {len(seat_names)} players, {'with' if not no_deck else 'without'} cards "
               f"({game.spec.title})")
    click.echo(tally_text(totals))
