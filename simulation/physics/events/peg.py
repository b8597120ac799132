"""Disc-peg contact: the pegs are immovable circles on the 15/10 line (board.md)."""

from __future__ import annotations

import numpy as np

from simulation.physics.events.circle import enter_path
from simulation.physics.events.common import time_ahead
from simulation.physics.kinematics import S_UX, S_UY, path_length, position, stop_path
from simulation.physics.nbtypes import F2, F8_I8, f8, i8, njit_inner

INF = np.inf


@njit_inner(F8_I8(F2, i8, f8, F2, f8, f8))
def next_peg(
    st: np.ndarray, i: int, t_now: float, pegs: np.ndarray, contact_r: float, peg_ring: float
) -> tuple[float, int]:
    """Earliest time the moving disc ``i`` strikes a peg, and which (``inf``, -1 if none).

    The contact is the quadratic in path length of ``circle.enter_path`` at distance
    r_disc + r_peg; equal times go to the lower peg index. ``peg_ring`` is the radius of the
    circle the pegs stand on (0 disables the pruning, for pegs placed anywhere).
    """
    x, y = position(st, i, t_now)
    s_now = path_length(st, i, t_now)
    ux = st[i, S_UX]
    uy = st[i, S_UY]
    best = INF
    which = -1
    # Pruning: the pegs stand on one circle about the centre (peg_ring); if what is left of the
    # path stays wholly inside or outside the band within contact_r of it, no peg is in reach.
    s_left = stop_path(st, i) - s_now
    if s_left < INF and peg_ring > 0.0:
        ex = x + ux * s_left
        ey = y + uy * s_left
        d0 = x * x + y * y
        d1 = ex * ex + ey * ey
        far = max(d0, d1)
        foot = -(x * ux + y * uy)
        if 0.0 < foot < s_left:
            cr = x * uy - y * ux
            near = cr * cr
        else:
            near = min(d0, d1)
        lo = peg_ring - contact_r
        hi = peg_ring + contact_r
        if near > hi * hi * (1.0 + 1e-9) or (lo > 0.0 and far < lo * lo * (1.0 - 1e-9)):
            return best, which
    for k in range(pegs.shape[0]):
        s = enter_path(x, y, ux, uy, pegs[k, 0], pegs[k, 1], contact_r, True)
        if s == INF:
            continue
        t = time_ahead(st, i, t_now, s_now, s, False)
        if t < best:
            best = t
            which = k
    return best, which
