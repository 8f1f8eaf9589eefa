"""What each Duel card does, by the moment of the turn it acts at.

The state and the turn call these functions at their moments; each looks at the cards
a monster keeps (``state.keeps``) and acts through the state's effect API. A discard
card acts once, when bought (``bought``). A card that offers a choice asks a ``card``
decision (``use <card id> ...`` or ``pass``) through a queued ``effect`` step, and its
answer comes back to ``decided``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from kotarena.engine.actions import Action
from kotarena.games.duel.cards import BY_ID, DISCARD
from kotarena.games.duel.faces import CLAW, FACE_NAMES, HEART, POWER
from kotarena.games.duel.rulings import ADRENALINE_COUNTS_BOTH_SIDES, TESLA_ENERGY_WITHOUT_DISCARD
from kotarena.games.duel.track import DESTRUCTION_TRACK, FAME_TRACK, HYPE_TOKENS, SMASH, SMASH2
from kotarena.games.vocabulary import PASS_ACTION, USE

if TYPE_CHECKING:
    from kotarena.games.duel.state import State

HIBERNATION_HEAL: Final = 6

#: The per-seat facts in ``state.flags`` and ``state.marks``, by seat (built once, not per damage).
_DOMINATE: Final[tuple[str, str]] = ("dominate:0", "dominate:1")
_REGENERATED: Final[tuple[str, str]] = ("regenerated:0", "regenerated:1")
_UNSTOPPABLE: Final[tuple[str, str]] = ("unstoppable:0", "unstoppable:1")
_ARMOR: Final[tuple[str, str]] = ("armor:0", "armor:1")
_TREND: Final[tuple[str, str]] = ("trend:0", "trend:1")
_CAMOUFLAGE_ROLL: Final[tuple[str, str]] = ("camouflage_roll:0", "camouflage_roll:1")
_CAMOUFLAGE: Final[tuple[str, str]] = ("camouflage:0", "camouflage:1")


def _queue(state: State, *step: object) -> None:
    """Queue a step to come next, before the rest of the queue."""
    state.todo.insert(0, ("effect", *step))
    state.deferred += 1


def later(state: State, *step: object) -> None:
    """Queue a step to come once the running step is done, after the steps it queued
    so far: what an effect sets off (a damage Camouflage may reduce, a card's choice)
    keeps the order of the events that set it off."""
    state.todo.insert(state.deferred, ("effect", *step))
    state.deferred += 1


def _ask(state: State, seat: int, card: str, options: list[Action], *args: object) -> None:
    state.ask(seat, "card", [PASS_ACTION, *options], ("card", card, *args))


def use(card: str, *args: object) -> Action:
    key = (card, args)
    action = _USED.get(key)
    if action is None:
        action = _USED[key] = Action.of(USE, card, *args)
    return action


#: ``use`` by its arguments: a lookup here, instead of a call into the (uncompiled)
#: interning of ``Action.of``, for the card decisions built on every ask. Bounded by
#: the cards' options (a card, a slot, a kept card, a count).
_USED: Final[dict[tuple, Action]] = {}


# ------------------------------------------------------------------ the turn's moments

def start_of_turn(state: State, seat: int) -> None:
    keeps = state.keeps[seat]
    if keeps and state.owns(seat, "hibernation"):
        _queue(state, "hibernation", seat)
    if _DOMINATE[seat] in state.marks:
        state.marks.discard(_DOMINATE[seat])
        _queue(state, "dominate", seat)
    if keeps and state.owns(seat, "made_in_a_lab"):
        _queue(state, "made_in_a_lab", seat)


def extra_dice(state: State, seat: int) -> int:
    if not state.keeps[seat]:  # (most turns: no card to look for)
        return 0
    return state.owns(seat, "extra_head") + state.owns(seat, "natural_selection")


def extra_rolls(state: State, seat: int) -> int:
    if not state.keeps[seat]:  # (most turns: no card to look for)
        return 0
    return int(state.owns(seat, "giant_brain"))


def stopped_rolling(state: State, seat: int) -> None:
    if state.keeps[seat] and state.owns(seat, "eye_of_the_storm") and state.rolls_left > 0:
        state.gain_energy(seat, state.rolls_left, "Eye of the Storm")
    state.rolls_left = 0


def before_resolving(state: State, seat: int) -> None:
    """Natural Selection's risk, then the choices to set dice aside or skip resolving."""
    if not state.keeps[seat]:
        return
    # "Your roll" is the dice left in front of you (seed 002: "це означає саме ці
    # кубики"), read before resolving begins: not Xenoid's added faces (its superpower
    # is part of resolving) nor the extra claws of Acid Attack or Adrenaline Augment;
    # dice Titanic Batteries sets aside later still count (docs/duel.md, "Rulings").
    dice = state.dice
    if state.owns(seat, "natural_selection") and any([dice.count(face) >= 4 for face in dice]):
        state.damage(seat, 10, "Natural Selection")
    # After Natural Selection's damage, which Camouflage's choice may hold back.
    if state.owns(seat, "rebooting"):
        later(state, "rebooting", seat)
    if state.owns(seat, "titanic_batteries") and state.tokens[seat] < 2:
        later(state, "titanic_batteries", seat)


def roll_cards_act(state: State, seat: int, counts: list[int]) -> bool:
    """Whether a card of ``seat`` reads this roll (``roll_cards`` has work to do)."""
    return bool(state.keeps[seat]) and (
        (state.owns(seat, "antimatter_pellets") and max(counts) >= 5)
        or (state.owns(seat, "utter_destruction") and min(counts) >= 1)
        or (state.owns(seat, "signature_move") and counts[POWER] >= 3))


def roll_cards(state: State, seat: int, counts: list[int]) -> None:
    """The cards that read the roll's result: each effect a queued step, so that a
    damage Camouflage's owner may reduce comes before what follows it."""
    rival = 1 - seat
    if state.owns(seat, "antimatter_pellets") and max(counts) >= 5:
        later(state, "damage", rival, 4, "Antimatter Pellets")
        later(state, "pull", seat, DESTRUCTION_TRACK, 2, "Antimatter Pellets")
    if state.owns(seat, "utter_destruction") and min(counts) >= 1:
        later(state, "pull", seat, DESTRUCTION_TRACK, 2, "Utter Destruction")
        later(state, "pull", seat, FAME_TRACK, 2, "Utter Destruction")
        later(state, "damage", rival, 2, "Utter Destruction")
    if state.owns(seat, "signature_move") and counts[POWER] >= 3:
        later(state, "pull", seat, FAME_TRACK, counts[POWER] // 3, "Signature Move")


def may_add_claws(state: State, seat: int) -> bool:
    """Whether a card of ``seat`` may add claws to its roll (so the claws resolve even
    without a claw face)."""
    if not state.keeps[seat]:  # (most turns: no card to look for)
        return False
    return state.owns(seat, "acid_attack") or state.owns(seat, "adrenaline_augment")


def extra_claws(state: State, seat: int, counts: list[int]) -> int:
    if not state.keeps[seat]:
        return 0
    extra = int(state.owns(seat, "acid_attack"))
    if state.owns(seat, "adrenaline_augment"):
        sides = (0, 1) if ADRENALINE_COUNTS_BOTH_SIDES else (seat,)
        extra += sum(1 for marker in state.board.markers
                     if any(state.board.in_spotlight(marker, side) for side in sides))
    return extra


def after_resolving(state: State, seat: int) -> None:
    if not state.keeps[seat]:  # (most turns: no card to look for)
        return
    if state.owns(seat, "gentle_giant") and state.counts()[CLAW] == 0:
        state.pull(seat, FAME_TRACK, 1, "Gentle Giant")


def buy_step_actions(state: State, seat: int) -> list[Action]:
    if not state.keeps[seat]:  # (most turns: no card to look for)
        return []
    if state.owns(seat, "alien_metabolism") and "alien_metabolism" not in state.flags:
        return [use("alien_metabolism", slot) for slot in (1, 2, 3) if state.market[slot - 1]]
    return []


def use_in_buy_step(state: State, seat: int, action: Action) -> None:
    # Alien Metabolism: discard a face-up card; the row slides and refills
    state.flags.add("alien_metabolism")
    card = state.take_from_market(action.args[1])
    state.gone.append(card)
    state.say("discard_market", seat, card)


#: The end-of-turn cards whose order their owner chooses (seed 002, "Кінець ходу":
#: "Розіграйте їх у будь-якому порядку на свій вибір").
END_OF_TURN_CARDS: Final[tuple[str, ...]] = ("electrical_aura", "in_shape")


def end_of_turn(state: State, seat: int) -> None:
    """The end-of-turn cards, each a queued step: the active monster's in the order it
    chooses (an ``order`` decision when both act), then the rival's In Shape."""
    rival = 1 - seat
    if not state.keeps[seat] and not state.keeps[rival]:
        return
    steps: list[tuple] = []
    if state.owns(seat, "electrical_aura") and state.energy[seat] >= 7:
        steps.append(("effect", "electrical_aura", seat))
    if state.owns(seat, "in_shape") and state.taken[rival] > 3 and state.energy[seat] > 0:
        steps.append(("effect", "in_shape", seat))
    if len(steps) == 2:
        steps.insert(0, ("order",))
    if state.owns(rival, "in_shape") and state.taken[seat] > 3 and state.energy[rival] > 0:
        steps.append(("effect", "in_shape", rival))
    state.todo[0:0] = steps
    state.deferred += len(steps)


# ------------------------------------------------------------------ watched changes

def energy_gained(state: State, seat: int, amount: int, why: str) -> None:
    rival = 1 - seat
    if "resolving" in state.flags and seat == state.active and state.owns(rival, "superconductor"):
        later(state, "superconductor", rival, amount)


def heal_bonus(state: State, seat: int) -> int:
    if not state.keeps[seat]:  # (most turns: no card to look for)
        return 0
    if state.owns(seat, "regeneration") and _REGENERATED[seat] not in state.flags:
        state.flags.add(_REGENERATED[seat])
        return 1
    return 0


def prevent_damage(state: State, seat: int, amount: int) -> int:
    """What is left of ``amount`` once the cards guarding ``seat`` took their share."""
    if _UNSTOPPABLE[seat] in state.flags or not state.keeps[seat]:
        return 0 if _UNSTOPPABLE[seat] in state.flags else amount
    if state.owns(seat, "hibernation"):
        return 0
    rivals_turn = state.active != seat
    if rivals_turn and state.owns(seat, "armor_plating") and _ARMOR[seat] not in state.flags and amount > 0:
        state.flags.add(_ARMOR[seat])
        amount -= 1
    if (rivals_turn and state.owns(seat, "trend_setter") and _TREND[seat] not in state.flags and amount > 0
            and state.board.on_token(FAME_TRACK)):
        state.flags.add(_TREND[seat])
        amount -= 1
    if _CAMOUFLAGE_ROLL[seat] in state.flags and amount > 0:  # its owner chose to roll
        hearts = state.roll(amount).count(HEART)
        state.say("camouflage", seat, hearts)
        amount -= hearts
    if state.owns(seat, "unstoppable") and amount >= state.health[seat] > 0:
        state.discard_keep(seat, "unstoppable")
        state.flags.add(_UNSTOPPABLE[seat])
        amount = state.health[seat] - 1
    return amount


def camouflage_asks(state: State, amounts: dict[int, int], why: str) -> bool:
    """Whether the damage waits for Camouflage's owner to choose to roll ("may"): the
    choice is queued and the damage dealt once it is made (``decided``)."""
    for seat, amount in amounts.items():
        if (amount > 0 and state.keeps[seat] and state.owns(seat, "camouflage") and _CAMOUFLAGE[seat] not in state.flags
                and _UNSTOPPABLE[seat] not in state.flags and not state.owns(seat, "hibernation")):
            later(state, "camouflage", seat, tuple(sorted(amounts.items())), why)
            return True
    return False


def damage_taken(state: State, seat: int, amount: int) -> None:
    if amount >= 3 and state.keeps[seat] and state.owns(seat, "unstable_dna") and state.keeps[1 - seat]:
        later(state, "unstable_dna", seat)


def pulled(state: State, seat: int, track: int, moved: int, left: int, why: str) -> None:
    """After ``seat`` pulled a marker ``moved`` spaces, coming off a hype token ``left``
    times (before the bonus of the space it reached)."""
    if not state.keeps[seat]:  # (most turns: no card to look for)
        return
    if track == DESTRUCTION_TRACK:
        if state.owns(seat, "spiked_tail"):
            state.damage(1 - seat, moved, "Spiked Tail")
        # "while resolving your dice": any pull of the roller's while its roll resolves
        # (faces, superpower, cards that read the roll)
        if ("resolving" in state.flags and seat == state.active and state.owns(seat, "thunder_stomp")
                and "thunder_stomp" not in state.flags):
            state.flags.add("thunder_stomp")
            state.penalty[1 - seat] += 1
    if left and state.owns(seat, "scrappy"):  # each time the marker came off a hype token
        state.gain_tokens(seat, left, "Scrappy")


def empty_hype_space(state: State, seat: int, space: tuple[str, int]) -> None:
    if state.owns(seat, "lightning_speed") and not HYPE_TOKENS[space[0]].blocks:
        later(state, "lightning_speed", seat)  # "may": its owner chooses


def replace_bonus(state: State, seat: int, kind: str) -> str | None:
    """The bonus ``seat`` gains instead of ``kind``; ``None`` when Unchained's owner
    chooses first (a queued decision)."""
    if kind not in (SMASH, SMASH2) and state.keeps[seat] and state.owns(seat, "unchained"):
        later(state, "unchained", seat, kind)
        return None
    return kind


# ------------------------------------------------------------------ buying

def bought(state: State, seat: int, card: str) -> None:
    """A bought card acts (after its hype token is placed)."""
    rival = 1 - seat
    if state.owns(seat, "breaking_news"):
        state.pull(seat, FAME_TRACK, 1, "Breaking News")
    if BY_ID[card].type != DISCARD:
        state.gain_card(seat, card)
        if card == "natural_selection":
            state.gain_energy(seat, 4, "Natural Selection")
            state.heal(seat, 4, "Natural Selection")
        return
    state.say("play", seat, card)
    state.gone.append(card)
    if card == "cannonball":
        state.pull(seat, FAME_TRACK, 1, "Cannonball!")
        state.damage(rival, 1, "Cannonball!")
        state.gain_energy(seat, 4, "Cannonball!")
    elif card == "dominate":
        state.marks.add(_DOMINATE[rival])
    elif card == "energize":
        state.gain_energy(seat, 8, "Energize")
        state.gain_tokens(seat, 2, "Energize")
    elif card == "frenzy":
        state.extra_turn = True
    elif card == "hors_doeuvre":  # the pull waits for the damage (Camouflage's choice)
        state.damage(seat, 3, "Hors d'Oeuvre")
        later(state, "pull", seat, DESTRUCTION_TRACK, 2, "Hors d'Oeuvre")
    elif card == "jets_scrambled":
        state.damage_both({rival: 5, seat: 5}, "Jets Scrambled")
    elif card == "kaijutsu":
        state.pull(seat, DESTRUCTION_TRACK, 1, "Kaijutsu")
        state.damage(rival, 2, "Kaijutsu")
    elif card == "moment_of_respite":
        state.heal(seat, 2, "Moment of Respite")
        state.gain_tokens(seat, 1, "Moment of Respite")
    elif card == "monster_coaster":
        state.pull(seat, DESTRUCTION_TRACK, 3, "Monster Coaster")
    elif card == "monumental":
        state.pull(seat, DESTRUCTION_TRACK, 1, "Monumental")
        state.pull(seat, FAME_TRACK, 1, "Monumental")
    elif card == "operation_media":
        state.pull(seat, FAME_TRACK, claws_resolved(state), "Operation Media")
    elif card == "photoshoot":
        state.pull(seat, FAME_TRACK, 1, "Photoshoot")
    elif card == "sack_the_stadium":
        state.pull(seat, DESTRUCTION_TRACK, 2, "Sack the Stadium")
        state.pull(seat, FAME_TRACK, 2, "Sack the Stadium")
    elif card == "seismic_test":
        state.pull(seat, DESTRUCTION_TRACK, 2, "Seismic Test")
    elif card == "snack_time":
        state.heal(seat, 3, "Snack Time")
    elif card == "tesla_impulse":
        if state.keeps[rival]:
            _queue(state, "tesla_impulse", seat)
        elif TESLA_ENERGY_WITHOUT_DISCARD:
            state.gain_energy(seat, 2, "Tesla Impulse")
    elif card == "the_party_is_over":
        hit = {who: 4 for who in (0, 1) if any(state.board.in_spotlight(m, who) for m in state.board.markers)}
        if hit:
            state.damage_both(hit, "The Party Is Over!")
    elif card == "thermonuclear_cooking":
        state.pull(seat, DESTRUCTION_TRACK, 1, "Thermonuclear Cooking")
        state.heal(seat, 2, "Thermonuclear Cooking")
        state.gain_energy(seat, 2, "Thermonuclear Cooking")
    elif card == "too_cute":
        state.damage(rival, 2, "Too Cute")


def claws_resolved(state: State) -> int:
    """The claws the roll counted this turn (``rulings.OPERATION_MEDIA_COUNTS_EXTRA_CLAWS``)."""
    return state.claws_rolled


# ------------------------------------------------------------------ card decisions

def step(state: State, card: str, seat: int, *args: object) -> None:
    """A queued card moment that offers ``seat`` a choice (or acts at once), or a queued
    effect (``pull``, ``damage``)."""
    if card == "pull":
        state.pull(seat, *args)  # type: ignore[arg-type]
    elif card == "damage":
        state.damage(seat, *args)  # type: ignore[arg-type]
    elif card == "camouflage":
        if state.owns(seat, card):
            _ask(state, seat, card, [use(card)], seat, *args)
        else:  # the card changed hands since: the damage comes as it is
            state.damage_both(dict(args[0]), args[1])  # type: ignore[arg-type, call-overload]
    elif card == "lightning_speed":
        if state.owns(seat, card):
            _ask(state, seat, card, [use(card)], seat)
    elif card == "hibernation":  # pass: keep it, heal and end the turn; use: discard it and play
        if state.owns(seat, "hibernation"):
            _ask(state, seat, card, [use(card)], seat)
    elif card == "dominate":
        options = [use(card, kept) for kept in dict.fromkeys(state.keeps[seat])]
        if options:
            _ask(state, seat, card, options, seat)
    elif card == "made_in_a_lab":
        options = [use(card, slot) for slot in (1, 2, 3)
                   if state.market[slot - 1] and max(1, state.cost(slot) - 1) <= state.energy[seat]]
        if options:
            _ask(state, seat, card, options, seat)
    elif card == "rebooting":
        if state.owns(seat, "rebooting"):
            _ask(state, seat, card, [use(card)], seat)
    elif card == "titanic_batteries":
        counts = state.counts()
        faces = [f for f in range(6) if counts[f] > 0]
        options = [use(card, FACE_NAMES[a], FACE_NAMES[b]) for i, a in enumerate(faces) for b in faces[i:]
                   if a != b or counts[a] >= 2]
        if options and state.tokens[seat] < 2:
            _ask(state, seat, card, options, seat)
    elif card == "electrical_aura":  # checked again: In Shape may have spent the energy first
        if state.owns(seat, card) and state.energy[seat] >= 7:
            state.pull(seat, DESTRUCTION_TRACK, state.energy[seat] // 7, "Electrical Aura")
    elif card == "in_shape":
        most = min(state.taken[1 - seat] - 3, state.energy[seat])
        if most > 0 and state.owns(seat, card):
            _ask(state, seat, card, [use(card, k) for k in range(1, most + 1)], seat)
    elif card == "superconductor":
        if state.owns(seat, "superconductor"):
            _ask(state, seat, card, [use(card)], seat, args[0])
    elif card == "tesla_impulse":
        options = [use(card, kept) for kept in dict.fromkeys(state.keeps[1 - seat])]
        if options:  # a card must be chosen: no pass
            state.ask(seat, "card", options, ("card", card, seat))
    elif card == "unchained":
        _ask(state, seat, card, [use(card)], seat, args[0])
    elif card == "unstable_dna":
        if state.owns(seat, "unstable_dna") and state.keeps[1 - seat]:
            options = [use(card, kept) for kept in dict.fromkeys(state.keeps[1 - seat])]
            _ask(state, seat, card, options, seat)


def decided(state: State, card: str, action: Action, args: tuple) -> None:
    """The answer to a card decision."""
    seat = args[0]
    chosen = action is not PASS_ACTION
    if card == "hibernation":
        if chosen:
            state.discard_keep(seat, card)
        else:
            state.heal(seat, HIBERNATION_HEAL, "Hibernation")
            state.todo[:] = [("end",)]
    elif card == "dominate":
        if chosen:
            state.discard_keep(seat, action.args[1])
            _queue(state, "dominate", seat)
        else:
            state.penalty[seat] += len(state.keeps[seat])
            state.say("dominated", seat, len(state.keeps[seat]))
    elif card == "made_in_a_lab" and chosen:
        slot = action.args[1]
        state.buy_card(seat, slot, max(1, state.cost(slot) - 1))
        state.bought = True  # a purchase of the turn: no "bought nothing" energy
    elif card == "camouflage":
        state.flags.add(_CAMOUFLAGE[seat])
        if chosen:
            state.flags.add(_CAMOUFLAGE_ROLL[seat])
        state.damage_both(dict(args[1]), args[2])
        state.flags.discard(_CAMOUFLAGE[seat])
        state.flags.discard(_CAMOUFLAGE_ROLL[seat])
    elif card == "lightning_speed" and chosen:
        state.damage(1 - seat, 1, "Lightning Speed")
    elif card == "rebooting" and chosen:
        state.discard_keep(seat, card)
        state.flags.add("skip_resolve")
        state.gain_tokens(seat, 2, "Rebooting")
        state.gain_energy(seat, 2, "Rebooting")
    elif card == "titanic_batteries" and chosen:
        state.aside.extend(FACE_NAMES.index(word) for word in action.args[1:])
        state.gain_tokens(seat, 1, "Titanic Batteries")
    elif card == "in_shape" and chosen:
        count = action.args[1]
        state.pay(seat, count)
        state.pull(seat, FAME_TRACK, count, "In Shape")
    elif card == "superconductor" and chosen:
        state.discard_keep(seat, card)
        state.gain_energy(seat, args[1], "Superconductor")
    elif card == "tesla_impulse":
        state.discard_keep(1 - seat, action.args[1])
        state.gain_energy(seat, 2, "Tesla Impulse")
    elif card == "unchained":
        kind = SMASH if chosen else args[1]
        state.apply_bonus(seat, kind)
    elif card == "unstable_dna" and chosen:
        theirs = action.args[1]
        state.keeps[1 - seat].remove(theirs)
        state.keeps[seat].remove(card)
        state.keeps[seat].append(theirs)
        state.keeps[1 - seat].append(card)
        state.say("swap", seat, card, theirs)


__all__ = ["HIBERNATION_HEAL", "use"]
