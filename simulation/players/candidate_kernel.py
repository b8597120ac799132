"""Candidate shots generated in one compiled call: the same shots as :func:`candidates.generate`.

The numpy generator in :mod:`candidates` reads clearly but costs a few hundred small-array calls
per decision (a few milliseconds), more than the physics the search then spends on the shots. This
module is the same reading of the board, step for step and in the same order, as loops compiled
by numba, so that a decision costs what its physics costs. :mod:`candidates` stays the reference:
the tests check that both give the same shots, and a change of the technique is made in both.

Arrays in: the discs of the situation (positions, sides, leaners), the shooter's side and seat
direction, the seat directions of the opponents still to shoot, the breadth as integers
(:data:`BREADTH_FIELDS`) and the board figures (:data:`FIGURE_FIELDS`).
"""

from __future__ import annotations

import functools
import math

import numpy as np
from numba import types

from simulation.physics.nbtypes import B1_1, F1, F2, I1, b1, f8, i8, njit, njit_inner
from simulation.players.candidates import (
    BUMP_20,
    CUTS,
    DOUBLE,
    DRAW,
    FIRM,
    HARD,
    HIDE,
    HIT_AND_ROLL,
    MAX_SPEED,
    OPEN_20,
    OPEN_20_SPEED,
    OPEN_20_STARTS,
    START_GRID,
    TAKE_OUT,
    Breadth,
    Candidates,
)
from simulation.players.situation import FIGURES, BoardFigures, Situation, seat_angles
from simulation.rules.seats import seat_angle

BREADTH_FIELDS = (
    "targets",
    "starts_per_target",
    "pairs",
    "bumped",
    "hides",
    "open_starts",
    "roll_targets",
    "roll_spots",
)
"""The order of the :class:`~candidates.Breadth` fields in the integer array the kernel reads."""

FIGURE_FIELDS = (
    "disc_r",
    "peg_r",
    "shooting_r",
    "surface_r",
    "fifteen_r",
    "ten_r",
    "reach_15_r",
    "decel",
    "transfer",
    "position_limit",
)
"""The order of the board figures in the float array the kernel reads."""

_DISC_R, _PEG_R, _SHOOT_R, _SURFACE_R, _FIFTEEN_R, _TEN_R, _REACH_15_R = range(7)
_DECEL, _TRANSFER, _POSITION_LIMIT = 7, 8, 9
_DEG = math.pi / 180.0
"""Degrees to radians, as ``np.radians`` computes it (one product)."""
_RAD = 180.0 / math.pi
"""Radians to degrees, as ``np.degrees`` computes it."""

EXPOSURE_GRID = np.ascontiguousarray(START_GRID[1:-1:2])
"""The opponents' start positions a hiding spot is checked from (``candidates.static_exposure``)."""
HIDE_OFFSETS = np.radians([10.0, -10.0])
"""Hiding draws stop this far round the 15 line either side of a peg (:func:`candidates.hides`)."""
FORCE = np.append(np.full(len(CUTS), FIRM), HARD)
"""Take-out speeds over what carries the target off: every cut firm, then the full hit hard."""

CANDIDATES_OUT = types.Tuple((F1, F1, F1, I1, I1))
"""What :func:`generate_kernel` returns: position, angle, speed, kind and target of each shot."""


def figures_array(fig: BoardFigures = FIGURES) -> np.ndarray:
    """The board figures the kernel reads, in :data:`FIGURE_FIELDS` order."""
    return np.array([getattr(fig, name) for name in FIGURE_FIELDS], dtype=np.float64)


@functools.lru_cache(maxsize=64)
def breadth_array(breadth: Breadth) -> np.ndarray:
    """The breadth the kernel reads, in :data:`BREADTH_FIELDS` order (cached: never written to)."""
    return np.array([getattr(breadth, name) for name in BREADTH_FIELDS], dtype=np.int64)


@njit_inner(types.UniTuple(f8, 2)(f8, f8, f8))
def _start_point(seat: float, position: float, shooting_r: float) -> tuple[float, float]:
    """Centre of a disc set on the shooting line at ``position`` degrees from the seat."""
    theta = (seat + position) * _DEG
    return shooting_r * math.cos(theta), shooting_r * math.sin(theta)


