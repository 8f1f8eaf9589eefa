"""What the cards of the classic deck do (first edition, as the seeds describe it).

One :class:`~kotarena.games.kot.cards.effects.Effect` subclass per card id, registered in
:data:`KOT_EFFECTS` by the :func:`card` decorator. Rulings taken where the seeds are
silent are listed in ``docs/cards.md``; the comments here only say why code looks the
way it does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kotarena.engine.dice import FACE_NAMES, HEART, ONE, THREE, TWO
from kotarena.games.kot.cards.effects import Effect, use_action
from kotarena.games.kot.kinds import BUY_CARDS, CITY, DAMAGE, DICE_CARDS, END_CARDS, HEARTS, PROBE, REVEAL, START_CARDS

if TYPE_CHECKING:
    from kotarena.engine.actions import Action
    from kotarena.games.kot.state import State

KOT_EFFECTS: dict[str, Effect] = {}


def card(card_id: str):
    """Register an effect class for ``card_id`` (one shared instance)."""

    def register(cls: type[Effect]) -> type[Effect]:
        cls.id = card_id
        KOT_EFFECTS[card_id] = cls()
        return cls

    return register


def others(s: State, p: int) -> list[int]:
    """The other living monsters, in turn order from ``p``'s left."""
    n = s.n
    return [(p + step) % n for step in range(1, n) if s.alive[(p + step) % n]]


def neighbours(s: State, p: int) -> set[int]:
    """The nearest living monster on each side of ``p`` (one monster with two players)."""
    rest = others(s, p)
    return {rest[0], rest[-1]} if rest else set()


# ---------------------------------------------------------------- discard cards


class Instant(Effect):
    """A discard card: stars, energy, health, then damage, when bought."""

    stars = 0
    energy = 0
    heal = 0
    hurt_self = 0
    hurt_others = 0

    def on_buy(self, s: State, p: int, card: int) -> None:
        if self.stars:
            s.gain_stars(p, self.stars, self.id)
        if self.energy:
            s.gain_energy(p, self.energy)
        if self.heal:
            s.heal(p, self.heal)
        if self.hurt_self:
            s.queue_damage(p, self.hurt_self, p)
        if self.hurt_others:
            for q in others(s, p):
                s.queue_damage(q, self.hurt_others, p)


@card("apartment_building")
class ApartmentBuilding(Instant):
    stars = 3


@card("commuter_train")
class CommuterTrain(Instant):
    stars = 2


@card("corner_store")
class CornerStore(Instant):
    stars = 1


@card("skyscraper")
class Skyscraper(Instant):
    stars = 4


@card("energize")
class Energize(Instant):
    energy = 9


@card("heal")
class Heal(Instant):
    heal = 2


@card("nuclear_power_plant")
class NuclearPowerPlant(Instant):
    stars = 2
    heal = 3


@card("jet_fighters")
class JetFighters(Instant):
    stars = 5
    hurt_self = 4


@card("national_guard")
class NationalGuard(Instant):
    stars = 2
    hurt_self = 2


@card("tanks")
class Tanks(Instant):
    stars = 4
    hurt_self = 3


@card("fire_blast")
class FireBlast(Instant):
    hurt_others = 2


@card("gas_refinery")
class GasRefinery(Instant):
    stars = 2
    hurt_others = 3


@card("high_altitude_bombing")
class HighAltitudeBombing(Instant):
    hurt_self = 3
    hurt_others = 3


@card("evacuation_orders")
class EvacuationOrders(Effect):

    def on_buy(self, s: State, p: int, card: int) -> None:
        for q in others(s, p):
            s.lose_stars(q, 5, self.id)


