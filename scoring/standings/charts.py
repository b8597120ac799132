"""Geometry of the standings bar chart, computed here so the template only draws.

Two layouts of the same bars, because one drawing cannot be read at both sizes: an SVG scales
as a whole, so the wide chart (names left of the bars) shrunk onto a phone drew its names at
5 px. The wide layout is for screens of 760 px and more, and for the printed sheet; the phone
layout puts each name on a line of its own above its bars, in a drawing 360 units wide, so on a
390 px phone (about 374 px for the chart) a unit is about a pixel and 13-unit labels stay above
12 px. Text does not wrap in SVG, so every label is cut (with "…") to the width it has, from an
estimate of the width of its characters (``tournaments.svg.text``, shared with the bracket);
the table under the chart always has the full names, and each bar's tooltip too.

Both carry a legend, as people asked what the colours and the two bars meant: the thick bar is
points (green for an entry that advances), the thin bar 20s, each against the stage's best.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_noop

from tournaments.svg.text import fit, text_width

#: Height of a row of the wide layout (the printed sheet cuts its pages at multiples of it).
ROW_HEIGHT = 20
LABEL_WIDTH = 220
BAR_AREA = 500
#: Width of the phone layout's drawing, in SVG units: a 390 px phone's chart is about 374 px.
PHONE_WIDTH = 360
PHONE_ROW_HEIGHT = 38
#: Font sizes in SVG units; the layouts keep them at 12 px or more where they are shown.
LABEL_FONT = 13
VALUE_FONT = 12
LEGEND_FONT = 12
LEGEND_LINE = 18
SWATCH = 12


@dataclass(frozen=True)
class LegendItem:
    """One entry of the legend: a swatch of a bar's class (none for a note) and its text."""

    x: float
    y: float
    css: str
    text: str
    text_x: float
    swatch_y: float
    swatch_height: float


@dataclass(frozen=True)
class Bar:
    y: int
    rank: int
    name: str
    points: int
    twenties: int
    points_width: float
    twenties_width: float
    value_x: float
    advances: bool
    #: What the label shows: rank and name, cut to its room.
    label: str = ""
    #: The numbers beside the bar: points · 20s.
    value: str = ""
    full_name: str = ""


@dataclass(frozen=True)
class BarChart:
    """A layout of the bars. ``height`` includes the legend; the bars start at ``top``."""

    width: int
    height: int
    label_width: int
    bars: list[Bar]
    layout: str = "wide"
    top: int = 0
    legend: tuple[LegendItem, ...] = ()
    label_x: float = 0
    label_y: float = 13
    label_anchor: str = "end"
    bar_x: float = 0
    points_y: float = 2
    points_height: float = 9
    twenties_y: float = 12
    twenties_height: float = 5
    value_y: float = 11
    value_anchor: str = "start"
    label_font: int = LABEL_FONT
    value_font: int = VALUE_FONT
    legend_font: int = LEGEND_FONT


Row = tuple[int, str, int, int, bool]


def _legend(rows: list[Row], width: float) -> tuple[tuple[LegendItem, ...], int]:
    """Legend entries flowed left to right, wrapped at ``width``; and the height they take."""
    # Kept in English here (the chart is cached for every visitor); the template shows each
    # text in the visitor's language (the ``chart_words`` filter), hence gettext_noop.
    entries = [("points", gettext_noop("Points"))]
    if any(r[4] for r in rows):
        advancing = "points advances"  # untranslated: CSS classes of the swatch
        entries.append((advancing, gettext_noop("Points, advancing")))
    entries += [
        ("twenties", gettext_noop("20s")),
        ("", gettext_noop("Numbers: points · 20s")),
        ("", gettext_noop("Longest bar: the stage's best")),
    ]
    items, x, line, gap = [], 0.0, 0, 14
    for css, text in entries:
        swatch = SWATCH + 4 if css else 0
        room = swatch + text_width(text, LEGEND_FONT)
        if x and x + room > width:
            x, line = 0.0, line + 1
        y = 13 + line * LEGEND_LINE
        thin = css == "twenties"
        items.append(
            LegendItem(
                x=x,
                y=y,
                css=css,
                text=text,
                text_x=x + swatch,
                swatch_y=y - (7 if thin else 10),
                swatch_height=5 if thin else 10,
            )
        )
        x += room + gap
    return tuple(items), (line + 1) * LEGEND_LINE + 6


def _scales(rows: list[Row]) -> tuple[int, int]:
    return max((r[2] for r in rows), default=0) or 1, max((r[3] for r in rows), default=0) or 1


def standings_chart(rows: list[Row]) -> BarChart:
    """The wide layout of (rank, name, points, 20s, advances) rows: names left of the bars,
    points and 20s on their own scales, so a glance shows both who leads and who would win a
    20s tiebreak."""
    max_points, max_twenties = _scales(rows)
    bars = []
    for i, (rank, name, points, twenties, advances) in enumerate(rows):
        pw = round(BAR_AREA * points / max_points, 1)
        bars.append(
            Bar(
                y=i * ROW_HEIGHT,
                rank=rank,
                name=name if len(name) <= 28 else name[:27] + "…",
                points=points,
                twenties=twenties,
                points_width=pw,
                twenties_width=round(BAR_AREA * twenties / max_twenties, 1),
                value_x=LABEL_WIDTH + pw + 4,
                advances=advances,
                label=fit(f"{rank}. {name}", LABEL_WIDTH - 6, LABEL_FONT),
                value=f"{points} · {twenties}",
                full_name=name,
            )
        )
    widest_value = max((text_width(b.value, VALUE_FONT) for b in bars), default=0)
    width = LABEL_WIDTH + BAR_AREA + 4 + max(40, int(widest_value) + 4)
    legend, top = _legend(rows, width)
    return BarChart(
        width=width,
        height=top + max(ROW_HEIGHT, len(rows) * ROW_HEIGHT),
        label_width=LABEL_WIDTH,
        bars=bars,
        top=top,
        legend=legend,
        label_x=LABEL_WIDTH - 6,
        bar_x=LABEL_WIDTH,
    )


def phone_chart(rows: list[Row]) -> BarChart:
    """The phone layout: each row is its rank and name on a line, the numbers at the right end
    of that line, and the two bars under it across the whole width."""
    max_points, max_twenties = _scales(rows)
    bars = []
    for i, (rank, name, points, twenties, advances) in enumerate(rows):
        value = f"{points} · {twenties}"
        room = PHONE_WIDTH - text_width(value, VALUE_FONT) - 8
        bars.append(
            Bar(
                y=i * PHONE_ROW_HEIGHT,
                rank=rank,
                name=name,
                points=points,
                twenties=twenties,
                points_width=round(PHONE_WIDTH * points / max_points, 1),
                twenties_width=round(PHONE_WIDTH * twenties / max_twenties, 1),
                value_x=PHONE_WIDTH,
                advances=advances,
                label=fit(f"{rank}. {name}", room, LABEL_FONT),
                value=value,
                full_name=name,
            )
        )
    legend, top = _legend(rows, PHONE_WIDTH)
    return BarChart(
        width=PHONE_WIDTH,
        height=top + max(PHONE_ROW_HEIGHT, len(rows) * PHONE_ROW_HEIGHT),
        label_width=0,
        bars=bars,
        layout="phone",
        top=top,
        legend=legend,
        label_x=0,
        label_y=14,
        label_anchor="start",
        bar_x=0,
        points_y=19,
        points_height=8,
        twenties_y=28,
        twenties_height=5,
        value_y=14,
        value_anchor="end",
    )