@njit_inner(f8(f8, f8, f8, f8, F2, F1, i8))
def _margin(
    sx: float,
    sy: float,
    ex: float,
    ey: float,
    obstacles: np.ndarray,
    clearance: np.ndarray,
    skip: int,
) -> float:
    """How far the path (sx, sy) -> (ex, ey) passes clear of the obstacles but ``skip`` (as
    :func:`candidates.segment_margin`)."""
    dx = ex - sx
    dy = ey - sy
    length2 = max(dx * dx + dy * dy, 1e-12)
    lo_x = min(sx, ex)
    hi_x = max(sx, ex)
    lo_y = min(sy, ey)
    hi_y = max(sy, ey)
    best = np.inf
    for o in range(obstacles.shape[0]):
        if o == skip:
            continue
        ox = obstacles[o, 0]
        oy = obstacles[o, 1]
        # The path lies in its bounding box: an obstacle whose distance from the box is clearly
        # more than the margin found so far cannot lower it (the same minimum, fewer roots).
        bx = max(lo_x - ox, ox - hi_x, 0.0)
        by = max(lo_y - oy, oy - hi_y, 0.0)
        reach = best + clearance[o]
        if reach > 0.0 and bx * bx + by * by > reach * reach * (1.0 + 1e-9) + 1e-18:
            continue
        t = ((ox - sx) * dx + (oy - sy) * dy) / length2
        t = min(max(t, 0.0), 1.0)
        gap = math.hypot(ox - (sx + t * dx), oy - (sy + t * dy)) - clearance[o]
        best = min(best, gap)
    return best


@njit_inner(b1(f8, f8, f8, f8, F2, F1))
def _clear(
    sx: float, sy: float, ex: float, ey: float, obstacles: np.ndarray, clearance: np.ndarray
) -> bool:
    """Whether :func:`_margin` of the path is at least 0 (without ``skip``): the same test, done
    at the first obstacle in the way."""
    dx = ex - sx
    dy = ey - sy
    length2 = max(dx * dx + dy * dy, 1e-12)
    for o in range(obstacles.shape[0]):
        ox = obstacles[o, 0]
        oy = obstacles[o, 1]
        t = ((ox - sx) * dx + (oy - sy) * dy) / length2
        t = min(max(t, 0.0), 1.0)
        if math.hypot(ox - (sx + t * dx), oy - (sy + t * dy)) - clearance[o] < 0:
            return False
    return True


@njit_inner(types.UniTuple(f8, 2)(f8, f8, f8, f8, f8, F1))
def _aim(
    seat: float, position: float, gx: float, gy: float, impact: float, fig: np.ndarray
) -> tuple[float, float]:
    """Release angle and speed from ``position`` to the ghost point (as :func:`candidates.aim`)."""
    sx, sy = _start_point(seat, position, fig[_SHOOT_R])
    dx = gx - sx
    dy = gy - sy
    heading = math.atan2(dy, dx) * _RAD
    angle = (heading - seat - 180.0 + 180.0) % 360.0 - 180.0
    speed = math.sqrt(impact**2 + 2.0 * fig[_DECEL] * math.hypot(dx, dy))
    return angle, min(speed, MAX_SPEED)


@njit_inner(f8(f8, f8, f8, f8, f8))
def _edge_distance(px: float, py: float, ux: float, uy: float, surface_r: float) -> float:
    """How far a disc at (px, py) travels along (ux, uy) before it leaves the surface."""
    b = px * ux + py * uy
    c = px * px + py * py - surface_r**2
    return -b + math.sqrt(max(b * b - c, 0.0))


@njit(I1(F1, F1, i8), no_cpython_wrapper=True)
def _best_starts(margin: np.ndarray, positions: np.ndarray, count: int) -> np.ndarray:
    """As :func:`candidates._best_starts`: clear starts, widest first, at least 15 degrees apart."""
    order = np.argsort(-margin, kind="mergesort")
    chosen = np.empty(len(order), dtype=np.int64)
    n = 0
    for k in order:
        if margin[k] < 0 and n:
            break
        spaced = True
        for c in range(n):
            if abs(positions[k] - positions[chosen[c]]) < 15.0:
                spaced = False
                break
        if spaced:
            chosen[n] = k
            n += 1
        if n == count or margin[k] < 0:
            break
    return chosen[:n].copy()


