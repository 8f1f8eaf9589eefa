"""Rating histories as inline SVG line charts, drawn by hand.

Why by hand and not with a plotting library: the site must work from a file with no
server and no network, so a JavaScript library would have to be copied into every site,
and a Python one (matplotlib) would be a large dependency for a few polylines; a line
chart with axes, a band and a legend is a page of code, costs nothing to load, and stays
text a test can read. Long histories are thinned to :data:`MAX_POINTS` points a line, so
a page's size does not grow with the number of games.

The thinning keeps every ``k``-th point, ``k`` a power of two that doubles as a history
grows, and the last point: the points a longer history keeps are among those a shorter
one kept, so a :class:`ThinLine` follows a history point by point holding only what it
draws, and the site's next build adds a night's ratings to the last build's lines
instead of reading every entrant's whole history again.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape
from typing import Any

#: Points drawn per line at most; a history longer than this is sampled evenly (its
#: first and last points always kept).
MAX_POINTS = 240
#: Line colours, in the order entrants are listed (colour-blind safe: Okabe and Ito's).
COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#f0e442")

WIDTH, HEIGHT = 720, 320
LEFT, RIGHT, TOP, BOTTOM = 48, 16, 12, 36


def thinned(points: Sequence[tuple[float, ...]], limit: int = MAX_POINTS) -> list[tuple[float, ...]]:
    """At most ``limit`` of ``points``, evenly spread, the first and the last kept."""
    return [points[at] for at in kept(len(points), limit)]


def stride(count: int, limit: int = MAX_POINTS) -> int:
    """Every how many points a line of ``count`` points draws one: 1 up to ``limit``
    points, else the smallest power of two that leaves room for the last point."""
    step = 1
    if count > limit:
        while (count - 1) // step + 2 > limit:
            step *= 2
    return step


def kept(count: int, limit: int = MAX_POINTS) -> list[int]:
    """Which of ``count`` points (from 0) a line of at most ``limit`` points draws: all,
    or every :func:`stride`-th from the first, and the last."""
    step = stride(count, limit)
    at = list(range(0, count, step))
    if count and at[-1] != count - 1:
        at.append(count - 1)
    return at


class ThinLine:
    """A rating history as it grows, holding only the points :func:`kept` draws of it:
    ``(number, mu, sigma)``, numbered from 1. Its :meth:`state` is short JSON-ready data
    to store and :meth:`from_state` to carry on from."""

    def __init__(self, count: int = 0, grid: Sequence[Sequence[float]] = (), last: Sequence[float] | None = None,
                 limit: int = MAX_POINTS) -> None:
        self.count, self.limit = count, limit
        self.step = stride(count, limit)
        self.grid = [tuple(point) for point in grid]  # the points at 1, 1 + step, 1 + 2 step, ...
        self.last = tuple(last) if last is not None else None

    def add(self, mu: float, sigma: float) -> None:
        """The rating after the entrant's next rated match."""
        self.count += 1
        step = stride(self.count, self.limit)
        if step != self.step:
            self.step = step
            self.grid = [point for point in self.grid if (point[0] - 1) % step == 0]
        self.last = (self.count, mu, sigma)
        if (self.count - 1) % step == 0:
            self.grid.append(self.last)

    def points(self) -> list[tuple[float, float, float]]:
        """What a chart draws of the history so far."""
        if self.last is None or (self.grid and self.grid[-1] == self.last):
            return list(self.grid)
        return [*self.grid, self.last]

    def state(self) -> list[Any]:
        return [self.count, [list(point) for point in self.grid], list(self.last) if self.last else None]

    @classmethod
    def from_state(cls, state: Sequence[Any], limit: int = MAX_POINTS) -> ThinLine:
        count, grid, last = state
        return cls(count, grid, last, limit)

    @classmethod
    def from_points(cls, count: int, points: Sequence[Sequence[float]], limit: int = MAX_POINTS) -> ThinLine:
        """The line of a history of ``count`` points of which ``points`` are those
        :func:`kept` draws (as :func:`~kotarena.storage.season.rating_history` picks them)."""
        step = stride(count, limit)
        return cls(count, [p for p in points if (p[0] - 1) % step == 0], points[-1] if points else None, limit)


