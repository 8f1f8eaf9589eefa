"""How fast a whole league night goes, against the raw engine on the same cores.

A night's cost is the engine plus everything around it: scheduling, process hops,
seat hosts and time limits, event logs and replays, storage and ratings. Both sides
play the same games (random bots, the same seeds) with the same number of worker
processes, so the ratio is the league's overhead.
"""

from __future__ import annotations

import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Throughput:
    bot: str
    workers: int
    games: int
    players: int
    deck: bool
    engine_games_per_s: float
    league_games_per_s: float

    @property
    def overhead(self) -> float:
        """The share of the engine's speed the league loses (0.2 = 20%)."""
        return 1 - self.league_games_per_s / self.engine_games_per_s

    def to_json(self) -> dict:
        return {"bot": self.bot, "workers": self.workers, "games": self.games, "players": self.players, "deck": self.deck,
                "engine_games_per_s": round(self.engine_games_per_s, 1),
                "league_games_per_s": round(self.league_games_per_s, 1),
                "overhead": round(self.overhead, 3)}


def _play_chunk(args: tuple[str, int, list[int], bool]) -> int:
    """The raw engine: the bots called directly, no log, no checks beyond the engine's own."""
    from kotarena.bots.registry import get_bot
    from kotarena.engine import new_game
    from kotarena.match import bot_seed, play

    bot, players, seeds, deck = args
    info = get_bot(bot)
    for seed in seeds:
        state = new_game("kot", players=players, seed=seed, deck="default" if deck else None, record=False)
        play(state, [info.make(seed=bot_seed(seed, seat)) for seat in range(players)])
    return len(seeds)


def engine_rate(games: int, players: int, deck: bool, workers: int, seed: int = 0, bot: str = "random") -> float:
    seeds = list(range(seed, seed + games))
    chunks = [(bot, players, seeds[i::workers], deck) for i in range(workers)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        list(pool.map(_play_chunk, [(bot, players, [seed - 1], deck) for _ in range(workers)]))  # warm up
        started = time.perf_counter()
        played = sum(pool.map(_play_chunk, chunks))
        return played / (time.perf_counter() - started)


def league_rate(games: int, players: int, deck: bool, workers: int, seed: int = 0, bot: str = "random") -> float:
    from kotarena.storage import open_db
    from kotarena.tournament.ladder import load_ladder
    from kotarena.tournament.night import run_night

    with tempfile.TemporaryDirectory() as folder:
        ladder_path = Path(folder) / "throughput.toml"
        # Trusted, like the raw engine's bots: isolation is a separate, measured cost.
        entrants = "\n".join(f'[[bots]]\nname = "{bot}"\nlabel = "{bot}-{i}"\ntrusted = true\n'
                              for i in range(players))
        ladder_path.write_text(
            f'name = "throughput"\nplayers = {players}\ngames = {games}\nseed = {seed}\n'
            f'deck = "{"kot" if deck else "none"}"\ntime_limit = 1.0\n{entrants}'
        )
        ladder = load_ladder(ladder_path)
        engine = open_db(Path(folder) / "throughput.db")
        started = time.perf_counter()
        report = run_night(engine, ladder, workers=workers)
        elapsed = time.perf_counter() - started
        engine.dispose()
        return report.played / elapsed


def measure(games: int = 400, players: int = 4, deck: bool = True, workers: int = 1, seed: int = 0,
            bot: str = "random") -> Throughput:
    return Throughput(bot, workers, games, players, deck,
                      engine_rate(games, players, deck, workers, seed, bot),
                      league_rate(games, players, deck, workers, seed, bot))
