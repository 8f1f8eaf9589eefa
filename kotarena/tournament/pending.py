"""A night's finished matches that are not stored yet, and which of them to store now.

Ratings go in schedule order, so a match that finishes before an earlier one cannot be
rated when it is stored: it is stored to wait, and rated, its seats rewritten with
their ratings, when the matches before it are in. That second pass is not rare: the
workers' chunks of consecutive matches finish in any order, and in 36 nights of 2,000
games on two workers, 0 to 529 matches a night (median 78) went through it. Holding
them back instead cut the coordinator's CPU by 7.6% (see "Results held back" in
docs/throughput-log.md).

So a result that arrives ahead of an earlier match is held back, unstored, until the
matches before it are in, and is then stored and rated in one go; but never longer
than :data:`HOLD_SECONDS`, after which it is stored to wait as before. A night killed
meanwhile loses the held results with the rest of its unstored batch: a resume plays
them again, as it plays every match it finds unstored.
"""

from __future__ import annotations

from collections.abc import Iterable

from kotarena.tournament.matches import MatchResult

__all__ = ["HOLD_SECONDS", "Pending"]

#: How long a result may be held back for an earlier match (seconds). A worker's chunk
#: of matches takes about ``runner.CHUNK_SECONDS`` of play, so chunks that finish out
#: of order are usually a fraction of a second apart.
HOLD_SECONDS = 2.0


class Pending:
    """Finished matches not stored yet, by index, with the time each arrived.

    ``reach`` is the first index from which on the night is not known to be complete:
    every match below it is rated, stored or here, so the results here below it can be
    stored and rated at once.
    """

    def __init__(self, rated_upto: int, stored: Iterable[int] = ()) -> None:
        """``rated_upto``: every match below it is rated; ``stored``: indexes of other
        matches known to be stored (waiting for their rating)."""
        self.results: dict[int, MatchResult] = {}
        self._arrived: dict[int, float] = {}
        self._stored = {index for index in stored if index >= rated_upto}
        self.reach = rated_upto
        self.ready = 0  #: how many of the results here are below ``reach``
        self._advance()

    def __len__(self) -> int:
        return len(self.results)

    def add(self, result: MatchResult, now: float) -> None:
        """A finished match, arrived at ``now`` (a ``time.monotonic()`` reading)."""
        self.results[result.index] = result
        self._arrived[result.index] = now
        if result.index < self.reach:  # (stored meanwhile by another process, as far as we know)
            self.ready += 1
        self._advance()

    def due(self, now: float) -> bool:
        """Whether anything here should be stored at ``now``: a result below ``reach``,
        or one held for ``HOLD_SECONDS``."""
        return self.ready > 0 or (bool(self._arrived) and next(iter(self._arrived.values())) <= now - HOLD_SECONDS)

    def take(self, now: float, everything: bool = False) -> list[MatchResult]:
        """Remove and return the results to store at ``now``: those below ``reach`` and
        those held for ``HOLD_SECONDS`` (or all of them), in schedule order."""
        cutoff = now - HOLD_SECONDS
        taken = sorted(index for index, arrived in self._arrived.items()
                       if everything or index < self.reach or arrived <= cutoff)
        results = []
        for index in taken:
            results.append(self.results.pop(index))
            del self._arrived[index]
            if index >= self.reach:
                self._stored.add(index)
        self.ready = 0
        return results

    def rated(self, upto: int) -> None:
        """The database says every match below ``upto`` is rated (another process may
        have stored some of them)."""
        if upto > self.reach:
            self.ready += sum(1 for index in self.results if self.reach <= index < upto)
            self.reach = upto
        self._stored = {index for index in self._stored if index >= self.reach}
        self._advance()

    def _advance(self) -> None:
        while True:
            if self.reach in self.results:
                self.ready += 1
            elif self.reach not in self._stored:
                return
            self.reach += 1
