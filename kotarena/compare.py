"""Is bot B better than bot A? Duplicate deals, played until a sequential test decides.

A *deal* is one game seed. The engine's dice and deck depend only on the seed, never
on the seats or the decisions, so one deal played twice with the bots moved gives
both bots the same luck, and the difference between the two games is the bots'
doing. Each deal is played as a *pair* of games and scored from B's side:

* **two players**: B against A from both seats (B in seat 1, then A in seat 1). The
  pair scores B's two results, averaged: 1 a win, 1/2 a tie, 0 a loss, so a pair
  scores 0, 1/4, 1/2, 3/4 or 1 (the pentanomial model);
* **three or more**: B, then A, in the same seat of the deal against the same field
  (every other seat a ``field`` bot, seeded the same in both games). The pair scores 1
  if B finished in a better place than A did, 1/2 the same place, 0 a worse one (the
  trinomial model). The seat moves round the table deal by deal (deal ``i`` uses seat
  ``i mod players``), so every seat is tested equally often.

Deal ``i`` has the seed ``seed + i``, and the bot in seat ``s`` the seed
``bot_seed(seed + i, s)``, as in ``kotarena match``. After every pair the test of
:mod:`kotarena.sprt` is asked; the run stops when it accepts H0 or H1, or when the cap
on games is reached. Deals may be played on worker processes, but their results are
taken in deal order, so a seed gives the same run with or without workers.

>>> from kotarena.compare import Comparison, run
>>> for standing in run(Comparison(a="random", b="random", seed=1, max_games=20)):
...     pass
>>> standing.decision, standing.games
('cap', 20)
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass

from kotarena.bots.base import Bot
from kotarena.match import BotMoveError, bot_seed, play
from kotarena.sprt import PENTANOMIAL, SPRT, TRINOMIAL, Estimate, estimate

#: How a run that reached its cap is recorded (beside :data:`kotarena.sprt.H0`, ``H1``).
CAP = "cap"

#: The roles of the bots at a deal's tables, as errors name them.
ROLE_A, ROLE_B, ROLE_FIELD = "A", "B", "field"


class CompareError(ValueError):
    """A comparison that cannot be run, or a bot that failed during one (one line)."""


@dataclass(frozen=True)
class Comparison:
    """What to compare, where, and the test that decides.

    ``a`` is the baseline and ``b`` the challenger (bot names as ``kotarena bots``
    lists them); ``field`` fills the other seats when there are more than two
    ``players``. ``max_games`` caps the games played (whole pairs: an odd cap loses its
    last game). ``workers`` above 1 plays deals on that many processes.
    """

    a: str
    b: str
    game: str = "kot"
    players: int = 2
    field: str = "random"
    deck: str | None = "default"  #: a deck of the game's (or a mix), "default", or None for no cards
    seed: int = 0
    max_games: int = 20_000
    sprt: SPRT = SPRT()
    workers: int = 0

    def __post_init__(self) -> None:
        if self.players < 2:
            raise CompareError(f"{self.players} players: a comparison needs at least 2")
        if self.max_games < 2:
            raise CompareError(f"a cap of {self.max_games} games is less than one pair (2 games)")
        if self.workers < 0:
            raise CompareError(f"{self.workers} workers: give 0 or more")
        if self.seed < 0:
            raise CompareError(f"bad seed {self.seed}: a seed is a whole number >= 0")

    @property
    def scores(self) -> tuple[float, ...]:
        """The scores a pair can have: pentanomial for two players, trinomial above."""
        return PENTANOMIAL if self.players == 2 else TRINOMIAL

    @property
    def max_pairs(self) -> int:
        return self.max_games // 2

    def deal(self, index: int) -> Deal:
        """The ``index``-th deal (from 0) of this comparison."""
        return Deal(index, self.seed + index, self.game, self.players, self.deck, self.a, self.b, self.field)

    def check(self) -> None:
        """Raise a one-line ``ValueError`` unless the game has the players and every bot
        is installed, plays the game and needs no person."""
        from kotarena.bots.human import HumanBot
        from kotarena.games import get_game, get_spec
        from kotarena.sandbox.relay import sandbox_refusal
        from kotarena.sandbox.untrusted import find_bot

        spec = get_spec(self.game)
        if self.deck not in (None, "default"):
            get_game(self.game).check_deck(self.deck)
        if not spec.min_players <= self.players <= spec.max_players:
            raise CompareError(f"{self.players} players; {spec.title} is for {spec.players_text}")
        names = [self.b, self.a] + ([self.field] if self.players > 2 else [])
        for name in names:
            info = find_bot(name)
            info.check_plays(self.game)
            if info.cls is not None and issubclass(info.cls, HumanBot):
                raise CompareError(f"the {name} bot needs a person at a terminal; compare bots only")
            refusal = sandbox_refusal(info)
            if refusal:
                raise CompareError(refusal)


@dataclass(frozen=True)
class Deal:
    """One deal: its number, its seed, and who sits where in its two games."""

    index: int
    seed: int
    game: str
    players: int
    deck: str | None
    a: str
    b: str
    field: str

    def tables(self) -> list[tuple[tuple[str, ...], int, int]]:
        """The deal's two games as (bot roles in seat order, B's seat, A's seat).

        With two players both bots sit at both tables; above, B has the tested seat at
        the first table and A at the second (the other one is then ``-1``).
        """
        if self.players == 2:
            return [((ROLE_B, ROLE_A), 0, 1), ((ROLE_A, ROLE_B), 1, 0)]
        seat = self.index % self.players
        first = tuple(ROLE_B if s == seat else ROLE_FIELD for s in range(self.players))
        second = tuple(ROLE_A if s == seat else ROLE_FIELD for s in range(self.players))
        return [(first, seat, -1), (second, -1, seat)]


@dataclass(frozen=True)
class DealResult:
    """What a deal's two games gave: B's and A's places (1 the winner) in the games
    they played, B's pair score, or the one-line error that ended the deal."""

    index: int
    b_places: tuple[int, ...] = ()
    a_places: tuple[int, ...] = ()
    score: float = 0.0
    error: str | None = None


