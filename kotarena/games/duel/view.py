"""View: what one seat sees of a Duel table.

Everything on a Duel table is public but the order of the deck (and the dice to come),
so a view holds the whole table but those; the turn's queue of steps is part of it (it
is the rules' procedure, not a secret), which is what lets ``sample_game`` rebuild a
playable game from a view alone (``sample.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, NamedTuple

from kotarena.engine.actions import Action
from kotarena.engine.outcome import Outcome
from kotarena.games.duel.track import Board

if TYPE_CHECKING:  # (the state makes views: importing it here would close a circle)
    from kotarena.games.duel.state import State


class View(NamedTuple):
    """One seat's view of a Duel game (seat 0 owns the tracks' negative end)."""

    player: int
    game: str
    names: tuple[str, ...]
    monsters: tuple[str, ...]      #: monster ids, by seat
    health: tuple[int, ...]
    max_health: tuple[int, ...]
    energy: tuple[int, ...]
    tokens: tuple[int, ...]        #: dice tokens held
    keeps: tuple[tuple[str, ...], ...]
    market: tuple[str, ...]        #: slot 1 (nearest the deck) to slot 3 (1 energy cheaper); "" empty
    deck_size: int
    gone: tuple[str, ...]          #: cards out of play
    markers: tuple[tuple[str, int], ...]   #: fame, destruction: ("", cell) or (hype token, k)
    hype: tuple[tuple[str, int, int, bool], ...]  #: token, track, lowest printed space, turned
    turn: int
    active: int
    first_player: int
    dice: tuple[int, ...]
    aside: tuple[int, ...]
    added: tuple[int, ...]
    rolls_left: int
    rolls_used: int
    power_left: int
    claws_times: int
    penalty: tuple[int, ...]
    flags: tuple[str, ...]
    spent: int
    claws_rolled: int
    sweeps: int
    marks: tuple[str, ...]
    taken: tuple[int, ...]
    bought: bool
    extra_turn: bool
    todo: tuple[tuple, ...]
    answer: tuple
    to_move: int
    kind: str | None
    legal: tuple[Action, ...]
    outcome: Outcome | None

    def to_json(self) -> dict:
        data = self._asdict()
        data["legal"] = [action.text for action in self.legal]
        data["outcome"] = None if self.outcome is None else self.outcome.to_json()
        data["markers"] = [list(marker) for marker in self.markers]
        data["hype"] = [list(item) for item in self.hype]
        data["todo"] = [list(step) for step in self.todo]
        data["answer"] = list(self.answer)
        data["keeps"] = [list(kept) for kept in self.keeps]
        return data

    @property
    def board(self) -> Board:
        """The tracks as a :class:`~kotarena.games.duel.track.Board` (a state has the same
        attribute), for bots that ask where spaces, bonuses and zones are."""
        board = Board()
        board.markers = list(self.markers)
        board.placed = {token: (track, low, flipped) for token, track, low, flipped in self.hype}
        return board

    def sample_game(self, seed: int | None = None) -> State:
        """A playable game consistent with this view: the unseen cards dealt into the
        deck in an order drawn from ``seed``, and fresh dice."""
        from kotarena.games import get_game

        game: Any = get_game(self.game)
        return game.sample(self, seed)


def view_of(state: State, player: int) -> View:
    """Snapshot what seat ``player`` sees of ``state`` (everything but the deck's order)."""
    s = state
    board = s.board
    # The tuple is built directly (``View.__new__`` takes its 40 fields as keyword
    # arguments, a quarter of a view's time); the sorted parts are sorted only when
    # there is something to sort.
    return _new_view(View, (
        player, s.game, s.names, s.monster_ids, tuple(s.health), s.max_health, tuple(s.energy), tuple(s.tokens),
        (tuple(s.keeps[0]), tuple(s.keeps[1])) if s.keeps[0] or s.keeps[1] else _NO_KEEPS, tuple(s.market),
        len(s.deck), tuple(s.gone),
        tuple(board.markers), board.tokens() if board.placed else (),
        s.turn, s.active, s.first_player, tuple(s.dice), tuple(s.aside), tuple(s.added),
        s.rolls_left, s.rolls_used, s.power_left, s.claws_times, tuple(s.penalty),
        tuple(sorted(s.flags)) if s.flags else (), s.spent, s.claws_rolled, s.sweeps,
        tuple(sorted(s.marks)) if s.marks else (), tuple(s.taken), s.bought,
        s.extra_turn, tuple(s.todo), s.answer, s.to_move, s.kind,
        s.legal if player == s.to_move else (), s.outcome))


_new_view: Final = tuple.__new__
_NO_KEEPS: Final[tuple[tuple[str, ...], ...]] = ((), ())
