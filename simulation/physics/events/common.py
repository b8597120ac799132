"""Helpers shared by the per-event modules: converting a path length ahead into a time."""

from __future__ import annotations

import numpy as np

from simulation.physics.kinematics import stop_path, time_at_path
from simulation.physics.nbtypes import F2, b1, f8, i8, njit_inner

INF = np.inf


@njit_inner(f8(F2, i8, f8, f8, f8, b1))
def time_ahead(
    st: np.ndarray, i: int, t_now: float, s_now: float, s_ahead: float, inclusive: bool
) -> float:
    """Absolute time at which disc ``i`` is ``s_ahead`` further along its segment than now.

    ``inf`` if it stops first. ``inclusive`` lets an event fall exactly at the stopping point
    (crossings); impulses need the disc still moving (strictly before the stop). Clamped at
    ``t_now`` so round-off never schedules an event in the past.
    """
    if s_ahead == INF:
        return INF
    s = s_now + s_ahead
    s_stop = stop_path(st, i)
    if s > s_stop or (not inclusive and s >= s_stop):
        return INF
    t = time_at_path(st, i, s)
    return t if t > t_now else t_now
