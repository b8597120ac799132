"""Board geometry in plain Python and NumPy: radii, pegs, scoring regions, quadrants.

Origin at the board's centre, x to the right, y up, seen from above; metres (design.md). Seats:
0 south (shooting towards +y), 1 west, 2 north, 3 east; each quadrant is 90° wide and centred on
its seat's centre line (board.md). The rules module uses these helpers; the compiled engine gets
the same numbers from :class:`PhysicsParams` and :func:`peg_positions`.

Lines have a width (``line_width``): a flat disc touches a line when its bottom edge is over any
part of the painted band (NCA rule 6e), and it scores the lowest region it touches (6b, 6d). The
band of a line belongs, for scoring, to the lower of its two regions.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from simulation.physics.params import DEFAULT_PARAMS, PhysicsParams

SEAT_ANGLES_DEG: dict[int, float] = {0: -90.0, 1: 180.0, 2: 90.0, 3: 0.0}
"""Direction of each seat, seen from the centre (degrees counterclockwise from +x)."""


def radii(params: PhysicsParams = DEFAULT_PARAMS) -> dict[str, float]:
    """The board's radii in metres, by name (board.md, Geometry)."""
    return {
        "hole": params.hole_radius,
        "hole_support": params.hole_support_radius,
        "fifteen": params.peg_circle_radius,
        "ten_five": params.ten_five_radius,
        "shooting_line": params.shooting_line_radius,
        "line_touch": params.touch_radius,
        "surface": params.surface_radius,
        "rail": params.rail_radius,
        "disc": params.disc_radius,
        "peg": params.peg_radius,
    }


def peg_positions(params: PhysicsParams = DEFAULT_PARAMS) -> np.ndarray:
    """The eight peg centres, (8, 2), at 22.5° + k·45° on the 15/10 line.

    Offset 22.5° from every seat's centre line (the quadrant lines bisect the gap between two
    pegs, board.md). Built from one cosine and one sine so that the set is exactly symmetric
    under the board's reflections and quarter turns, in floating point too: a shot and its
    mirror image then meet mirror-image pegs.
    """
    rad = params.peg_circle_radius
    c = rad * math.cos(math.pi / 8.0)
    s = rad * math.sin(math.pi / 8.0)
    return np.array(
        [[c, s], [s, c], [-s, c], [-c, s], [-c, -s], [-s, -c], [s, -c], [c, -s]],
        dtype=np.float64,
    )


def _distance(x: float, y: float) -> float:
    return math.hypot(x, y)


def _line_thresholds(params: PhysicsParams) -> tuple[tuple[int, float], ...]:
    """(region, radius of its outer line) from the centre outwards; 0 is the out-of-play band."""
    return (
        (15, params.peg_circle_radius),
        (10, params.ten_five_radius),
        (5, params.shooting_line_radius),
    )


def touched_regions(x: float, y: float, params: PhysicsParams = DEFAULT_PARAMS) -> frozenset[int]:
    """Scoring regions a flat disc centred at (x, y) touches: a subset of {15, 10, 5, 0}.

    0 stands for the shooting line and beyond (out of play). A line's painted band counts for the
    lower region, so a region spans the radii from the inner edge of the band below it to the
    inner edge of its own outer band. The disc covers radii [d - r, d + r]: it reaches out into
    the next region once d >= R_line - w/2 - r (the expression the engine uses for the shooting
    line, ``PhysicsParams.touch_radius``), and its inner edge is still in a region while
    d < R_line - w/2 + r. (20 is not a position: a disc is in the hole or not.)
    """
    r = params.disc_radius
    half = 0.5 * params.line_width
    d = _distance(x, y)
    out = set()
    inner_reached = True  # the disc reaches the region below the first line (none: region 15)
    for value, line in _line_thresholds(params):
        if inner_reached and d < line - half + r:
            out.add(value)
        inner_reached = d >= line - half - r
    if d >= params.touch_radius:
        out.add(0)
    return frozenset(out)


