"""The rules of a King of Tokyo table that no position may break, checked one by one.

:func:`invariants` reads a state and lists every rule it breaks, as sentences ("monster
#2 (Kraken) is dead but in Tokyo City"; the number is the seat from 0). The game's
:meth:`~kotarena.engine.game.Game.invariants` is this function; ``kotarena.testing``
runs it after every action of its random games.
"""

from __future__ import annotations

import itertools

from kotarena.engine.outcome import EngineError
from kotarena.games.kot.damage import eliminate_losing_energy
from kotarena.games.kot.end import ALL_ELIMINATED, LAST_STANDING, STARS
from kotarena.games.kot.kinds import BUY_CARDS, DICE_CARDS, PROBE, ROLL, YIELD_TOKYO
from kotarena.games.kot.state import State


def _who(state: State, p: int) -> str:
    try:
        return f"monster #{p} ({state.names[p]})"
    except (IndexError, TypeError):
        return f"monster #{p}"


def invariants(state: State) -> list[str]:
    """Every invariant of the table that ``state`` breaks, as readable sentences.

    Checked: the per-player facts (health within ``0..max_health``, alive exactly when
    health is above 0, stars and energy never negative), Tokyo (only living monsters,
    one per place, never one monster in both places, Bay only while open, open only
    with 5 or more monsters alive in a game of 5 or more), the cards (valid market
    slots; deck, market, discard pile and owned cards together hold every card of the
    deck exactly once; only keep cards are owned; the card Made in a Lab shows is the
    top of the deck), the pending decision (a living decider, a non-empty legal list,
    the list the rules give for roll, yield and buy decisions, no damage waiting at a
    roll, dice or probe decision), and a finished
    game's outcome (winner alone in first place, ranks consistent with survival, stars
    and elimination order).
    """
    problems: list[str] = []
    _check_monsters(state, problems)
    _check_tokyo(state, problems)
    _check_cards(state, problems)
    _check_game_rules(state, problems)
    if state.outcome is None:
        _check_decision(state, problems)
    else:
        _check_outcome(state, problems)
    return problems


def _check_monsters(state: State, problems: list[str]) -> None:
    n = state.n
    if not 2 <= n <= 6:
        problems.append(f"the table has {n} seats (2 to 6 expected)")
    for field in ("names", "health", "max_health", "stars", "energy", "alive", "owned", "eliminated_at"):
        if len(getattr(state, field)) != n:
            problems.append(f"state.{field} has {len(getattr(state, field))} entries for {n} seats")
            return
    facts = zip(state.health, state.max_health, state.alive, state.eliminated_at, state.stars, state.energy)
    for p, (health, max_health, alive, eliminated_at, stars, energy) in enumerate(facts):
        if not 0 <= health <= max_health:
            problems.append(f"{_who(state, p)} has {health} health, outside 0..{max_health}")
        if max_health < 1:
            problems.append(f"{_who(state, p)} has max health {max_health}")
        if alive != (health > 0):
            problems.append(f"{_who(state, p)} is {'alive' if alive else 'dead'} with {health} health")
        if (eliminated_at is None) != alive:
            problems.append(f"{_who(state, p)}: alive={alive} but eliminated_at={eliminated_at!r}")
        if stars < 0:
            problems.append(f"{_who(state, p)} has {stars} stars")
        if energy < 0:
            problems.append(f"{_who(state, p)} has {energy} energy")
    if state.alive_count != sum(state.alive):
        problems.append(f"alive_count is {state.alive_count} but {sum(state.alive)} monsters are alive")


