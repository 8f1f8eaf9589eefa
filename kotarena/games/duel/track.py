"""The board: the fame and destruction tracks, the two markers and the hype tokens.

Each track is 15 printed spaces, numbered -7 to 7 from the first seat's end to the
second seat's: 0 is the centre, where both markers start; -7 is the first seat's
victory space and 7 the second seat's; -5..-3 and 3..5 are the spotlight zones
(``rulings.SPOTLIGHT_DISTANCES``). A hype token covers 1 to 3 consecutive printed
spaces and offers its own spaces in their place, as many (most tokens), one fewer (the
shortcut) or one more (the extensions). A marker stands on a *space*: ``("", cell)`` for
an uncovered printed space, ``(token, k)`` for the k-th space of a token, counted from
the first seat's end. The track a marker walks is the sequence of those spaces, so its
two ends are always the victory spaces, covered or not.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from kotarena.engine.actions import Action
from kotarena.games.duel.rulings import SPOTLIGHT_DISTANCES
from kotarena.games.duel.verbs import HYPE

FAME_TRACK: Final = 0
DESTRUCTION_TRACK: Final = 1
TRACK_NAMES: Final = ("fame", "destruction")
#: Printed spaces from the centre to either victory space.
HALF: Final = 7
CELLS: Final = tuple(range(-HALF, HALF + 1))
CENTRE: Final[tuple[str, int]] = ("", 0)

SMASH: Final = "smash"
SMASH2: Final = "smash2"
HEAL: Final = "heal"
ENERGY_BONUS: Final = "energy"
DICE: Final = "dice"


class HypeToken(NamedTuple):
    """A hype token: how many printed spaces it covers and the bonus of each space it
    offers (``None``: no bonus), in order along the track."""

    id: str
    covers: int
    bonuses: tuple[str | None, ...]
    blocks: bool = False  #: The King's: stops the rival's pulls

    @property
    def symmetric(self) -> bool:
        return self.bonuses == self.bonuses[::-1]


HYPE_TOKENS: Final[dict[str, HypeToken]] = {token.id: token for token in (
    HypeToken("cat_smash", 1, (SMASH,)),
    HypeToken("panda_dice", 1, (DICE,)),
    HypeToken("fish_heal", 1, (HEAL,)),
    HypeToken("tiger_energy", 1, (ENERGY_BONUS,)),
    HypeToken("lizard_smash_dice", 2, (SMASH, DICE)),
    HypeToken("anubis_energy_heal", 2, (ENERGY_BONUS, HEAL)),
    HypeToken("dragon_energy_smash_heal", 3, (ENERGY_BONUS, SMASH, HEAL)),
    HypeToken("pumpkin_heal_smash2_heal", 3, (HEAL, SMASH2, HEAL)),
    HypeToken("alien_shortcut", 3, (None, None)),
    HypeToken("phantom_extend_heal", 2, (None, HEAL, None)),
    HypeToken("penguin_extend_smash", 2, (None, SMASH, None)),
    HypeToken("king_block_1", 1, (None,), blocks=True),
    HypeToken("king_block_2", 1, (None,), blocks=True),
)}
KING_TOKENS: Final = ("king_block_1", "king_block_2")

Space = tuple[str, int]
#: Where a token lies: its track, its lowest printed space, and whether it is turned
#: end for end (its bonuses then run from the second seat's end).
Placement = tuple[int, int, bool]


def toward(seat: int) -> int:
    """The direction a seat pulls markers in: to its own end of the tracks."""
    return -1 if seat == 0 else 1


def in_zone(cell: int, seat: int) -> bool:
    """Whether a printed space lies in ``seat``'s spotlight zone."""
    return cell * toward(seat) in SPOTLIGHT_DISTANCES