def score_region(x: float, y: float, params: PhysicsParams = DEFAULT_PARAMS) -> int:
    """Points of a flat disc on the surface centred at (x, y): the lowest region it touches.

    15 only when wholly inside the 15 line's painted band; 0 when it touches the shooting line
    (out of play, NCA 8c).
    """
    d = _distance(x, y)
    r = params.disc_radius
    half = 0.5 * params.line_width
    for value, line in _line_thresholds(params):
        if value == 5:
            return 5 if d < params.touch_radius else 0
        if d < line - half - r:
            return value
    return 0


def touches_shooting_line(x: float, y: float, params: PhysicsParams = DEFAULT_PARAMS) -> bool:
    """Whether a flat disc at (x, y) touches or lies beyond the shooting line."""
    return _distance(x, y) >= params.touch_radius


def wholly_inside_fifteen(x: float, y: float, params: PhysicsParams = DEFAULT_PARAMS) -> bool:
    """Whether a flat disc at (x, y) lies wholly inside the 15 line (touching none of it)."""
    return score_region(x, y, params) == 15


def in_hole_zone(x: float, y: float, params: PhysicsParams = DEFAULT_PARAMS) -> bool:
    """Whether a resting disc at (x, y) is unsupported and falls into the 20 hole."""
    return _distance(x, y) < params.hole_support_radius


def quadrant_of(x: float, y: float) -> int:
    """Seat whose quadrant contains the point (x, y), as seen from the centre.

    A point exactly on a quadrant line (a diagonal) belongs to the quadrant counterclockwise of
    it; the centre itself to seat 0.
    """
    if x == 0.0 and y == 0.0:
        return 0
    ang = math.degrees(math.atan2(y, x))
    # Seat 3 (east) covers [-45, 45), seat 2 (north) [45, 135), seat 1 (west) [135, 225),
    # seat 0 (south) [225, 315) = [-135, -45).
    a = (ang + 45.0) % 360.0
    return (3, 2, 1, 0)[int(a // 90.0) % 4]


def angle_from_centre_line(x: float, y: float, seat: int) -> float:
    """Angle (degrees, counterclockwise positive, in (-180, 180]) of the point (x, y) seen from
    the centre, measured from ``seat``'s centre line."""
    ang = math.degrees(math.atan2(y, x)) - SEAT_ANGLES_DEG[seat]
    ang = (ang + 180.0) % 360.0 - 180.0
    return 180.0 if ang == -180.0 else ang


def shooting_position(
    seat: int,
    position_deg: float,
    radius: float | None = None,
    params: PhysicsParams = DEFAULT_PARAMS,
) -> tuple[float, float]:
    """Centre of a disc placed ``position_deg`` around the board from ``seat``'s centre line
    (counterclockwise positive), at ``radius`` (default: on the shooting line)."""
    rad = params.shooting_line_radius if radius is None else radius
    a = math.radians(SEAT_ANGLES_DEG[seat] + position_deg)
    return rad * math.cos(a), rad * math.sin(a)


def ditch_position(angle_deg: float, params: PhysicsParams = DEFAULT_PARAMS) -> tuple[float, float]:
    """A resting place in the ditch at ``angle_deg``: the middle of the ditch ring."""
    rad = params.surface_radius + 0.5 * params.ditch_width
    a = math.radians(angle_deg)
    return rad * math.cos(a), rad * math.sin(a)


def overlapping_pairs(
    positions: Sequence[Sequence[float]], params: PhysicsParams = DEFAULT_PARAMS
) -> list[tuple[int, int]]:
    """Pairs of discs (by index) whose footprints overlap by more than round-off."""
    p = np.asarray(positions, dtype=np.float64).reshape(-1, 2)
    lim = 2.0 * params.disc_radius * (1.0 - 1e-9)
    out = []
    for i in range(len(p)):
        d = np.hypot(p[i + 1 :, 0] - p[i, 0], p[i + 1 :, 1] - p[i, 1])
        for k in np.nonzero(d < lim)[0]:
            out.append((i, i + 1 + int(k)))
    return out
