"""``kotarena compare A B``: is B better than A? A sequential test on duplicate deals.

The deals, the test and the stopping rule live in :mod:`kotarena.compare` and
:mod:`kotarena.sprt`; this module parses the options, prints progress on stderr and
the verdict on stdout (or as JSON). Seats and places count from 1.
"""

from __future__ import annotations

import click

from kotarena.cli.play import deck_option, game_option, pick_seed, seed_option, trust_option
from kotarena.compare import CAP, Comparison, Standing, run
from kotarena.engine.game import Game
from kotarena.sprt import H1, SPRT

VERDICTS = {
    H1: "H1 accepted: {b} is better than {a}.",
    "H0": "H0 accepted: {b} is not better than {a} by {elo1:g} Elo.",
    CAP: "Inconclusive: the cap of {games} games came before H0 or H1 was accepted.",
}


def deck_text(deck: str | None) -> str:
    """How a comparison's deck reads in its summary."""
    if deck is None:
        return "without cards"
    return "with its own cards" if deck == "default" else f"deck {deck}"


def percent(score: float) -> str:
    return f"{100 * score:.1f}%"


def elo_text(elo: float) -> str:
    return f"{elo:+.1f}"


def progress_line(standing: Standing) -> str:
    """One line of how the test stands: games, B's score and Elo with intervals, LLR."""
    e = standing.estimate()
    sprt = standing.comparison.sprt
    return (f"games {standing.games}  score {percent(e.score)} [{percent(e.low)}, {percent(e.high)}]  "
            f"elo {elo_text(e.elo)} [{elo_text(e.elo_low)}, {elo_text(e.elo_high)}]  "
            f"llr {standing.llr:.2f} [{sprt.lower:.2f}, {sprt.upper:.2f}]")


def pair_labels(players: int) -> list[str]:
    """How the pair scores read: B's two-game score, or B's place against A's."""
    return ["0", "1/4", "1/2", "3/4", "1"] if players == 2 else ["worse", "same", "better"]


def verdict_data(standing: Standing, game: Game) -> dict:
    """The final standing as JSON-ready data (see docs/compare.md for the keys); numbers
    unrounded, so the text made from them rounds once."""
    c = standing.comparison
    e = standing.estimate()
    sprt = c.sprt
    records = [("B", c.b, standing.b), ("A", c.a, standing.a)]
    return {
        "a": c.a,
        "b": c.b,
        "game": game.name,
        "players": c.players,
        "field": c.field if c.players > 2 else None,
        "deck": c.deck,
        "seed": c.seed,
        "last_seed": c.seed + standing.pairs - 1,
        "model": "pentanomial" if c.players == 2 else "trinomial",
        "sprt": {"elo0": sprt.elo0, "elo1": sprt.elo1, "alpha": sprt.alpha, "beta": sprt.beta,
                 "lower": sprt.lower, "upper": sprt.upper},
        "max_games": c.max_pairs * 2,
        "decision": standing.decision,
        "verdict": VERDICTS[standing.decision].format(a=c.a, b=c.b, elo1=sprt.elo1, games=standing.games),
        "games": standing.games,
        "pairs": standing.pairs,
        "llr": standing.llr,
        "score": {"mean": e.score, "low": e.low, "high": e.high, "confidence": e.confidence},
        "elo": {"mean": e.elo, "low": e.elo_low, "high": e.elo_high},
        "pair_scores": [{"score": score, "label": label, "pairs": count}
                        for score, label, count in zip(c.scores, pair_labels(c.players), standing.counts,
                                                       strict=True)],
        "bots": [{"role": role, "bot": name, "games": record.games, "wins": record.wins,
                  "mean_place": record.mean_place} for role, name, record in records],
    }


def verdict_text(data: dict, game: Game) -> str:
    from kotarena.cli.output import table_text

    sprt = data["sprt"]
    score, elo = data["score"], data["elo"]
    table = f"{data['players']} players" + (f" (field: {data['field']})" if data["field"] else "")
    rows = [(b["bot"], b["role"], b["games"], b["wins"], percent(b["wins"] / b["games"]), f"{b['mean_place']:.2f}")
            for b in data["bots"]]
    return "\n".join([
        data["verdict"],
        f"games   {data['games']} ({data['pairs']} deal{'s' if data['pairs'] != 1 else ''}, seeds {data['seed']} to {data['last_seed']}; {table}, "
        f"{game.spec.title}, {deck_text(data['deck'])})",
        f"score   {percent(score['mean'])} for {data['b']}, {100 * score['confidence']:g}% interval "
        f"[{percent(score['low'])}, {percent(score['high'])}]",
        f"elo     {elo_text(elo['mean'])} [{elo_text(elo['low'])}, {elo_text(elo['high'])}]",
        f"llr     {data['llr']:.2f} (H0 at {sprt['lower']:.2f}, H1 at {sprt['upper']:.2f}; "
        f"elo0 {sprt['elo0']:g}, elo1 {sprt['elo1']:g}, alpha {sprt['alpha']:g}, beta {sprt['beta']:g})",
        "pairs   " + "  ".join(f"{p['label']}: {p['pairs']}" for p in data["pair_scores"]),
        table_text(("bot", "role", "games", "wins", "win%", "mean place"), rows),
    ])


