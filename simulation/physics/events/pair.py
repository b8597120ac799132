"""Disc-disc contact (compiled): when two discs first touch, found robustly.

One disc at rest: the mover's path meets a circle of radius 2r around the resting disc, a
quadratic in path length (``circle.enter_path``).

Both moving: with relative position Q(t) = P + V t + A t²/2 (each disc decelerates along its own
direction, or not at all over the ditch) the contact condition f(t) = |Q(t)|² - (2r)² = 0 is a
quartic in t, valid until the first of the two stops (after which the pair is predicted again).
Its first entering root is found without missing grazing contacts and without spurious roots:

1. f''(t)/2 = 1.5|A|² t² + 3 (V·A) t + |V|² + P·A is a quadratic: its roots split [0, T] into
   pieces on which f' is monotone;
2. on each such piece f' changes sign at most once: that root (a critical point of f) is refined
   by safeguarded Newton-bisection; the critical points split [0, T] into pieces on which f is
   monotone;
3. the first monotone piece on which f goes from > 0 to ≤ 0 holds the contact; it is refined the
   same way. A grazing contact is a piece ending at a local minimum just below zero, so it is
   found as long as the minimum is, which the refinement gives to round-off.

f and its derivatives are evaluated from the vectors (|Q|² - D², 2 Q·W, ...), not from expanded
coefficients, to keep round-off at the level of |Q|² ε. Touching and separating (f(0) ≤ 0 with
f'(0) ≥ 0) is no event; touching and approaching is an event now.
"""

from __future__ import annotations

import math

import numpy as np

from simulation.physics.events.circle import enter_path
from simulation.physics.events.common import time_ahead
from simulation.physics.kinematics import S_A, S_UX, S_UY, path_length, position, velocity
from simulation.physics.nbtypes import F2, F8x2, b1, f8, i8, njit, njit_inner

INF = np.inf
MAX_ITER = 200


@njit_inner(F8x2(f8, f8, f8, f8, f8, f8, f8, f8))
def _f(t: float, px: float, py: float, vx: float, vy: float, ax: float, ay: float, d2: float):
    """f(t) = |Q|² - D² and f'(t) = 2 Q·W, with W = V + A t."""
    qx = px + t * (vx + 0.5 * ax * t)
    qy = py + t * (vy + 0.5 * ay * t)
    wx = vx + ax * t
    wy = vy + ay * t
    return qx * qx + qy * qy - d2, 2.0 * (qx * wx + qy * wy)


@njit_inner(F8x2(f8, f8, f8, f8, f8, f8, f8))
def _fp(t: float, px: float, py: float, vx: float, vy: float, ax: float, ay: float):
    """f'(t) = 2 Q·W and f''(t) = 2 (|W|² + Q·A)."""
    qx = px + t * (vx + 0.5 * ax * t)
    qy = py + t * (vy + 0.5 * ay * t)
    wx = vx + ax * t
    wy = vy + ay * t
    return 2.0 * (qx * wx + qy * wy), 2.0 * (wx * wx + wy * wy + qx * ax + qy * ay)


@njit_inner(f8(b1, f8, f8, f8, f8, f8, f8, f8, f8, f8, f8))
def _refine(
    deriv: bool,
    lo: float,
    hi: float,
    flo: float,
    px: float,
    py: float,
    vx: float,
    vy: float,
    ax: float,
    ay: float,
    d2: float,
) -> float:
    """Root of f (``deriv`` False) or f' (True) in [lo, hi], a bracket on which it is monotone
    and changes sign (``flo`` is its value at ``lo``). Newton steps kept inside the bracket,
    bisection otherwise; stops when the bracket is a few ulps wide."""
    pos_lo = flo > 0.0
    x = 0.5 * (lo + hi)
    for _ in range(MAX_ITER):
        if deriv:
            fx, dfx = _fp(x, px, py, vx, vy, ax, ay)
        else:
            fx, dfx = _f(x, px, py, vx, vy, ax, ay, d2)
        if fx == 0.0:
            return x
        if (fx > 0.0) == pos_lo:
            lo = x
        else:
            hi = x
        if hi - lo <= 4e-16 * max(abs(hi), 1e-300):
            break
        xn = x - fx / dfx if dfx != 0.0 else lo - 1.0
        if not (lo < xn < hi):
            xn = 0.5 * (lo + hi)
        elif abs(xn - x) < 1e-3 * (hi - lo):
            # Newton is converging from one side: a nudge past the root shrinks the bracket.
            step = 1e-3 * (hi - lo)
            xn = xn + step if xn - x > 0.0 else xn - step
            if not (lo < xn < hi):
                xn = 0.5 * (lo + hi)
        x = xn
    # The end of the bracket on the "not yet" side: contact is reached, never overshot.
    return hi if not deriv else 0.5 * (lo + hi)