def _check_tokyo(state: State, problems: list[str]) -> None:
    n = state.n
    alive_count = sum(state.alive)
    for place, p in (("Tokyo City", state.city), ("Tokyo Bay", state.bay)):
        if p == -1:
            continue
        if not 0 <= p < n:
            problems.append(f"{place} holds seat {p}, which does not exist")
        elif not state.alive[p]:
            problems.append(f"{_who(state, p)} is dead but in {place}")
    if state.city >= 0 and state.city == state.bay:
        problems.append(f"{_who(state, state.city)} is in Tokyo City and Tokyo Bay at once")
    if state.bay >= 0 and not state.bay_open:
        problems.append(f"{_who(state, state.bay)} is in Tokyo Bay but the Bay is closed")
    should_be_open = state.rules.bay_opens(n) and state.rules.bay_opens(alive_count)
    if state.bay_open and not should_be_open:
        problems.append(f"Tokyo Bay is open in a {n}-player game with {alive_count} monsters alive")
    if should_be_open and not state.bay_open:
        problems.append(f"Tokyo Bay is closed with {alive_count} monsters alive")


def _check_game_rules(state: State, problems: list[str]) -> None:
    """What the game's own spec and steps promise: its seat counts, what an eliminated
    monster keeps, and (where claws do not take Tokyo: Origins) the Enter Tokyo step."""
    from kotarena.games import get_game  # the registry, asked only when a state is checked

    try:
        spec = get_game(state.game).spec
    except EngineError:
        spec = None
    if spec is not None and not spec.min_players <= state.n <= spec.max_players:
        problems.append(f"{spec.title} is for {spec.min_players} to {spec.max_players} players; the table has {state.n}")
    loses_energy = state.rules.steps.eliminate is eliminate_losing_energy
    for p in range(state.n):
        if state.alive[p] or not 0 <= p < len(state.owned):
            continue
        if state.owned[p]:
            problems.append(f"{_who(state, p)} is eliminated but still owns cards")
        if loses_energy and state.energy[p]:
            problems.append(f"{_who(state, p)} is eliminated but still has {state.energy[p]} energy")
    log = state.log
    if (not state.rules.claws_take_tokyo and log is not None and state.outcome is None and state.kind == BUY_CARDS
            and state.to_move == state.active and state.city < 0):
        # Buying comes after the Enter Tokyo step: Tokyo is empty only if somebody left it since.
        for event in reversed(log):
            if event[0] == "leave":
                break
            if event[0] == "turn":
                problems.append(f"Tokyo is empty at {_who(state, state.active)}'s buy step and nobody left it this turn")
                break


def _check_cards(state: State, problems: list[str]) -> None:
    info = state.cards_info
    total = len(info)
    if len(state.market) != state.rules.market_size:
        problems.append(f"the market has {len(state.market)} slots, not {state.rules.market_size}")
    for slot, card in enumerate(state.market, 1):
        if card != -1 and not 0 <= card < total:
            problems.append(f"market slot {slot} holds card index {card} (the deck has {total} cards)")
    if state.deck_name is None:
        if state.deck or state.discard or any(state.owned) or any(c != -1 for c in state.market):
            problems.append("a game without cards has cards in the deck, market, discard pile or hands")
        return
    market = [card for card in state.market if card != -1]
    owned = [card for cards in state.owned for card in cards]
    everywhere = list(state.deck) + market + list(state.discard) + owned
    if sorted(everywhere) != list(range(total)):
        counts: dict[int, int] = {}
        for card in everywhere:
            counts[card] = counts.get(card, 0) + 1
        twice = sorted(c for c, k in counts.items() if k > 1)
        missing = sorted(set(range(total)) - set(counts))
        strange = sorted(c for c in counts if not 0 <= c < total)
        problems.append(
            f"cards not conserved: deck {len(state.deck)} + market {len(market)} + discard "
            f"{len(state.discard)} + owned {len(owned)} = {len(everywhere)} of {total}"
            + (f"; in two places: {twice}" if twice else "")
            + (f"; missing: {missing}" if missing else "")
            + (f"; unknown: {strange}" if strange else "")
        )
    for p, cards in enumerate(state.owned):
        for card in cards:
            if 0 <= card < total and info[card].type != "keep":
                problems.append(f"{_who(state, p)} owns {info[card].id}, a discard card")
    for p, cards in enumerate(state.owned):
        if cards and not state.alive[p]:
            problems.append(f"{_who(state, p)} is dead but still owns cards")
    if state.peek >= 0 and (not state.deck or state.deck[-1] != state.peek):
        problems.append(f"Made in a Lab shows card index {state.peek}, which is not the top of the deck")