def _versus(mine: int, theirs: int) -> float:
    """1 for a better place (a smaller rank), 1/2 for the same, 0 for a worse one."""
    return 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0


def play_deal(deal: Deal) -> DealResult:
    """Play ``deal``'s two games (in this process) and score them from B's side.

    A bot that raises or answers illegally ends the deal: the result carries the error
    (a string, so it crosses from a worker process as it is).
    """
    from kotarena.games import new_game
    from kotarena.sandbox.relay import deal_slots, seat_bot
    from kotarena.sandbox.untrusted import find_bot

    names = {ROLE_A: deal.a, ROLE_B: deal.b, ROLE_FIELD: deal.field}
    tables = deal.tables()
    infos = {role: find_bot(names[role]) for roles, _, _ in tables for role in roles}
    # A sandboxed bot's k-th seat of the deal (both tables, in seat order) is its slot k:
    # no instance of it meets the deal twice.
    slots = iter(deal_slots([infos[role].qualified for roles, _, _ in tables for role in roles]))
    b_places: list[int] = []
    a_places: list[int] = []
    scores: list[float] = []
    for roles, b_seat, a_seat in tables:
        state = new_game(deal.game, players=deal.players, seed=deal.seed,
                         deck=deal.deck, record=False)
        bots = [_Answerable(seat_bot(infos[role], bot_seed(deal.seed, seat), next(slots)), role, seat)
                for seat, role in enumerate(roles)]
        try:
            play(state, bots)
        except (BotMoveError, _BotRaised) as error:
            # Both name the bot and its seat; the role says which of the compared it is.
            role = getattr(error.bot, "role", "?")
            return DealResult(deal.index, error=f"{error} (role {role}, deal seed {deal.seed})")
        ranks = state.outcome.ranks
        if b_seat >= 0:
            b_places.append(ranks[b_seat] + 1)
        if a_seat >= 0:
            a_places.append(ranks[a_seat] + 1)
        if b_seat >= 0 and a_seat >= 0:
            scores.append(_versus(ranks[b_seat], ranks[a_seat]))
    if not scores:  # more than two players: B's place against A's, across the two games
        scores.append(_versus(b_places[0], a_places[0]))
    return DealResult(deal.index, tuple(b_places), tuple(a_places), sum(scores) / len(scores))


