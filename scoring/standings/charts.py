"""Geometry of the standings bar chart, computed here so the template only draws."""

from dataclasses import dataclass

ROW_HEIGHT = 20
LABEL_WIDTH = 220
BAR_AREA = 500


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


@dataclass(frozen=True)
class BarChart:
    width: int
    height: int
    label_width: int
    bars: list[Bar]


def standings_chart(rows: list[tuple[int, str, int, int, bool]]) -> BarChart:
    """Bars for (rank, name, points, 20s, advances) rows: points and 20s on their own scales,
    so a glance shows both who leads and who would win a 20s tiebreak."""
    max_points = max((r[2] for r in rows), default=0) or 1
    max_twenties = max((r[3] for r in rows), default=0) or 1
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
            )
        )
    width = LABEL_WIDTH + BAR_AREA + 40
    return BarChart(
        width=width,
        height=max(ROW_HEIGHT, len(rows) * ROW_HEIGHT),
        label_width=LABEL_WIDTH,
        bars=bars,
    )
