"""The shooting line: when a disc starts or stops touching it (compiled).

A disc touches the painted band (width w, centred on r = 0.3048) once its centre is at least
R_touch = 0.3048 - w/2 - r_disc from the centre (board.md; NCA rule 6e: the bottom edge over any
part of the line). The events keep a per-disc flag ``outside`` (touching or beyond): crossing
outward ("line") sets the disc's touched-the-line flag, which the spinning disc rule (NCA 8e)
needs; crossing inward ("line-in") clears ``outside``.
"""

from __future__ import annotations

import numpy as np

from simulation.physics.codes import EV_LINE, EV_LINE_IN
from simulation.physics.events.circle import enter_path, exit_path
from simulation.physics.events.common import time_ahead
from simulation.physics.kinematics import S_UX, S_UY, path_length, position
from simulation.physics.nbtypes import F2, F8_I8, b1, f8, i8, njit_inner

INF = np.inf


@njit_inner(F8_I8(F2, i8, f8, b1, f8))
def next_line(
    st: np.ndarray, i: int, t_now: float, outside: bool, touch_r: float
) -> tuple[float, int]:
    """Next crossing of the touching radius by moving disc ``i``: (time, EV_LINE or EV_LINE_IN)."""
    x, y = position(st, i, t_now)
    s_now = path_length(st, i, t_now)
    ux = st[i, S_UX]
    uy = st[i, S_UY]
    if outside:
        s = enter_path(x, y, ux, uy, 0.0, 0.0, touch_r, False)
        return time_ahead(st, i, t_now, s_now, s, True), EV_LINE_IN
    s = exit_path(x, y, ux, uy, 0.0, 0.0, touch_r)
    return time_ahead(st, i, t_now, s_now, s, True), EV_LINE
