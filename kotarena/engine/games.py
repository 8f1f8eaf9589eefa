"""The games kotarena knows, looked up by name or alias."""

from __future__ import annotations

from dataclasses import dataclass

from kotarena.engine.outcome import EngineError, PositionError


class UnknownGameError(EngineError):
    """A game name that no game answers to."""


@dataclass(frozen=True)
class GameSpec:
    """Static facts about a game: its name, seat counts, deck and rules version.

    ``rules_version`` is stamped on every replay and stored result; bump it whenever a
    change to the rules would make an old replay play differently.
    """

    name: str
    title: str
    min_players: int
    max_players: int
    deck: str | None
    rules_version: int
    aliases: tuple[str, ...] = ()

    def check_players(self, count: int) -> None:
        if not self.min_players <= count <= self.max_players:
            raise PositionError(
                f"{self.title} is for {self.min_players} to {self.max_players} players, not {count}"
            )


KOT = GameSpec("kot", "King of Tokyo", 2, 6, "kot", rules_version=4, aliases=("classic", "king-of-tokyo"))

GAMES: dict[str, GameSpec] = {KOT.name: KOT}


def get_game(name: str) -> GameSpec:
    """The game called ``name`` (or one of its aliases)."""
    key = name.strip().lower()
    for spec in GAMES.values():
        if key == spec.name or key in spec.aliases:
            return spec
    raise UnknownGameError(f"unknown game {name!r}; known games: {', '.join(GAMES)} (classic)")