@njit_inner(i8(F1, F1, F1, I1, I1, i8, f8, f8, f8, i8, i8))
def _put(
    out_pos: np.ndarray,
    out_angle: np.ndarray,
    out_speed: np.ndarray,
    out_kind: np.ndarray,
    out_target: np.ndarray,
    n: int,
    position: float,
    angle: float,
    speed: float,
    kind: int,
    target: int,
) -> int:
    """Append one candidate; the new count."""
    out_pos[n] = position
    out_angle[n] = angle
    out_speed[n] = speed
    out_kind[n] = kind
    out_target[n] = target
    return n + 1


@njit(F1(F2, F1, F1, F1, F2, F1), no_cpython_wrapper=True)
def _static_exposure(
    points: np.ndarray,
    opp_seats: np.ndarray,
    grid: np.ndarray,
    fig: np.ndarray,
    obstacles: np.ndarray,
    clearance: np.ndarray,
) -> np.ndarray:
    """Share of the opponents' straight lines that reach each point (as
    :func:`candidates.static_exposure`)."""
    m = points.shape[0]
    out = np.zeros(m)
    total = opp_seats.shape[0] * grid.shape[0]
    for p in range(m):
        clear = 0
        for a in range(opp_seats.shape[0]):
            for g in range(grid.shape[0]):
                sx, sy = _start_point(opp_seats[a], grid[g], fig[_SHOOT_R])
                if _clear(sx, sy, points[p, 0], points[p, 1], obstacles, clearance):
                    clear += 1
        out[p] = clear / total
    return out


@njit_inner(f8(f8, f8, F2))
def _nearest_disc(x: float, y: float, positions: np.ndarray) -> float:
    """Distance from (x, y) to the nearest disc centre (infinite with no disc)."""
    best = np.inf
    for k in range(positions.shape[0]):
        best = min(best, math.hypot(x - positions[k, 0], y - positions[k, 1]))
    return best


@njit_inner(f8(f8, f8, f8, f8))
def _cosine(px: float, py: float, ux: float, uy: float) -> float:
    """Cosine between the direction (px, py) and the unit vector (ux, uy)."""
    h = math.hypot(px, py)
    return (px / h) * ux + (py / h) * uy


@njit_inner(i8(f8, f8, f8, f8, f8, F1, F1, F2, F1, i8))
def _aimed_start(
    hx: float,
    hy: float,
    ux: float,
    uy: float,
    min_cos: float,
    gx: np.ndarray,
    gy: np.ndarray,
    obstacles: np.ndarray,
    clearance: np.ndarray,
    skip: int,
) -> int:
    """The start with the clearest path to the ghost point (hx, hy) among those whose approach
    meets the direction (ux, uy) within ``min_cos``; -1 when none is clear."""
    k = -1
    best = -np.inf
    for g in range(gx.shape[0]):
        m = -np.inf
        if _cosine(hx - gx[g], hy - gy[g], ux, uy) >= min_cos:
            m = _margin(gx[g], gy[g], hx, hy, obstacles, clearance, skip)
        if k < 0 or m > best:
            k = g
            best = m
    return k if best >= 0 else -1


@njit(F2(F2, F1, i8, F1, F2, F2, F1, F1), no_cpython_wrapper=True)
def _hiding_spots(
    positions: np.ndarray,
    opp_seats: np.ndarray,
    count: int,
    fig: np.ndarray,
    pegs: np.ndarray,
    obstacles: np.ndarray,
    clearance: np.ndarray,
    exposure_grid: np.ndarray,
) -> np.ndarray:
    """Up to ``count`` points just behind a peg as the opponents see it, least exposed first (as
    :func:`candidates.hiding_spots`)."""
    r = fig[_DISC_R]
    gap = r + fig[_PEG_R] + 0.002
    points = np.empty((opp_seats.shape[0] * pegs.shape[0], 2))
    m = 0
    for a in range(opp_seats.shape[0]):
        sx, sy = _start_point(opp_seats[a], 0.0, fig[_SHOOT_R])
        for q in range(pegs.shape[0]):
            ax = pegs[q, 0] - sx
            ay = pegs[q, 1] - sy
            h = math.hypot(ax, ay)
            x = pegs[q, 0] + gap * (ax / h)
            y = pegs[q, 1] + gap * (ay / h)
            if _nearest_disc(x, y, positions) > 2.0 * r + 1e-4:
                points[m, 0] = x
                points[m, 1] = y
                m += 1
    points = points[:m].copy()
    if m == 0:
        return points
    exposure = _static_exposure(points, opp_seats, exposure_grid, fig, obstacles, clearance)
    return points[np.argsort(exposure, kind="mergesort")[:count]].copy()


