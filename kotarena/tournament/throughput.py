"""How fast a whole league night goes, against the raw engine on the same cores.

A night's cost is the engine plus everything around it: scheduling, process hops,
seat hosts and time limits, replays, storage and ratings. Both sides play exactly the
night's games (its schedule: the same seeds, seats and first players, bots seeded
alike) with the same number of worker processes, so the ratio is the league's
overhead. Nights and raw runs alternate (raw, night, raw, night, raw...): each night
is compared with the mean of the raw runs on either side of it, and the median round
is reported, because on a virtual machine whose speed drifts a single pair of
measurements puts the drift into the ratio.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Throughput:
    """One measurement: rounds of a whole night, each between two runs of the raw engine."""

    bot: str
    workers: int
    games: int
    players: int
    deck: bool
    #: Each round's (raw engine games/s around the night, league games/s).
    rounds: list[tuple[float, float]]

    @property
    def engine_games_per_s(self) -> float:
        return statistics.median(engine for engine, _ in self.rounds)

    @property
    def league_games_per_s(self) -> float:
        return statistics.median(league for _, league in self.rounds)

    @property
    def round_overheads(self) -> list[float]:
        return [1 - league / engine for engine, league in self.rounds]

    @property
    def overhead(self) -> float:
        """The share of the engine's speed the league loses (0.2 = 20%): the median round."""
        return statistics.median(self.round_overheads)

    def to_json(self) -> dict:
        return {"bot": self.bot, "workers": self.workers, "games": self.games, "players": self.players, "deck": self.deck,
                "engine_games_per_s": round(self.engine_games_per_s, 1),
                "league_games_per_s": round(self.league_games_per_s, 1),
                "overhead": round(self.overhead, 3),
                "rounds": [{"engine_games_per_s": round(engine, 1), "league_games_per_s": round(league, 1),
                            "overhead": round(1 - league / engine, 3)} for engine, league in self.rounds]}


def _play_chunk(args: tuple[str, int, list[tuple[int, int | None]], bool]) -> int:
    """The raw engine: the bots called directly, no log, no checks beyond the engine's own."""
    from kotarena.bots.registry import get_bot
    from kotarena.engine import new_game
    from kotarena.match import bot_seed, play

    bot, players, games, deck = args
    info = get_bot(bot)
    for seed, first in games:
        state = new_game("kot", players=players, seed=seed, deck="default" if deck else None, first_player=first,
                         record=False)
        play(state, [info.make(seed=bot_seed(seed, seat)) for seat in range(players)])
    return len(games)


def engine_rate(games: list[tuple[int, int | None]], players: int, deck: bool, workers: int,
                bot: str = "random") -> float:
    """Games/s of the raw engine playing ``games`` (``(seed, first player)``) on ``workers`` processes."""
    chunks = [(bot, players, games[i::workers], deck) for i in range(workers)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        list(pool.map(_play_chunk, [(bot, players, games[:1], deck) for _ in range(workers)]))  # warm up
        started = time.perf_counter()
        played = sum(pool.map(_play_chunk, chunks))
        return played / (time.perf_counter() - started)


def _ladder_text(games: int, players: int, deck: bool, seed: int, bot: str) -> str:
    # Trusted, like the raw engine's bots: isolation is a separate, measured cost.
    entrants = "\n".join(f'[[bots]]\nname = "{bot}"\nlabel = "{bot}-{i}"\ntrusted = true\n' for i in range(players))
    return (f'name = "throughput"\nplayers = {players}\ngames = {games}\nseed = {seed}\n'
            f'deck = "{"kot" if deck else "none"}"\ntime_limit = 1.0\n{entrants}')


def league_rate(ladder_path: Path, db_path: Path, workers: int) -> float:
    """Games/s of a whole night of the ladder at ``ladder_path``, into a new database."""
    from kotarena.storage import open_db
    from kotarena.tournament.ladder import load_ladder
    from kotarena.tournament.night import run_night

    ladder = load_ladder(ladder_path)
    engine = open_db(db_path)
    started = time.perf_counter()
    report = run_night(engine, ladder, workers=workers)
    elapsed = time.perf_counter() - started
    engine.dispose()
    return report.played / elapsed


def measure(games: int = 2000, players: int = 4, deck: bool = True, workers: int = 1, seed: int = 0,
            bot: str = "random", rounds: int = 3) -> Throughput:
    """The league's games/s and the raw engine's on the same games and worker count.

    The raw engine runs before the first night and after each one; a round's overhead
    compares its night with the mean of the two raw runs around it, and the figures
    reported are the median round's. Adjacent runs see the machine at about the same
    speed, which a single before-and-after pair does not on a machine that drifts.
    """
    from dataclasses import replace

    from kotarena.tournament.ladder import load_ladder
    from kotarena.tournament.night import night_seed
    from kotarena.tournament.schedule import build_schedule

    if rounds < 1:
        raise ValueError("measure at least one round")
    with tempfile.TemporaryDirectory() as folder:
        ladder_path = Path(folder) / "throughput.toml"
        ladder_path.write_text(_ladder_text(games, players, deck, seed, bot))
        ladder = load_ladder(ladder_path)
        schedule = build_schedule(replace(ladder, seed=night_seed(ladder.seed, 1)),
                                  [entrant.label for entrant in ladder.entrants])
        played = [(match.seed, match.first_player) for match in schedule]
        measured = []
        before = engine_rate(played, players, deck, workers, bot)
        for number in range(rounds):
            league = league_rate(ladder_path, Path(folder) / f"throughput-{number}.db", workers)
            after = engine_rate(played, players, deck, workers, bot)
            measured.append(((before + after) / 2, league))
            before = after
    return Throughput(bot, workers, games, players, deck, measured)