@click.command()
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@click.option("--players", type=click.IntRange(min=2), default=2, show_default=True, metavar="N",
              help="Seats at each table. Two: B against A from both seats of each deal. More: B, then A, "
                   "in the same seat of the deal against the same field.")
@click.option("--field", metavar="NAME",
              help=f"The bot in the other seats with three or more players. Default: {Comparison.field}.")
@game_option
@seed_option
@deck_option
@click.option("--max-games", type=click.IntRange(min=2), default=Comparison.max_games, show_default=True, metavar="N",
              help="Stop after N games (N/2 deals) if neither hypothesis is accepted: the verdict is then "
                   "'inconclusive'.")
@click.option("--elo0", type=float, default=SPRT.elo0, show_default=True, metavar="ELO",
              help="H0: B is this many logistic Elo better than A (or less).")
@click.option("--elo1", type=float, default=SPRT.elo1, show_default=True, metavar="ELO",
              help="H1: B is this many logistic Elo better than A (or more).")
@click.option("--alpha", type=float, default=SPRT.alpha, show_default=True, metavar="P",
              help="The chance of accepting H1 when H0 holds.")
@click.option("--beta", type=float, default=SPRT.beta, show_default=True, metavar="P",
              help="The chance of accepting H0 when H1 holds.")
@click.option("--workers", type=click.IntRange(min=0), default=0, show_default=True, metavar="N",
              help="Play deals on N processes (0 or 1: in this one). The result is the same either way.")
@click.option("--report-every", type=click.IntRange(min=0), default=100, show_default=True, metavar="N",
              help="Print a progress line on stderr every N games (0: none).")
@click.option("--json", "json_", is_flag=True, help="Print the verdict as JSON (the seed goes to stderr).")
@trust_option
def compare(a: str, b: str, players: int, field: str | None, game: Game, seed: int | None, no_deck: bool,
            deck_name: str | None,
            max_games: int, elo0: float, elo1: float, alpha: float, beta: float, workers: int,
            report_every: int, json_: bool, trust: tuple[str, ...]) -> None:
    """Is bot B better than bot A? Play duplicate deals until a sequential test decides.

    Deal i uses the seed S+i and is played twice with the bots moved, so both see the
    same dice. After every deal a sequential probability ratio test (SPRT, as chess
    testers run it) weighs H1, "B is at least ELO1 better", against H0, "B is at most
    ELO0 better"; the run stops when one is accepted or at --max-games. Progress goes
    to stderr; the verdict, B's score and Elo with a 95% interval, and the
    log-likelihood ratio (LLR) to stdout. The exit status is 0 whatever the verdict
    (it is in the output) and 1 for an error. docs/compare.md explains the test.

    \b
    Examples:
      kotarena compare random heuristic --seed 7
      kotarena compare heuristic mcts --elo1 20 --max-games 2000 --workers 4
      kotarena compare random heuristic --players 4 --field random --json
    """
    from kotarena.cli.output import echo_json

    if field is not None and players == 2:
        raise click.ClickException("--field fills the other seats of games of three or more players; "
                                   "with --players 2, B plays A alone")
    if no_deck and deck_name:
        raise click.ClickException("--deck and --no-deck together: choose one")
    seed = pick_seed(seed)
    from kotarena.sandbox.catalogue import CatalogueError
    from kotarena.sandbox.untrusted import trust_names

    try:
        trust_names(trust)
        comparison = Comparison(a=a, b=b, game=game.name, players=players, field=field or Comparison.field,
                                deck=None if no_deck else deck_name or "default", seed=seed, max_games=max_games,
                                sprt=SPRT(elo0, elo1, alpha, beta), workers=workers)
        comparison.check()
    except (ValueError, CatalogueError) as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"seed: {seed} (deal i uses seed {seed} + i)", err=json_)

    standing = None
    next_report = report_every
    try:
        for standing in run(comparison):
            if report_every and (standing.games >= next_report or standing.decision):
                click.echo(progress_line(standing), err=True)
                next_report += report_every
    except ValueError as error:
        raise click.ClickException(str(error)) from None
    data = verdict_data(standing, game)
    if json_:
        echo_json(data)
    else:
        click.echo(verdict_text(data, game))