@njit(f8(f8, f8, f8, f8, f8, f8, f8, f8))
def first_contact(
    px: float,
    py: float,
    vx: float,
    vy: float,
    ax: float,
    ay: float,
    dist: float,
    horizon: float,
) -> float:
    """First t in [0, horizon] at which |P + V t + A t²/2| falls to ``dist`` (``inf`` if none).

    See the module docstring for the scheme.
    """
    d2 = dist * dist
    f0, fp0 = _f(0.0, px, py, vx, vy, ax, ay, d2)
    if f0 <= 0.0 and fp0 < 0.0:
        return 0.0
    if not horizon > 0.0:
        return INF
    # Inflection points: roots of f''/2 = c2 t² + c1 t + c0 inside (0, horizon).
    c2 = 1.5 * (ax * ax + ay * ay)
    c1 = 3.0 * (vx * ax + vy * ay)
    c0 = vx * vx + vy * vy + px * ax + py * ay
    brk = np.empty(4)
    nb = 0
    brk[nb] = 0.0
    nb += 1
    if c2 > 0.0:
        disc = c1 * c1 - 4.0 * c2 * c0
        if disc > 0.0:
            sq = math.sqrt(disc)
            q = -0.5 * (c1 + sq) if c1 >= 0.0 else -0.5 * (c1 - sq)
            r1 = q / c2
            r2 = c0 / q if q != 0.0 else r1
            if r1 > r2:
                r1, r2 = r2, r1
            if 0.0 < r1 < horizon:
                brk[nb] = r1
                nb += 1
            if 0.0 < r2 < horizon and r2 != r1:
                brk[nb] = r2
                nb += 1
    elif c1 != 0.0:
        r1 = -c0 / c1
        if 0.0 < r1 < horizon:
            brk[nb] = r1
            nb += 1
    brk[nb] = horizon
    nb += 1
    # Walk the monotone pieces of f in order.
    a = 0.0
    fa = f0
    gpa = fp0
    for k in range(nb - 1):
        lo = brk[k]
        hi = brk[k + 1]
        gplo = gpa if lo == a else _fp(lo, px, py, vx, vy, ax, ay)[0]
        gphi = _fp(hi, px, py, vx, vy, ax, ay)[0]
        # Split at the critical point inside this piece, if f' changes sign in it.
        if (gplo < 0.0 < gphi) or (gplo > 0.0 > gphi):
            c = _refine(True, lo, hi, gplo, px, py, vx, vy, ax, ay, d2)
            ends = (c, hi)
            nends = 2
        else:
            ends = (hi, hi)
            nends = 1
        for m in range(nends):
            b = ends[m]
            fb = _f(b, px, py, vx, vy, ax, ay, d2)[0]
            if fa > 0.0 and fb <= 0.0:
                return _refine(False, a, b, fa, px, py, vx, vy, ax, ay, d2)
            a = b
            fa = fb
        gpa = gphi
    return INF


@njit_inner(f8(F2, i8, i8, f8, f8, f8))
def next_pair_resting(
    st: np.ndarray, mover: int, rest: int, t_now: float, dist: float, s_limit: float
) -> float:
    """Time moving disc ``mover`` strikes resting disc ``rest`` (a quadratic in path length).

    ``s_limit`` caps the path ahead (a flying disc falls into the ditch at its deadline).
    """
    x, y = position(st, mover, t_now)
    cx, cy = position(st, rest, t_now)
    s = enter_path(x, y, st[mover, S_UX], st[mover, S_UY], cx, cy, dist, True)
    if s == INF or s > s_limit:
        return INF
    return time_ahead(st, mover, t_now, path_length(st, mover, t_now), s, False)


@njit_inner(f8(F2, i8, i8, f8, f8, f8))
def next_pair_moving(
    st: np.ndarray, i: int, j: int, t_now: float, t_end: float, dist: float
) -> float:
    """Time moving discs ``i`` and ``j`` first touch before ``t_end`` (when one of them stops or
    falls into the ditch); ``inf`` if they do not."""
    horizon = t_end - t_now
    if not horizon > 0.0:
        return INF
    xi, yi = position(st, i, t_now)
    xj, yj = position(st, j, t_now)
    vix, viy = velocity(st, i, t_now)
    vjx, vjy = velocity(st, j, t_now)
    # Cheap rejection: each disc stays on the segment it sweeps before t_end.
    si = path_length(st, i, t_end) - path_length(st, i, t_now)
    sj = path_length(st, j, t_end) - path_length(st, j, t_now)
    mx = (xj + 0.5 * sj * st[j, S_UX]) - (xi + 0.5 * si * st[i, S_UX])
    my = (yj + 0.5 * sj * st[j, S_UY]) - (yi + 0.5 * si * st[i, S_UY])
    reach = 0.5 * (si + sj) + dist
    if mx * mx + my * my > reach * reach * (1.0 + 1e-12) + 1e-18:
        return INF
    ax = -st[j, S_A] * st[j, S_UX] + st[i, S_A] * st[i, S_UX]
    ay = -st[j, S_A] * st[j, S_UY] + st[i, S_A] * st[i, S_UY]
    tau = first_contact(xj - xi, yj - yi, vjx - vix, vjy - viy, ax, ay, dist, horizon)
    if tau == INF:
        return INF
    t = t_now + tau
    return t if t < t_end else INF