def _check_decision(state: State, problems: list[str]) -> None:
    n = state.n
    if state.alive_count < 2:
        problems.append(f"the game is not over with {state.alive_count} monsters alive")
    if not 0 <= state.active < n or not state.alive[state.active]:
        problems.append(f"the active monster {_who(state, state.active)} is not a living monster")
        return
    if state.between_turns:
        if state.to_move != -1 or state.legal:
            problems.append("the game is paused between turns but someone is asked to decide")
        return
    p = state.to_move
    if not 0 <= p < n:
        problems.append(f"the game is not over but nobody decides (to_move={p})")
        return
    if not state.alive[p]:
        problems.append(f"{_who(state, p)} is dead but must decide")
    legal = state.legal
    if not legal:
        problems.append(f"{_who(state, p)} must decide ({state.kind}) but has no legal action")
        return
    kind = state.kind
    if (kind == ROLL or kind == DICE_CARDS or kind == PROBE) and (state._queue or state._ready):
        # Health a reroll costs (Orb of Doom) is lost at the reroll, not held over the roll.
        problems.append(f"a {kind} decision with damage still waiting: {state._queue + state._ready!r}")
    if kind == ROLL:
        _check_roll(state, problems)
    elif kind == YIELD_TOKYO:
        _check_yield(state, problems)
    elif kind == BUY_CARDS:
        _check_buy(state, problems)
    # Kinds that cards add are checked by the cards' own tests.


def _check_roll(state: State, problems: list[str]) -> None:
    p, dice = state.to_move, state.dice
    if p != state.active:
        problems.append(f"{_who(state, p)} rolls during {_who(state, state.active)}'s turn")
    if not 1 <= state.rolls_left <= state.rules.rerolls:
        problems.append(f"a roll decision with {state.rolls_left} rerolls left")
    # Six dice, more with Extra Head, fewer with shrink tokens or Freeze Time.
    if len(dice) > state.rules.die_slots or any(not 0 <= face <= 5 for face in dice):
        problems.append(f"the dice are {dice!r}")
    if _VERIFIED_ROLL_LISTS.get(id(state.legal)) is not state.legal:
        problem = _roll_list_problem(len(dice), state.legal)
        if problem:
            problems.append(problem)
        else:
            _VERIFIED_ROLL_LISTS[id(state.legal)] = state.legal
    if state.rolls_left == state.rules.rerolls:
        # Start of a turn: the last turn's end found nobody at 20 stars. Only the
        # active monster may have reached 20 since (the stars for starting in Tokyo).
        for q in range(state.n):
            if q != p and state.alive[q] and state.stars[q] >= state.rules.stars_to_win:
                problems.append(f"{_who(state, q)} has {state.stars[q]} stars but the game goes on")


#: Roll legal lists already found right, by identity: the engine shares one tuple per
#: dice count, and checking its 64 actions after every roll would dominate the cost.
_VERIFIED_ROLL_LISTS: dict[int, tuple] = {}


def _roll_list_problem(dice_count: int, legal: tuple) -> str | None:
    """What is wrong with the legal list of a roll of ``dice_count`` dice, if anything."""
    positions = range(1, dice_count + 1)
    expected = ["stop"] + [
        " ".join(("reroll", *map(str, combo)))
        for size in positions
        for combo in itertools.combinations(positions, size)
    ]
    offered = [a.text for a in legal]
    if sorted(offered) != sorted(expected) or len(set(legal)) != len(legal):
        return (f"a roll of {dice_count} dice offers {len(offered)} actions, not stop and "
                f"the {len(expected) - 1} rerolls of a non-empty set of dice")
    return None


def _check_yield(state: State, problems: list[str]) -> None:
    p = state.to_move
    if p != state.city and p != state.bay:
        problems.append(f"{_who(state, p)} is asked to yield Tokyo but is not in Tokyo")
    if p == state.active:
        problems.append(f"{_who(state, p)} is asked to yield Tokyo on its own turn")
    if sorted(a.text for a in state.legal) != ["stay", "yield"]:
        problems.append(f"a yield decision offers {[a.text for a in state.legal]}")


