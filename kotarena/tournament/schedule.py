"""The matches of a league night: who sits where, with which seed, in which order.

:func:`build_schedule` turns a :class:`~kotarena.tournament.ladder.Ladder` into a list
of :class:`MatchSpec` values. The list depends only on the ladder (its seed included)
and the entrant labels, so a resumed night rebuilds exactly the schedule it started
with and plays the matches that are missing.

How tables are filled (free-for-all): seat by seat, the next seat goes to the entrant
that is not yet at this table, then has played the fewest seats so far, then has met
the entrants already seated least often; remaining ties are broken by the seeded
generator. So every entrant plays the same number of games give or take one, and
pairs meet about equally often. The seating order of a table is then chosen among all
its permutations: the first seat goes to the entrant owed most first seats (an entrant
is owed 1/k of a first seat per game at a table of k), then each entrant goes where it
has sat least often at tables of this size. Every match starts with seat 0
(``first_player = 0``), so balancing seat positions balances the order of play
exactly; the engine's roll-off would only add noise.

A gauntlet seats the challenger at every table and fills the other seats the same
way from the rest. With duplicate sets, a set of ``k`` matches shares one dice seed
and seats the same entrants, rotated by one seat per match: the engine's dice depend
only on the seed, the turn and the roll, so each seat's luck is played once by each
entrant (see ``docs/ladders.md``).
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import random
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from operator import getitem

from kotarena.tournament.ladder import GAUNTLET, Ladder


@dataclass(frozen=True)
class MatchSpec:
    """One scheduled match.

    ``seats`` holds entrant labels in seat order; ``seed`` is the game's seed;
    ``set_id`` numbers the duplicate set the match belongs to (``None`` without
    duplicate); ``key`` is unique within a night and stable across runs;
    ``first_player`` is the seat that starts (``None`` would mean a roll-off).
    """

    index: int
    seats: tuple[str, ...]
    seed: int
    players: int
    set_id: int | None
    key: str
    first_player: int | None = 0


def derive_seed(seed: int, purpose: str, number: int) -> int:
    """A 63-bit seed for match or set ``number`` of a night seeded with ``seed``.

    Hash-derived rather than drawn from a generator, so match 57's seed does not
    depend on how many seeds were drawn before it.
    """
    digest = hashlib.blake2b(f"kotarena/{purpose}/{seed}/{number}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def rotation_offsets(players: int, set_size: int) -> list[int]:
    """Seat shifts of the matches of a duplicate set: 0, 1, ..., players-1 for a full set,
    evenly spread shifts (0 and 2 for two matches at four seats) for a smaller one."""
    return [round(j * players / set_size) for j in range(set_size)]


def rotate(seats: Sequence[str], shift: int) -> tuple[str, ...]:
    """The seating with everyone moved ``shift`` seats on: seat ``s`` goes to ``s + shift``."""
    n = len(seats)
    return tuple(seats[(p - shift) % n] for p in range(n))


class _Balance:
    """Running counts the greedy choices keep even, and the seeded tie-breaker."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(derive_seed(seed, "schedule", 0))
        # Counts are plain dicts read with get(): a Counter's missing key costs a call of
        # its Python __missing__, and these are read for every candidate of every seat.
        self.seats_played: dict[str, int] = {}
        self.met: dict[str, dict[str, int]] = defaultdict(dict)
        # First seats each entrant is owed, in sixtieths: a seat at a table of k earns
        # 60/k (60 is divisible by every table size), a first seat costs 60. Judging by
        # what is owed rather than by raw counts keeps a gauntlet fair to the challenger,
        # who plays every game and so should start more of them than anyone else.
        self.owed_firsts: dict[str, int] = {}
        self.positions: dict[tuple[int, str, int], int] = {}  # (table size, label, seat) -> games

    def choose_table(self, size: int, pool: Sequence[str], fixed: Sequence[str] = ()) -> list[str]:
        """Entrants for a table of ``size``: ``fixed`` ones plus the best of ``pool``."""
        chosen = list(fixed)
        played, owed, random = self.seats_played.get, self.owed_firsts.get, self.rng.random
        met = self.met
        while len(chosen) < size:
            # min() over the pool by this key, written out: every candidate draws its
            # tie-breaker in pool order, and the first smallest key wins.
            best = best_key = None
            for c in pool:
                met_c = met[c].get
                key = (chosen.count(c), played(c, 0), sum([met_c(o, 0) for o in chosen]), -owed(c, 0), random())
                if best_key is None or key < best_key:
                    best, best_key = c, key
            chosen.append(best)
        return chosen

    def seat_order(self, chosen: Sequence[str], shifts: Sequence[int]) -> tuple[str, ...]:
        """The base seating of ``chosen``: the permutation whose rotations by ``shifts``
        give the first seat to those owed most, then repeat seat positions least."""
        size = len(chosen)
        seats = range(size)
        # What putting a label in base seat b costs, summed over the set's rotations.
        if len(shifts) == 1 and shifts[0] == 0:  # a single match: the same sums, written out
            owed, sat = self.owed_firsts.get, self.positions.get
            firsts = {label: [-(owed(label, 0) // 60)] + [0] * (size - 1) for label in chosen}
            positions = {label: [sat((size, label, b), 0) for b in seats] for label in chosen}
        else:
            firsts = {
                label: [-sum(self.owed_firsts.get(label, 0) // 60 for shift in shifts if (b + shift) % size == 0)
                        for b in seats]
                for label in chosen
            }
            positions = {
                label: [sum(self.positions.get((size, label, (b + shift) % size), 0) for shift in shifts)
                        for b in seats]
                for label in chosen
            }
        # Every seating is scored (first seats, then positions) and draws its tie-breaker,
        # in sorted order; the cheapest wins, the lowest draw among equals. The two scores
        # are folded into one number (positions count less than one first seat).
        labels = tuple(sorted(chosen))
        orders, indexes, places = _orders(labels)
        fold = 1 + sum(max(positions[label]) for label in labels)  # above any seating's position score
        columns = [[firsts[label][b] * fold + positions[label][b] for label in labels] for b in seats]
        random = self.rng.random
        draws = [random() for _ in orders]
        if size < _SEARCH_FROM:
            costs = [sum(map(getitem, columns, index)) for index in indexes]
            return orders[min(zip(costs, draws, range(len(orders))))[2]]
        return orders[_cheapest_by_draw(columns, indexes, places, draws)]

    def record(self, seating: Sequence[str]) -> None:
        size = len(seating)
        played, owed, positions, met = self.seats_played, self.owed_firsts, self.positions, self.met
        owed[seating[0]] = owed.get(seating[0], 0) - 60
        share = 60 // size
        for seat, label in enumerate(seating):
            played[label] = played.get(label, 0) + 1
            owed[label] = owed.get(label, 0) + share
            positions[size, label, seat] = positions.get((size, label, seat), 0) + 1
            met_label = met[label]
            for other in seating:
                if other != label:
                    met_label[other] = met_label.get(other, 0) + 1


#: Tables of this size and more find their seating without scoring every permutation.
_SEARCH_FROM = 6
#: Up to this many seatings tying for the lowest cost are walked one by one; more are
#: found by their draws.
_MOST_TIED = 48


def _cheapest_by_draw(columns: list[list[int]], indexes: Sequence[tuple[int, ...]],
                      places: dict[tuple[int, ...], int], draws: list[float]) -> int:
    """The place in ``indexes`` of the cheapest seating with the lowest draw (then the
    first such), as ``min(zip(costs, draws, places))`` would find it (``places`` gives
    each of ``indexes`` its place).

    At six seats, scoring all 720 seatings was most of a match's schedule. A dynamic
    program over which labels are already seated finds the lowest cost and how many
    seatings reach it; when those are few, only they are walked and their draws
    compared, and when they are many, the seatings with the lowest draws are scored.
    """
    n = len(columns)
    full = (1 << n) - 1
    # rest[seated]: the cheapest way to fill the seats left with the labels not seated;
    # ways[seated]: how many ways reach it.
    rest = [0] * (full + 1)
    ways = [0] * full + [1]
    for seated in range(full - 1, -1, -1):
        column = columns[seated.bit_count()]
        best = count = None
        for label in range(n):
            if not seated >> label & 1:
                after = seated | 1 << label
                cost = column[label] + rest[after]
                if best is None or cost < best:
                    best, count = cost, ways[after]
                elif cost == best:
                    count += ways[after]
        rest[seated], ways[seated] = best, count
    lowest = rest[0]
    if ways[0] > _MOST_TIED:
        # Many ties: score the seatings in bands of rising draws, lowest first. The first
        # band holding one of the cheapest holds the answer (with 48 ties, the first
        # band of a sixteenth holds one 19 times in 20).
        low, high = 0.0, 1 / 16
        while True:
            band = [place for place, draw in enumerate(draws) if low <= draw < high]
            winner = min([(draws[place], place) for place in band
                          if sum(map(getitem, columns, indexes[place])) == lowest], default=None)
            if winner is not None:
                return winner[1]
            low, high = high, high * 4  # the third band reaches past 1: every seating
    found: list[tuple[int, ...]] = []
    _walk(columns, rest, 0, [], full, found)
    # ``indexes`` writes a repeated label by its first position, which its first
    # seating (the sorted labels themselves) gives for every position.
    first = indexes[0]
    chosen = {places[tuple([first[label] for label in seating])] for seating in found}
    return min((draws[place], place) for place in chosen)[1]


def _walk(columns: list[list[int]], rest: list[int], seated: int, seating: list[int], full: int,
          found: list[tuple[int, ...]]) -> None:
    """Collect every cheapest seating that starts with ``seating`` (labels by position)."""
    if seated == full:
        found.append(tuple(seating))
        return
    column = columns[len(seating)]
    for label in range(len(columns)):
        if not seated >> label & 1 and column[label] + rest[seated | 1 << label] == rest[seated]:
            seating.append(label)
            _walk(columns, rest, seated | 1 << label, seating, full, found)
            seating.pop()


@functools.cache
def _orders(chosen: tuple[str, ...]) -> tuple[tuple[tuple[str, ...], ...], tuple[tuple[int, ...], ...],
                                              dict[tuple[int, ...], int]]:
    """Every distinct seating of ``chosen`` (sorted), in sorted order; each seating as
    the positions in ``chosen`` of its labels (the first position for a repeated one);
    and each such tuple's place in that order."""
    orders = tuple(sorted(set(itertools.permutations(chosen))))
    indexes = tuple(tuple(chosen.index(label) for label in order) for order in orders)
    return orders, indexes, {index: place for place, index in enumerate(indexes)}


def build_schedule(ladder: Ladder, entrant_labels: Sequence[str]) -> list[MatchSpec]:
    """Every match of a night of ``ladder`` between ``entrant_labels``, in play order.

    Deterministic: the same ladder (seed included) and labels give the same list.
    """
    return list(iter_schedule(ladder, entrant_labels))


def iter_schedule(ladder: Ladder, entrant_labels: Sequence[str]) -> Iterator[MatchSpec]:
    """The matches of :func:`build_schedule`, one at a time as they are worked out, so a
    night can start playing the first ones while the rest are scheduled.

    The arguments are checked before the first match is given.
    """
    labels = list(entrant_labels)
    if not labels:
        raise ValueError("a schedule needs at least one entrant")
    if len(set(labels)) != len(labels):
        raise ValueError(f"entrant labels must be unique: {labels}")
    fixed: list[str] = []
    pool = labels
    if ladder.format == GAUNTLET:
        if ladder.challenger not in labels:
            raise ValueError(f"the challenger {ladder.challenger!r} is not an entrant")
        fixed = [ladder.challenger]
        pool = [label for label in labels if label != ladder.challenger]
        if not pool:
            raise ValueError("a gauntlet needs entrants besides the challenger")
    return _matches(ladder, pool, fixed)


def _matches(ladder: Ladder, pool: list[str], fixed: list[str]) -> Iterator[MatchSpec]:
    balance = _Balance(ladder.seed)
    index = 0
    table_number = 0
    while index < ladder.games:
        size = ladder.players[table_number % len(ladder.players)]
        set_size = ladder.set_size(size)
        duplicate = set_size > 1
        shifts = rotation_offsets(size, set_size) if duplicate else [0]
        chosen = balance.choose_table(size, pool, fixed)
        base = balance.seat_order(chosen, shifts)
        seed = derive_seed(ladder.seed, "set" if duplicate else "match", table_number if duplicate else index)
        for shift in shifts:
            if index == ladder.games:
                break  # only a hand-made ladder gets here; load_ladder insists on whole sets
            seating = rotate(base, shift)
            balance.record(seating)
            yield MatchSpec(
                index=index, seats=seating, seed=seed, players=size,
                set_id=table_number if duplicate else None, key=f"{index:05d}-{seed}", first_player=0,
            )
            index += 1
        table_number += 1
