"""A board state as an SVG picture, built as a plain string.

Seen from above with seat 0 (south) at the bottom, as the simulation interface describes: the rail
and the ditch, the playing surface, the shooting line, the 10/5 and 15/10 lines, the 20 hole, the
eight pegs on the 15/10 line, the four quadrant lines, the discs in play coloured by side (each
with its id as a title), the 20s set aside beside the board (side 0 on the left, side 1 on the
right) and, optionally, the paths of the last shot drawn from its events.

Coordinates are millimetres with y flipped (SVG's y grows downwards). No external library: the web
pages embed the string, tests parse it and save it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from simulation.rules.geometry import DEFAULT_GEOMETRY, BoardGeometry
from simulation.rules.state import BoardState, Disc, parse_state
from tournaments.translation import _

DITCH_WIDTH = 0.051
"""Ditch width (board.md: at least 2 in)."""

RAIL_WIDTH = 0.02
"""Drawn width of the rail around the ditch."""

SIDE_COLOURS = ("#e9cf9a", "#2b2b2b")
"""Natural and black, the two colours of a crokinole set."""

SIDE_STROKES = ("#8a6a35", "#000000")
SIDE_TEXT = ("#3b2a10", "#f2f2f2")
SHOT_PATH_COLOUR = "#d03a2f"
"""The shot disc's path."""

OTHER_PATH_COLOUR = "#4a4a4a"
"""Paths of the discs the shot set moving."""

TRAY_GAP = 0.03
"""Gap between the rail and the columns of 20s beside it."""


def _mm(value: float) -> str:
    return f"{value * 1000:.3f}"


def _point(x: float, y: float) -> tuple[str, str]:
    return _mm(x), _mm(-y)


def _circle(x: float, y: float, r: float, **attrs: str) -> str:
    cx, cy = _point(x, y)
    extra = "".join(f" {k.replace('_', '-')}={quoteattr(v)}" for k, v in attrs.items())
    return f'<circle cx="{cx}" cy="{cy}" r="{_mm(r)}"{extra}/>'


def _ring(r: float, width: float, colour: str, css: str) -> str:
    return _circle(
        0.0, 0.0, r, fill="none", stroke=colour, stroke_width=_mm(width), **{"class": css}
    )


def _disc(disc: Disc, geometry: BoardGeometry, x: float, y: float, css: str = "disc") -> str:
    side = disc.side if disc.side in (0, 1) else 1
    if disc.leaner:
        title = _("%(id)s (side %(side)s, leaner)") % {"id": disc.id, "side": disc.side}
    else:
        title = _("%(id)s (side %(side)s)") % {"id": disc.id, "side": disc.side}
    cx, cy = _point(x, y)
    body = _circle(
        x,
        y,
        geometry.disc_radius,
        fill=SIDE_COLOURS[side],
        stroke=SIDE_STROKES[side],
        stroke_width="1.2",
        stroke_dasharray="3 2" if disc.leaner else "none",
    )
    label = (
        f'<text x="{cx}" y="{cy}" dy="3.5" text-anchor="middle" font-size="10" '
        f'font-family="sans-serif" fill="{SIDE_TEXT[side]}">{escape(disc.id)}</text>'
    )
    return (
        f'<g class="{css} side-{disc.side}" data-id={quoteattr(disc.id)}>'
        f"<title>{escape(title)}</title>{body}{label}</g>"
    )


def _board(geometry: BoardGeometry) -> list[str]:
    g = geometry
    rail_outer = g.surface_radius + DITCH_WIDTH + RAIL_WIDTH
    parts = [
        _circle(0.0, 0.0, rail_outer, fill="#5a3a1e", **{"class": "rail"}),
        _circle(0.0, 0.0, g.surface_radius + DITCH_WIDTH, fill="#3a2a1a", **{"class": "ditch"}),
        _circle(0.0, 0.0, g.surface_radius, fill="#dcb887", **{"class": "surface"}),
    ]
    for radius, css in (
        (g.shooting_line_radius, "shooting-line"),
        (g.line_10_5_radius, "line-10-5"),
        (g.line_15_10_radius, "line-15-10"),
    ):
        parts.append(_ring(radius, g.line_width, "#1d1d1d", css))
    for k in range(4):
        angle = math.radians(45.0 + 90.0 * k)
        x1, y1 = _point(g.line_10_5_radius * math.cos(angle), g.line_10_5_radius * math.sin(angle))
        x2, y2 = _point(
            g.shooting_line_radius * math.cos(angle), g.shooting_line_radius * math.sin(angle)
        )
        parts.append(
            f'<line class="quadrant-line" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" '
            f'stroke="#1d1d1d" stroke-width="{_mm(g.line_width)}"/>'
        )
    parts.append(_circle(0.0, 0.0, g.hole_radius, fill="#120c06", **{"class": "hole"}))
    for k in range(8):
        angle = math.radians(22.5 + 45.0 * k)
        parts.append(
            _circle(
                g.line_15_10_radius * math.cos(angle),
                g.line_15_10_radius * math.sin(angle),
                g.peg_radius,
                fill="#7a1f1f",
                stroke="#2a0a0a",
                stroke_width="0.8",
                **{"class": "peg"},
            )
        )
    return parts


