"""Geometry of a finish-time histogram, computed here so the template only draws (pure).

One drawing 360 units wide, so that on a 390 px phone a unit is about a pixel and the 12-unit
labels stay readable, scaled up on a laptop. The bars count the days that ended in each stretch
of time; a solid line marks the median, a dashed one the 90th percentile, and a red one the
latest acceptable end when it falls inside the drawing. The times are clock times of the day.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from simulation.planning.forecast import clock_time

WIDTH = 360
HEIGHT = 150
LEFT = 8
RIGHT = 8
TOP = 22
AXIS = 120  # y of the time axis
FONT = 12


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    title: str


@dataclass(frozen=True)
class Mark:
    x: float
    label: str
    label_x: float
    anchor: str
    css: str


@dataclass(frozen=True)
class Histogram:
    width: int
    height: int
    axis_y: int
    bars: list[Bar]
    marks: list[Mark]
    ticks: list[Mark]


def _x(minutes: float, low: float, high: float) -> float:
    return LEFT + (minutes - low) / (high - low) * (WIDTH - LEFT - RIGHT)


def _anchor(x: float) -> tuple[float, str]:
    if x < 60:
        return x + 3, "start"
    if x > WIDTH - 60:
        return x - 3, "end"
    return x, "middle"


def histogram(
    data: Mapping[str, Sequence[float]],
    median: float,
    p90: float,
    end: float | None,
    words: Mapping[str, str],
) -> Histogram:
    """The drawing of ``data`` (``edges``, ``counts`` from ``forecast.histogram``), with the
    median, the 90th percentile and the day's end marked; ``words`` holds the translated
    ``median``, ``p90``, ``end`` and ``days`` (a format with ``%(count)s`` and ``%(range)s``)."""
    edges = list(data["edges"])
    counts = list(data["counts"])
    low, high = edges[0], edges[-1]
    if end is not None and low - 30 <= end <= high + 30:
        low, high = min(low, end), max(high, end)
    if high - low < 1:
        high = low + 1
    most = max(max(counts), 1)
    bars = []
    for left, right, count in zip(edges, edges[1:], counts, strict=False):
        x0, x1 = _x(left, low, high), _x(right, low, high)
        h = (AXIS - TOP) * count / most
        title = words["days"] % {
            "count": count,
            "range": f"{clock_time(left)}-{clock_time(right)}",
        }
        bars.append(
            Bar(round(x0, 1), round(AXIS - h, 1), round(max(x1 - x0 - 1, 1), 1), round(h, 1), title)
        )
    marks = []
    for value, label, css in (
        (median, words["median"], "plan-median"),
        (p90, words["p90"], "plan-p90"),
    ):
        x = _x(value, low, high)
        lx, anchor = _anchor(x)
        marks.append(Mark(round(x, 1), f"{label} {clock_time(value)}", round(lx, 1), anchor, css))
    if end is not None and low <= end <= high:
        x = _x(end, low, high)
        lx, anchor = _anchor(x)
        marks.append(
            Mark(round(x, 1), f"{words['end']} {clock_time(end)}", round(lx, 1), anchor, "plan-end")
        )
    ticks = []
    for value in (low, high):
        x = _x(value, low, high)
        lx, anchor = _anchor(x)
        ticks.append(Mark(round(x, 1), clock_time(value), round(lx, 1), anchor, "plan-tick"))
    return Histogram(WIDTH, HEIGHT, AXIS, bars, marks, ticks)
