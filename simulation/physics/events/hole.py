"""The 20 hole (compiled): capture, riding over, and leaners (board.md, the 20 hole).

A disc whose centre is within rho = sqrt(R_hole² - r²) (≈ 7.3 mm) of the hole's centre has its
centre of mass beyond the chord where disc and rim meet: it is unsupported and starts to tip in.
The events keep a per-disc flag ``in_zone`` and the time it entered:

* it stops inside the zone, or stays unsupported for t_drop = sqrt(2 h_c / g) (its leading edge
  has fallen h_c before reaching the far rim): it drops flat into the hole ("hole", 20 points).
  For a straight crossing of chord L at speed v this is board.md's v < L·sqrt(g / (2 h_c)).
* it leaves the zone after at least t_lean = sqrt(2 f h_c / g) but less than t_drop unsupported:
  its leading edge, fallen between f·h_c and h_c, catches the far rim and the disc stops there,
  tilted on the rim with its front edge in the hole ("leaner", 15 points, it stays in play as a
  resting disc with its centre on the zone's edge). f = ``leaner_fraction``.
* it leaves sooner: it rides over ("hole-exit") and slides on.
"""

from __future__ import annotations

import numpy as np

from simulation.physics.codes import EV_HOLE, EV_HOLE_ENTER, EV_HOLE_EXIT, EV_LEANER
from simulation.physics.events.circle import enter_path, exit_path
from simulation.physics.events.common import time_ahead
from simulation.physics.kinematics import S_TZONE, S_UX, S_UY, path_length, position
from simulation.physics.nbtypes import F2, F8_I8, b1, f8, i8, njit_inner

INF = np.inf


@njit_inner(F8_I8(F2, i8, f8, b1, f8, f8, f8))
def next_hole(
    st: np.ndarray,
    i: int,
    t_now: float,
    in_zone: bool,
    rho: float,
    t_drop: float,
    t_lean: float,
) -> tuple[float, int]:
    """Next hole event of moving disc ``i``: (time, kind). A stop inside the zone is handled by
    the engine as a capture."""
    x, y = position(st, i, t_now)
    s_now = path_length(st, i, t_now)
    ux = st[i, S_UX]
    uy = st[i, S_UY]
    if not in_zone:
        s = enter_path(x, y, ux, uy, 0.0, 0.0, rho, False)
        return time_ahead(st, i, t_now, s_now, s, True), EV_HOLE_ENTER
    t_in = st[i, S_TZONE]
    t_cap = t_in + t_drop
    s = exit_path(x, y, ux, uy, 0.0, 0.0, rho)
    t_out = time_ahead(st, i, t_now, s_now, s, True)
    if t_cap <= t_out:
        return (t_cap if t_cap > t_now else t_now), EV_HOLE
    if t_out - t_in >= t_lean:
        return t_out, EV_LEANER
    return t_out, EV_HOLE_EXIT
