"""Closed-form motion of one disc between events (compiled).

A disc on the board slides in a straight line with constant deceleration a = mu g (board.md,
Motion): after a time tau on its current segment it has travelled s = v0 tau - a tau²/2 along the
unit direction u, until it stops at tau = v0 / a. A disc flying over the ditch has no board under
it: a = 0. Spin decays linearly at its own rate and does not bend the path.

Each disc's current segment is one row of the state array ``st`` (columns ``S_*``): the time the
segment began, the position, direction and speed then, the deceleration, the spin and its decay,
and the absolute stop time. Rows change only at events that involve the disc, so the other discs'
predicted events stay valid.
"""

from __future__ import annotations

import math

import numpy as np
from numba import types

from simulation.physics.nbtypes import F2, F8x2, f8, i8, njit_inner

S_T0 = 0  # time the current segment began
S_PX = 1  # position then
S_PY = 2
S_UX = 3  # unit direction of travel (0, 0 at rest)
S_UY = 4
S_V = 5  # speed then
S_A = 6  # deceleration along the path (mu g on the board, 0 over the ditch)
S_W = 7  # spin about the vertical axis then, rad/s (counterclockwise positive)
S_WA = 8  # spin decay rate, rad/s²
S_TSTOP = 9  # absolute time the disc stops (= S_T0 at rest, inf when a = 0)
S_TZONE = 10  # time the centre entered the unsupported zone over the 20 hole
S_TEDGE = 11  # time the centre passed the surface edge (over the ditch)
NS = 12

INF = np.inf


@njit_inner(f8(F2, i8, f8))
def elapsed(st: np.ndarray, i: int, t: float) -> float:
    """Time moved on the current segment by time ``t`` (clamped at the stop)."""
    tau = min(t, st[i, S_TSTOP]) - st[i, S_T0]
    return tau if tau > 0.0 else 0.0


@njit_inner(f8(F2, i8, f8))
def path_length(st: np.ndarray, i: int, t: float) -> float:
    """Distance travelled along the current segment by time ``t``."""
    tau = elapsed(st, i, t)
    return st[i, S_V] * tau - 0.5 * st[i, S_A] * tau * tau


@njit_inner(f8(F2, i8))
def stop_path(st: np.ndarray, i: int) -> float:
    """Path length at which the disc stops: v0² / (2a), infinite without friction."""
    a = st[i, S_A]
    if a <= 0.0:
        return INF if st[i, S_V] > 0.0 else 0.0
    v = st[i, S_V]
    return v * v / (2.0 * a)


@njit_inner(F8x2(F2, i8, f8))
def position(st: np.ndarray, i: int, t: float) -> tuple[float, float]:
    """Centre of disc ``i`` at absolute time ``t``."""
    s = path_length(st, i, t)
    return st[i, S_PX] + st[i, S_UX] * s, st[i, S_PY] + st[i, S_UY] * s


@njit_inner(f8(F2, i8, f8))
def speed(st: np.ndarray, i: int, t: float) -> float:
    """Speed of disc ``i`` at absolute time ``t`` (zero once stopped)."""
    v = st[i, S_V] - st[i, S_A] * elapsed(st, i, t)
    return v if v > 0.0 else 0.0


@njit_inner(F8x2(F2, i8, f8))
def velocity(st: np.ndarray, i: int, t: float) -> tuple[float, float]:
    """Velocity vector of disc ``i`` at absolute time ``t``."""
    v = speed(st, i, t)
    return st[i, S_UX] * v, st[i, S_UY] * v


@njit_inner(f8(F2, i8, f8))
def spin(st: np.ndarray, i: int, t: float) -> float:
    """Spin of disc ``i`` at time ``t``: |w| falls linearly to zero and stays there."""
    w0 = st[i, S_W]
    tau = t - st[i, S_T0]
    if tau < 0.0:
        tau = 0.0
    m = abs(w0) - st[i, S_WA] * tau
    if m <= 0.0:
        return 0.0
    return m if w0 > 0.0 else -m


@njit_inner(f8(F2, i8, f8))
def time_at_path(st: np.ndarray, i: int, s: float) -> float:
    """Absolute time at which the disc has travelled ``s`` on its segment (s ≤ stop path).

    Solves s = v tau - a tau²/2 for the earlier root in the cancellation-free form
    tau = 2s / (v + sqrt(v² - 2as)).
    """
    v = st[i, S_V]
    q = v * v - 2.0 * st[i, S_A] * s
    if q < 0.0:
        q = 0.0
    den = v + math.sqrt(q)
    if den <= 0.0:
        return INF
    return st[i, S_T0] + 2.0 * s / den


@njit_inner(types.none(F2, i8, f8, f8, f8, f8, f8, f8, f8, f8))
def set_motion(
    st: np.ndarray,
    i: int,
    t: float,
    x: float,
    y: float,
    vx: float,
    vy: float,
    w: float,
    decel: float,
    spin_decel: float,
) -> None:
    """Start a new segment for disc ``i`` at time ``t`` from the given state.

    ``decel`` is mu g on the board and 0 over the ditch; ``spin_decel`` likewise.
    """
    st[i, S_T0] = t
    st[i, S_PX] = x
    st[i, S_PY] = y
    v = math.sqrt(vx * vx + vy * vy)
    st[i, S_W] = w
    st[i, S_WA] = spin_decel
    st[i, S_A] = decel
    if v > 0.0:
        st[i, S_UX] = vx / v
        st[i, S_UY] = vy / v
        st[i, S_V] = v
        st[i, S_TSTOP] = t + v / decel if decel > 0.0 else INF
    else:
        st[i, S_UX] = 0.0
        st[i, S_UY] = 0.0
        st[i, S_V] = 0.0
        st[i, S_TSTOP] = t
