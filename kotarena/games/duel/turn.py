"""The turn: roll (with dice tokens first), resolve (superpower, then the dice), buy
cards or gain 1 energy, end. Each step is a function of ``STEPS``; ``advance`` plays
the state's queue of steps until one asks a decision or the game ends, and the step
named in ``state.answer`` reads the answer (``ANSWERS``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Final

from kotarena.engine.actions import Action
from kotarena.games.duel import effects, start
from kotarena.games.duel.faces import CLAW, DESTRUCTION, ENERGY, FACE_NAMES, FAME, HEART
from kotarena.games.duel.faces import POWER as POWER_FACE
from kotarena.games.duel.rules import MARKET_SIZE, MAX_DICE, MAX_TOKENS, ROLLS, STANDARD_DICE, SWEEP_COST
from kotarena.games.duel.rulings import OPERATION_MEDIA_COUNTS_EXTRA_CLAWS, SWEEPS_PER_TURN
from kotarena.games.duel.track import (
    DESTRUCTION_TRACK,
    FAME_TRACK,
    KING_TOKENS,
    TRACK_NAMES,
    action_placement,
    placement_action,
)
from kotarena.games.duel.verbs import BLOCK, BUY_ACTIONS, POWER_ACTIONS, RESOLVE, SPEND_ACTIONS
from kotarena.games.vocabulary import BUY, DONE_ACTION, PASS_ACTION, REROLL, STOP_ACTION, SWEEP_ACTION

if TYPE_CHECKING:  # (the state calls the steps: importing it here would close a circle)
    from kotarena.games.duel.state import State


def advance(state: State) -> None:
    """Play queued steps until a decision is pending, the game is over, or (when asked)
    the table pauses between turns."""
    while state.outcome is None and state.to_move < 0 and not state.between_turns:
        if not state.todo:
            state.todo.append(("turn",))
        step = state.todo.pop(0)
        name: str = step[0]  # (typed: compiled, the comparisons below are of strings)
        state.deferred = 0
        # The steps of every turn are called by name: compiled, a direct call instead of
        # a lookup in STEPS and a call through Python (tests/duel/test_duel_dispatch.py
        # checks that each name calls STEPS' function).
        if len(step) > 1:
            if name == "face":
                resolve_face(state, step[1])
            else:
                STEPS[name](state, *step[1:])
        elif name == "reroll":
            ask_reroll(state)
        elif name == "buy":
            ask_buy(state)
        elif name == "turn":
            start_turn(state)
        elif name == "start_cards":
            start_cards(state)
        elif name == "tokens":
            ask_tokens(state)
        elif name == "roll":
            first_roll(state)
        elif name == "resolve_start":
            resolve_start(state)
        elif name == "power":
            power(state)
        elif name == "resolve":
            resolve(state)
        elif name == "after_resolve":
            after_resolve(state)
        elif name == "end":
            end_turn(state)
        elif name == "pass_dice":
            pass_dice(state)
        else:
            STEPS[name](state)


def answer(state: State, step: tuple, action: Action) -> None:
    state.deferred = 0
    name: str = step[0]
    if len(step) > 1:
        ANSWERS[name](state, action, *step[1:])
    elif name == "reroll":
        reroll(state, action)
    elif name == "buy":
        buy(state, action)
    else:
        ANSWERS[name](state, action)


def then(state: State, *steps: tuple) -> None:
    """Queue ``steps`` to come next, before the rest of the queue. A step queues what
    follows it this way before acting, so that what its effects set off
    (``effects.later``) comes first."""
    if len(steps) == 1:
        state.todo.insert(0, steps[0])
    else:
        state.todo[0:0] = list(steps)


# ------------------------------------------------------------------ start of turn

def start_turn(state: State) -> None:
    state.turn += 1
    seat = state.active
    state.dice, state.aside, state.added = [], [], []
    state.rolls_left = state.rolls_used = state.power_left = 0
    state.claws_times = 1
    state.flags = set()
    state.spent = state.claws_rolled = state.sweeps = 0
    state.taken = [0, 0]
    state.bought = False
    state.extra_turn = False
    if state.log is not None:  # (say() would pack the event even with no log)
        state.say("turn", seat, state.turn)
    state.todo[:] = _TURN_STEPS


#: A turn's steps, in order (built once: a turn copies them into its queue).
_TURN_STEPS: Final[tuple[tuple[str], ...]] = (
    ("start_cards",), ("tokens",), ("roll",), ("reroll",), ("resolve_start",), ("power",), ("resolve",),
    ("after_resolve",), ("buy",), ("end",))


def start_cards(state: State) -> None:
    effects.start_of_turn(state, state.active)


def dice_count(state: State) -> int:
    """The dice the active monster rolls before spending tokens: 6 (5 on the first
    player's very first turn), more with cards, fewer after Thunder Stomp or Dominate."""
    seat = state.active
    count = (STANDARD_DICE - 1 if state.turn == 1 else STANDARD_DICE) + effects.extra_dice(state, seat)
    return max(1, min(MAX_DICE, count - state.penalty[seat]))


def ask_tokens(state: State) -> None:
    seat = state.active
    spendable = min(state.tokens[seat], MAX_DICE - dice_count(state))
    if spendable > 0:
        state.ask(seat, "tokens", SPEND_ACTIONS[:spendable + 1], ("tokens",))


def spend_tokens(state: State, action: Action) -> None:
    count = action.args[0]
    if count:
        state.tokens[state.active] -= count
        state.spent = count
        state.say("spend", state.active, count)


def first_roll(state: State) -> None:
    seat = state.active
    count = min(MAX_DICE, dice_count(state) + state.spent)
    state.penalty[seat] = 0
    state.rolls_used = 0
    state.dice = state.turn_dice(range(1, count + 1))
    state.rolls_used = 1
    state.rolls_left = ROLLS - 1 + effects.extra_rolls(state, seat)
    if state.log is not None:
        state.say("roll", seat, tuple(state.dice))


_REROLLS: Final[dict[int, tuple[Action, ...]]] = {}


def _subsets(positions: list[int]) -> list[Action]:
    return [Action.of(REROLL, *combo) for size in range(1, len(positions) + 1)
            for combo in combinations(positions, size)]


def ask_reroll(state: State) -> None:
    seat = state.active
    if state.rolls_left > 0:
        legal = _REROLLS.get(len(state.dice))
        if legal is None:
            legal = _REROLLS[len(state.dice)] = (STOP_ACTION, *_subsets(list(range(1, len(state.dice) + 1))))
        state.ask(seat, "roll", legal, ("reroll",))
        return
    if state.keeps[seat] and state.owns(seat, "in_the_shadows"):
        fame = [i + 1 for i, face in enumerate(state.dice) if face == FAME]
        if fame:
            state.ask(seat, "roll", [STOP_ACTION, *_subsets(fame)], ("reroll",))


def reroll(state: State, action: Action) -> None:
    seat = state.active
    if action is STOP_ACTION:
        effects.stopped_rolling(state, seat)
        return
    faces = state.turn_dice(action.args)
    for position, face in zip(action.args, faces):
        state.dice[position - 1] = face
    if state.rolls_left > 0:
        state.rolls_left -= 1
    state.rolls_used += 1
    if state.log is not None:
        state.say("reroll", seat, tuple(action.args), tuple(state.dice))
    then(state, ("reroll",))


# ------------------------------------------------------------------ resolving
#
# Seed 002: "Ви повинні розіграти всі кубики у результатах кидка в будь-якому порядку"
# (resolve all the dice of your result, in any order). The roll is resolved part by
# part, each part a queued step: the superpower's activations, the cards that read the
# roll, then each face. Xenoid's, Space Penguin's, Cyber Kitty's and MekaDragon's
# superpowers come first (Xenoid's adds faces the others then count; the other three
# act on nothing the order changes); for the rest the ``order`` decision lets the
# player pick the next part while two parts whose order can change the game are left
# (docs/duel.md, "Resolve order"). Its first action is the next part in the order
# kotarena played before the choice existed: superpower, cards, fame, destruction,
# energy, hearts, claws.

#: Every word ``resolve WORD`` may name, in the default order: the parts of a roll,
#: then the end-of-turn cards (``effects.END_OF_TURN_CARDS``), ordered the same way.
PART_WORDS = ("power", "cards", "fame", "destruction", "energy", "heart", "claw", *effects.END_OF_TURN_CARDS)
#: Superpowers whose activations are parts of the order (the others come first).
POWER_IN_ORDER = ("gigazaur", "the_king")


def resolve_start(state: State) -> None:
    effects.before_resolving(state, state.active)


def power(state: State) -> None:
    """The start of resolving: the power faces to activate the superpower with, and
    the superpowers that act before the rest of the roll."""
    seat = state.active
    if "skip_resolve" in state.flags:
        return
    state.flags.add("resolving")  # Superconductor and Thunder Stomp: while the dice resolve
    counts = state.counts()
    count = counts[POWER_FACE]
    monster = state.monster_ids[seat]
    state.power_left = count
    if count == 0 or monster in POWER_IN_ORDER:
        return
    if monster == "space_penguin":
        if state.tokens[seat] < MAX_TOKENS:
            then(state, ("power_choice",))
    elif monster == "mekadragon":
        if count >= 2 and (counts[CLAW] > 0 or effects.may_add_claws(state, seat)):
            then(state, ("power_choice",))
    elif count >= 2:
        then(state, ("power_choice",))


def ask_power(state: State) -> None:
    seat = state.active
    monster = state.monster_ids[seat]
    if state.power_left < (1 if monster == "space_penguin" else 2):
        return
    # The actions are built once (``verbs.POWER_ACTIONS``); The King's depend on the board.
    legal: Sequence[Action] = ()
    if monster == "gigazaur":
        legal = POWER_ACTIONS["gigazaur"]
    elif monster == "xenoid":
        legal = POWER_ACTIONS["xenoid_3" if state.power_left >= 3 else "xenoid"]
    elif monster == "the_king":
        legal = [PASS_ACTION, *king_moves(state)]
    elif monster == "space_penguin":  # each power face: a dice token, while there is room
        room = min(state.power_left, MAX_TOKENS - state.tokens[seat])
        legal = POWER_ACTIONS["space_penguin"][:max(room, 0) + 1]
    elif monster == "cyber_kitty":  # 2 power faces: 2 energy; 3: 4 energy
        legal = POWER_ACTIONS["cyber_kitty_3" if state.power_left >= 3 else "cyber_kitty"]
    elif monster == "mekadragon":  # "Можете вважати ...": claws times power faces
        legal = POWER_ACTIONS["mekadragon"]
    if len(legal) > 1:
        state.ask(seat, "power", legal, ("power_choice",))


def king_moves(state: State) -> list[Action]:
    """Where The King may put a blocking token: the first one not yet placed anywhere
    free, or one on the board (no marker on it) anywhere else free."""
    board = state.board
    return [Action.of(BLOCK, number, TRACK_NAMES[track], low) for number, token in board.king_tokens()
            for track, low, _ in board.placements(token)]


def use_power(state: State, action: Action) -> None:
    seat = state.active
    monster = state.monster_ids[seat]
    if action is PASS_ACTION:
        state.power_left = 0
        return
    if monster == "space_penguin":  # one answer for all its power faces
        state.power_left = 0
        state.gain_tokens(seat, len(action.args), "Cryo-Gadgets")
        return
    if monster == "mekadragon":
        state.claws_times = state.power_left
        state.power_left = 0
        return
    # First: what the activation queues comes before the next one (and, where the
    # superpower is a part of the order, the order is asked again in between).
    if monster in POWER_IN_ORDER:
        then(state, ("order",), ("power_choice",))
    else:
        then(state, ("power_choice",))
    if action.kind == BLOCK:
        number, track, cell = action.args
        token = KING_TOKENS[number - 1]
        state.board.place(token, (TRACK_NAMES.index(track), cell, False))
        state.power_left -= 2
        state.say("block", seat, number, track, cell)
    elif monster == "gigazaur":
        state.power_left -= 2
        state.pull(seat, TRACK_NAMES.index(action.args[0]), 1, "Blockbuster")
    elif monster == "cyber_kitty":  # each activation is its own gain (Superconductor sees each)
        state.power_left -= len(action.args) + 1
        state.gain_energy(seat, 2 * len(action.args), "Cat-astrophic Power")
    else:
        faces = [FACE_NAMES.index(word) for word in action.args]
        state.power_left -= len(faces) + 1
        state.added.extend(faces)
        state.say("add", seat, tuple(action.args))


def resolve(state: State) -> None:
    """Queue the parts of the roll left to resolve, in the default order, behind the
    ``order`` step that lets the player choose."""
    seat = state.active
    if "skip_resolve" in state.flags:
        return
    counts = state.counts()
    parts: list[tuple] = []
    if state.monster_ids[seat] in POWER_IN_ORDER and state.power_left >= 2:
        parts.append(("power_choice",))
    if effects.roll_cards_act(state, seat, counts):
        parts.append(("roll_cards",))
    for face in (FAME, DESTRUCTION):
        if counts[face] >= 3:
            parts.append(_FACE_STEPS[face])
    for face in (ENERGY, HEART):
        if counts[face] > 0:
            parts.append(_FACE_STEPS[face])
    if counts[CLAW] > 0 or effects.may_add_claws(state, seat):
        parts.append(_FACE_STEPS[CLAW])
    # The ``order`` step runs next, on these parts: queued only where it would ask (two
    # parts that matter), as most rolls have one or none.
    if len(parts) >= 2 and sum([order_matters(state, part) for part in parts]) >= 2:
        parts.insert(0, ("order",))
    state.todo[0:0] = parts  # (as ``then`` queues them, without packing them twice)


#: The step that resolves each face (one tuple per face, not one per roll).
_FACE_STEPS: Final[tuple[tuple[str, int], ...]] = tuple([("face", face) for face in range(len(FACE_NAMES))])


def part_word(state: State, step: tuple) -> str | None:
    """The word ``resolve WORD`` names a queued step by, if it is a part whose order
    the player chooses: a part of the roll or one of its end-of-turn cards."""
    name: str = step[0]
    if name == "face":
        return FACE_NAMES[step[1]]
    if name == "power_choice":
        return "power"
    if name == "roll_cards":
        return "cards"
    if name == "effect" and step[1] in effects.END_OF_TURN_CARDS and step[2] == state.active:
        return step[1]
    return None


def order_matters(state: State, step: tuple) -> bool:
    """Whether resolving this part before or after another can change the game: every
    part but energy (only the buy step spends it; Superconductor gives the rival the
    same amount whenever it is gained) and hearts (except when the rival's Unstable DNA
    may take Regeneration away before they heal)."""
    seat = state.active
    name: str = step[0]
    if name == "power_choice":
        if state.power_left < 2:
            return False
        board = state.board  # The King: whether a token has somewhere to go
        return state.monster_ids[seat] != "the_king" or any(board.placements(t) for _, t in board.king_tokens())
    if name == "face":
        if step[1] == ENERGY:
            return False
        if step[1] == HEART:
            return state.owns(seat, "regeneration") and state.owns(1 - seat, "unstable_dna")
    return True


def ask_order(state: State) -> None:
    """Ask which part to resolve next, while two that matter are left."""
    todo = state.todo
    words: list[str] = []
    for step in todo:
        word = part_word(state, step)
        if word is None:
            break
        if order_matters(state, step):
            words.append(word)
    if len(words) >= 2:
        state.ask(state.active, "order", [_RESOLVE_ACTIONS[word] for word in words], ("order",))


#: ``resolve WORD`` for each part word.
_RESOLVE_ACTIONS: Final[dict[str, Action]] = {word: Action.of(RESOLVE, word) for word in PART_WORDS}


def choose_part(state: State, action: Action) -> None:
    word = action.args[0]
    for i, step in enumerate(state.todo):
        if part_word(state, step) == word:
            del state.todo[i]
            then(state, step, ("order",))
            return
    raise AssertionError(f"no part {word!r} left to resolve")  # the legal actions name only queued parts


def roll_cards(state: State) -> None:
    effects.roll_cards(state, state.active, state.counts())


def resolve_face(state: State, face: int) -> None:
    """One face of the roll: three fame (destruction) faces pull the fame (destruction)
    marker 1, each more 1 further (``count - 2``); energy, hearts; claws hurt the rival."""
    seat = state.active
    if face == FAME:
        state.pull(seat, FAME_TRACK, state.count(FAME) - 2, "dice")
    elif face == DESTRUCTION:
        state.pull(seat, DESTRUCTION_TRACK, state.count(DESTRUCTION) - 2, "dice")
    elif face == ENERGY:
        state.gain_energy(seat, state.count(ENERGY), "dice")
    elif face == HEART:
        state.heal(seat, state.count(HEART), "dice")
    else:
        counts = state.counts()
        # The claws the roll counts (Acid Attack's, Adrenaline Augment's, MekaDragon's
        # multiple): Operation Media reads them (rulings.OPERATION_MEDIA_COUNTS_EXTRA_CLAWS).
        claws = (counts[CLAW] + effects.extra_claws(state, seat, counts)) * state.claws_times
        state.claws_rolled = claws if OPERATION_MEDIA_COUNTS_EXTRA_CLAWS else counts[CLAW]
        if claws > 0:
            state.damage(1 - seat, claws, "claws")


def after_resolve(state: State) -> None:
    state.flags.discard("resolving")
    if "skip_resolve" not in state.flags:
        effects.after_resolving(state, state.active)


# ------------------------------------------------------------------ buying

def ask_buy(state: State) -> None:
    seat = state.active
    legal = [DONE_ACTION]
    for slot in range(1, MARKET_SIZE + 1):
        if state.market[slot - 1] and state.cost(slot) <= state.energy[seat]:
            legal.append(BUY_ACTIONS[slot])
    if (state.energy[seat] >= SWEEP_COST and (SWEEPS_PER_TURN is None or state.sweeps < SWEEPS_PER_TURN)
            and (state.deck or state.gone)):
        legal.append(SWEEP_ACTION)
    legal += effects.buy_step_actions(state, seat)
    state.ask(seat, "buy", legal, ("buy",))


def buy(state: State, action: Action) -> None:
    seat = state.active
    if action is DONE_ACTION:
        if not state.bought:
            state.gain_energy(seat, 1, "bought nothing")
        return
    then(state, ("buy",))  # first: the card's token and effect are queued before it
    if action is SWEEP_ACTION:
        state.pay(seat, SWEEP_COST)
        state.sweeps += 1
        state.say("sweep", seat, tuple(state.market))
        swept = [card for card in state.market if card]
        state.market = [state.draw() for _ in range(MARKET_SIZE)]
        state.gone.extend(swept)  # after the new cards: the swept ones are not dealt again at once
        state.say("market", tuple(state.market))
    elif action.kind == BUY:
        slot = action.args[0]
        state.buy_card(seat, slot, state.cost(slot))
        state.bought = True
    else:
        effects.use_in_buy_step(state, seat, action)


def ask_hype(state: State, seat: int, token: str) -> None:
    board = state.board
    if token in board.placed and not board.movable(token):
        return
    legal = [placement_action(token, placement) for placement in board.placements(token)]
    if token in board.placed:
        legal.insert(0, PASS_ACTION)  # the token may stay where it is
    if legal:
        state.ask(seat, "hype", legal, ("hype", token))


def place_hype(state: State, action: Action, token: str) -> None:
    if action is not PASS_ACTION:
        state.board.place(token, action_placement(action))
        state.say("hype", state.to_move if state.to_move >= 0 else state.active, token, action.text)


def play_card(state: State, seat: int, card: str) -> None:
    effects.bought(state, seat, card)


# ------------------------------------------------------------------ the end of a turn

def end_turn(state: State) -> None:
    then(state, ("pass_dice",))  # first: end-of-turn choices come before it
    effects.end_of_turn(state, state.active)


def pass_dice(state: State) -> None:
    if not state.extra_turn:
        state.active = 1 - state.active
    if state.pause_between_turns:
        state.between_turns = True


def card_decision(state: State, action: Action, card: str, *args: object) -> None:
    effects.decided(state, card, action, args)


STEPS: Final[dict[str, Callable[..., None]]] = {
    "pick": start.ask_pick,
    "begin": start.begin,
    "turn": start_turn,
    "start_cards": start_cards,
    "tokens": ask_tokens,
    "roll": first_roll,
    "reroll": ask_reroll,
    "resolve_start": resolve_start,
    "power": power,
    "power_choice": ask_power,
    "resolve": resolve,
    "order": ask_order,
    "roll_cards": roll_cards,
    "face": resolve_face,
    "after_resolve": after_resolve,
    "buy": ask_buy,
    "hype": ask_hype,
    "card": play_card,
    "end": end_turn,
    "pass_dice": pass_dice,
    "effect": effects.step,
}

ANSWERS: Final[dict[str, Callable[..., None]]] = {
    "pick": start.pick,
    "tokens": spend_tokens,
    "reroll": reroll,
    "power_choice": use_power,
    "order": choose_part,
    "buy": buy,
    "hype": place_hype,
    "card": card_decision,
}

__all__ = ["MAX_TOKENS", "advance", "answer", "dice_count"]
