"""What to buy: cards valued in energy, bought when worth their cost.

A card's *worth* is what it is expected to bring, in energy. It is built from

* ``STARS_GAINED``: stars a card gives at once, at ``STAR_WORTH`` energy a star (and
  any price at all when they reach 20 stars: the game is won at the end of the turn);
* ``HEALTH_CHANGE``: health a card gives or takes from its buyer, at ``HEALTH_WORTH``
  a point (healing counts only up to the health missing; a card that would take the
  buyer's last health is never bought);
* ``CARD_WORTH``: everything else the card does, a rough figure for this bot's play.
  Cards whose effect is a choice this bot never makes (it passes every card
  decision: Wings, Telepath, Plot Twist, ...) are worth little to it, and cards the
  engine does not play yet are worth nothing.

A keep card's worth shrinks as the game nears its end (fewer turns to use it). A
card of another deck, without an entry, is valued from its cost and type alone,
conservatively. To teach the bot a card, change its entries (or override
:func:`card_worth`).

Energy buys cards and nothing else, so the dice keep energy only when a card worth
buying is nearly within reach, never for its own sake. A sweep (2 energy for three new
cards) happens only when nothing on offer is worth buying, at most once a turn, and
with enough energy left to buy a typical card afterwards.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from kotarena.engine.actions import Action
from kotarena.games.kot.cards import KEEP, CardInfo, deck_cards

#: Energy a star is worth (a Skyscraper is 6 energy for 4 stars).
STAR_WORTH = 1.6
#: Energy a point of the buyer's own health is worth.
HEALTH_WORTH = 1.0
#: Stars a card gives its buyer at once.
STARS_GAINED: dict[str, int] = {
    "apartment_building": 3, "commuter_train": 2, "corner_store": 1, "skyscraper": 4,
    "jet_fighters": 5, "national_guard": 2, "tanks": 4, "nuclear_power_plant": 2,
    "gas_refinery": 2, "vast_storm": 2, "drop_from_high_altitude": 3,  # +1 for taking Tokyo
}
#: Health a card gives (positive) or takes (negative) from its buyer at once.
HEALTH_CHANGE: dict[str, int] = {
    "heal": 2, "nuclear_power_plant": 3, "jet_fighters": -4, "national_guard": -2,
    "tanks": -3, "high_altitude_bombing": -3,
}
#: Worth in energy of the rest of each card's effect, for this bot's way of playing.
CARD_WORTH: dict[str, float] = {
    # discard cards: effects beyond stars and the buyer's health
    "energize": 9.0, "fire_blast": 3.5, "gas_refinery": 4.0, "high_altitude_bombing": 2.0,
    "evacuation_orders": 6.0, "vast_storm": 1.0, "frenzy": 6.0,
    # keep cards that act by themselves
    "extra_head": 9.0, "giant_brain": 6.0, "acid_attack": 6.0, "spiked_tail": 5.0, "alpha_monster": 5.0,
    "nova_breath": 6.0, "even_bigger": 5.0, "urbavore": 4.0, "poison_spit": 4.0, "burrowing": 4.0,
    "eater_of_the_dead": 4.0, "herbivore": 4.0, "it_has_a_child": 5.0, "friend_of_children": 3.5,
    "regeneration": 3.0, "armor_plating": 3.0, "camouflage": 3.0, "dedicated_news_team": 3.0,
    "energy_hoarder": 2.5, "fire_breathing": 3.0, "omnivore": 3.0, "poison_quills": 2.0,
    "rooting_for_the_underdog": 2.0, "gourmet": 2.0, "complete_destruction": 1.5,
    "were_only_making_it_stronger": 2.0, "solar_powered": 1.5,
    # keep cards that need a choice this bot does not make (it passes card decisions)
    "background_dweller": 0.5, "herd_culler": 0.5, "healing_ray": 0.5, "jets": 0.5, "made_in_a_lab": 0.5,
    "metamorph": 0.5, "mimic": 0.5, "monster_batteries": 0.0, "opportunist": 0.5,
    "parasitic_tentacles": 0.5, "plot_twist": 0.5, "psychic_probe": 0.5, "rapid_healing": 0.5,
    "smoke_cloud": 0.5, "stretchy": 0.5, "telepath": 0.5, "wings": 0.5,
    # not played by the engine yet
    "alien_metabolism": 0.0, "freeze_time": 0.0, "shrink_ray": 0.0,
}
#: Worth of a card the tables do not know, as a fraction of its cost, by card type.
PRIOR_WORTH = {"keep": 0.8, "discard": 0.7}
#: A card is bought when its worth is at least this fraction of its cost.
BUY_RATIO = 0.8
#: Energy dice are held for a card at most this much energy short of its cost.
SAVE_WITHIN = 3
SWEEP_COST = 2
#: Energy that must be left after a sweep: about what a typical card costs.
SWEEP_RESERVE = 5
WINNING_STARS = 20
#: Worth of a card that wins the game: more than any card could cost.
WINNING = 1000.0

DONE = Action.of("done")
SWEEP = Action.of("sweep")

#: A market offer: ``(slot from 1, card)``.
Offer = tuple[int, CardInfo]


@cache
def _cards_by_id(deck: str) -> dict[str, CardInfo]:
    return {info.id: info for info in deck_cards(deck)}


def view_offers(view) -> list[Offer]:
    """The face-up cards of a view's market, with their cost and type."""
    if not view.deck:
        return []
    cards = _cards_by_id(view.deck)
    return [(slot, cards[card]) for slot, card in enumerate(view.market, 1) if card is not None]