def _check_buy(state: State, problems: list[str]) -> None:
    p = state.to_move
    if p != state.active:
        problems.append(f"{_who(state, p)} buys during {_who(state, state.active)}'s turn")
    if state.deck_name is None:
        problems.append("a buy decision in a game without cards")
        return
    energy = state.energy[p]
    expected = {"done"}
    for slot, card in enumerate(state.market, 1):
        if card >= 0 and state.cost(p, card) <= energy:
            expected.add(f"buy {slot}")
    if energy >= state.rules.sweep_cost and any(card >= 0 for card in state.market):
        expected.add("sweep")
    offered = {a.text for a in state.legal}
    # Cards may add actions of their own; the standard ones must be exactly right.
    standard = {t for t in offered if t == "done" or t == "sweep" or t.startswith("buy ")}
    if standard != expected:
        problems.append(
            f"{_who(state, p)} with {energy} energy is offered {sorted(standard)}, expected {sorted(expected)}"
        )


def _check_outcome(state: State, problems: list[str]) -> None:
    outcome = state.outcome
    n = state.n
    winner, ranks = outcome.winner, outcome.ranks
    if state.to_move != -1 or state.legal:
        problems.append("the game is over but someone is still asked to decide")
    if outcome.turns != state.turn:
        problems.append(f"the outcome says {outcome.turns} turns, the game played {state.turn}")
    alive = [p for p in range(n) if state.alive[p]]
    termination = outcome.termination
    if termination == STARS:
        if winner is None or not state.alive[winner] or state.stars[winner] < state.rules.stars_to_win:
            problems.append(f"a win on stars by {winner!r}, who is not alive with {state.rules.stars_to_win}+ stars")
        elif any(state.stars[q] > state.stars[winner] for q in alive):
            problems.append(f"a win on stars by {_who(state, winner)}, but a living monster has more stars")
    elif termination == LAST_STANDING:
        if alive != [winner]:
            problems.append(f"a last-standing win by {winner!r} with monsters {alive} alive")
    elif termination == ALL_ELIMINATED:
        if winner is not None or alive:
            problems.append(f"everybody eliminated, yet winner={winner!r} and monsters {alive} alive")
    else:
        problems.append(f"unknown termination {termination!r}")
    if len(ranks) != n:
        problems.append(f"the outcome ranks {len(ranks)} monsters of {n}")
        return
    # Competition ranking: a place is the number of monsters strictly ahead.
    for p in range(n):
        ahead = sum(1 for q in range(n) if ranks[q] < ranks[p])
        if ranks[p] != ahead:
            problems.append(f"{_who(state, p)} is ranked {ranks[p]} with {ahead} monsters ahead")
    if winner is not None and [p for p in range(n) if ranks[p] == 0] != [winner]:
        problems.append(f"the winner {_who(state, winner)} is not alone in first place: ranks {ranks}")
    if winner is None and termination != ALL_ELIMINATED:
        problems.append(f"no winner although the game ended by {termination.value}")
    for p, q in itertools.permutations(range(n), 2):
        if p == winner or q == winner:
            continue
        if state.alive[p] and not state.alive[q] and ranks[p] >= ranks[q]:
            problems.append(f"the eliminated {_who(state, q)} ranks with or ahead of the survivor {_who(state, p)}")
        if state.alive[p] and state.alive[q]:
            if state.stars[p] > state.stars[q] and ranks[p] >= ranks[q]:
                problems.append(f"{_who(state, p)} has more stars than {_who(state, q)} but is not ranked ahead")
            if state.stars[p] == state.stars[q] and ranks[p] != ranks[q]:
                problems.append(f"{_who(state, p)} and {_who(state, q)} have equal stars but different ranks")
        if not state.alive[p] and not state.alive[q]:
            if state.eliminated_at[p] > state.eliminated_at[q] and ranks[p] >= ranks[q]:
                problems.append(f"{_who(state, p)} was eliminated later than {_who(state, q)} but is not ranked ahead")


# ---------------------------------------------------------------- random games