class Board:
    """The two tracks: where each hype token lies and where each marker stands."""

    __slots__ = ("placed", "markers", "_spaces", "_tokens")

    def __init__(self, source: Board | None = None) -> None:
        self.placed: dict[str, Placement] = {} if source is None else dict(source.placed)
        self.markers: list[Space] = [CENTRE, CENTRE] if source is None else list(source.markers)
        # Each track's spaces, worked out once per placement of tokens (``place`` forgets them).
        self._spaces: list[list[Space] | None] = [None, None] if source is None else list(source._spaces)
        # The tokens as views list them, sorted (``tokens``; ``place`` forgets them).
        self._tokens: tuple[tuple[str, int, int, bool], ...] | None = None if source is None else source._tokens

    def copy(self) -> Board:
        """A copy; both share the tracks' spaces, worked out first if they were not yet
        (else each copy of a search bot's sampled game worked them out again)."""
        self.spaces(FAME_TRACK)
        self.spaces(DESTRUCTION_TRACK)
        return Board(self)

    # ------------------------------------------------------------ spaces

    def covering(self, track: int) -> dict[int, str]:
        """Printed space -> the token covering it, on one track."""
        covered: dict[int, str] = {}
        for token, (where, low, _flipped) in self.placed.items():
            if where == track:
                for cell in range(low, low + HYPE_TOKENS[token].covers):
                    covered[cell] = token
        return covered

    def spaces(self, track: int) -> list[Space]:
        """The spaces of a track in order, from the first seat's victory space (do not
        change the list: it is kept until a token is placed)."""
        found = self._spaces[track]
        if found is None:
            found = self._spaces[track] = self._work_out_spaces(track)
        return found

    def _work_out_spaces(self, track: int) -> list[Space]:
        covered = self.covering(track)
        found: list[Space] = []
        for cell in CELLS:
            token = covered.get(cell)
            if token is None:
                found.append(("", cell))
            elif self.placed[token][1] == cell:
                found.extend((token, k) for k in range(len(HYPE_TOKENS[token].bonuses)))
        return found

    def cells_of(self, space: Space) -> tuple[int, ...]:
        """The printed spaces a space touches (one, or two for a space of a token whose
        spaces are not as many as the printed spaces under it)."""
        token, k = space
        if not token:
            return (k,)
        info = HYPE_TOKENS[token]
        low = self.placed[token][1]
        n, m = len(info.bonuses), info.covers
        first = (k * m) // n
        last = -((-(k + 1) * m) // n) - 1  # ceil((k+1)m/n) - 1
        return tuple(range(low + first, low + last + 1))

    def bonus(self, space: Space) -> str | None:
        token, k = space
        if not token:
            return None
        bonuses = HYPE_TOKENS[token].bonuses
        return (bonuses[::-1] if self.placed[token][2] else bonuses)[k]

    def in_spotlight(self, space: Space, seat: int) -> bool:
        """Whether a space lies entirely inside ``seat``'s spotlight zone."""
        if not space[0]:  # a printed space: no token's cells to work out
            return in_zone(space[1], seat)
        return all(in_zone(cell, seat) for cell in self.cells_of(space))

    def index(self, track: int) -> int:
        """The marker's place on its track, counted from the first seat's end."""
        return self.spaces(track).index(self.markers[track])

    def winner_by_space(self) -> int | None:
        """The seat whose victory space a marker stands on, if any."""
        for track in (FAME_TRACK, DESTRUCTION_TRACK):
            spaces = self.spaces(track)
            where = spaces.index(self.markers[track])
            if where == 0:
                return 0
            if where == len(spaces) - 1:
                return 1
        return None

    def winner_by_spotlight(self) -> int | None:
        """The seat with both markers inside its spotlight zone, if any."""
        for seat in (0, 1):
            if all(self.in_spotlight(marker, seat) for marker in self.markers):
                return seat
        return None

    # ------------------------------------------------------------ tokens

    def on_token(self, track: int) -> str | None:
        """The token under a track's marker, if it stands on one."""
        return self.markers[track][0] or None

    def movable(self, token: str) -> bool:
        """A token on the board can be moved unless a marker stands on it."""
        return all(marker[0] != token for marker in self.markers)

    def king_tokens(self) -> list[tuple[int, str]]:
        """The King's blocking tokens (number, token) it may place: the first one not yet
        on the board, and each one on the board with no marker on it."""
        found: list[tuple[int, str]] = []
        unplaced_offered = False
        for number, token in enumerate(KING_TOKENS, start=1):
            if token in self.placed:
                if not self.movable(token):
                    continue
            elif unplaced_offered:
                continue
            else:
                unplaced_offered = True
            found.append((number, token))
        return found

    def placements(self, token: str) -> list[Placement]:
        """Every place ``token`` may be put (or moved to): consecutive printed spaces of
        either track, none under another token, none holding a marker; both ways round
        for a token whose bonuses differ end to end. Its own place is left out."""
        info = HYPE_TOKENS[token]
        covers = info.covers
        window = (1 << covers) - 1
        flips = (False,) if info.symmetric else (False, True)
        found: list[Placement] = []
        current = self.placed.get(token)
        for track in (FAME_TRACK, DESTRUCTION_TRACK):
            # The printed spaces it may not cover, one bit each (bit 0: space -7): the
            # other tokens' and the marker's (was a set of cells per place tried).
            blocked = 0
            for other, (where, low, _flipped) in self.placed.items():
                if where == track and other != token:
                    blocked |= ((1 << HYPE_TOKENS[other].covers) - 1) << (low + HALF)
            marker = self.markers[track]
            if not marker[0]:
                blocked |= 1 << (marker[1] + HALF)
            for low in range(-HALF, HALF - covers + 2):
                if blocked & (window << (low + HALF)):
                    continue
                for flipped in flips:
                    if current != (track, low, flipped):
                        found.append((track, low, flipped))
        return found

    def tokens(self) -> tuple[tuple[str, int, int, bool], ...]:
        """Every token on the board as ``(token, track, lowest printed space, turned)``,
        by token (do not change the tuple: it is kept until a token is placed)."""
        found = self._tokens
        if found is None:
            found = self._tokens = tuple([(token, where[0], where[1], where[2])
                                          for token, where in sorted(self.placed.items())])
        return found

    def place(self, token: str, placement: Placement) -> None:
        self.placed[token] = placement
        self._spaces = [None, None]
        self._tokens = None


# ------------------------------------------------------------------ placements as actions

def placement_action(token: str, placement: Placement) -> Action:
    """``hype TRACK A [B]``: the printed spaces the token covers, its first bonus on A."""
    track, low, flipped = placement
    return _PLACEMENT_ACTIONS[token][(track * len(CELLS) + low + HALF) * 2 + flipped]


def _placement_action(token: str, placement: Placement) -> Action:
    track, low, flipped = placement
    high = low + HYPE_TOKENS[token].covers - 1
    if high == low:
        return Action.of(HYPE, TRACK_NAMES[track], low)
    return Action.of(HYPE, TRACK_NAMES[track], *((high, low) if flipped else (low, high)))


def action_placement(action: Action) -> Placement:
    track, *cells = action.args
    low = min(cells)
    return TRACK_NAMES.index(track), low, len(cells) == 2 and cells[0] > cells[1]


#: Each token's placements as actions, by track, lowest space and turning (a hype
#: decision lists up to 56 of them; writing each one's text was a tenth of a turn).
_PLACEMENT_ACTIONS: Final[dict[str, list[Action]]] = {
    token: [_placement_action(token, (track, low, flipped)) for track in (FAME_TRACK, DESTRUCTION_TRACK)
            for low in CELLS for flipped in (False, True)]
    for token in HYPE_TOKENS}
