"""A person's rating over time as an SVG line chart, with its ± band.

The profile page shows how a rating moved game after game: the line is the rating after each
game, the shaded band the ± that goes with it (wide for a newcomer, narrowing as games tell
more), dates along the bottom. It is drawn from plain data (dates and numbers on the display
scale; the caller converts), so it has no Django and no rating model in it.

As for the standings chart and the bracket, one drawing cannot be read at both sizes: an SVG
scales as a whole, so there are two layouts, ``"wide"`` (:data:`WIDE`, for laptops) and
``"phone"`` (:data:`PHONE`, 360 units wide, about a unit to a pixel on a 390 px phone), and the
page shows one or the other by CSS. Both keep their text at 12 units. Colours are presentation
attributes, not a ``<style>`` element, because a style inside an inline SVG would reach the
whole page. Text goes through ``xml.etree.ElementTree``, which escapes it.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Literal

from tournaments.translation import _

Layout = Literal["wide", "phone"]


@dataclass(frozen=True)
class ChartPoint:
    """The rating right after a game played ``on`` a day, and its ±."""

    on: date
    rating: float
    plusminus: float


@dataclass(frozen=True)
class Frame:
    """A layout's size and margins, in SVG units."""

    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    x_ticks: int
    y_ticks: int


WIDE = Frame(width=720, height=260, left=52, right=16, top=14, bottom=30, x_ticks=8, y_ticks=6)
PHONE = Frame(width=360, height=230, left=46, right=10, top=12, bottom=30, x_ticks=4, y_ticks=5)
FONT = 12
#: Dots on the line only while they stay apart; past that the line alone reads better.
MAX_DOTS = 60
INK, MUTED, LINE, BAND, GRID = "#222", "#666", "#7a3e12", "#e9c98f", "#ddd"


def rating_chart_svg(
    points: Sequence[ChartPoint],
    *,
    title: str | None = None,
    layout: Layout = "wide",
    baseline: float | None = None,
) -> str:
    """The chart as an SVG document (no XML declaration, ready to embed). ``baseline`` draws a
    dashed line at a reference rating (where everyone starts) when it is inside the picture."""
    frame = PHONE if layout == "phone" else WIDE
    if title is None:
        title = _("Rating over time")
    svg = ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "viewBox": f"0 0 {frame.width} {frame.height}",
            "role": "img",
            "class": f"rating-chart layout-{layout}",  # untranslated: CSS classes
            "font-family": "system-ui, sans-serif",  # untranslated: a CSS font list
            "font-size": str(FONT),
        },
    )
    ET.SubElement(svg, "title").text = title
    if not points:
        _text(svg, frame.width / 2, frame.height / 2, _("No rated game yet."), anchor="middle")
        return ET.tostring(svg, encoding="unicode")
    first, last = points[0], points[-1]
    ET.SubElement(svg, "desc").text = _(
        "From %(start)s on %(first_day)s to %(end)s ± %(pm)s on %(last_day)s."
    ) % {
        "start": round(first.rating),
        "first_day": first.on.isoformat(),
        "end": round(last.rating),
        "pm": round(last.plusminus),
        "last_day": last.on.isoformat(),
    }

    low = min(p.rating - p.plusminus for p in points)
    high = max(p.rating + p.plusminus for p in points)
    y_step = nice_step(high - low, frame.y_ticks)
    y_min = math.floor(low / y_step) * y_step
    y_max = math.ceil(high / y_step) * y_step
    if y_max == y_min:
        y_min, y_max = y_min - y_step, y_max + y_step
    day_min = min(p.on for p in points)
    day_max = max(p.on for p in points)
    if day_max == day_min:
        day_min, day_max = day_min - timedelta(days=1), day_max + timedelta(days=1)
    plot_w = frame.width - frame.left - frame.right
    plot_h = frame.height - frame.top - frame.bottom
    span = (day_max - day_min).days

    def x_of(day: date) -> float:
        return round(frame.left + plot_w * (day - day_min).days / span, 1)

    def y_of(value: float) -> float:
        return round(frame.top + plot_h * (y_max - value) / (y_max - y_min), 1)

    grid = ET.SubElement(svg, "g", {"class": "grid"})
    value = y_min
    while value <= y_max + 1e-9:
        y = y_of(value)
        ET.SubElement(
            grid,
            "line",
            {"x1": str(frame.left), "x2": str(frame.width - frame.right), "y1": str(y)}
            | {"y2": str(y), "stroke": GRID},
        )
        _text(grid, frame.left - 6, y + 4, f"{value:g}", anchor="end", fill=MUTED)
        value += y_step
    for tick, label in date_ticks(day_min, day_max, frame.x_ticks):
        x = x_of(tick)
        ET.SubElement(
            grid,
            "line",
            {"x1": str(x), "x2": str(x), "y1": str(frame.top)}
            | {"y2": str(frame.height - frame.bottom + 4), "stroke": GRID},
        )
        _text(grid, x, frame.height - frame.bottom + 18, label, anchor="middle", fill=MUTED)

    if baseline is not None and y_min < baseline < y_max:
        y = y_of(baseline)
        ET.SubElement(
            svg,
            "line",
            {"x1": str(frame.left), "x2": str(frame.width - frame.right), "y1": str(y)}
            | {"y2": str(y), "stroke": MUTED, "stroke-dasharray": "4 4", "class": "baseline"},
        )

    upper = [f"{x_of(p.on)},{y_of(p.rating + p.plusminus)}" for p in points]
    lower = [f"{x_of(p.on)},{y_of(p.rating - p.plusminus)}" for p in reversed(points)]
    ET.SubElement(
        svg,
        "polygon",
        {"points": " ".join(upper + lower), "fill": BAND, "fill-opacity": "0.6", "class": "band"},
    )
    line = " ".join(f"{x_of(p.on)},{y_of(p.rating)}" for p in points)
    ET.SubElement(
        svg,
        "polyline",
        {"points": line, "fill": "none", "stroke": LINE, "stroke-width": "2", "class": "rating"},
    )
    shown = points if len(points) <= MAX_DOTS else [points[-1]]
    for point in shown:
        dot = ET.SubElement(
            svg,
            "circle",
            {"cx": str(x_of(point.on)), "cy": str(y_of(point.rating)), "r": "3", "fill": LINE},
        )
        ET.SubElement(dot, "title").text = _("%(day)s: %(rating)s ± %(pm)s") % {
            "day": point.on.isoformat(),
            "rating": round(point.rating),
            "pm": round(point.plusminus),
        }
    return ET.tostring(svg, encoding="unicode")


