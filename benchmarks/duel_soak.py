#!/usr/bin/env python
"""Soak Duel: many random games, every invariant checked after every action.

    python benchmarks/duel_soak.py --games 50000 --require-all   # the issue's soak, both cores
    python benchmarks/duel_soak.py --games 2000 --workers 1 --seed 7

Games cycle through four tables: monsters drawn from the seed (``duel``) or chosen by
the seats through the ``monster`` decision (``duel:monsters=choice``), each with the
Duel deck and without cards; every other round of four, the table pauses between turns
(as a search bot's rollouts do) and is checked there too. Random legal actions, from
``kotarena.testing.random_game`` with the game's invariants
(``kotarena/games/duel/invariants.py``) checked on the new table and after every action.

It reports the failures (each with the seed, table and actions that reproduce it), and
what the games covered: every monster in each seat, every card bought, every decision
kind asked. ``--require-all`` makes anything not covered a failure too. Exit status 1
on any failure. (``benchmarks/soak.py --game duel`` is the plain soak, without the
monster choice or the coverage.)
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

#: The tables, in turn: (game, deck).
TABLES = (("duel", "default"), ("duel:monsters=choice", "default"), ("duel", None), ("duel:monsters=choice", None))


@dataclass
class Soaked:
    """What some games of the soak did."""

    games: int = 0
    actions: int = 0
    longest: int = 0
    failures: list[str] = field(default_factory=list)
    seated: Counter = field(default_factory=Counter)  #: (seat, monster id) -> games
    bought: Counter = field(default_factory=Counter)  #: card id -> times bought
    kinds: Counter = field(default_factory=Counter)   #: decision kind -> times asked
    endings: Counter = field(default_factory=Counter)  #: how games ended

    def add(self, other: Soaked) -> None:
        self.games += other.games
        self.actions += other.actions
        self.longest = max(self.longest, other.longest)
        self.failures += other.failures
        for mine, theirs in ((self.seated, other.seated), (self.bought, other.bought), (self.kinds, other.kinds),
                             (self.endings, other.endings)):
            mine.update(theirs)


def table(index: int) -> tuple[str, str | None, bool]:
    """Game ``index``'s game, deck and whether it pauses between turns."""
    game, deck = TABLES[index % len(TABLES)]
    return game, deck, (index // len(TABLES)) % 2 == 1


#: Actions after which a game counts as never ending. Random play can make a Duel game
#: long (The King's blocking tokens stall the rival's pulls: seed 49886 without cards,
#: paused between turns, ends after 2,146 actions, past the classic soak's 2,000).
STEP_CAP = 20000


def soak(job: tuple[int, int] | tuple[int, int, int]) -> Soaked:
    """Play games ``start`` to ``start + count - 1`` (seed = index); what they did."""
    from kotarena.testing import InvariantError, random_game

    start, count, step_cap = job if len(job) == 3 else (*job, STEP_CAP)
    found = Soaked()
    for index in range(start, start + count):
        game, deck, pause = table(index)
        kinds: Counter = Counter()

        def policy(state, rng, kinds=kinds):
            kinds[state.kind] += 1
            legal = state.legal
            return legal[int(rng.random() * len(legal))]

        try:
            state = random_game(index, 2, deck, game=game, record=True, policy=policy, pause_between_turns=pause,
                                step_cap=step_cap)
        except InvariantError as error:
            found.failures.append(f"game {index} ({game}, deck {deck}, pause {pause}): {error}")
            continue
        except Exception as error:  # a crash outside an action (setting up): still a failure to reproduce
            found.failures.append(f"game {index} ({game}, deck {deck}, pause {pause}): "
                                  f"{type(error).__name__}: {error}")
            continue
        found.games += 1
        found.actions += len(state.history)
        found.longest = max(found.longest, len(state.history))
        found.kinds.update(kinds)
        found.endings[state.outcome.termination.value] += 1
        for seat, monster in enumerate(state.monsters):
            found.seated[(seat, monster.id)] += 1
        found.bought.update(event[2] for event in state.log if event[0] == "buy")
    return found


def uncovered(found: Soaked) -> list[str]:
    """What the games did not reach: a monster in a seat, a card, a decision kind."""
    from kotarena.games.duel.cards import CARDS
    from kotarena.games.duel.game import DECISION_KINDS
    from kotarena.games.duel.monsters import MONSTERS

    missing = [f"{monster.id} in seat {seat + 1}" for seat in (0, 1) for monster in MONSTERS
               if not found.seated[(seat, monster.id)]]
    missing += [f"card {card.id} bought" for card in CARDS if not found.bought[card.id]]
    missing += [f"a {kind} decision" for kind in DECISION_KINDS if not found.kinds[kind]]
    return missing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50000, help="games to play (default 50000)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes (default: every core)")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed; game i uses SEED+i (default 0)")
    parser.add_argument("--step-cap", type=int, default=STEP_CAP,
                        help=f"actions after which a game counts as never ending (default {STEP_CAP})")
    parser.add_argument("--require-all", action="store_true",
                        help="fail unless every monster sat in each seat, every card was bought and every "
                             "decision kind was asked")
    options = parser.parse_args(argv)
    if options.games < 1 or options.workers < 1:
        parser.error("--games and --workers must be at least 1")
    chunk = 250
    jobs = [(options.seed + start, min(chunk, options.games - start), options.step_cap)
            for start in range(0, options.games, chunk)]
    started = time.perf_counter()
    total = Soaked()
    with ProcessPoolExecutor(max_workers=options.workers) as pool:
        for found in pool.map(soak, jobs):
            total.add(found)
            print(f"\r{total.games + len(total.failures)}/{options.games} games", end="", file=sys.stderr)
    seconds = time.perf_counter() - started
    print(file=sys.stderr)
    missing = uncovered(total)
    print(f"{options.games} games of Duel from seed {options.seed} (monsters drawn and chosen, with and without "
          f"cards, half of them paused between turns), {total.actions} actions, every invariant checked after "
          f"each: {len(total.failures)} failures. Longest game {total.longest} actions; {seconds:.0f} s on "
          f"{options.workers} workers, step cap {options.step_cap}.")
    seats = [min(total.seated[(seat, m)] for (s, m) in total.seated if s == seat) if total.seated else 0
             for seat in (0, 1)]
    least = min(total.bought.items(), key=lambda item: (item[1], item[0])) if total.bought else ("-", 0)
    print(f"covered: {len({m for _, m in total.seated})} monsters (each seat's least seated: {seats[0]} and "
          f"{seats[1]} games), {len(total.bought)} cards bought (least: {least[0]}, {least[1]} times), "
          f"decision kinds {', '.join(f'{k} {n}' for k, n in sorted(total.kinds.items()))}; endings "
          f"{', '.join(f'{k} {n}' for k, n in sorted(total.endings.items()))}")
    if missing:
        print(f"not covered: {', '.join(missing)}")
    for failure in total.failures[:20]:
        print(f"FAILED {failure}")
    return 1 if total.failures or (missing and options.require_all) else 0


if __name__ == "__main__":
    sys.exit(main())