def time_left(t) -> float:
    """1 at the start of the game, falling to 0.5 as the leader nears 20 stars."""
    alive = t.alive
    leader = max((s for s, a in zip(t.stars, alive) if a), default=0)
    return 1.0 - 0.5 * min(leader, WINNING_STARS) / WINNING_STARS


def card_worth(info: CardInfo, t, me: int) -> float:
    """What ``info`` is worth to ``me`` now, in energy."""
    card = info.id
    health = t.health[me]
    change = HEALTH_CHANGE.get(card, 0)
    if change < 0 and health + change <= 0:
        return 0.0  # it would eliminate us
    stars = STARS_GAINED.get(card, 0)
    if stars and t.stars[me] + stars >= WINNING_STARS:
        return WINNING
    worth = CARD_WORTH.get(card)
    if worth is None:
        if card in STARS_GAINED or card in HEALTH_CHANGE:
            worth = 0.0
        else:
            worth = info.cost * PRIOR_WORTH.get(info.type, PRIOR_WORTH["discard"])
    worth += stars * STAR_WORTH
    if change > 0:
        worth += min(change, t.max_health[me] - health) * HEALTH_WORTH
    else:
        worth += change * HEALTH_WORTH
    if info.type == KEEP:
        worth *= time_left(t)
    return worth


def worth_buying(info: CardInfo, t, me: int) -> bool:
    return card_worth(info, t, me) >= BUY_RATIO * info.cost


def best_buy(t, me: int, offers: Sequence[Offer]) -> Offer | None:
    """The affordable card worth buying that gains the most over its cost."""
    energy = t.energy[me]
    best = None
    best_gain = float("-inf")
    for offer in offers:
        info = offer[1]
        if info.cost <= energy and worth_buying(info, t, me):
            gain = card_worth(info, t, me) - info.cost
            if gain > best_gain:
                best, best_gain = offer, gain
    return best


def energy_wanted(t, me: int, offers: Sequence[Offer]) -> int:
    """Energy dice worth keeping this roll: what the cheapest card worth buying lacks."""
    energy = t.energy[me]
    short = [info.cost - energy for _, info in offers
             if energy < info.cost <= energy + SAVE_WITHIN and worth_buying(info, t, me)]
    return min(short, default=0)


def buy_action(t, me: int, offers: Sequence[Offer], legal, *, swept: bool = False) -> Action:
    """The buy decision: ``buy N``, ``sweep`` or ``done``."""
    offer = best_buy(t, me, offers)
    if offer is not None:
        action = Action.of("buy", offer[0])
        if action in legal:
            return action
    elif (not swept and SWEEP in legal and offers
          and t.energy[me] >= SWEEP_COST + SWEEP_RESERVE):
        return SWEEP
    return DONE if DONE in legal else legal[0]
