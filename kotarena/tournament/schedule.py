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

import hashlib
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TypeVar

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


_Seated = TypeVar("_Seated")


def rotate(seats: Sequence[_Seated], shift: int) -> tuple[_Seated, ...]:
    """The seating with everyone moved ``shift`` seats on: seat ``s`` goes to ``s + shift``."""
    n = len(seats)
    return tuple([seats[(p - shift) % n] for p in range(n)])


class _Balance:
    """Running counts the greedy choices keep even, and the seeded tie-breaker.

    Entrants are numbered by their labels' sorted order (so numbers sort as labels do,
    which the seatings' order relies on), and the counts are lists indexed by number.
    """

    __slots__ = ("rng", "draw", "entrants", "seats_played", "met", "owed_firsts", "positions")

    rng: random.Random
    draw: Callable[[], float]
    entrants: int
    seats_played: list[int]
    met: list[list[int]]
    owed_firsts: list[int]
    positions: dict[int, list[int]]

    def __init__(self, seed: int, entrants: int) -> None:
        self.rng = random.Random(derive_seed(seed, "schedule", 0))
        self.draw = self.rng.random
        self.entrants = entrants
        self.seats_played = [0] * entrants
        # met[a][b]: how often a and b sat at one table (an entrant never meets itself).
        self.met = [[0] * entrants for _ in range(entrants)]
        # First seats each entrant is owed, in sixtieths: a seat at a table of k earns
        # 60/k (60 is divisible by every table size), a first seat costs 60. Judging by
        # what is owed rather than by raw counts keeps a gauntlet fair to the challenger,
        # who plays every game and so should start more of them than anyone else.
        self.owed_firsts = [0] * entrants
        # Table size -> games of entrant e in seat s, at [e * size + s].
        self.positions = {}

    def positions_at(self, size: int) -> list[int]:
        sat = self.positions.get(size)
        if sat is None:
            sat = [0] * (self.entrants * size)
            self.positions[size] = sat
        return sat

    def choose_table(self, size: int, pool: list[int], fixed: list[int]) -> list[int]:
        """Entrants for a table of ``size``: ``fixed`` ones plus the best of ``pool``.

        Seat by seat, the candidate with the smallest key (times already at this table,
        seats played, meetings with those seated, minus first seats owed, then a draw)
        wins, the first one among equals. Every candidate draws its tie-breaker, in
        pool order, whether or not it is needed.
        """
        chosen = list(fixed)
        played, owed, met, draw = self.seats_played, self.owed_firsts, self.met, self.draw
        while len(chosen) < size:
            best = -1
            best_count = best_played = best_met = best_owed = 0
            best_draw = 0.0
            for c in pool:
                tie = draw()
                count = 0
                meetings = 0
                met_c = met[c]
                for o in chosen:
                    if o == c:
                        count += 1
                    meetings += met_c[o]
                games = played[c]
                owes = -owed[c]
                if best < 0:
                    better = True
                elif count != best_count:
                    better = count < best_count
                elif games != best_played:
                    better = games < best_played
                elif meetings != best_met:
                    better = meetings < best_met
                elif owes != best_owed:
                    better = owes < best_owed
                else:
                    better = tie < best_draw
                if better:
                    best, best_count, best_played, best_met, best_owed, best_draw = c, count, games, meetings, owes, tie
            chosen.append(best)
        return chosen

    def seat_order(self, chosen: list[int], shifts: list[int]) -> list[int]:
        """The base seating of ``chosen``: the permutation whose rotations by ``shifts``
        give the first seat to those owed most, then repeat seat positions least."""
        size = len(chosen)
        labels = sorted(chosen)
        seatings = _seatings(tuple([labels.index(label) for label in labels]))
        # What putting a label in base seat b costs, summed over the set's rotations:
        # minus the first seats owed (whole ones) for each rotation that makes b the
        # first seat, and the games already played in the seats b rotates to.
        starts = [0] * size  # at base seat b: how many of the set's matches start there
        for shift in shifts:
            starts[-shift % size] += 1
        sat = self.positions_at(size)
        owed = self.owed_firsts
        sums = [0] * (size * size)  # [i * size + b]: label i's positions cost at base seat b
        fold = 1  # above any seating's position score
        for i in range(size):
            at = labels[i] * size
            most = 0
            for b in range(size):
                total = 0
                for shift in shifts:
                    total += sat[at + (b + shift) % size]
                sums[i * size + b] = total
                if total > most:
                    most = total
            fold += most
        # Every seating is scored (first seats, then positions, folded into one number:
        # positions count less than one first seat) and draws its tie-breaker, in
        # sorted order; the cheapest wins, the lowest draw among equals.
        columns = [0] * (size * size)  # [b * size + i]: label i at base seat b
        for i in range(size):
            firsts = -(owed[labels[i]] // 60) * fold
            for b in range(size):
                columns[b * size + i] = firsts * starts[b] + sums[i * size + b]
        indexes = seatings.indexes
        count = len(indexes)
        draw = self.draw
        if size < _SEARCH_FROM:
            reads = seatings.reads
            winner = 0
            lowest = 0
            lowest_draw = 0.0
            k = 0
            for place in range(count):
                tie = draw()
                cost = 0
                for _ in range(size):
                    cost += columns[reads[k]]
                    k += 1
                if place == 0 or cost < lowest or (cost == lowest and tie < lowest_draw):
                    winner, lowest, lowest_draw = place, cost, tie
        else:
            winner = _cheapest(columns, seatings, draw)
        return [labels[i] for i in indexes[winner]]

    def record(self, seating: Sequence[int]) -> None:
        size = len(seating)
        played, owed, met = self.seats_played, self.owed_firsts, self.met
        sat = self.positions_at(size)
        owed[seating[0]] -= 60
        share = 60 // size
        for seat in range(size):
            label = seating[seat]
            played[label] += 1
            owed[label] += share
            sat[label * size + seat] += 1
            met_label = met[label]
            for other in seating:
                if other != label:
                    met_label[other] += 1


#: Tables of this size and more find their seating without scoring every permutation.
_SEARCH_FROM = 6


class _Seatings:
    """Every distinct seating of a table whose sorted labels repeat as ``pattern`` does
    (each label written as its first position among them: (0, 1, 2, 3) for four
    different labels, (0, 0, 2) for a label seated twice and another one).

    ``indexes``: each seating as positions among the sorted labels, in sorted order
    (which is the sorted order of the seatings of the labels themselves). Laid out
    flat, for seating p's seat b at ``p * size + b``: ``reads``, where the seating's
    cost is read in a table of costs laid out seat by seat (``b * size + position``);
    ``seated``, the labels seated up to seat b as a bit set of positions (a repeated
    label's copies take its positions one by one). ``copies``: how often each
    position's label is in the pattern (0 past its first position).
    """

    __slots__ = ("size", "indexes", "reads", "seated", "copies")

    size: int
    indexes: list[tuple[int, ...]]
    reads: list[int]
    seated: list[int]
    copies: list[int]

    def __init__(self, pattern: tuple[int, ...]) -> None:
        size = len(pattern)
        self.size = size
        self.indexes = _distinct_orders(list(pattern))
        self.reads = [b * size + index[b] for index in self.indexes for b in range(size)]
        self.copies = [pattern.count(position) for position in range(size)]
        self.seated = []
        for index in self.indexes:
            taken = [0] * size
            seated = 0
            for position in index:
                seated |= 1 << position + taken[position]
                taken[position] += 1
                self.seated.append(seated)


_SEATINGS: dict[tuple[int, ...], _Seatings] = {}


def _seatings(pattern: tuple[int, ...]) -> _Seatings:
    seatings = _SEATINGS.get(pattern)
    if seatings is None:
        seatings = _SEATINGS[pattern] = _Seatings(pattern)
    return seatings


def _distinct_orders(items: list[int]) -> list[tuple[int, ...]]:
    """Every distinct permutation of the sorted ``items``, in sorted order (what
    ``sorted(set(itertools.permutations(items)))`` gives, without the duplicates)."""
    if len(items) <= 1:
        return [tuple(items)]
    orders: list[tuple[int, ...]] = []
    for i in range(len(items)):
        if i == 0 or items[i] != items[i - 1]:
            head = items[i]
            for rest in _distinct_orders(items[:i] + items[i + 1:]):
                orders.append((head, *rest))
    return orders


#: Up to this many seatings tying for the lowest cost are walked one by one; with
#: more, the seatings whose draws are the lowest so far are checked.
_MOST_TIED = 24


def _cheapest(columns: list[int], seatings: _Seatings, draw: Callable[[], float]) -> int:
    """The place of the cheapest of ``seatings`` with the lowest draw (then the first
    such), as ``min(zip(costs, draws, places))`` would find it; ``columns`` holds the
    cost of position i at seat b at ``b * size + i``, and every seating draws its
    tie-breaker from ``draw``, in order.

    At six seats, scoring all 720 seatings was most of a match's schedule. A dynamic
    program over which labels are already seated finds the lowest cost and how many
    seatings reach it. When those are few, they are walked (in order, so each one's
    place is known) and only their draws compared; when they are many, a seating is
    checked only if its draw is the lowest so far, which after the first few cheapest
    ones is seldom, and the check stops at the first seat that leaves the cheapest
    seatings.
    """
    size = seatings.size
    full = (1 << size) - 1
    # rest[seated]: the cheapest way to fill the seats left with the labels not seated;
    # ways[seated]: how many ways reach it.
    rest = [0] * (full + 1)
    ways = [0] * full + [1]
    filled = [0] * (full + 1)  # how many labels are seated: the seat to fill next
    for seated in range(1, full + 1):
        filled[seated] = filled[seated >> 1] + (seated & 1)
    for seated in range(full - 1, -1, -1):
        at = filled[seated] * size
        best = 0
        count = 0  # every seated set can be completed, in at least one way
        for label in range(size):
            if not seated >> label & 1:
                after = seated | 1 << label
                cost = columns[at + label] + rest[after]
                if count == 0 or cost < best:
                    best = cost
                    count = ways[after]
                elif cost == best:
                    count += ways[after]
        rest[seated] = best
        ways[seated] = count
    lowest = rest[0]
    places = len(seatings.indexes)
    winner = -1
    winner_draw = 2.0  # above every draw
    if ways[0] <= _MOST_TIED:
        walk = _Walk(columns, seatings, rest)
        walk.walk(0, 0, 0, 0, places, size)
        found = walk.found
        found.append(places)  # past the last place
        next_found = 0
        cheapest = found[0]
        for place in range(places):
            tie = draw()
            if place == cheapest:
                if tie < winner_draw:
                    winner = place
                    winner_draw = tie
                next_found += 1
                cheapest = found[next_found]
        return winner
    reads, seated_by = seatings.reads, seatings.seated
    for place in range(places):
        tie = draw()
        if tie < winner_draw:
            spent = 0
            at = place * size
            for k in range(at, at + size):
                spent += columns[reads[k]]
                if spent + rest[seated_by[k]] != lowest:
                    break
            else:
                winner = place
                winner_draw = tie
    return winner


class _Walk:
    """The places of the cheapest seatings, found in order by walking the seatings'
    sorted order seat by seat: the seatings that share their first seats are
    consecutive, so a seat that leaves the cheapest ones skips all of them at once."""

    __slots__ = ("columns", "size", "rest", "lowest", "left", "found")

    columns: list[int]
    size: int
    rest: list[int]
    lowest: int
    left: list[int]
    found: list[int]

    def __init__(self, columns: list[int], seatings: _Seatings, rest: list[int]) -> None:
        self.columns = columns
        self.size = seatings.size
        self.rest = rest
        self.lowest = rest[0]
        self.left = list(seatings.copies)  # copies of each position's label not seated yet
        self.found = []

    def walk(self, seat: int, seated: int, spent: int, place: int, seatings: int, unseated: int) -> None:
        """Walk the ``seatings`` from ``place`` on, which seat the labels in ``seated``
        (a bit set of positions) in the seats before ``seat`` at a cost of ``spent``;
        ``unseated`` labels are left."""
        size = self.size
        if seat == size:
            self.found.append(place)
            return
        left = self.left
        at = seat * size
        for position in range(size):
            copies = left[position]
            if copies:
                # The seatings that put this label here: its share of those left.
                share = seatings * copies // unseated
                cost = spent + self.columns[at + position]
                after = seated | 1 << position + copies - 1
                if cost + self.rest[after] == self.lowest:
                    left[position] = copies - 1
                    self.walk(seat + 1, after, cost, place, share, unseated - 1)
                    left[position] = copies
                place += share


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
    if ladder.seed is None:
        raise ValueError(f"ladder {ladder.name!r} names no seed: its nights draw secret ones; schedule a night "
                         "with its seed: build_schedule(dataclasses.replace(ladder, seed=SEED), labels)")
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
    names = sorted(labels)
    number = {label: n for n, label in enumerate(names)}
    return _matches(ladder, names, [number[label] for label in pool], [number[label] for label in fixed])


def _matches(ladder: Ladder, names: list[str], pool: list[int], fixed: list[int]) -> Iterator[MatchSpec]:
    balance = _Balance(ladder.seed, len(names))
    games = ladder.games
    sizes = list(ladder.players)
    index = 0
    table_number = 0
    while index < games:
        size = sizes[table_number % len(sizes)]
        set_size = ladder.set_size(size)
        duplicate = set_size > 1
        shifts = rotation_offsets(size, set_size) if duplicate else [0]
        chosen = balance.choose_table(size, pool, fixed)
        base = balance.seat_order(chosen, shifts)
        seed = derive_seed(ladder.seed, "set" if duplicate else "match", table_number if duplicate else index)
        for shift in shifts:
            if index == games:
                break  # only a hand-made ladder gets here; load_ladder insists on whole sets
            seating = rotate(base, shift)
            balance.record(seating)
            yield MatchSpec(
                index=index, seats=tuple([names[label] for label in seating]), seed=seed, players=size,
                set_id=table_number if duplicate else None, key=f"{index:05d}-{seed}", first_player=0,
            )
            index += 1
        table_number += 1
