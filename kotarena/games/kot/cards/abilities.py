"""The effects of cards that are their own: choices (the cards' ``use`` actions),
counters, guards with dice, the mimic token. Any deck table may use them; the simple
effects most cards are made of are blocks (:mod:`~kotarena.games.kot.cards.blocks`).

Rulings taken where the seeds are silent are listed in ``docs/cards.md``; the comments
here only say why code looks the way it does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kotarena.games.kot.cards.blocks import others
from kotarena.games.kot.cards.effects import Effect, use_action
from kotarena.games.kot.faces import FACE_NAMES, HEART, ONE, THREE
from kotarena.games.kot.kinds import BUY_CARDS, DAMAGE, DICE_CARDS, END_CARDS, HEARTS, PROBE, REVEAL, START_CARDS
from kotarena.games.kot.rulings import (
    HEALING_RAY_FROM_TOKYO,
    MIMIC_MAY_COPY_ITS_OWNERS_CARDS,
    RAPID_HEALING_BEFORE_DAMAGE_ONLY_IF_FATAL,
)

if TYPE_CHECKING:
    from kotarena.engine.actions import Action
    from kotarena.games.kot.state import State


# ---------------------------------------------------------------- damage and health


class Camouflage(Effect):
    moments = ("guard",)

    def guard(self, s: State, p: int, card: int, amount: int, source: int, attack: bool) -> int:
        faces = s.roll_card_dice(amount)
        cancelled = faces.count(HEART)
        s.log_event(("camouflage", p, tuple(faces), cancelled))
        return amount - cancelled


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


_RAPID_HEALING_KINDS = frozenset((DICE_CARDS, BUY_CARDS, END_CARDS, DAMAGE))


class RapidHealing(Effect):
    moments = ("offers",)
    offer_kinds = _RAPID_HEALING_KINDS

    def offers(self, s: State, p: int, card: int, kind: str) -> tuple[Action, ...]:
        if kind not in _RAPID_HEALING_KINDS or s.energy[p] < 2 or s.health[p] >= s.max_health[p]:
            return ()
        if (RAPID_HEALING_BEFORE_DAMAGE_ONLY_IF_FATAL and kind == DAMAGE
                and s.pending_damage[1] + s.incoming(p) < s.health[p]):
            return ()  # healing now or after this damage is the same unless it would eliminate
        return (use_action(self.id),)

    def use(self, s: State, p: int, card: int, action: Action) -> None:
        s.pay(p, 2)
        s.heal(p, 1)


# ---------------------------------------------------------------- dice


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


class HerdCuller(DiceCard):

    def dice_offers(self, s: State, p: int, card: int) -> tuple[Action, ...]:
        if s.has_flag(("used", card)):
            return ()
        return tuple(use_action(self.id, i) for i, face in enumerate(s.dice, 1) if face != ONE)

    def use(self, s: State, p: int, card: int, action: Action) -> None:
        s.set_flag(("used", card))
        s.set_die(p, action.args[1], ONE, self.id)


class PlotTwist(DiceCard):

    def dice_offers(self, s: State, p: int, card: int) -> tuple[Action, ...]:
        return _changes(self.id, s.dice)

    def use(self, s: State, p: int, card: int, action: Action) -> None:
        s.set_die(p, action.args[1], _face_of(action.args[2]), self.id)
        s.discard_card(p, card)


class Stretchy(DiceCard):

    def dice_offers(self, s: State, p: int, card: int) -> tuple[Action, ...]:
        return _changes(self.id, s.dice) if s.energy[p] >= 2 else ()

    def use(self, s: State, p: int, card: int, action: Action) -> None:
        s.pay(p, 2)
        s.set_die(p, action.args[1], _face_of(action.args[2]), self.id)


class Telepath(DiceCard):

    def dice_offers(self, s: State, p: int, card: int) -> tuple[Action, ...]:
        return (use_action(self.id),) if s.energy[p] >= 1 else ()

    def use(self, s: State, p: int, card: int, action: Action) -> None:
        s.pay(p, 1)
        s.grant_reroll()


class SmokeCloud(DiceCard):

    initial_counters = 3

    def dice_offers(self, s: State, p: int, card: int) -> tuple[Action, ...]:
        return (use_action(self.id),) if s.counters.get(card, 0) > 0 else ()

    def use(self, s: State, p: int, card: int, action: Action) -> None:
        s.counters[card] -= 1
        if s.counters[card] == 0:
            s.discard_card(p, card)
        s.grant_reroll()


class BackgroundDweller(DiceCard):

    def dice_offers(self, s: State, p: int, card: int) -> tuple[Action, ...]:
        return tuple(use_action(self.id, i) for i, face in enumerate(s.dice, 1) if face == THREE)

    def use(self, s: State, p: int, card: int, action: Action) -> None:
        position = action.args[1]
        s.reroll_die(position)


# ---------------------------------------------------------------- buying


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

    def lost(self, s: State, p: int, card: int) -> None:
        # Its owner may lose it before the end of its turn (eliminated in its buy step,
        # the card sold or taken): nobody sees the top card any more.
        s.peek = -1


class BatteryMonster(Effect):
    """Second edition: the card comes with 6 energy from the bank on it; at the start of
    each of its owner's turns 2 of them go to the owner; it is discarded when empty."""

    moments: tuple[str, ...] = ("start_turn",)
    initial_counters = 6

    def gained(self, s: State, p: int, card: int) -> None:
        if card not in s.counters:
            s.log_event(("charge", p, self.id, self.initial_counters))
        super().gained(s, p, card)

    def start_turn(self, s: State, p: int, card: int) -> None:
        taken = min(2, s.counters.get(card, 0))
        s.counters[card] = s.counters.get(card, 0) - taken
        s.receive(p, taken)  # taken from the card, not gained (Friend of Children does not add)
        if taken:
            s.log_event(("discharge", p, self.id, taken))
        if s.counters[card] <= 0:
            s.discard_card(p, card)


class MonsterBatteries(BatteryMonster):
    """First edition: its buyer charges it with its own energy, and the bank doubles it."""

    moments = ("offers", "start_turn")
    offer_kinds = frozenset({BUY_CARDS})

    initial_counters = 0

    def gained(self, s: State, p: int, card: int) -> None:
        if card not in s.counters:
            s.set_flag(("charge", card))
        Effect.gained(self, s, p, card)

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


# ---------------------------------------------------------------- before damage


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


# ---------------------------------------------------------------- on other monsters' turns


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


class HealingRay(Effect):
    moments = ("offers",)
    offer_kinds = frozenset({HEARTS})

    def offers(self, s: State, p: int, card: int, kind: str) -> tuple[Action, ...]:
        if kind != HEARTS or not s.hearts_left or (not HEALING_RAY_FROM_TOKYO and s.in_tokyo(p)):
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


# ---------------------------------------------------------------- the mimic token


class Mimic(Effect):
    """The mimic token sits on another keep card in play (``s.mimic``), any monster's,
    its owner's own included (seed 003); the engine adds that card's hooks for Mimic's
    owner, acting as the Mimic card, so counters and once-a-turn uses of the copy are
    Mimic's own."""

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
        owners = (*others(s, p), p) if MIMIC_MAY_COPY_ITS_OWNERS_CARDS else others(s, p)
        for q in owners:  # the owner's own cards last
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
