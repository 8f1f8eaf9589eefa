"""Engine speed: seeded random-bot games timed on one core.

The functions here only play and time games; printing belongs to ``kotarena bench``
and ``benchmarks/engine_speed.py``. Games go through :func:`kotarena.match.play`, the
same loop matches and ladders use, so the figures include building each decision's
view and the bot's choice, not just the rules.

Game ``i`` of a run uses seed ``seed + i`` and bot seeds from
:func:`kotarena.match.bot_seed`, so two runs play exactly the same games.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass

from kotarena.bots.random_bot import RandomBot
from kotarena.engine.actions import Action
from kotarena.games import new_game
from kotarena.games.kot.view import View
from kotarena.match import bot_seed, play


class BuyingRandomBot(RandomBot):
    """A random bot that buys whenever it can: in a buy step with a card it can afford
    it buys one (chosen at random); otherwise it picks uniformly like :class:`RandomBot`.

    This is the issue's card benchmark: many cards in play, so card effects are timed.
    """

    name = "random-buyer"

    def choose(self, view: View) -> Action:
        legal = view.legal
        if view.kind == "buy":
            buys = [a for a in legal if a.kind == "buy"]
            if buys:
                return buys[int(self.random() * len(buys))]
        return legal[int(self.random() * len(legal))]


@dataclass(frozen=True)
class BenchResult:
    """What one timed run measured."""

    players: int
    deck: bool
    record: bool
    games: int
    seconds: float
    turns: int
    decisions: int
    buyers: bool = False
    game: str = "kot"

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds if self.seconds else float("inf")

    @property
    def turns_per_s(self) -> float:
        return self.turns / self.seconds if self.seconds else float("inf")

    @property
    def decisions_per_s(self) -> float:
        return self.decisions / self.seconds if self.seconds else float("inf")

    @property
    def mean_turns(self) -> float:
        return self.turns / self.games

    def to_json(self) -> dict:
        data = asdict(self)
        data.update(
            games_per_s=round(self.games_per_s, 1),
            turns_per_s=round(self.turns_per_s, 1),
            decisions_per_s=round(self.decisions_per_s, 1),
            mean_turns=round(self.mean_turns, 2),
        )
        return data


def play_games(players: int, games: int, *, deck: bool = False, record: bool = False, seed: int = 0,
               buyers: bool = False, game: str = "kot") -> tuple[int, int]:
    """Play ``games`` seeded random-bot games; returns ``(turns, decisions)``.

    With ``buyers`` the bots are :class:`BuyingRandomBot` (they buy whenever they can).
    """
    turns = decisions = 0
    deck_name = "default" if deck else None
    bot = BuyingRandomBot if buyers else RandomBot
    for index in range(games):
        game_seed = seed + index
        state = new_game(game, players=players, seed=game_seed, deck=deck_name, record=record)
        play(state, [bot(seed=bot_seed(game_seed, seat)) for seat in range(players)])
        turns += state.outcome.turns
        decisions += len(state.history)
    return turns, decisions


def time_games(
    players: int,
    games: int,
    *,
    deck: bool = False,
    record: bool = False,
    seed: int = 0,
    warmup: int = 20,
    buyers: bool = False,
    game: str = "kot",
) -> BenchResult:
    """Time ``games`` games at ``players`` players on this core.

    ``warmup`` games (with other seeds) are played first and not timed, so the figures
    do not include imports, first-call caches or the CPU ramping up.
    """
    if games < 1:
        raise ValueError("time at least one game")
    if warmup:
        play_games(players, warmup, deck=deck, record=record, seed=seed + games, buyers=buyers, game=game)
    start = time.perf_counter()
    turns, decisions = play_games(players, games, deck=deck, record=record, seed=seed, buyers=buyers, game=game)
    seconds = time.perf_counter() - start
    return BenchResult(players, deck, record, games, seconds, turns, decisions, buyers, game)


# ---------------------------------------------------------------- machine reference


#: What :func:`reference_rate` measured on the 2-core machine where the peer engines
#: of benchmarks/engine-log.md were timed (the Go engine with 40 card titles: 650-900 games/s).
REFERENCE_AT_PEER_MEASUREMENT = 3061


def reference_game(random) -> int:
    """One 4-player game of the base dice rules, as a tight loop; returns its turns.

    This is not the engine: no cards, no views, no checks, random bots written into
    the loop (reroll each die with probability 1/2 until none is chosen, stay or
    yield with 1/2). It measures how fast *this machine* runs plain Python right now,
    so engine figures taken on different days or machines can be compared (virtual
    machines here vary by half from hour to hour). The rules are those of the
    upper-bound sketch the peer engines were compared with: 1 roll and 2 rerolls of 6
    dice, triples score, hearts heal outside Tokyo up to 10, claws hit across Tokyo,
    an empty Tokyo is taken, 2 stars for starting a turn in Tokyo, 20 stars or last
    standing wins. A game lasts 51 turns on average.
    """
    n = 4
    health = [10] * n
    stars = [0] * n
    energy = [0] * n
    alive = [True] * n
    tokyo = -1
    p = int(random() * n)
    turns = 0
    left = n
    while True:
        turns += 1
        if tokyo == p:
            stars[p] += 2
        dice = [int(random() * 6) for _ in range(6)]
        for _ in range(2):
            again = [i for i in range(6) if random() < 0.5]
            if not again:
                break
            for i in again:
                dice[i] = int(random() * 6)
        for face in (0, 1, 2):
            count = dice.count(face)
            if count >= 3:
                stars[p] += face + 1 + count - 3
        energy[p] += dice.count(3)
        hearts = dice.count(4)
        if hearts and tokyo != p:
            health[p] = min(10, health[p] + hearts)
        claws = dice.count(5)
        if claws:
            if tokyo == p:
                for q in range(n):
                    if q != p and alive[q]:
                        health[q] -= claws
                        if health[q] <= 0:
                            alive[q] = False
                            left -= 1
            elif tokyo < 0:
                tokyo = p
                stars[p] += 1
            else:
                q = tokyo
                health[q] -= claws
                if health[q] <= 0:
                    alive[q] = False
                    left -= 1
                    tokyo = p
                    stars[p] += 1
                elif random() < 0.5:
                    tokyo = p
                    stars[p] += 1
        if left <= 1 or stars[p] >= 20:
            return turns
        p = (p + 1) % n
        while not alive[p]:
            p = (p + 1) % n


def reference_rate(seconds: float = 1.0, seed: int = 0) -> float:
    """Games/s of :func:`reference_game` on this core, timed for about ``seconds``."""
    import random as random_module

    random = random_module.Random(seed).random
    for _ in range(100):
        reference_game(random)
    games = 0
    start = time.perf_counter()
    while True:
        for _ in range(200):
            reference_game(random)
        games += 200
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games / elapsed


def bench_engine(
    player_counts: Iterable[int] = (2, 4, 6),
    games: int = 1000,
    *,
    decks: Iterable[bool] = (False, True),
    record: bool = False,
    seed: int = 0,
    warmup: int = 20,
    game: str = "kot",
) -> list[BenchResult]:
    """One :func:`time_games` run per player count and deck setting."""
    decks = tuple(decks)
    return [
        time_games(players, games, deck=deck, record=record, seed=seed, warmup=warmup, game=game)
        for players in player_counts
        for deck in decks
    ]


# ---------------------------------------------------------------- Duel against classic


#: The games :func:`duel_against_classic` compares: classic King of Tokyo at two players
#: with its deck, and Duel with its own.
CLASSIC, DUEL = "kot", "duel"


@dataclass(frozen=True)
class CpuRate:
    """One timed run of one game: how much work in how much CPU time (this process)."""

    game: str
    games: int
    work: int  #: turns (random bots) or playouts (the search bot)
    cpu: float

    @property
    def per_cpu_s(self) -> float:
        return self.work / self.cpu if self.cpu else float("inf")


@dataclass(frozen=True)
class DuelRound:
    """One round of :func:`duel_against_classic`: each measure of each game, taken in turn."""

    turns: tuple[CpuRate, CpuRate]            #: classic, Duel
    playouts: tuple[CpuRate, CpuRate] | None  #: classic, Duel (None: no search bot measured)

    @property
    def turns_ratio(self) -> float:
        """Duel's turns per CPU-second over classic's."""
        return self.turns[1].per_cpu_s / self.turns[0].per_cpu_s

    @property
    def playouts_ratio(self) -> float | None:
        """Duel's search playouts per CPU-second over classic's."""
        if self.playouts is None:
            return None
        return self.playouts[1].per_cpu_s / self.playouts[0].per_cpu_s


def cpu_turns(game: str, games: int, *, seed: int = 0) -> CpuRate:
    """Random bots play ``games`` two-player games of ``game`` with its deck; the turns
    and the CPU time this process spent on them (views and bots included)."""
    start = time.process_time()
    turns, _ = play_games(2, games, deck=True, seed=seed, game=game)
    return CpuRate(game, games, turns, time.process_time() - start)


def cpu_playouts(game: str, games: int, search_bot: type, *, playouts: int, seed: int = 0) -> CpuRate:
    """The search bot (seat 1, ``playouts`` per decision) plays ``games`` two-player
    games of ``game`` with its deck against a random bot; the playouts it made and the
    CPU time of its decisions alone. ``search_bot`` is the mcts example bot's class (it
    reports each search in ``last_search``)."""
    used = 0
    cpu = 0.0
    for index in range(games):
        game_seed = seed + index
        state = new_game(game, players=2, seed=game_seed, deck="default")
        bots = [search_bot(seed=bot_seed(game_seed, 0), playouts=playouts), RandomBot(seed=bot_seed(game_seed, 1))]
        while state.outcome is None:
            seat = state.to_move
            if seat < 0:
                state.next_turn()
                continue
            view = state.view(seat)
            if seat:
                state.apply(bots[1].choose(view))
                continue
            start = time.process_time()
            action = bots[0].choose(view)
            cpu += time.process_time() - start
            if bots[0].last_search is not None:
                used += bots[0].last_search.playouts
            state.apply(action)
    return CpuRate(game, games, used, cpu)


def duel_against_classic(rounds: int, games: int, *, search_bot: type | None = None, search_games: int = 2,
                         playouts: int = 200, seed: int = 0, warmup: int = 10) -> list[DuelRound]:
    """Duel's engine against classic two-player King of Tokyo (both with cards), side by
    side: each round times classic, then Duel, with random bots (turns per CPU-second),
    then, with ``search_bot``, the search bot in each (playouts per CPU-second). The
    games of a run are the same every round, so the rounds differ only by the machine's
    speed at the time, which the ratios of one round leave out.

    Classic plays twice as many games as Duel (a classic two-player game has about half
    the turns), so each game is timed for about as long.
    """
    if rounds < 1 or games < 1:
        raise ValueError("time at least one round of one game")
    for game in (CLASSIC, DUEL):
        play_games(2, warmup, deck=True, seed=seed + 10**6, game=game)
    found = []
    for _ in range(rounds):
        turns = (cpu_turns(CLASSIC, 2 * games, seed=seed), cpu_turns(DUEL, games, seed=seed))
        searched = None
        if search_bot is not None:
            searched = (cpu_playouts(CLASSIC, search_games, search_bot, playouts=playouts, seed=seed),
                        cpu_playouts(DUEL, search_games, search_bot, playouts=playouts, seed=seed))
        found.append(DuelRound(turns, searched))
    return found