class _BotRaised(RuntimeError):
    """A bot raised an exception: the message names the bot and its seat."""

    def __init__(self, bot: _Answerable, message: str) -> None:
        super().__init__(message)
        self.bot = bot


class _Answerable(Bot):
    """A seat's bot, passed through unchanged, that owns up when it raises.

    :func:`kotarena.match.play` names a bot that answers illegally; one that raises
    would otherwise surface as a bare exception with no bot named.
    """

    def __init__(self, inner: Bot, role: str, seat: int) -> None:
        super().__init__(seed=inner.seed)
        self.inner = inner
        self.role = role
        self.seat = seat
        self.name = inner.name or type(inner).__name__

    def _raised(self, error: Exception) -> _BotRaised:
        return _BotRaised(self, f"bot {self.name!r} at seat {self.seat + 1} raised {type(error).__name__}: {error}")

    def start(self, view):
        try:
            self.inner.start(view)
        except Exception as error:  # noqa: BLE001 - any failure of the bot's own code
            raise self._raised(error) from error

    def choose(self, view):
        try:
            return self.inner.choose(view)
        except Exception as error:  # noqa: BLE001
            raise self._raised(error) from error

    def finish(self, view):
        try:
            self.inner.finish(view)
        except Exception as error:  # noqa: BLE001
            raise self._raised(error) from error


@dataclass(frozen=True)
class Record:
    """One bot's games in a comparison: how many, won, and the sum of its places."""

    games: int = 0
    wins: int = 0
    place_sum: int = 0

    def add(self, places: Sequence[int]) -> Record:
        return Record(self.games + len(places), self.wins + sum(1 for p in places if p == 1),
                      self.place_sum + sum(places))

    @property
    def mean_place(self) -> float:
        return self.place_sum / self.games if self.games else 0.0


@dataclass(frozen=True)
class Standing:
    """Where a comparison stands after ``pairs`` deals.

    ``counts[i]`` pairs scored ``scores[i]`` for B; ``decision`` is ``"H1"`` (B is
    better), ``"H0"`` (B is not better by the test's margin), ``"cap"`` (the cap was
    reached first) or ``None`` while the run goes on.
    """

    comparison: Comparison
    counts: tuple[int, ...]
    llr: float
    decision: str | None
    b: Record
    a: Record

    @property
    def pairs(self) -> int:
        return sum(self.counts)

    @property
    def games(self) -> int:
        return 2 * self.pairs

    @property
    def scores(self) -> tuple[float, ...]:
        return self.comparison.scores

    def estimate(self, confidence: float = 0.95) -> Estimate:
        """B's mean pair score and Elo with their interval (:func:`kotarena.sprt.estimate`)."""
        return estimate(self.counts, self.scores, confidence)


def run(comparison: Comparison) -> Iterator[Standing]:
    """Play ``comparison``'s deals in order, yielding the standing after each one; the
    last standing has a decision. A bot's failure raises :class:`CompareError`.

    The bots are not checked here (see :meth:`Comparison.check`).
    """
    scores = comparison.scores
    sprt = comparison.sprt
    counts = [0] * len(scores)
    b, a = Record(), Record()
    results = _results((comparison.deal(i) for i in range(comparison.max_pairs)), comparison.workers)
    try:
        for result in results:
            if result.error is not None:
                raise CompareError(result.error)
            counts[scores.index(result.score)] += 1
            b, a = b.add(result.b_places), a.add(result.a_places)
            llr = sprt.llr(counts, scores)
            decision = sprt.decide(llr)
            if decision is None and sum(counts) == comparison.max_pairs:
                decision = CAP
            yield Standing(comparison, tuple(counts), llr, decision, b, a)
            if decision is not None:
                return
    finally:
        results.close()


def _results(deals: Iterator[Deal], workers: int) -> Iterator[DealResult]:
    """The deals' results in deal order, played here or on ``workers`` processes.

    With workers, a few deals per worker are kept in flight ahead of the one awaited;
    closing the iterator cancels those not started and waits for the others.
    """
    if workers <= 1:
        for deal in deals:
            yield play_deal(deal)
        return
    pool = ProcessPoolExecutor(max_workers=workers)
    pending: deque[Future[DealResult]] = deque()
    try:
        for deal in deals:
            pending.append(pool.submit(play_deal, deal))
            if len(pending) >= 4 * workers:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
