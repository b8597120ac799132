"""Geometry of the ranking's picture: each person's rating as a dot with its ± as a bar, on one
scale, so that who is surely ahead of whom (bars apart) and who only probably is (bars
overlapping) can be seen at a glance. Computed here so the template only draws.

One layout, 360 units wide: on a 390 px phone a unit is about a pixel, and on a laptop the
drawing scales up as a whole (its labels stay readable at both sizes: 12 units).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.ratings.ranking import RankingRow
from tournaments.svg.text import fit

WIDTH = 360
ROW_HEIGHT = 18
LABEL_WIDTH = 130
FONT = 12
TOP = 22
MARGIN = 8


@dataclass(frozen=True)
class Dot:
    y: float
    label: str
    title: str
    x: float
    low_x: float
    high_x: float


@dataclass(frozen=True)
class Tick:
    x: float
    value: int


@dataclass(frozen=True)
class RankingChart:
    width: int
    height: int
    dots: tuple[Dot, ...]
    ticks: tuple[Tick, ...]
    axis_y: float
    plot_left: float
    plot_right: float
    font: int = FONT


def ranking_chart(rows: Sequence[RankingRow]) -> RankingChart | None:
    """The picture of ``rows`` (one page of the ranking); None without rows."""
    if not rows:
        return None
    low = min(r.low for r in rows)
    high = max(r.high for r in rows)
    if high == low:
        high = low + 1
    left, right = LABEL_WIDTH + MARGIN, WIDTH - MARGIN

    def x_of(value: float) -> float:
        return round(left + (value - low) / (high - low) * (right - left), 1)

    dots = tuple(
        Dot(
            y=TOP + i * ROW_HEIGHT + ROW_HEIGHT / 2,
            label=fit(f"{r.rank}. {r.name}", LABEL_WIDTH - 4, FONT),
            title=f"{r.rank}. {r.name}: {r.rating} ± {r.plus_minus}",
            x=x_of(r.rating),
            low_x=x_of(r.low),
            high_x=x_of(r.high),
        )
        for i, r in enumerate(rows)
    )
    step = _tick_step(high - low)
    first = -(-low // step) * step
    ticks = tuple(Tick(x_of(v), v) for v in range(first, high + 1, step))
    return RankingChart(
        width=WIDTH,
        height=TOP + len(rows) * ROW_HEIGHT + MARGIN,
        dots=dots,
        ticks=ticks,
        axis_y=TOP - 8,
        plot_left=left,
        plot_right=right,
    )


def _tick_step(span: int) -> int:
    """A round step giving three to six ticks over ``span`` rating points."""
    for step in (10, 25, 50, 100, 200, 250, 500, 1000):
        if span / step <= 5:
            return step
    return 2000
