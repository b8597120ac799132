"""Geometry of the pools picture on the seeds-from-ratings page, computed here so the template
only draws.

One row per pool: its name and average rating above a bar that reaches that average, and a dot
per rated entry on the bar, all on one scale shared by the pools, so that a pool heavier than the
others stands out at a glance. The scale starts a little below the weakest rated entry rather
than at zero (ratings live around 1500: bars from zero would all look alike). The drawing is
360 units wide, so on a 390 px phone a unit is about a pixel and the 13-unit labels stay readable;
it is shown at most 520 px wide on a laptop. The cards under it list every pool in full.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from scoring.seeds.services import PoolPreview
from tournaments.svg.text import fit

WIDTH = 360
ROW_HEIGHT = 46
LEFT, RIGHT = 8, 352
FONT = 13
SMALL_FONT = 11
#: Room above the first row for nothing, and below the last for the scale's two numbers.
FOOT = 18
PAD = 25  # rating points of room at each end of the scale


@dataclass(frozen=True)
class Dot:
    x: float
    title: str


@dataclass(frozen=True)
class PoolRow:
    y: int
    label: str
    title: str
    bar_width: float
    dots: list[Dot]


@dataclass(frozen=True)
class PoolsPicture:
    width: int
    height: int
    rows: list[PoolRow]
    low: int
    high: int
    left: int = LEFT
    right: int = RIGHT
    font: int = FONT
    small_font: int = SMALL_FONT
    #: Where the bar sits inside a row, and its height.
    bar_y: int = 20
    bar_height: int = 14
    dot_y: int = 27

    @property
    def track_width(self) -> int:
        return self.right - self.left


def pools_picture(pools: list[PoolPreview]) -> PoolsPicture | None:
    """The picture of ``pools``; None when no entry of them is rated (nothing to draw)."""
    ratings = [row.rating for pool in pools for row in pool.rated]
    if not ratings:
        return None
    low = min(ratings) - PAD
    high = max(ratings) + PAD
    span = high - low

    def x_of(rating: float) -> float:
        return round(LEFT + (rating - low) / span * (RIGHT - LEFT), 1)

    rows = []
    for index, pool in enumerate(pools):
        average = pool.average
        if average is None:
            label = _("Pool %(pool)s: no rated entry") % {"pool": pool.name}
        else:
            label = _("Pool %(pool)s: average %(average)s") % {
                "pool": pool.name,
                "average": average,
            }
        if pool.unrated:
            label += " " + _("(%(count)s unrated)") % {"count": pool.unrated}
        rows.append(
            PoolRow(
                y=index * ROW_HEIGHT,
                label=fit(label, RIGHT - LEFT, FONT),
                title=label,
                bar_width=(x_of(average) - LEFT) if average is not None else 0,
                dots=[
                    Dot(
                        x=x_of(row.rating),  # type: ignore[arg-type]
                        title=f"{row.seed}. {row.entry.name}: {row.rating}",
                    )
                    for row in pool.rated
                ],
            )
        )
    return PoolsPicture(
        width=WIDTH,
        height=len(pools) * ROW_HEIGHT + FOOT,
        rows=rows,
        low=low,
        high=high,
    )
