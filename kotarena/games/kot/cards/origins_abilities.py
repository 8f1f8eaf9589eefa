"""The effects of the cards new in King of Tokyo: Origins (the 14 starred cards) that
are not simple blocks: choices (Biofuel, Electric Armor, Scavenger, Shrinky), and
effects that reach other monsters (Draining Ray, Flaming Aura, Orb of Doom).

The starred cards that are blocks (Barricades, Ice Cream Truck, Supertower, Gamma
Blast, Hungry Urbavore, Jagged Tactician, Bull Headed) are built in the deck table
(:mod:`~kotarena.games.kot.cards.origins`). Rulings are in ``docs/cards.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kotarena.games.kot.cards.abilities import DiceCard
from kotarena.games.kot.cards.blocks import four_of_a_kind, others
from kotarena.games.kot.cards.effects import Effect, use_action
from kotarena.games.kot.cards.info import DISCARD
from kotarena.games.kot.faces import ONE, TWO
from kotarena.games.kot.kinds import BUY_CARDS, DAMAGE, HEARTS
from kotarena.games.kot.rulings import BIOFUEL_IN_TOKYO, DRAINING_RAY_ROBS_EVERY_TIED_LEADER

if TYPE_CHECKING:
    from kotarena.engine.actions import Action
    from kotarena.games.kot.state import State


class Biofuel(Effect):
    """In the ``hearts`` decision, ``use biofuel`` spends one heart result for 1 energy
    (gained, as an energy die gives it), in Tokyo or not."""

    moments = ("offers",)
    offer_kinds = frozenset({HEARTS})

    def offers(self, s: State, p: int, card: int, kind: str) -> tuple[Action, ...]:
        if kind != HEARTS or not s.hearts_left or (not BIOFUEL_IN_TOKYO and s.in_tokyo(p)):
            return ()
        return (use_action(self.id),)

    def use(self, s: State, p: int, card: int, action: Action) -> None:
        s.spend_heart()
        s.gain_energy(p, 1)


class DrainingRay(Effect):
    """When your dice show four of a kind, every other monster with the most stars (the
    most of all living monsters, at least 1) gives you 1 star."""

    moments = ("score",)

    def score(self, s: State, p: int, card: int, dice: list[int]) -> int:
        if not four_of_a_kind(dice):
            return 0
        most = max(s.stars[q] for q in range(s.n) if s.alive[q])
        robbed = [q for q in others(s, p) if s.stars[q] == most] if most > 0 else []
        if not DRAINING_RAY_ROBS_EVERY_TIED_LEADER and len(robbed) > 1:
            robbed = []
        for q in robbed:
            s.lose_stars(q, 1, self.id)
        if robbed:
            s.gain_stars(p, len(robbed), self.id)
        return 0


class FlamingAura(Effect):
    """When your dice show four of a kind, every other monster loses 1 health (card
    damage, not an attack; it lands with the turn's other damage once the dice resolved)."""

    moments = ("score",)

    def score(self, s: State, p: int, card: int, dice: list[int]) -> int:
        if four_of_a_kind(dice):
            for q in others(s, p):
                s.queue_damage(q, 1, p)
        return 0


class OrbOfDoom(Effect):
    """Each reroll another monster makes costs it 1 health: card damage from the Orb's
    owner, dealt at the reroll itself (``roll.reroll`` drains the queue there), so a
    roller brought to 0 is out before its dice resolve."""

    moments = ("rerolled",)

    def rerolled(self, s: State, owner: int, card: int, p: int) -> None:
        s.queue_damage(p, 1, owner)


class ElectricArmor(Effect):
    """In the ``damage`` decision, ``use electric_armor`` pays 1 energy to lose 1 health
    less from the damage about to land (once per damage)."""

    moments = ("offers", "guard")
    offer_kinds = frozenset({DAMAGE})

    def guard(self, s: State, p: int, card: int, amount: int, source: int, attack: bool) -> int:
        s.clear_flag(("armor", card))  # a new damage: the armour may act on it once
        return amount

    def offers(self, s: State, p: int, card: int, kind: str) -> tuple[Action, ...]:
        if kind == DAMAGE and s.energy[p] >= 1 and not s.has_flag(("armor", card)):
            return (use_action(self.id),)
        return ()

    def use(self, s: State, p: int, card: int, action: Action) -> None:
        s.pay(p, 1)
        s.set_flag(("armor", card))
        s.log_event(("prevent", p, s.cancel_pending_damage(1), self.id))


class Scavenger(Effect):
    """In your buy step, ``use scavenger CARD`` buys a card from the discard pile at its
    (discounted) cost; a discard card bought so goes to the bottom of the deck once played."""

    moments = ("offers",)
    offer_kinds = frozenset({BUY_CARDS})

    def offers(self, s: State, p: int, card: int, kind: str) -> tuple[Action, ...]:
        if kind != BUY_CARDS:
            return ()
        energy = s.energy[p]
        info = s.cards_info
        return tuple(dict.fromkeys(use_action(self.id, info[c].id) for c in s.discard if s.cost(p, c) <= energy))

    def use(self, s: State, p: int, card: int, action: Action) -> None:
        card_id = action.args[1]
        bought = next(c for c in reversed(s.discard) if s.cards_info[c].id == card_id)
        price = s.cost(p, bought)
        s.pay(p, price)
        s.discard.remove(bought)
        s.log_event(("buy discarded", p, card_id, price))
        s.gain_card(p, bought)
        if s.cards_info[bought].type == DISCARD:
            s.discard.remove(bought)
            s.deck.insert(0, bought)  # the deck's top is its end
        s.cards_changed()


class Shrinky(DiceCard):
    """In the ``dice`` decision, ``use shrinky N`` turns die ``N`` from a 2 into a 1 (as
    often as 2s show)."""

    def dice_offers(self, s: State, p: int, card: int) -> tuple[Action, ...]:
        return tuple(use_action(self.id, i) for i, face in enumerate(s.dice, 1) if face == TWO)

    def use(self, s: State, p: int, card: int, action: Action) -> None:
        s.set_die(p, action.args[1], ONE, self.id)
