"""The stop event: a sliding disc comes to rest after v0 / (mu g) (board.md, Motion)."""

from __future__ import annotations

import numpy as np

from simulation.physics.kinematics import S_TSTOP, S_V
from simulation.physics.nbtypes import F2, f8, i8, njit_inner

INF = np.inf


@njit_inner(f8(F2, i8))
def next_stop(st: np.ndarray, i: int) -> float:
    """Time disc ``i`` stops; ``inf`` if it is at rest or has no friction (over the ditch)."""
    if st[i, S_V] <= 0.0:
        return INF
    return st[i, S_TSTOP]
