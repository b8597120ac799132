"""The surface edge and the ditch (compiled).

A disc whose centre passes the edge of the playing surface (r = 0.3302, board.md) loses its
support: from then on it flies over the ditch at constant velocity (no board friction) while it
falls freely. Once it has fallen the calibrated ``ditch_drop`` (after sqrt(2 drop / g)) it is in
the ditch. If, before that, it comes back over the edge (having bounced off the rail or a disc),
it lands on the surface again and slides on: the case NCA rule 8f (damage stays) is written for.
"""

from __future__ import annotations

import numpy as np

from simulation.physics.events.circle import enter_path, exit_path
from simulation.physics.events.common import time_ahead
from simulation.physics.kinematics import S_TEDGE, S_UX, S_UY, path_length, position
from simulation.physics.nbtypes import F2, f8, i8, njit_inner

INF = np.inf


@njit_inner(f8(F2, i8, f8, f8))
def next_edge(st: np.ndarray, i: int, t_now: float, surface_r: float) -> float:
    """Time the centre of moving disc ``i`` (on the surface) passes the edge outward."""
    x, y = position(st, i, t_now)
    s = exit_path(x, y, st[i, S_UX], st[i, S_UY], 0.0, 0.0, surface_r)
    return time_ahead(st, i, t_now, path_length(st, i, t_now), s, True)


@njit_inner(f8(F2, i8, f8, f8))
def next_return(st: np.ndarray, i: int, t_now: float, surface_r: float) -> float:
    """Time disc ``i`` flying over the ditch comes back over the edge onto the surface."""
    x, y = position(st, i, t_now)
    s = enter_path(x, y, st[i, S_UX], st[i, S_UY], 0.0, 0.0, surface_r, False)
    return time_ahead(st, i, t_now, path_length(st, i, t_now), s, True)


@njit_inner(f8(F2, i8, f8))
def fall_deadline(st: np.ndarray, i: int, t_fall: float) -> float:
    """Time the flying disc ``i`` has fallen ``ditch_drop`` and lies in the ditch."""
    return st[i, S_TEDGE] + t_fall
