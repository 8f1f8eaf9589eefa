"""Effect blocks: the small effects most cards are made of, with their numbers as
arguments, so a deck table says ``Instant(stars=3)`` or ``AttackBonus(1, "from_tokyo")``
and a second deck repeats no code. Several blocks make one card with
:class:`~kotarena.games.kot.cards.effects.Combined`.

Blocks change the game only through the state's effect API (``docs/games.md``). The
cards whose effects are their own (choices, counters, the mimic token) are in
:mod:`~kotarena.games.kot.cards.abilities`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kotarena.games.kot.cards.effects import Effect
from kotarena.games.kot.faces import CLAW, ONE, THREE, TWO
from kotarena.games.kot.kinds import CITY
from kotarena.games.kot.rulings import UNDERDOG_NEEDS_STRICTLY_FEWEST_STARS

if TYPE_CHECKING:
    from kotarena.games.kot.state import State


def others(s: State, p: int) -> list[int]:
    """The other living monsters, in turn order from ``p``'s left."""
    n = s.n
    return [(p + step) % n for step in range(1, n) if s.alive[(p + step) % n]]


def neighbours(s: State, p: int) -> set[int]:
    """The nearest living monster on each side of ``p`` (one monster with two players)."""
    rest = others(s, p)
    return {rest[0], rest[-1]} if rest else set()


# ---------------------------------------------------------------- when bought


class Instant(Effect):
    """A discard card: stars, energy, health, then damage to its buyer and to every
    other monster (card damage, not an attack), when bought."""

    def __init__(self, *, stars: int = 0, energy: int = 0, heal: int = 0, hurt_self: int = 0,
                 hurt_others: int = 0) -> None:
        super().__init__()
        self.stars, self.energy, self.heal = stars, energy, heal
        self.hurt_self, self.hurt_others = hurt_self, hurt_others

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


