"""Where a straight path meets a circle: the root-finding shared by most events (compiled).

A disc at p0 moving along the unit direction u is at p0 + u s after path length s. Its distance
to a centre c equals R where g(s) = |p0 - c + u s|² - R² = s² + 2bs + cc vanishes, with
b = (p0 - c)·u and cc = |p0 - c|² - R². The discriminant is computed as R² - ((p0 - c) x u)², from
the perpendicular offset directly, so a grazing contact (offset within 1e-9 m of R) is decided by
the offset itself, not by the difference of two large squares. Roots use the product form
s_lo · s_hi = cc to avoid cancellation.

Two kinds of question:

* ``enter_path``: first s ≥ 0 where the distance falls to R (an obstacle is hit, or a zone is
  entered). If the disc already touches or overlaps and is approaching, that is now (s = 0);
  touching and separating is no event.
* ``exit_path``: where the distance rises through R (a line or edge is crossed outward), clamped at
  0 so a disc found marginally outside by round-off crosses now rather than never.

Crossing events keep a per-disc inside/outside flag, and the asymmetry (entering needs a root
strictly ahead or an overlap while approaching; exiting is clamped) stops a disc that was just
placed on a circle from crossing back and forth at the same instant.
"""

from __future__ import annotations

import math

import numpy as np

from simulation.physics.nbtypes import b1, f8, njit_inner

INF = np.inf


@njit_inner(f8(f8, f8, f8, f8, f8, f8, f8, b1))
def enter_path(
    px: float, py: float, ux: float, uy: float, cx: float, cy: float, rad: float, strict: bool
) -> float:
    """Path length at which the moving disc's centre comes within ``rad`` of (cx, cy).

    ``strict`` demands a positive discriminant (a real impulse; a tangent path with zero normal
    speed is no collision); zone and line entries accept a tangent touch.
    """
    dx = px - cx
    dy = py - cy
    b = dx * ux + dy * uy
    cc = dx * dx + dy * dy - rad * rad
    if cc <= 0.0:
        return 0.0 if b < 0.0 else INF
    if b >= 0.0:
        return INF
    cr = dx * uy - dy * ux
    disc = rad * rad - cr * cr
    if disc < 0.0 or (strict and disc == 0.0):
        return INF
    s_hi = -b + math.sqrt(disc)
    return cc / s_hi


@njit_inner(f8(f8, f8, f8, f8, f8, f8, f8))
def exit_path(
    px: float, py: float, ux: float, uy: float, cx: float, cy: float, rad: float
) -> float:
    """Path length at which the centre moves out through the circle of radius ``rad``.

    Returns the larger root of g, clamped at 0; ``inf`` when the line of travel misses the circle.
    """
    dx = px - cx
    dy = py - cy
    b = dx * ux + dy * uy
    cc = dx * dx + dy * dy - rad * rad
    cr = dx * uy - dy * ux
    disc = rad * rad - cr * cr
    if disc < 0.0:
        return INF
    sq = math.sqrt(disc)
    if b < 0.0:
        s_hi = -b + sq
    else:
        s_lo = -b - sq
        s_hi = cc / s_lo if s_lo != 0.0 else 0.0
    return s_hi if s_hi > 0.0 else 0.0


@njit_inner(f8(f8, f8, f8, f8, f8, f8, f8))
def exit_normal_speed(
    px: float, py: float, ux: float, uy: float, cx: float, cy: float, rad: float
) -> float:
    """Outward normal speed fraction at the exit point: sqrt(disc)/rad (0 for a tangent path).

    Used by the rail, an obstacle met from inside: a path tangent to it carries no impulse.
    """
    dx = px - cx
    dy = py - cy
    cr = dx * uy - dy * ux
    disc = rad * rad - cr * cr
    if disc <= 0.0:
        return 0.0
    return math.sqrt(disc) / rad