def _ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round numbers between ``low`` and ``high`` for an axis."""
    if high <= low:
        return [low]
    raw = (high - low) / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first = math.ceil(low / step) * step
    return [first + at * step for at in range(int((high - first) / step + 1e-9) + 1)]


def _number(value: float) -> str:
    return f"{value:g}" if value == int(value) else f"{value:.1f}"


def rating_chart(lines: Sequence[tuple[str, Sequence[tuple[float, float, float]]]], *, band: bool = False,
                 title: str = "Rating (mu) after each game") -> str:
    """An SVG chart of ``lines``: ``(label, [(game number, mu, sigma), ...])`` each; with
    ``band``, the 95% interval (``mu -/+ 1.96 sigma``) of the first line is shaded. The
    x axis counts each entrant's games."""
    drawn = [(label, thinned(points)) for label, points in lines if points]
    if not drawn:
        return '<p class="empty">No rated games yet.</p>'
    xs = [p[0] for _, points in drawn for p in points]
    ys = [p[1] for _, points in drawn for p in points]
    if band:
        ys += [p[1] + s * p[2] * 1.96 for p in drawn[0][1] for s in (-1, 1)]
    x_low, x_high = min(xs), max(max(xs), min(xs) + 1)
    y_low, y_high = math.floor(min(ys)) - 1, math.ceil(max(ys)) + 1

    def x(value: float) -> float:
        return round(LEFT + (value - x_low) / (x_high - x_low) * (WIDTH - LEFT - RIGHT), 1)

    def y(value: float) -> float:
        return round(TOP + (y_high - value) / (y_high - y_low) * (HEIGHT - TOP - BOTTOM), 1)

    parts = [f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(title)}">',
             f"<title>{escape(title)}</title>"]
    for tick in _ticks(y_low, y_high):
        parts.append(f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(tick)}" y2="{y(tick)}"/>'
                     f'<text class="tick" x="{LEFT - 6}" y="{y(tick) + 4}" text-anchor="end">{_number(tick)}</text>')
    for tick in _ticks(x_low, x_high):
        parts.append(f'<text class="tick" x="{x(tick)}" y="{HEIGHT - BOTTOM + 16}" '
                     f'text-anchor="middle">{_number(tick)}</text>')
    parts.append(f'<text class="axis" x="{(LEFT + WIDTH - RIGHT) / 2}" y="{HEIGHT - 4}" '
                 f'text-anchor="middle">games played</text>')
    if band:
        points = drawn[0][1]
        upper = " ".join(f"{x(p[0])},{y(p[1] + 1.96 * p[2])}" for p in points)
        lower = " ".join(f"{x(p[0])},{y(p[1] - 1.96 * p[2])}" for p in reversed(points))
        parts.append(f'<polygon class="band" points="{upper} {lower}"><title>95% interval</title></polygon>')
    for index, (label, points) in enumerate(drawn):
        colour = COLOURS[index % len(COLOURS)]
        path = " ".join(f"{x(p[0])},{y(p[1])}" for p in points)
        parts.append(f'<polyline class="line" fill="none" stroke="{colour}" points="{path}">'
                     f'<title>{escape(label)}: mu {points[-1][1]:.2f} after {points[-1][0]:g} games</title>'
                     f"</polyline>")
    parts.append("</svg>")
    legend = "".join(f'<li><span class="swatch" style="background:{COLOURS[i % len(COLOURS)]}"></span>'
                     f"{escape(label)}</li>" for i, (label, _) in enumerate(drawn))
    return f'<figure class="chart">{"".join(parts)}<ul class="legend">{legend}</ul></figure>'