class OthersLose(Effect):
    """When bought, every other monster loses ``stars`` (never below 0), or half its
    energy rounded down (``half_energy``)."""

    def __init__(self, *, stars: int = 0, half_energy: bool = False) -> None:
        super().__init__()
        self.stars, self.half_energy = stars, half_energy

    def on_buy(self, s: State, p: int, card: int) -> None:
        for q in others(s, p):
            if self.stars:
                s.lose_stars(q, self.stars, self.id)
            if self.half_energy:
                s.lose_energy(q, s.energy[q] // 2, self.id)


class TakeCity(Effect):
    """When bought, its buyer takes Tokyo City unless it is in Tokyo (City's monster leaves)."""

    def on_buy(self, s: State, p: int, card: int) -> None:
        if not s.in_tokyo(p):
            if s.city >= 0:
                s.leave_tokyo(s.city, self.id)
            s.take_tokyo(p, CITY)


class ExtraTurn(Effect):
    """When bought, its buyer plays another turn after this one."""

    def on_buy(self, s: State, p: int, card: int) -> None:
        s.add_extra_turn()


# ---------------------------------------------------------------- stars and energy


class StarsPerEnergy(Effect):
    """At the end of your turn, a star per full ``per`` energy you have (it stays)."""

    moments = ("end_turn",)

    def __init__(self, per: int) -> None:
        super().__init__()
        self.per = per

    def end_turn(self, s: State, p: int, card: int) -> None:
        if s.energy[p] >= self.per:
            s.gain_stars(p, s.energy[p] // self.per, self.id)


class EnergyWhenEmpty(Effect):
    """At the end of your turn, ``energy`` if you have none."""

    moments = ("end_turn",)

    def __init__(self, energy: int) -> None:
        super().__init__()
        self.energy = energy

    def end_turn(self, s: State, p: int, card: int) -> None:
        if s.energy[p] == 0:
            s.gain_energy(p, self.energy)


class UnderdogStars(Effect):
    """At the end of your turn, ``stars`` if you have fewer stars than every other monster."""

    moments = ("end_turn",)

    def __init__(self, stars: int) -> None:
        super().__init__()
        self.stars = stars

    def end_turn(self, s: State, p: int, card: int) -> None:
        mine = s.stars[p]
        if UNDERDOG_NEEDS_STRICTLY_FEWEST_STARS:
            fewest = all(mine < s.stars[q] for q in others(s, p))
        else:
            fewest = all(mine <= s.stars[q] for q in others(s, p))
        if fewest:
            s.gain_stars(p, self.stars, self.id)


class PeacefulStars(Effect):
    """At the end of your turn, ``stars`` if you made no other monster lose health."""

    moments = ("end_turn",)

    def __init__(self, stars: int) -> None:
        super().__init__()
        self.stars = stars

    def end_turn(self, s: State, p: int, card: int) -> None:
        if not s.dealt:
            s.gain_stars(p, self.stars, self.id)


class StarsPerPurchase(Effect):
    """``stars`` whenever you buy a card (after this one: ``CARDS_SEE_THEIR_OWN_PURCHASE``)."""

    moments = ("bought",)

    def __init__(self, stars: int) -> None:
        super().__init__()
        self.stars = stars

    def bought(self, s: State, p: int, card: int, info: Any) -> None:
        s.gain_stars(p, self.stars, self.id)


class StarsWhenAnyoneDrops(Effect):
    """``stars`` whenever a monster drops to 0 health."""

    moments = ("zero",)

    def __init__(self, stars: int) -> None:
        super().__init__()
        self.stars = stars

    def zero(self, s: State, owner: int, card: int, q: int) -> None:
        s.gain_stars(owner, self.stars, self.id)


class StartInTokyoStars(Effect):
    """``stars`` more when you start your turn in Tokyo."""

    moments = ("start_turn",)

    def __init__(self, stars: int) -> None:
        super().__init__()
        self.stars = stars

    def start_turn(self, s: State, p: int, card: int) -> None:
        if s.in_tokyo(p):
            s.gain_stars(p, self.stars, self.id)


class EnergyBonus(Effect):
    """``energy`` more whenever you gain energy."""

    moments = ("energy_bonus",)

    def __init__(self, energy: int) -> None:
        super().__init__()
        self.energy = energy

    def energy_bonus(self, s: State, p: int, card: int, amount: int) -> int:
        return self.energy if amount > 0 else 0


class EnergyWhenHurt(Effect):
    """``energy`` whenever you lose ``at_least`` health at once."""

    moments = ("hurt",)

    def __init__(self, energy: int, *, at_least: int) -> None:
        super().__init__()
        self.energy, self.at_least = energy, at_least

    def hurt(self, s: State, p: int, card: int, amount: int) -> None:
        if amount >= self.at_least:
            s.gain_energy(p, self.energy)


class Discount(Effect):
    """Cards you buy cost ``energy`` less."""

    moments = ("cost",)

    def __init__(self, energy: int) -> None:
        super().__init__()
        self.energy = energy

    def cost(self, s: State, p: int, card: int, cost: int) -> int:
        return cost - self.energy


# ---------------------------------------------------------------- health


class MaxHealth(Effect):
    """Your maximum health is ``amount`` more while you have the card; gain as much
    health when you get it, and lose as much when you lose it (not damage: at 0 you
    are eliminated)."""

    def __init__(self, amount: int) -> None:
        super().__init__()
        self.amount = amount

    def gained(self, s: State, p: int, card: int) -> None:
        s.add_max_health(p, self.amount)
        s.heal(p, self.amount)

    def lost(self, s: State, p: int, card: int) -> None:
        # Seeds 000/003/004: losing the card loses the health it gave, not only the maximum.
        s.lose_health(p, self.amount, self.id)
        s.add_max_health(p, -self.amount)


class HealBonus(Effect):
    """``amount`` more whenever you heal."""

    moments = ("heal_bonus",)

    def __init__(self, amount: int) -> None:
        super().__init__()
        self.amount = amount

    def heal_bonus(self, s: State, p: int, card: int, amount: int) -> int:
        return self.amount


class IgnoreDamage(Effect):
    """Damage of exactly ``amount`` does not reach you (each damage judged alone)."""

    moments = ("guard",)

    def __init__(self, *, exactly: int) -> None:
        super().__init__()
        self.exactly = exactly

    def guard(self, s: State, p: int, card: int, amount: int, source: int, attack: bool) -> int:
        if amount == self.exactly:
            s.log_event(("prevent", p, amount, self.id))
            return 0
        return amount


# ---------------------------------------------------------------- attacks


class AttackBonus(Effect):
    """``amount`` more damage to each monster your attack hits: ``always``, only
    ``from_tokyo``, only ``from_outside`` (an attack on Tokyo from outside: only the
    monsters in Tokyo take it, not the others Nova Breath hits), or only ``on_neighbours``."""

    moments = ("attack_bonus",)

    def __init__(self, amount: int, when: str = "always") -> None:
        super().__init__()
        if when not in ("always", "from_tokyo", "from_outside", "on_neighbours"):
            raise ValueError(f"unknown attack bonus condition {when!r}")
        self.amount, self.when = amount, when

    def attack_bonus(self, s: State, p: int, card: int, target: int, from_tokyo: bool) -> int:
        when = self.when
        if when == "always":
            return self.amount
        if when == "from_tokyo":
            return self.amount if from_tokyo else 0
        if when == "from_outside":
            return 0 if from_tokyo or not s.in_tokyo(target) else self.amount
        return self.amount if target in neighbours(s, p) else 0


class CardDamage(Effect):
    """``amount`` damage every turn to the monsters your claws would hit, when you roll
    no claw (card damage, not an attack)."""

    moments = ("card_damage",)

    def __init__(self, amount: int) -> None:
        super().__init__()
        self.amount = amount

    def card_damage(self, s: State, p: int, card: int) -> int:
        return self.amount


class HitEveryone(Effect):
    """Your claws damage every other monster, in Tokyo or not."""

    moments = ("targets",)

    def targets(self, s: State, p: int, card: int) -> bool:
        return True


class StarsForAttacking(Effect):
    """``stars`` when your attack deals damage (once per attack)."""

    moments = ("attacked",)

    def __init__(self, stars: int) -> None:
        super().__init__()
        self.stars = stars

    def attacked(self, s: State, p: int, card: int, hit: list[int]) -> None:
        s.gain_stars(p, self.stars, self.id)


class TokensOnHit(Effect):
    """Each monster your attack damages gets a ``kind`` token (``"poison"`` or ``"shrink"``)."""

    moments = ("attacked",)

    def __init__(self, kind: str) -> None:
        super().__init__()
        self.kind = kind

    def attacked(self, s: State, p: int, card: int, hit: list[int]) -> None:
        for q in hit:
            if s.alive[q]:
                s.add_tokens(q, self.kind, 1)


class NeighboursLose(Effect):
    """When your dice pass ``test`` (second edition's Fire Breathing: a claw), each of your
    neighbours loses ``amount`` health, as card damage of its own, whoever your claws hit."""

    moments = ("claws",)

    def __init__(self, amount: int, test: Callable[[list[int]], bool]) -> None:
        super().__init__()
        self.amount, self.test = amount, test

    def claws(self, s: State, p: int, card: int, dice: list[int], count: int) -> int:
        if self.test(dice):
            for q in sorted(neighbours(s, p)):
                s.queue_damage(q, self.amount, p)
        return count


class HurtWhoTakesMyPlace(Effect):
    """When you yield Tokyo, the monster that takes your place loses ``amount`` health
    (card damage)."""

    moments = ("taken",)

    def __init__(self, amount: int) -> None:
        super().__init__()
        self.amount = amount

    def taken(self, s: State, owner: int, card: int, p: int) -> None:
        s.queue_damage(p, self.amount, owner)


class EnergyWhenYielding(Effect):
    """``energy`` when you yield Tokyo."""

    moments = ("yielded",)

    def __init__(self, energy: int) -> None:
        super().__init__()
        self.energy = energy

    def yielded(self, s: State, owner: int, card: int, attacker: int) -> None:
        s.gain_energy(owner, self.energy)


class StarsWhenStaying(Effect):
    """``stars`` when you were hurt by claws in Tokyo and could yield, but stay."""

    moments = ("stayed",)

    def __init__(self, stars: int) -> None:
        super().__init__()
        self.stars = stars

    def stayed(self, s: State, owner: int, card: int) -> None:
        s.gain_stars(owner, self.stars, self.id)


class EnteringTokyo(Effect):
    """When you take a place in Tokyo (however you take it): ``stars`` more, and every
    other monster loses ``hurt_others`` health (card damage)."""

    moments = ("entered",)

    def __init__(self, *, stars: int = 0, hurt_others: int = 0) -> None:
        super().__init__()
        self.stars, self.hurt_others = stars, hurt_others

    def entered(self, s: State, p: int, card: int) -> None:
        if self.stars:
            s.gain_stars(p, self.stars, self.id)
        if self.hurt_others:
            for q in others(s, p):
                s.queue_damage(q, self.hurt_others, p)


# ---------------------------------------------------------------- dice


def three_ones(dice: list[int]) -> bool:
    """At least 1 1 1."""
    return dice.count(ONE) >= 3


def three_twos(dice: list[int]) -> bool:
    """At least 2 2 2."""
    return dice.count(TWO) >= 3


def one_two_three(dice: list[int]) -> bool:
    """A 1, a 2 and a 3."""
    return ONE in dice and TWO in dice and THREE in dice


def all_faces(dice: list[int]) -> bool:
    """All six faces."""
    return len(set(dice)) == 6


def any_dice(dice: list[int]) -> bool:
    """Whatever the dice show."""
    return True


def a_claw(dice: list[int]) -> bool:
    """At least one claw."""
    return CLAW in dice


def four_of_a_kind(dice: list[int]) -> bool:
    """At least four dice showing the same face."""
    return any(dice.count(face) >= 4 for face in set(dice))


class ScoreBonus(Effect):
    """``stars`` more when your dice are scored, if they pass ``test`` (once a roll)."""

    moments = ("score",)

    def __init__(self, stars: int, test: Callable[[list[int]], bool]) -> None:
        super().__init__()
        self.stars, self.test = stars, test

    def score(self, s: State, p: int, card: int, dice: list[int]) -> int:
        return self.stars if self.test(dice) else 0


class ExtraClaws(Effect):
    """``claws`` more when your dice pass ``test`` (and, with ``in_tokyo``, only while you
    are in Tokyo): claws of the roll, so they can take an empty Tokyo and make a
    monster yield."""

    moments = ("claws",)

    def __init__(self, claws: int, test: Callable[[list[int]], bool], *, in_tokyo: bool = False) -> None:
        super().__init__()
        self.extra, self.test, self.in_tokyo = claws, test, in_tokyo

    def claws(self, s: State, p: int, card: int, dice: list[int], count: int) -> int:
        if self.in_tokyo and not s.in_tokyo(p):
            return count
        return count + self.extra if self.test(dice) else count


class ExtraDice(Effect):
    """Roll ``dice`` more dice every turn."""

    moments = ("dice_count",)

    def __init__(self, dice: int) -> None:
        super().__init__()
        self.dice = dice

    def dice_count(self, s: State, p: int, card: int, count: int) -> int:
        return count + self.dice


class BonusReroll(Effect):
    """One extra reroll every turn, given when your usual rerolls run out."""

    moments = ("bonus_reroll",)

    def bonus_reroll(self, s: State, p: int, card: int) -> bool:
        return True
