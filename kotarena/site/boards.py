"""The drawn table of the replay viewer: for the games kotarena ships, each frame's table
as data the viewer draws (monsters, Tokyo, dice as faces, Duel's tracks), and the texts
of the cards and superpowers it shows when a person points at one.

The viewer draws these games and shows any other (a plugin's) by the labelled facts of
its snapshot (:mod:`kotarena.site.frames`), so this module knows the shipped games'
states by name and nothing else needs to.
"""

from __future__ import annotations

from typing import Any

from kotarena.engine.game import Game

__all__ = ["board", "texts"]


def board(game: Game, state: Any) -> dict[str, Any] | None:
    """The table of ``state`` as the viewer draws it, or ``None`` for a game it does not
    draw. King of Tokyo and Origins: ``{"kind": "kot", "seats": [{"health", "max",
    "stars", "energy", "cards", "poison", "shrink"}], "city", "bay" (a seat or ``None``),
    "bay_open", "dice" (face numbers, 0-2 the numbers 1-3, then energy, heart, claw),
    "market" (card ids, ``None`` for an empty slot), "deck"}``. Duel: ``{"kind":
    "duel", "seats": [{"monster", "health", "max", "energy", "tokens", "cards"}],
    "tracks": [{"name", "marks", "marker", "zones"}], "dice" (Duel's faces: claw, heart,
    energy, fame, destruction, power), "market", "deck"}``."""
    from kotarena.games.duel.game import Duel
    from kotarena.games.kot.game import KingOfTokyo

    if isinstance(game, KingOfTokyo):
        return _kot(state)
    if isinstance(game, Duel):
        return _duel(state)
    return None


def texts(game: Game, state: Any) -> dict[str, dict[str, Any]]:
    """What each card (and Duel's monster, for its superpower) the drawn table may show
    says, by the id the board names it with: ``{"name", "cost", "type", "text"}``. The
    texts are the deck's own (those ``kotarena cards`` lists)."""
    from kotarena.games.duel.game import Duel
    from kotarena.games.kot.game import KingOfTokyo

    if isinstance(game, KingOfTokyo):
        return {info.id: {"name": info.name, "cost": info.cost, "type": info.type, "text": info.text}
                for info in state.cards_info}
    if isinstance(game, Duel):
        from kotarena.games.duel.monsters import MONSTERS

        found = {row["id"]: {"name": row["name"], "cost": row["cost"], "type": row["type"],
                             "text": row["effect"] + (f" Hype token: {row['hype']}." if row["hype"] else "")}
                 for row in game.card_rows()}
        for monster in MONSTERS:
            found[f"monster:{monster.id}"] = {"name": monster.name, "type": f"superpower: {monster.power}",
                                              "text": monster.text, "health": monster.health}
        return found
    return {}


def _kot(state: Any) -> dict[str, Any]:
    info = state.cards_info
    seats = [{"health": state.health[seat], "max": state.max_health[seat], "stars": state.stars[seat],
              "energy": state.energy[seat], "cards": [info[card].id for card in state.owned[seat]],
              "poison": state.poison[seat], "shrink": state.shrink[seat]} for seat in range(state.n)]
    return {"kind": "kot", "seats": seats, "city": state.city if state.city >= 0 else None,
            "bay": state.bay if state.bay >= 0 else None, "bay_open": bool(state.bay_open),
            "dice": list(state.dice), "market": [info[card].id if card >= 0 else None for card in state.market],
            "deck": len(state.deck) if info else None}


def _duel(state: Any) -> dict[str, Any]:
    from kotarena.games.duel.display import space_marks
    from kotarena.games.duel.track import TRACK_NAMES, in_zone

    board = state.board
    seats = [{"monster": f"monster:{state.monsters[seat].id}", "health": state.health[seat],
              "max": state.monsters[seat].health, "energy": state.energy[seat], "tokens": state.tokens[seat],
              "cards": list(state.keeps[seat])} for seat in (0, 1)]
    tracks = []
    for track, name in enumerate(TRACK_NAMES):
        spaces = board.spaces(track)
        # Whose spotlight zone each space lies in (a space covered by a hype token is in none).
        zones = [next((seat for seat in (0, 1) if not token and in_zone(cell, seat)), None)
                 for token, cell in spaces]
        tracks.append({"name": name, "marks": space_marks(board, track), "marker": board.index(track),
                       "zones": zones})
    return {"kind": "duel", "seats": seats, "tracks": tracks, "dice": list(state.dice),
            "market": [card or None for card in state.market] if state.deck_name is not None else [],
            "deck": len(state.deck) if state.deck_name is not None else None}
