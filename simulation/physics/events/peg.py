"""Disc–peg contact: the pegs are immovable circles on the 15/10 line (board.md)."""

from __future__ import annotations

import numpy as np
from numba import njit

from simulation.physics.events.circle import enter_path
from simulation.physics.events.common import time_ahead
from simulation.physics.kinematics import S_UX, S_UY, path_length, position

INF = np.inf


@njit(cache=True)
def next_peg(
    st: np.ndarray, i: int, t_now: float, pegs: np.ndarray, contact_r: float
) -> tuple[float, int]:
    """Earliest time the moving disc ``i`` strikes a peg, and which (``inf``, -1 if none).

    The contact is the quadratic in path length of ``circle.enter_path`` at distance
    r_disc + r_peg; equal times go to the lower peg index.
    """
    x, y = position(st, i, t_now)
    s_now = path_length(st, i, t_now)
    ux = st[i, S_UX]
    uy = st[i, S_UY]
    best = INF
    which = -1
    for k in range(pegs.shape[0]):
        s = enter_path(x, y, ux, uy, pegs[k, 0], pegs[k, 1], contact_r, True)
        if s == INF:
            continue
        t = time_ahead(st, i, t_now, s_now, s, False)
        if t < best:
            best = t
            which = k
    return best, which