def nice_step(extent: float, ticks: int) -> float:
    """A round step (1, 2, 2.5 or 5 times a power of ten) that cuts ``extent`` into at most
    about ``ticks`` parts."""
    if extent <= 0:
        return 10.0
    raw = extent / max(ticks - 1, 1)
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        if factor * power >= raw:
            return factor * power
    return 10 * power  # pragma: no cover - the loop's last factor always fits


def date_ticks(start: date, end: date, most: int) -> list[tuple[date, str]]:
    """Dates to mark between ``start`` and ``end`` (at most ``most`` of them), with their labels:
    new years over a long span, first days of months over a shorter one, days otherwise."""
    days = (end - start).days
    if days > 2 * 365:
        years = list(range(start.year + (start > date(start.year, 1, 1)), end.year + 1))
        step = max(1, math.ceil(len(years) / most))
        return [(date(y, 1, 1), str(y)) for y in years[::step]]
    if days > 45:
        months = []
        year, month = start.year, start.month
        if start.day > 1:
            year, month = (year + 1, 1) if month == 12 else (year, month + 1)
        while date(year, month, 1) <= end:
            months.append(date(year, month, 1))
            year, month = (year + 1, 1) if month == 12 else (year, month + 1)
        step = max(1, math.ceil(len(months) / most))
        return [(m, f"{m.year}-{m.month:02d}") for m in months[::step]]
    step = max(1, math.ceil((days + 1) / most))
    return [
        (start + timedelta(days=d), (start + timedelta(days=d)).strftime("%m-%d"))
        for d in range(0, days + 1, step)
    ]


def _text(
    parent: ET.Element,
    x: float,
    y: float,
    text: str,
    *,
    anchor: str = "start",
    fill: str = INK,
) -> ET.Element:
    element = ET.SubElement(
        parent, "text", {"x": f"{x:g}", "y": f"{y:g}", "text-anchor": anchor, "fill": fill}
    )
    element.text = text
    return element