#: Characters of a side's name that fit over its column of 20s at the label's size.
TRAY_LABEL_CHARS = 12


def _side_label(side: int, names: Sequence[str] | None) -> str:
    """Who a column of 20s belongs to: the side's player (cut to fit over the column), or the
    side's number when the picture is drawn without names."""
    name = names[side].strip() if names and side < len(names) else ""
    if not name:
        return _("20s, side %(side)s") % {"side": side}
    if len(name) > TRAY_LABEL_CHARS:
        name = name[: TRAY_LABEL_CHARS - 1].rstrip() + "\u2026"
    return name


def _twenties(
    twenties: Iterable[Mapping[str, Any]],
    geometry: BoardGeometry,
    side_names: Sequence[str] | None = None,
) -> list[str]:
    rail_outer = geometry.surface_radius + DITCH_WIDTH + RAIL_WIDTH
    column_x = (
        -(rail_outer + TRAY_GAP + geometry.disc_radius),
        rail_outer + TRAY_GAP + geometry.disc_radius,
    )
    count = [0, 0]
    parts: list[str] = []
    for side in (0, 1):
        tx, ty = _point(column_x[side], rail_outer)
        parts.append(
            f'<text class="tray-label" x="{tx}" y="{ty}" text-anchor="middle" font-size="12" '
            f'font-family="sans-serif" fill="#333">{escape(_side_label(side, side_names))}</text>'
        )
    for item in twenties:
        side = int(item["side"])
        if side not in (0, 1):
            continue
        step = 2.2 * geometry.disc_radius
        y = rail_outer - 0.03 - count[side] * step
        count[side] += 1
        disc = Disc(id=str(item["id"]), side=side, x=column_x[side], y=y)
        parts.append(_disc(disc, geometry, column_x[side], y, css="twenty"))
    return parts


def shot_paths(events: Sequence[Mapping[str, Any]]) -> dict[str, list[tuple[float, float]]]:
    """The path of every disc that moved, from the positions each event reports after it."""
    paths: dict[str, list[tuple[float, float]]] = {}
    for event in events:
        for state in event.get("discs", ()):
            point = (float(state["x"]), float(state["y"]))
            path = paths.setdefault(str(state["id"]), [])
            if not path or path[-1] != point:
                path.append(point)
    return {disc_id: path for disc_id, path in paths.items() if len(path) > 1}


def _paths(events: Sequence[Mapping[str, Any]], shooter: str | None) -> list[str]:
    parts: list[str] = []
    for disc_id, path in shot_paths(events).items():
        points = " ".join(",".join(_point(x, y)) for x, y in path)
        is_shot = disc_id == shooter
        css = "path shot-path" if is_shot else "path"  # untranslated: CSS classes
        colour = SHOT_PATH_COLOUR if is_shot else OTHER_PATH_COLOUR
        width = "2.4" if is_shot else "1.2"
        parts.append(
            f'<polyline class="{css}" data-id={quoteattr(disc_id)} points="{points}" fill="none" '
            f'stroke="{colour}" stroke-width="{width}" stroke-linejoin="round" '
            'stroke-dasharray="6 3" opacity="0.85"/>'
        )
    return parts


def render_board(
    state: BoardState | Mapping[str, Any],
    twenties: Iterable[Mapping[str, Any]] = (),
    outcome: Mapping[str, Any] | None = None,
    *,
    title: str | None = None,
    width_px: int = 720,
    geometry: BoardGeometry = DEFAULT_GEOMETRY,
    side_names: Sequence[str] | None = None,
) -> str:
    """The SVG (a string) of a board state.

    ``state`` is a :class:`BoardState` or its JSON form. ``twenties`` lists the 20s set aside so
    far (``{"id": ..., "side": ...}``), drawn beside the board. ``outcome`` is a shot's outcome as
    ``simulate_shot`` returns it: its discs' paths are drawn from its events and the shot disc's
    path is highlighted. The picture shows ``state``, so pass the outcome's board to show the
    position after that shot. ``side_names`` (side 0's, side 1's) label the columns of 20s
    with the players, for people watching a game rather than testing the engine.
    """
    board = state if isinstance(state, BoardState) else parse_state(state, geometry)
    rail_outer = geometry.surface_radius + DITCH_WIDTH + RAIL_WIDTH
    half_width = rail_outer + 2 * TRAY_GAP + 2 * geometry.disc_radius
    half_height = rail_outer + 0.01
    view = f"{_mm(-half_width)} {_mm(-half_height)} {_mm(2 * half_width)} {_mm(2 * half_height)}"
    height_px = round(width_px * half_height / half_width)
    default_title = _("Crokinole board")
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="{view}" width="{width_px}" height="{height_px}" role="img">',
        f"<title>{escape(title or default_title)}</title>",
        *_board(geometry),
    ]
    if outcome is not None:
        events = list(outcome.get("events", ()))
        shooter = (events[0].get("ids") or [None])[0] if events else None
        parts.extend(_paths(events, shooter))
    parts.extend(_disc(disc, geometry, disc.x, disc.y) for disc in board.discs)
    parts.extend(_twenties(twenties, geometry, side_names))
    parts.append("</svg>")
    return "\n".join(parts)