@card("vast_storm")
class VastStorm(Effect):

    def on_buy(self, s: State, p: int, card: int) -> None:
        s.gain_stars(p, 2, self.id)
        for q in others(s, p):
            s.lose_energy(q, s.energy[q] // 2, self.id)


@card("drop_from_high_altitude")
class DropFromHighAltitude(Effect):

    def on_buy(self, s: State, p: int, card: int) -> None:
        s.gain_stars(p, 2, self.id)
        if not s.in_tokyo(p):
            if s.city >= 0:
                s.leave_tokyo(s.city, self.id)
            s.take_tokyo(p, CITY)


@card("frenzy")
class Frenzy(Effect):

    def on_buy(self, s: State, p: int, card: int) -> None:
        s.add_extra_turn()


# ---------------------------------------------------------------- keep cards: stars and energy


@card("energy_hoarder")
class EnergyHoarder(Effect):
    moments = ("end_turn",)

    def end_turn(self, s: State, p: int, card: int) -> None:
        if s.energy[p] >= 6:
            s.gain_stars(p, s.energy[p] // 6, self.id)


@card("solar_powered")
class SolarPowered(Effect):
    moments = ("end_turn",)

    def end_turn(self, s: State, p: int, card: int) -> None:
        if s.energy[p] == 0:
            s.gain_energy(p, 1)


@card("friend_of_children")
class FriendOfChildren(Effect):
    moments = ("energy_bonus",)

    def energy_bonus(self, s: State, p: int, card: int, amount: int) -> int:
        return 1 if amount > 0 else 0


@card("rooting_for_the_underdog")
class RootingForTheUnderdog(Effect):
    moments = ("end_turn",)

    def end_turn(self, s: State, p: int, card: int) -> None:
        if all(s.stars[p] < s.stars[q] for q in others(s, p)):
            s.gain_stars(p, 1, self.id)


@card("dedicated_news_team")
class DedicatedNewsTeam(Effect):
    moments = ("bought",)

    def bought(self, s: State, p: int, card: int, info) -> None:
        s.gain_stars(p, 1, self.id)


# ---------------------------------------------------------------- keep cards: health


@card("even_bigger")
class EvenBigger(Effect):

    def gained(self, s: State, p: int, card: int) -> None:
        s.add_max_health(p, 2)
        s.heal(p, 2)

    def lost(self, s: State, p: int, card: int) -> None:
        s.add_max_health(p, -2)


@card("regeneration")
class Regeneration(Effect):
    moments = ("heal_bonus",)

    def heal_bonus(self, s: State, p: int, card: int, amount: int) -> int:
        return 1


@card("armor_plating")
class ArmorPlating(Effect):
    moments = ("guard",)

    def guard(self, s: State, p: int, card: int, amount: int, source: int, attack: bool) -> int:
        if amount == 1:
            s.log_event(("prevent", p, 1, self.id))
            return 0
        return amount


@card("camouflage")
class Camouflage(Effect):
    moments = ("guard",)

    def guard(self, s: State, p: int, card: int, amount: int, source: int, attack: bool) -> int:
        faces = s.roll_card_dice(amount)
        cancelled = faces.count(HEART)
        s.log_event(("camouflage", p, tuple(faces), cancelled))
        return amount - cancelled


@card("were_only_making_it_stronger")
class WereOnlyMakingItStronger(Effect):
    moments = ("hurt",)

    def hurt(self, s: State, p: int, card: int, amount: int) -> None:
        if amount >= 2:
            s.gain_energy(p, 1)


@card("it_has_a_child")
class ItHasAChild(Effect):
    moments = ("rescue",)

    def rescue(self, s: State, p: int, card: int) -> bool:
        s.log_event(("rescued", p, self.id))
        if s.in_tokyo(p):
            s.leave_tokyo(p, self.id)
        for c in list(s.owned[p]):
            s.discard_card(p, c)
        s.lose_stars(p, s.stars[p], self.id)
        s.health[p] = 0
        s.heal(p, s.max_health[p])
        return True


@card("eater_of_the_dead")
class EaterOfTheDead(Effect):
    moments = ("zero",)

    def zero(self, s: State, owner: int, card: int, q: int) -> None:
        s.gain_stars(owner, 3, self.id)


#: Where Rapid Healing is offered: the owner's own decisions, and before damage.
_RAPID_HEALING_KINDS = frozenset((DICE_CARDS, BUY_CARDS, END_CARDS, DAMAGE))


@card("rapid_healing")
class RapidHealing(Effect):
    moments = ("offers",)
    offer_kinds = _RAPID_HEALING_KINDS

    def offers(self, s: State, p: int, card: int, kind: str) -> tuple[Action, ...]:
        if kind not in _RAPID_HEALING_KINDS or s.energy[p] < 2 or s.health[p] >= s.max_health[p]:
            return ()
        if kind == DAMAGE and s.pending_damage[1] + s.incoming(p) < s.health[p]:
            return ()  # healing now or after this damage is the same unless it would eliminate
        return (use_action(self.id),)

    def use(self, s: State, p: int, card: int, action: Action) -> None:
        s.pay(p, 2)
        s.heal(p, 1)


# ---------------------------------------------------------------- keep cards: attacks


class AttackBonus(Effect):
    moments = ("attack_bonus",)


@card("spiked_tail")
class SpikedTail(AttackBonus):

    def attack_bonus(self, s: State, p: int, card: int, target: int, from_tokyo: bool) -> int:
        return 1


@card("acid_attack")
class AcidAttack(Effect):
    moments = ("attack_bonus", "card_damage")

    def attack_bonus(self, s: State, p: int, card: int, target: int, from_tokyo: bool) -> int:
        return 1

    def card_damage(self, s: State, p: int, card: int) -> int:
        return 1


@card("urbavore")
class Urbavore(Effect):
    moments = ("start_turn", "attack_bonus")

    def start_turn(self, s: State, p: int, card: int) -> None:
        if s.in_tokyo(p):
            s.gain_stars(p, 1, self.id)

    def attack_bonus(self, s: State, p: int, card: int, target: int, from_tokyo: bool) -> int:
        return 1 if from_tokyo else 0


@card("burrowing")
class Burrowing(Effect):
    moments = ("attack_bonus", "taken")

    def attack_bonus(self, s: State, p: int, card: int, target: int, from_tokyo: bool) -> int:
        return 0 if from_tokyo else 1

    def taken(self, s: State, owner: int, card: int, p: int) -> None:
        s.queue_damage(p, 1, owner)


@card("fire_breathing")
class FireBreathing(AttackBonus):

    def attack_bonus(self, s: State, p: int, card: int, target: int, from_tokyo: bool) -> int:
        return 1 if target in neighbours(s, p) else 0


@card("nova_breath")
class NovaBreath(Effect):
    moments = ("targets",)

    def targets(self, s: State, p: int, card: int) -> bool:
        return True


@card("alpha_monster")
class AlphaMonster(Effect):
    moments = ("attacked",)

    def attacked(self, s: State, p: int, card: int, hit: list[int]) -> None:
        s.gain_stars(p, 1, self.id)


@card("poison_spit")
class PoisonSpit(Effect):
    moments = ("attacked",)

    def attacked(self, s: State, p: int, card: int, hit: list[int]) -> None:
        for q in hit:
            if s.alive[q]:
                s.add_tokens(q, "poison", 1)


@card("shrink_ray")
class ShrinkRay(Effect):
    moments = ("attacked",)

    def attacked(self, s: State, p: int, card: int, hit: list[int]) -> None:
        for q in hit:
            if s.alive[q]:
                s.add_tokens(q, "shrink", 1)


@card("alien_metabolism")
class AlienMetabolism(Effect):
    moments = ("cost",)

    def cost(self, s: State, p: int, card: int, cost: int) -> int:
        return cost - 1


@card("herbivore")
class Herbivore(Effect):
    moments = ("end_turn",)

    def end_turn(self, s: State, p: int, card: int) -> None:
        if not s.dealt:
            s.gain_stars(p, 1, self.id)


# ---------------------------------------------------------------- keep cards: dice


@card("gourmet")
class Gourmet(Effect):
    moments = ("score",)

    def score(self, s: State, p: int, card: int, dice: list[int]) -> int:
        return 2 if dice.count(ONE) >= 3 else 0


@card("omnivore")
class Omnivore(Effect):
    moments = ("score",)

    def score(self, s: State, p: int, card: int, dice: list[int]) -> int:
        return 2 if ONE in dice and TWO in dice and THREE in dice else 0


@card("complete_destruction")
class CompleteDestruction(Effect):
    moments = ("score",)

    def score(self, s: State, p: int, card: int, dice: list[int]) -> int:
        return 9 if len(set(dice)) == 6 else 0


@card("poison_quills")
class PoisonQuills(Effect):
    moments = ("claws",)

    def claws(self, s: State, p: int, card: int, dice: list[int], count: int) -> int:
        return count + 2 if dice.count(TWO) >= 3 else count


@card("extra_head")
class ExtraHead(Effect):
    moments = ("dice_count",)

    def dice_count(self, s: State, p: int, card: int, count: int) -> int:
        return count + 1


@card("freeze_time")
class FreezeTime(Effect):
    """With at least 1 1 1 at the end of your turn, play again with one die fewer.

    ``s.counters[card]`` is how many dice fewer the owner rolls on its current run of
    frozen turns: each frozen turn in a row rolls one fewer than the last (ruling in
    docs/cards.md), and the next ordinary turn rolls them all again.
    """

    moments = ("dice_count", "end_turn")
    initial_counters = 0

    def dice_count(self, s: State, p: int, card: int, count: int) -> int:
        return count - s.counters.get(card, 0)

    def end_turn(self, s: State, p: int, card: int) -> None:
        if s.dice.count(ONE) >= 3 and s.alive[p]:
            s.counters[card] = s.counters.get(card, 0) + 1
            s.add_extra_turn()
        else:
            s.counters[card] = 0


@card("giant_brain")
class GiantBrain(Effect):
    moments = ("bonus_reroll",)

    def bonus_reroll(self, s: State, p: int, card: int) -> bool:
        return True


class DiceCard(Effect):
    """A card offered before the dice resolve (the ``dice`` decision)."""

    moments = ("offers",)
    offer_kinds = frozenset({DICE_CARDS})

    def offers(self, s: State, p: int, card: int, kind: str) -> tuple[Action, ...]:
        return self.dice_offers(s, p, card) if kind == DICE_CARDS else ()

    def dice_offers(self, s: State, p: int, card: int) -> tuple[Action, ...]:
        return ()


def _face_arg(face: int) -> int | str:
    # The canonical argument of a face: 1, 2, 3 are numbers, the others words.
    return face + 1 if face <= THREE else FACE_NAMES[face]


def _face_of(arg: int | str) -> int:
    return FACE_NAMES.index(str(arg))


def _changes(card_id: str, dice: list[int]) -> tuple[Action, ...]:
    """``use <card> <position> <face>`` for every die and every face it does not show."""
    return tuple(
        use_action(card_id, position, _face_arg(face))
        for position, shown in enumerate(dice, 1)
        for face in range(6)
        if face != shown
    )


@card("herd_culler")
class HerdCuller(DiceCard):

    def dice_offers(self, s: State, p: int, card: int) -> tuple[Action, ...]:
        if s.has_flag(("used", card)):
            return ()
        return tuple(use_action(self.id, i) for i, face in enumerate(s.dice, 1) if face != ONE)

    def use(self, s: State, p: int, card: int, action: Action) -> None:
        s.set_flag(("used", card))
        s.set_die(p, action.args[1], ONE, self.id)


@card("plot_twist")
class PlotTwist(DiceCard):

    def dice_offers(self, s: State, p: int, card: int) -> tuple[Action, ...]:
        return _changes(self.id, s.dice)

    def use(self, s: State, p: int, card: int, action: Action) -> None:
        s.set_die(p, action.args[1], _face_of(action.args[2]), self.id)
        s.discard_card(p, card)


@card("stretchy")
class Stretchy(DiceCard):

    def dice_offers(self, s: State, p: int, card: int) -> tuple[Action, ...]:
        return _changes(self.id, s.dice) if s.energy[p] >= 2 else ()

    def use(self, s: State, p: int, card: int, action: Action) -> None:
        s.pay(p, 2)
        s.set_die(p, action.args[1], _face_of(action.args[2]), self.id)


@card("telepath")
class Telepath(DiceCard):

    def dice_offers(self, s: State, p: int, card: int) -> tuple[Action, ...]:
        return (use_action(self.id),) if s.energy[p] >= 1 else ()

    def use(self, s: State, p: int, card: int, action: Action) -> None:
        s.pay(p, 1)
        s.grant_reroll()


@card("smoke_cloud")
class SmokeCloud(DiceCard):

    initial_counters = 3

    def dice_offers(self, s: State, p: int, card: int) -> tuple[Action, ...]:
        return (use_action(self.id),) if s.counters.get(card, 0) > 0 else ()

    def use(self, s: State, p: int, card: int, action: Action) -> None:
        s.counters[card] -= 1
        if s.counters[card] == 0:
            s.discard_card(p, card)
        s.grant_reroll()


@card("background_dweller")
class BackgroundDweller(DiceCard):

    def dice_offers(self, s: State, p: int, card: int) -> tuple[Action, ...]:
        return tuple(use_action(self.id, i) for i, face in enumerate(s.dice, 1) if face == THREE)

    def use(self, s: State, p: int, card: int, action: Action) -> None:
        position = action.args[1]
        s.reroll_die(position)


# ---------------------------------------------------------------- keep cards: buying


@card("metamorph")
class Metamorph(Effect):
    moments = ("offers",)
    offer_kinds = frozenset({END_CARDS})

    def offers(self, s: State, p: int, card: int, kind: str) -> tuple[Action, ...]:
        if kind != END_CARDS:
            return ()
        ids = dict.fromkeys(s.cards_info[c].id for c in s.owned[p])
        return tuple(use_action(self.id, card_id) for card_id in ids)

    def use(self, s: State, p: int, card: int, action: Action) -> None:
        sold = s.owned_card(p, action.args[1])
        s.discard_card(p, sold)
        # Taking back the printed cost is not "gaining" energy for Friend of Children.
        s.receive(p, s.cards_info[sold].cost)
        s.log_event(("sell", p, s.cards_info[sold].id, s.cards_info[sold].cost))


@card("parasitic_tentacles")
class ParasiticTentacles(Effect):
    moments = ("offers",)
    offer_kinds = frozenset({BUY_CARDS})

    def offers(self, s: State, p: int, card: int, kind: str) -> tuple[Action, ...]:
        if kind != BUY_CARDS:
            return ()
        energy = s.energy[p]
        found = []
        for q in others(s, p):
            for c in dict.fromkeys(s.owned[q]):
                if s.cost(p, c) <= energy:
                    found.append(use_action(self.id, q + 1, s.cards_info[c].id))
        return tuple(dict.fromkeys(found))

    def use(self, s: State, p: int, card: int, action: Action) -> None:
        q = action.args[1] - 1
        taken = s.owned_card(q, action.args[2])
        price = s.cost(p, taken)
        s.pay(p, price)
        s.receive(q, price)
        s.remove_card(q, taken)
        s.log_event(("take card", p, q, s.cards_info[taken].id, price))
        s.gain_card(p, taken)


@card("made_in_a_lab")
class MadeInALab(Effect):
    moments = ("offers", "end_turn")
    offer_kinds = frozenset({BUY_CARDS})

    def offers(self, s: State, p: int, card: int, kind: str) -> tuple[Action, ...]:
        if kind != BUY_CARDS or not s.deck:
            s.peek = -1
            return ()
        s.peek = s.deck[-1]
        return (use_action(self.id),) if s.cost(p, s.peek) <= s.energy[p] else ()

    def use(self, s: State, p: int, card: int, action: Action) -> None:
        top = s.deck.pop()
        price = s.cost(p, top)
        s.pay(p, price)
        s.peek = -1
        s.log_event(("buy top", p, s.cards_info[top].id, price))
        s.gain_card(p, top)

    def end_turn(self, s: State, p: int, card: int) -> None:
        s.peek = -1


@card("monster_batteries")
class MonsterBatteries(Effect):
    moments = ("offers", "start_turn")
    offer_kinds = frozenset({BUY_CARDS})

    initial_counters = 0

    def gained(self, s: State, p: int, card: int) -> None:
        if card not in s.counters:
            s.set_flag(("charge", card))
        super().gained(s, p, card)

    def offers(self, s: State, p: int, card: int, kind: str) -> tuple[Action, ...]:
        if kind != BUY_CARDS or not s.has_flag(("charge", card)):
            return ()
        return tuple(use_action(self.id, amount) for amount in range(1, s.energy[p] + 1))

    def use(self, s: State, p: int, card: int, action: Action) -> None:
        amount = action.args[1]
        s.clear_flag(("charge", card))
        s.pay(p, amount)
        s.counters[card] = 2 * amount
        s.log_event(("charge", p, self.id, 2 * amount))

    def start_turn(self, s: State, p: int, card: int) -> None:
        taken = min(2, s.counters.get(card, 0))
        s.counters[card] = s.counters.get(card, 0) - taken
        s.receive(p, taken)  # taken from the card, not gained (Friend of Children does not add)
        if taken:
            s.log_event(("discharge", p, self.id, taken))
        if s.counters[card] <= 0:
            s.discard_card(p, card)


# ---------------------------------------------------------------- keep cards: before damage


@card("wings")
class Wings(Effect):
    moments = ("offers", "guard")
    offer_kinds = frozenset({DAMAGE})

    def offers(self, s: State, p: int, card: int, kind: str) -> tuple[Action, ...]:
        if kind == DAMAGE and s.energy[p] >= 2 and not s.has_flag(("wings", card)):
            return (use_action(self.id),)
        return ()

    def use(self, s: State, p: int, card: int, action: Action) -> None:
        s.pay(p, 2)
        s.set_flag(("wings", card))
        amount = s.cancel_pending_damage()
        s.log_event(("prevent", p, amount, self.id))

    def guard(self, s: State, p: int, card: int, amount: int, source: int, attack: bool) -> int:
        if s.has_flag(("wings", card)):
            s.log_event(("prevent", p, amount, self.id))
            return 0
        return amount


@card("jets")
class Jets(Effect):
    moments = ("offers",)
    offer_kinds = frozenset({DAMAGE})

    def offers(self, s: State, p: int, card: int, kind: str) -> tuple[Action, ...]:
        if kind != DAMAGE:
            return ()
        q, amount, source, attack = s.pending_damage
        if attack and s.in_tokyo(p) and not s.in_tokyo(source):
            return (use_action(self.id),)
        return ()

    def use(self, s: State, p: int, card: int, action: Action) -> None:
        amount = s.cancel_pending_damage()
        s.log_event(("prevent", p, amount, self.id))
        s.give_way(p)


# ---------------------------------------------------------------- keep cards: on other monsters' turns


@card("psychic_probe")
class PsychicProbe(Effect):
    moments = ("offers",)
    offer_kinds = frozenset({PROBE})

    def offers(self, s: State, p: int, card: int, kind: str) -> tuple[Action, ...]:
        if kind != PROBE or s.has_flag(("used", card)):
            return ()
        return tuple(use_action(self.id, i) for i in range(1, len(s.dice) + 1))

    def declined(self, s: State, p: int, card: int, kind: str) -> None:
        s.set_flag(("used", card))

    def use(self, s: State, p: int, card: int, action: Action) -> None:
        s.set_flag(("used", card))
        position = action.args[1]
        if s.reroll_die(position) == HEART:
            s.discard_card(p, card)


@card("opportunist")
class Opportunist(Effect):
    moments = ("offers", "revealed")
    offer_kinds = frozenset({REVEAL})

    def offers(self, s: State, p: int, card: int, kind: str) -> tuple[Action, ...]:
        if kind != REVEAL:
            return ()
        slot = s.revealed_slot
        new = s.market[slot]
        if new >= 0 and s.cost(p, new) <= s.energy[p]:
            return (use_action(self.id, slot + 1),)
        return ()

    def revealed(self, s: State, p: int, card: int) -> bool:
        return True

    def use(self, s: State, p: int, card: int, action: Action) -> None:
        slot = action.args[1] - 1
        bought = s.market[slot]
        price = s.cost(p, bought)
        s.pay(p, price)
        s.log_event(("buy", p, s.cards_info[bought].id, slot + 1, price))
        s.bought_revealed(slot)
        s.gain_card(p, bought)


@card("healing_ray")
class HealingRay(Effect):
    moments = ("offers",)
    offer_kinds = frozenset({HEARTS})

    def offers(self, s: State, p: int, card: int, kind: str) -> tuple[Action, ...]:
        if kind != HEARTS or not s.hearts_left:
            return ()
        return tuple(use_action(self.id, q + 1) for q in others(s, p) if s.health[q] < s.max_health[q])

    def use(self, s: State, p: int, card: int, action: Action) -> None:
        q = action.args[1] - 1
        s.spend_heart()
        s.heal(q, 1)
        # The healed monster pays 2 energy per health, or what it has if less.
        paid = min(2, s.energy[q])
        s.pay(q, paid)
        s.receive(p, paid)
        s.log_event(("pay", q, p, paid, self.id))


# ---------------------------------------------------------------- Mimic


@card("mimic")
class Mimic(Effect):
    """The mimic token sits on another card (``s.mimic``); the engine adds that card's
    hooks for Mimic's owner, acting as the Mimic card, so counters and once-a-turn
    uses of the copy are Mimic's own."""

    moments = ("offers",)
    offer_kinds = frozenset({BUY_CARDS, START_CARDS})
    copies_cards = True

    def gained(self, s: State, p: int, card: int) -> None:
        s.set_flag(("place", card))  # placing it right after buying is free

    def lost(self, s: State, p: int, card: int) -> None:
        if s.mimic >= 0:
            self._lift(s, p, card)

    def offers(self, s: State, p: int, card: int, kind: str) -> tuple[Action, ...]:
        if kind == BUY_CARDS and s.has_flag(("place", card)):
            pass
        elif kind != START_CARDS or s.energy[p] < 1:
            return ()
        info = s.cards_info
        targets = []
        for q in others(s, p):
            for c in s.owned[q]:
                if c != s.mimic and info[c].id != self.id:
                    targets.append(use_action(self.id, q + 1, info[c].id))
        return tuple(dict.fromkeys(targets))

    def use(self, s: State, p: int, card: int, action: Action) -> None:
        if s.kind == START_CARDS:
            s.pay(p, 1)
        s.clear_flag(("place", card))
        if s.mimic >= 0:
            self._lift(s, p, card)
        q = action.args[1] - 1
        s.mimic = s.owned_card(q, action.args[2])
        s.log_event(("mimic", p, q, action.args[2]))
        s.cards_changed()
        # The copy comes into play as if just bought, with Mimic's own counters.
        s.effect_of(s.mimic).gained(s, p, card)

    def _lift(self, s: State, p: int, card: int) -> None:
        """Take the token back: the copy leaves play."""
        target, s.mimic = s.mimic, -1
        s.effect_of(target).lost(s, p, card)
        s.counters.pop(card, None)