@njit(F1(F2, B1_1, F1), no_cpython_wrapper=True)
def _disc_values(positions: np.ndarray, leaners: np.ndarray, fig: np.ndarray) -> np.ndarray:
    """What each disc counts where it lies (as :func:`candidates._values`)."""
    n = positions.shape[0]
    out = np.empty(n)
    for k in range(n):
        d = math.hypot(positions[k, 0], positions[k, 1])
        if leaners[k] or d < fig[_FIFTEEN_R]:
            out[k] = 15.0
        elif d < fig[_TEN_R]:
            out[k] = 10.0
        else:
            out[k] = 5.0
    return out


@njit(
    CANDIDATES_OUT(F2, I1, B1_1, i8, f8, F1, I1, F1, F2, F1, F1, F1, F1, F1, F1),
)
def generate_kernel(
    positions: np.ndarray,
    sides: np.ndarray,
    leaners: np.ndarray,
    side: int,
    seat: float,
    opp_seats: np.ndarray,
    breadth: np.ndarray,
    fig: np.ndarray,
    pegs: np.ndarray,
    start_grid: np.ndarray,
    open_starts: np.ndarray,
    exposure_grid: np.ndarray,
    cuts: np.ndarray,
    force: np.ndarray,
    hide_offsets: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every candidate shot: (position, angle, speed, kind, target), as :func:`candidates.generate`.

    ``opp_seats`` are the seat directions (degrees) of the opponents still to shoot, sorted by
    seat; ``breadth`` in :data:`BREADTH_FIELDS` order, ``fig`` in :data:`FIGURE_FIELDS` order.
    """
    n = positions.shape[0]
    r = fig[_DISC_R]
    decel = fig[_DECEL]
    transfer = fig[_TRANSFER]
    shoot_r = fig[_SHOOT_R]
    n_targets, n_starts, n_pairs, n_bumped, n_hides, n_open, roll_targets, roll_spots = (
        breadth[0],
        breadth[1],
        breadth[2],
        breadth[3],
        breadth[4],
        breadth[5],
        breadth[6],
        breadth[7],
    )
    cap = (
        n_targets * max(n_starts, 1) * force.shape[0]
        + n_pairs
        + 2 * roll_targets * roll_spots
        + n_open
        + 2 * n_bumped
        + n_hides
        + 1
    )
    c_pos = np.empty(cap)
    c_angle = np.empty(cap)
    c_speed = np.empty(cap)
    c_kind = np.empty(cap, dtype=np.int64)
    c_target = np.empty(cap, dtype=np.int64)
    nc = 0

    # The board: obstacles (discs, then pegs) and the free start positions.
    n_obs = n + pegs.shape[0]
    obstacles = np.empty((n_obs, 2))
    clearance = np.empty(n_obs)
    for k in range(n):
        obstacles[k, 0] = positions[k, 0]
        obstacles[k, 1] = positions[k, 1]
        clearance[k] = 2.0 * r
    for k in range(pegs.shape[0]):
        obstacles[n + k, 0] = pegs[k, 0]
        obstacles[n + k, 1] = pegs[k, 1]
        clearance[n + k] = r + fig[_PEG_R]
    grid = np.empty(start_grid.shape[0])
    gx = np.empty(start_grid.shape[0])
    gy = np.empty(start_grid.shape[0])
    ng = 0
    for g in range(start_grid.shape[0]):
        sx, sy = _start_point(seat, start_grid[g], shoot_r)
        if _nearest_disc(sx, sy, positions) >= 2.0 * r + 1e-5:
            grid[ng] = start_grid[g]
            gx[ng] = sx
            gy[ng] = sy
            ng += 1
    grid = grid[:ng].copy()
    gx = gx[:ng].copy()
    gy = gy[:ng].copy()
    opponents = np.empty(n, dtype=np.int64)
    n_opp = 0
    for k in range(n):
        if sides[k] != side:
            opponents[n_opp] = k
            n_opp += 1
    opponents = opponents[:n_opp].copy()
    values = _disc_values(positions, leaners, fig)
    margin = np.empty(ng)

    if n_opp:
        # Take-outs: full hits and cuts of each opposing disc, the most valuable first.
        if ng:
            dist = np.empty(n_opp)
            key = np.empty(n_opp)
            for a in range(n_opp):
                t = opponents[a]
                dist[a] = math.hypot(positions[t, 0], positions[t, 1])
                key[a] = -values[t]
            order = np.argsort(dist, kind="mergesort")
            order = order[np.argsort(key[order], kind="mergesort")]
            for a in order[:n_targets]:
                t = opponents[a]
                tx = positions[t, 0]
                ty = positions[t, 1]
                ax = np.empty(ng)
                ay = np.empty(ng)
                for g in range(ng):
                    dx = tx - gx[g]
                    dy = ty - gy[g]
                    h = math.hypot(dx, dy)
                    ax[g] = dx / h
                    ay[g] = dy / h
                    margin[g] = _margin(
                        gx[g], gy[g], tx - 2.0 * r * ax[g], ty - 2.0 * r * ay[g],
                        obstacles, clearance, t,
                    )  # fmt: skip
                for k in _best_starts(margin, grid, n_starts):
                    bx = ax[k]
                    by = ay[k]
                    first_need = 0.0
                    for c in range(force.shape[0]):
                        cut = cuts[c] if c < cuts.shape[0] else cuts[0]
                        rx = math.cos(cut) * bx - math.sin(cut) * by
                        ry = math.sin(cut) * bx + math.cos(cut) * by
                        hx = tx - 2.0 * r * rx
                        hy = ty - 2.0 * r * ry
                        if c < cuts.shape[0]:
                            px = hx - gx[k]
                            py = hy - gy[k]
                            h = math.hypot(px, py)
                            cos_cut = max((px / h) * rx + (py / h) * ry, 0.2)
                            need = math.sqrt(
                                2.0 * decel * _edge_distance(tx, ty, rx, ry, fig[_SURFACE_R])
                            )
                            if c == 0:
                                first_need = need
                        else:
                            cos_cut = 1.0
                            need = first_need
                        impact = force[c] * need / (cos_cut * transfer)
                        angle, speed = _aim(seat, grid[k], hx, hy, impact, fig)
                        nc = _put(
                            c_pos, c_angle, c_speed, c_kind, c_target, nc,
                            grid[k], angle, speed, TAKE_OUT, t,
                        )  # fmt: skip
        # Doubles: one opposing disc driven into another, the closest pairs first.
        if n_opp >= 2 and ng:
            n_pair = n_opp * (n_opp - 1)
            pa = np.empty(n_pair, dtype=np.int64)
            pb = np.empty(n_pair, dtype=np.int64)
            gaps = np.empty(n_pair)
            p = 0
            for a in opponents:
                for b in opponents:
                    if a != b:
                        pa[p] = a
                        pb[p] = b
                        gaps[p] = math.hypot(
                            positions[b, 0] - positions[a, 0], positions[b, 1] - positions[a, 1]
                        )
                        p += 1
            made = 0
            for p in np.argsort(gaps, kind="mergesort"):
                gap = gaps[p]
                if gap > 0.15 or made >= n_pairs:
                    break
                a = pa[p]
                b = pb[p]
                ux = (positions[b, 0] - positions[a, 0]) / gap
                uy = (positions[b, 1] - positions[a, 1]) / gap
                hx = positions[a, 0] - 2.0 * r * ux
                hy = positions[a, 1] - 2.0 * r * uy
                k = _aimed_start(hx, hy, ux, uy, 0.6, gx, gy, obstacles, clearance, a)
                if k < 0:
                    continue
                cos_cut = _cosine(hx - gx[k], hy - gy[k], ux, uy)
                edge = _edge_distance(positions[b, 0], positions[b, 1], ux, uy, fig[_SURFACE_R])
                need_second = 1.2 * math.sqrt(2.0 * decel * edge)
                first_speed = math.sqrt(
                    (need_second / transfer) ** 2 + 2.0 * decel * max(gap - 2.0 * r, 0.0)
                )
                impact = first_speed / (cos_cut * transfer)
                angle, speed = _aim(seat, grid[k], hx, hy, impact, fig)
                nc = _put(
                    c_pos, c_angle, c_speed, c_kind, c_target, nc, grid[k], angle, speed, DOUBLE, a
                )
                made += 1
        # Hit-and-roll: a cut that rolls the shooter on to a spot behind a peg.
        spots = _hiding_spots(
            positions, opp_seats, roll_spots, fig, pegs, obstacles, clearance, exposure_grid
        )
        if spots.shape[0] and ng:
            dist = np.empty(n_opp)
            for a in range(n_opp):
                t = opponents[a]
                dist[a] = -values[t] * 100 + math.hypot(positions[t, 0], positions[t, 1])
            contact = 2.0 * r
            for a in np.argsort(dist, kind="mergesort")[:roll_targets]:
                t = opponents[a]
                tx = positions[t, 0]
                ty = positions[t, 1]
                for s in range(spots.shape[0]):
                    half = 0.5 * math.hypot(spots[s, 0] - tx, spots[s, 1] - ty)
                    if half <= contact or half > 0.2:
                        continue
                    axis_x = (spots[s, 0] - tx) / (2.0 * half)
                    axis_y = (spots[s, 1] - ty) / (2.0 * half)
                    along = contact * contact / half
                    across = math.sqrt(max(contact * contact - along * along, 0.0))
                    for sign in (1.0, -1.0):
                        hx = tx + along * axis_x + sign * across * -axis_y
                        hy = ty + along * axis_y + sign * across * axis_x
                        nx = (tx - hx) / contact
                        ny = (ty - hy) / contact
                        roll_len = math.hypot(spots[s, 0] - hx, spots[s, 1] - hy)
                        rx = (spots[s, 0] - hx) / roll_len
                        ry = (spots[s, 1] - hy) / roll_len
                        k = -1
                        best = -np.inf
                        for g in range(ng):
                            cos_n = _cosine(hx - gx[g], hy - gy[g], nx, ny)
                            sin_t = _cosine(hx - gx[g], hy - gy[g], rx, ry)
                            m = -np.inf
                            if cos_n >= 0.25 and sin_t >= 0.2:
                                m = _margin(gx[g], gy[g], hx, hy, obstacles, clearance, t)
                            if k < 0 or m > best:
                                k = g
                                best = m
                        if not best >= 0:
                            continue
                        sin_t = _cosine(hx - gx[k], hy - gy[k], rx, ry)
                        impact = math.sqrt(2.0 * decel * roll_len) / sin_t
                        angle, speed = _aim(seat, grid[k], hx, hy, impact, fig)
                        nc = _put(
                            c_pos, c_angle, c_speed, c_kind, c_target, nc,
                            grid[k], angle, speed, HIT_AND_ROLL, t,
                        )  # fmt: skip
    else:
        # The open 20 from the clearest central starts.
        n_free = 0
        free_pos = np.empty(open_starts.shape[0])
        free_margin = np.empty(open_starts.shape[0])
        for o in range(open_starts.shape[0]):
            sx, sy = _start_point(seat, open_starts[o], shoot_r)
            if _nearest_disc(sx, sy, positions) >= 2.0 * r + 1e-5:
                free_pos[n_free] = open_starts[o]
                free_margin[n_free] = _margin(sx, sy, 0.0, 0.0, obstacles, clearance, -1)
                n_free += 1
        if n_free:
            made = 0
            for o in range(n_free):
                if free_margin[o] >= 0 and made < n_open:
                    nc = _put(
                        c_pos, c_angle, c_speed, c_kind, c_target, nc,
                        free_pos[o], 0.0, OPEN_20_SPEED, OPEN_20, -1,
                    )  # fmt: skip
                    made += 1
            if made == 0:
                o = np.argmax(free_margin[:n_free])
                nc = _put(
                    c_pos, c_angle, c_speed, c_kind, c_target, nc,
                    free_pos[o], 0.0, OPEN_20_SPEED, OPEN_20, -1,
                )  # fmt: skip
        # Bumps: one's own disc knocked straight into the 20, the most central first.
        if ng:
            d = np.empty(n)
            own = np.empty(n, dtype=np.int64)
            n_own = 0
            for k in range(n):
                d[k] = math.hypot(positions[k, 0], positions[k, 1])
                if sides[k] == side and not leaners[k] and d[k] < fig[_TEN_R] and d[k] > 0.02:
                    own[n_own] = k
                    n_own += 1
            own = own[:n_own]
            own = own[np.argsort(d[own], kind="mergesort")]
            for i in own[:n_bumped]:
                ux = -positions[i, 0] / d[i]
                uy = -positions[i, 1] / d[i]
                hx = positions[i, 0] - 2.0 * r * ux
                hy = positions[i, 1] - 2.0 * r * uy
                k = _aimed_start(hx, hy, ux, uy, 0.75, gx, gy, obstacles, clearance, i)
                if k < 0:
                    continue
                cos_cut = _cosine(hx - gx[k], hy - gy[k], ux, uy)
                need = math.sqrt(2.0 * decel * d[i])
                for push in (1.03, 1.12):
                    impact = need * push / (cos_cut * transfer)
                    angle, speed = _aim(seat, grid[k], hx, hy, impact, fig)
                    nc = _put(
                        c_pos, c_angle, c_speed, c_kind, c_target, nc,
                        grid[k], angle, speed, BUMP_20, i,
                    )  # fmt: skip
        # Hiding draws: stop touching the 15 line beside a peg, least exposed first.
        if ng and opp_seats.shape[0]:
            m_all = pegs.shape[0] * hide_offsets.shape[0]
            points = np.empty((m_all, 2))
            radius = fig[_REACH_15_R] - 0.003
            m = 0
            for q in range(pegs.shape[0]):
                peg_angle = math.atan2(pegs[q, 1], pegs[q, 0])
                for f in range(hide_offsets.shape[0]):
                    theta = peg_angle + hide_offsets[f]
                    x = radius * math.cos(theta)
                    y = radius * math.sin(theta)
                    if _nearest_disc(x, y, positions) > 2.0 * r + 1e-4:
                        points[m, 0] = x
                        points[m, 1] = y
                        m += 1
            if m:
                points = points[:m].copy()
                exposure = _static_exposure(
                    points, opp_seats, exposure_grid, fig, obstacles, clearance
                )
                for q in np.argsort(exposure, kind="mergesort")[:n_hides]:
                    k = -1
                    best = -np.inf
                    for g in range(ng):
                        px = points[q, 0]
                        py = points[q, 1]
                        mg = _margin(gx[g], gy[g], px, py, obstacles, clearance, -1)
                        if k < 0 or mg > best:
                            k = g
                            best = mg
                    if best < 0:
                        continue
                    angle, speed = _aim(seat, grid[k], points[q, 0], points[q, 1], 0.0, fig)
                    nc = _put(
                        c_pos, c_angle, c_speed, c_kind, c_target, nc,
                        grid[k], angle, speed, HIDE, -1,
                    )  # fmt: skip

    # Only legal shots; at worst a plain draw to the centre from the first free start.
    kept = 0
    for c in range(nc):
        if abs(c_pos[c]) <= fig[_POSITION_LIMIT] and abs(c_angle[c]) < 89.0:
            c_pos[kept] = c_pos[c]
            c_angle[kept] = c_angle[c]
            c_speed[kept] = c_speed[c]
            c_kind[kept] = c_kind[c]
            c_target[kept] = c_target[c]
            kept += 1
    if kept == 0:
        position = 44.0
        for o in range(open_starts.shape[0]):
            sx, sy = _start_point(seat, open_starts[o], shoot_r)
            if _nearest_disc(sx, sy, positions) >= 2.0 * r + 1e-5:
                position = open_starts[o]
                break
        kept = _put(
            c_pos, c_angle, c_speed, c_kind, c_target, 0,
            position, 0.0, min(OPEN_20_SPEED, MAX_SPEED), DRAW, -1,
        )  # fmt: skip
    return (
        c_pos[:kept].copy(),
        c_angle[:kept].copy(),
        c_speed[:kept].copy(),
        c_kind[:kept].copy(),
        c_target[:kept].copy(),
    )


def generate(
    sit: Situation, breadth: Breadth | None = None, fig: BoardFigures = FIGURES
) -> Candidates:
    """Every candidate shot for the situation, as :func:`candidates.generate` gives them."""
    breadth = Breadth() if breadth is None else breadth
    return Candidates(
        *generate_kernel(*situation_arrays(sit), breadth_array(breadth), *board_arrays(fig))
    )


def situation_arrays(sit: Situation) -> tuple:
    """The situation as the kernel reads it: discs, shooter's side and seat, opponents' seats."""
    return (
        sit.positions,
        sit.sides,
        sit.leaners,
        sit.side,
        seat_angle(sit.seat),
        seat_angles(sit.opp_seats_next),
    )


def board_arrays(fig: BoardFigures = FIGURES) -> tuple:
    """The board as the kernel reads it: figures, pegs and the fixed grids of the technique."""
    return (
        figures_array(fig),
        np.ascontiguousarray(fig.pegs, dtype=np.float64),
        START_GRID,
        OPEN_20_STARTS,
        EXPOSURE_GRID,
        CUTS,
        FORCE,
        HIDE_OFFSETS,
    )
