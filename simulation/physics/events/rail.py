"""The rail and the discs lying in the ditch: what a disc flying over the ditch can strike.

The rail's inner face is a circle of radius surface_r + ditch_width (board.md: the ditch is at
least 2 in wide); a disc inside it touches it when its centre is rail_r - r_disc from the board's
centre. Discs lying in the ditch are immovable obstacles (wedged between rail and board) that only
a flying disc can reach: a disc on the surface passes above them. Both collisions use the
immovable-body impulse of ``impulse.resolve_fixed``.
"""

from __future__ import annotations

import numpy as np

from simulation.physics.codes import DITCH
from simulation.physics.events.circle import enter_path, exit_normal_speed, exit_path
from simulation.physics.events.common import time_ahead
from simulation.physics.kinematics import S_PX, S_PY, S_UX, S_UY, path_length, position
from simulation.physics.nbtypes import F2, F8_I8, I8_1, f8, i8, njit_inner

INF = np.inf
MIN_NORMAL = 1e-12
"""A path that meets the rail with a smaller normal-speed fraction is tangent to it: no impulse,
no event (it would otherwise be found again at the same instant forever)."""


@njit_inner(f8(F2, i8, f8, f8))
def next_rail(st: np.ndarray, i: int, t_now: float, rail_contact_r: float) -> float:
    """Time flying disc ``i`` strikes the rail; ``inf`` if its path is tangent to it."""
    x, y = position(st, i, t_now)
    ux = st[i, S_UX]
    uy = st[i, S_UY]
    if exit_normal_speed(x, y, ux, uy, 0.0, 0.0, rail_contact_r) <= MIN_NORMAL:
        return INF
    s = exit_path(x, y, ux, uy, 0.0, 0.0, rail_contact_r)
    return time_ahead(st, i, t_now, path_length(st, i, t_now), s, False)


@njit_inner(F8_I8(F2, i8, f8, I8_1, f8))
def next_ditch_disc(
    st: np.ndarray, i: int, t_now: float, status: np.ndarray, contact_r: float
) -> tuple[float, int]:
    """Earliest time flying disc ``i`` strikes a disc lying in the ditch, and which one."""
    x, y = position(st, i, t_now)
    s_now = path_length(st, i, t_now)
    ux = st[i, S_UX]
    uy = st[i, S_UY]
    best = INF
    which = -1
    for k in range(status.shape[0]):
        if status[k] != DITCH or k == i:
            continue
        s = enter_path(x, y, ux, uy, st[k, S_PX], st[k, S_PY], contact_r, True)
        if s == INF:
            continue
        t = time_ahead(st, i, t_now, s_now, s, False)
        if t < best:
            best = t
            which = k
    return best, which
