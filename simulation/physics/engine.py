"""The compiled event-driven loop: one shot, or a batch of shots, in a single numba call.

Between events every disc moves in closed form (``kinematics``), so the engine jumps from event to
event, exact up to round-off (board.md, Motion). It keeps, per disc, the earliest of its own
events (stop, peg, line, edge, hole, rail, ditch) and, per pair, their first contact; after an
event only the predictions of the discs whose trajectory changed are recomputed. The next event
is the earliest of all; simultaneous events are taken in a fixed order: by time, then event code
(``codes.EV_*``), then disc index, then the other index, so the same input always gives the same
result.

All bookkeeping (flags for the rules, who touched whom, who set whom moving, the event record)
stays inside compiled code; the Python wrappers in ``api`` only allocate and translate.
"""

from __future__ import annotations

import math

import numpy as np
from numba import types

from simulation.physics.codes import (
    AIRBORNE,
    CAPTURED,
    DITCH,
    EV_DISC_DISC,
    EV_DISC_PEG,
    EV_DITCH,
    EV_DITCH_DISC,
    EV_EDGE,
    EV_HOLE,
    EV_HOLE_ENTER,
    EV_HOLE_EXIT,
    EV_LEANER,
    EV_LINE,
    EV_LINE_IN,
    EV_RAIL,
    EV_RETURN,
    EV_STOP,
    F_HIT_PEG,
    F_LEFT_SURFACE,
    F_MOVED,
    F_RETURNED,
    F_STRUCK_BEYOND_LINE,
    F_STRUCK_RAIL_OR_DITCH_DISC,
    F_TOUCHED_LINE,
    LEANER,
    SURFACE,
)
from simulation.physics.events.edge import fall_deadline, next_edge, next_return
from simulation.physics.events.hole import next_hole
from simulation.physics.events.impulse import resolve_fixed, resolve_pair
from simulation.physics.events.line import next_line
from simulation.physics.events.pair import next_pair_moving, next_pair_resting
from simulation.physics.events.peg import next_peg
from simulation.physics.events.rail import next_ditch_disc, next_rail
from simulation.physics.events.stop import next_stop
from simulation.physics.kinematics import (
    NS,
    S_PX,
    S_PY,
    S_TEDGE,
    S_TSTOP,
    S_TZONE,
    S_UX,
    S_UY,
    S_V,
    path_length,
    position,
    set_motion,
    spin,
    velocity,
)
from simulation.physics.nbtypes import (
    B1_1,
    F1,
    F2,
    F3,
    I1,
    I8_1,
    I8_2,
    I32_1,
    I32_2,
    b1,
    f8,
    i8,
    njit,
    njit_inner,
)
from simulation.physics.params import (
    P_DECEL,
    P_DISC_R,
    P_E_DISC,
    P_E_PEG,
    P_E_RAIL,
    P_MU_DISC,
    P_MU_PEG,
    P_MU_RAIL,
    P_PAIR_CONTACT_R,
    P_PEG_CIRCLE_R,
    P_PEG_CONTACT_R,
    P_RAIL_CONTACT_R,
    P_RHO,
    P_SPIN_DECEL,
    P_SURFACE_R,
    P_T_DROP,
    P_T_FALL,
    P_T_LEAN,
    P_TOUCH_R,
)

INF = np.inf
NO_KIND = 1 << 20


@njit_inner(b1(f8, i8, i8, i8, f8, i8, i8, i8))
def _before(t: float, k: int, a: int, b: int, bt: float, bk: int, ba: int, bb: int) -> bool:
    """Fixed order of events: time, then kind code, then disc index, then other index."""
    if t != bt:
        return t < bt
    if k != bk:
        return k < bk
    if a != ba:
        return a < ba
    return b < bb


@njit_inner(b1(i8))
def _active(s: int) -> bool:
    """Discs that can touch each other: on the surface (moving, resting or leaning) or flying."""
    return s in (SURFACE, LEANER, AIRBORNE)


@njit_inner(f8(F2, i8, I8_1, f8))
def _end_time(st: np.ndarray, i: int, status: np.ndarray, t_fall: float) -> float:
    """When disc ``i``'s current motion law ends by itself: its stop, or its fall into the ditch."""
    if status[i] == AIRBORNE:
        return fall_deadline(st, i, t_fall)
    return st[i, S_TSTOP]


@njit_inner(
    types.none(F2, i8, f8, I8_1, I8_1, I8_1, F1, F2, F1, I1, I1),
)
def _predict_single(
    st: np.ndarray,
    i: int,
    t: float,
    status: np.ndarray,
    band: np.ndarray,
    zone: np.ndarray,
    prm: np.ndarray,
    pegs: np.ndarray,
    sgl_t: np.ndarray,
    sgl_k: np.ndarray,
    sgl_o: np.ndarray,
) -> None:
    """Earliest event of disc ``i`` alone (or with a fixed body) after time ``t``."""
    bt = INF
    bk = NO_KIND
    bo = -1
    s = status[i]
    if s == SURFACE and st[i, S_V] > 0.0:
        bt = next_stop(st, i)
        bk = EV_HOLE if zone[i] == 1 else EV_STOP
        tp, kp = next_peg(st, i, t, pegs, prm[P_PEG_CONTACT_R], prm[P_PEG_CIRCLE_R])
        if _before(tp, EV_DISC_PEG, i, kp, bt, bk, i, bo):
            bt, bk, bo = tp, EV_DISC_PEG, kp
        tl, kl = next_line(st, i, t, band[i] == 1, prm[P_TOUCH_R])
        if _before(tl, kl, i, -1, bt, bk, i, bo):
            bt, bk, bo = tl, kl, -1
        te = next_edge(st, i, t, prm[P_SURFACE_R])
        if _before(te, EV_EDGE, i, -1, bt, bk, i, bo):
            bt, bk, bo = te, EV_EDGE, -1
        th, kh = next_hole(st, i, t, zone[i] == 1, prm[P_RHO], prm[P_T_DROP], prm[P_T_LEAN])
        if _before(th, kh, i, -1, bt, bk, i, bo):
            bt, bk, bo = th, kh, -1
    elif s == AIRBORNE:
        bt = fall_deadline(st, i, prm[P_T_FALL])
        bt = bt if bt > t else t
        bk = EV_DITCH
        tr = next_rail(st, i, t, prm[P_RAIL_CONTACT_R])
        if _before(tr, EV_RAIL, i, -1, bt, bk, i, bo):
            bt, bk, bo = tr, EV_RAIL, -1
        tb = next_return(st, i, t, prm[P_SURFACE_R])
        if _before(tb, EV_RETURN, i, -1, bt, bk, i, bo):
            bt, bk, bo = tb, EV_RETURN, -1
        td, kd = next_ditch_disc(st, i, t, status, prm[P_PAIR_CONTACT_R])
        if _before(td, EV_DITCH_DISC, i, kd, bt, bk, i, bo):
            bt, bk, bo = td, EV_DITCH_DISC, kd
    sgl_t[i] = bt
    sgl_k[i] = bk
    sgl_o[i] = bo


@njit_inner(f8(F2, i8, i8, f8, I8_1, F1))
def _predict_pair(
    st: np.ndarray, i: int, j: int, t: float, status: np.ndarray, prm: np.ndarray
) -> float:
    """First contact of discs ``i`` and ``j`` after ``t`` under their current motion laws."""
    if not (_active(status[i]) and _active(status[j])):
        return INF
    mi = st[i, S_V] > 0.0
    mj = st[j, S_V] > 0.0
    if not (mi or mj):
        return INF
    dist = prm[P_PAIR_CONTACT_R]
    t_fall = prm[P_T_FALL]
    if mi and mj:
        t_end = min(_end_time(st, i, status, t_fall), _end_time(st, j, status, t_fall))
        return next_pair_moving(st, i, j, t, t_end, dist)
    mover = i if mi else j
    rest = j if mi else i
    s_limit = INF
    if status[mover] == AIRBORNE:
        s_limit = path_length(st, mover, fall_deadline(st, mover, t_fall)) - path_length(
            st, mover, t
        )
    return next_pair_resting(st, mover, rest, t, dist, s_limit)


@njit_inner(types.none(F2, i8, f8, I8_1, F1, F2))
def _repredict_pairs(
    st: np.ndarray, i: int, t: float, status: np.ndarray, prm: np.ndarray, pair_t: np.ndarray
) -> None:
    """Recompute every pair prediction involving disc ``i``."""
    moving_i = st[i, S_V] > 0.0
    # Bounding circle of what is left of disc i's path: resting discs outside it are out of reach.
    reach = 0.0
    mx = 0.0
    my = 0.0
    if moving_i:
        x, y = position(st, i, t)
        t_end = _end_time(st, i, status, prm[P_T_FALL])
        half = 0.5 * (path_length(st, i, t_end) - path_length(st, i, t))
        mx = x + half * st[i, S_UX]
        my = y + half * st[i, S_UY]
        reach = half + prm[P_PAIR_CONTACT_R]
        reach = reach * reach * (1.0 + 1e-9)
    for k in range(status.shape[0]):
        if k == i:
            continue
        tk = INF
        if st[k, S_V] > 0.0:
            tk = _predict_pair(st, i, k, t, status, prm)
        elif moving_i:  # two resting discs never meet
            dx = st[k, S_PX] - mx
            dy = st[k, S_PY] - my
            if dx * dx + dy * dy <= reach:
                tk = _predict_pair(st, i, k, t, status, prm)
        pair_t[i, k] = tk
        pair_t[k, i] = tk


@njit_inner(types.none(F2, i8, f8, f8, f8, f8, I8_1, F1))
def _rebase(
    st: np.ndarray,
    i: int,
    t: float,
    vx: float,
    vy: float,
    w: float,
    status: np.ndarray,
    prm: np.ndarray,
) -> None:
    """Start a new segment for disc ``i`` at ``t`` from its current position."""
    x, y = position(st, i, t)
    if status[i] == AIRBORNE:
        set_motion(st, i, t, x, y, vx, vy, w, 0.0, 0.0)
    else:
        set_motion(st, i, t, x, y, vx, vy, w, prm[P_DECEL], prm[P_SPIN_DECEL])


@njit_inner(types.none(F2, i8, f8, I32_1, f8, b1))
def _struck(
    st: np.ndarray, i: int, t: float, flags: np.ndarray, touch_r: float, rail_or_ditch: bool
) -> None:
    """Flags for a disc that struck something: beyond the line after touching it (NCA 8e)."""
    if rail_or_ditch:
        flags[i] |= F_STRUCK_RAIL_OR_DITCH_DISC
    if flags[i] & F_TOUCHED_LINE:
        x, y = position(st, i, t)
        if x * x + y * y >= touch_r * touch_r:
            flags[i] |= F_STRUCK_BEYOND_LINE


@njit_inner(
    types.none(F2, i8, i8, f8, f8, f8, f8, b1, I8_1, I32_1, I32_1, F1),
)
def _after_pair_hit(
    st: np.ndarray,
    k: int,
    other: int,
    t: float,
    vx: float,
    vy: float,
    w: float,
    was_rest: bool,
    status: np.ndarray,
    flags: np.ndarray,
    moved_by: np.ndarray,
    prm: np.ndarray,
) -> None:
    """New motion of disc ``k`` after a disc-disc impulse, and its bookkeeping: a leaner that is
    knocked loose is a sliding disc again; a disc at rest that had not moved yet records the disc
    that set it moving (the rules follow such chains: "struck directly or via own discs it set
    moving")."""
    if status[k] == LEANER and vx * vx + vy * vy > 0.0:
        status[k] = SURFACE
    _rebase(st, k, t, vx, vy, w, status, prm)
    if st[k, S_V] > 0.0:
        if was_rest and moved_by[k] < 0 and not (flags[k] & F_MOVED):
            moved_by[k] = other
        flags[k] |= F_MOVED
    _struck(st, k, t, flags, prm[P_TOUCH_R], False)


@njit_inner(types.none(i8, f8, i8, i8, i8, F2, I8_1, F1, I32_1, I32_1, I32_1, F3, F3, F2, I8_2))
def _record(
    n: int,
    t: float,
    kind: int,
    i: int,
    j: int,
    st: np.ndarray,
    status: np.ndarray,
    ev_t: np.ndarray,
    ev_kind: np.ndarray,
    ev_i: np.ndarray,
    ev_j: np.ndarray,
    ev_pos: np.ndarray,
    ev_vel: np.ndarray,
    ev_spin: np.ndarray,
    ev_status: np.ndarray,
) -> None:
    """Store event ``n`` with the state of every disc just after it."""
    ev_t[n] = t
    ev_kind[n] = kind
    ev_i[n] = i
    ev_j[n] = j
    for k in range(status.shape[0]):
        x, y = position(st, k, t)
        vx, vy = velocity(st, k, t)
        ev_pos[n, k, 0] = x
        ev_pos[n, k, 1] = y
        ev_vel[n, k, 0] = vx
        ev_vel[n, k, 1] = vy
        ev_spin[n, k] = spin(st, k, t)
        ev_status[n, k] = status[k]


@njit(
    types.none(
        F3,
        F3,
        F2,
        I8_2,
        F1,
        F2,
        i8,
        b1,
        F3,
        F3,
        F2,
        I8_2,
        I32_2,
        F3,
        I32_2,
        F3,
        I1,
        B1_1,
        F1,
        I1,
        F1,
        I32_1,
        I32_1,
        F1,
        I32_1,
        I32_1,
        I32_1,
        F3,
        F3,
        F2,
        I8_2,
    ),
)
def simulate_kernel(
    pos: np.ndarray,
    vel: np.ndarray,
    spin0: np.ndarray,
    status_in: np.ndarray,
    prm: np.ndarray,
    pegs: np.ndarray,
    max_events: int,
    record: bool,
    out_pos: np.ndarray,
    out_vel: np.ndarray,
    out_spin: np.ndarray,
    out_status: np.ndarray,
    out_flags: np.ndarray,
    out_contact: np.ndarray,
    out_moved_by: np.ndarray,
    out_times: np.ndarray,
    out_n_events: np.ndarray,
    out_hit_cap: np.ndarray,
    out_t_end: np.ndarray,
    out_n_contacts: np.ndarray,
    cl_t: np.ndarray,
    cl_i: np.ndarray,
    cl_j: np.ndarray,
    ev_t: np.ndarray,
    ev_kind: np.ndarray,
    ev_i: np.ndarray,
    ev_j: np.ndarray,
    ev_pos: np.ndarray,
    ev_vel: np.ndarray,
    ev_spin: np.ndarray,
    ev_status: np.ndarray,
) -> None:
    """Simulate B shots, each from its own state until every disc rests (or the event cap).

    Inputs per shot b: positions (B, N, 2), velocities (B, N, 2), spins (B, N), statuses (B, N)
    as ``codes``; the packed parameters and the peg centres (K, 2). Outputs, indexed by shot:
    final state, flags, ``out_contact`` (B, N, N) time of each pair's first contact (inf if
    none), ``out_moved_by``, ``out_times`` (B, N, 2) time each disc first left the surface and
    last flew back onto it (NaN if never), the number of events, whether the cap cut the shot
    short, the time of the last event and the number of disc-disc contacts.

    Every disc-disc contact of shot 0 goes to the log ``cl_*`` while it has room, and, if
    ``record``, every event of shot 0 to the ``ev_*`` arrays (capacity ``max_events``): the
    single-shot entry point is this kernel with B = 1. Keeping one compiled function for both
    entry points (rather than a per-shot function called from two wrappers) roughly halves the
    compile time, which numba spends mostly re-optimising callees inside each caller. Scratch
    space is allocated once per call. Single-threaded by design: callers parallelise over
    processes.
    """
    nb = pos.shape[0]
    n = pos.shape[1]
    st = np.zeros((n, NS))
    band = np.zeros(n, dtype=np.int8)
    zone = np.zeros(n, dtype=np.int8)
    sgl_t = np.empty(n)
    sgl_k = np.empty(n, dtype=np.int64)
    sgl_o = np.empty(n, dtype=np.int64)
    pair_t = np.empty((n, n))
    no_t = np.empty(0)
    no_i = np.empty(0, dtype=np.int32)
    for b in range(nb):
        first = b == 0
        rec = record and first
        log_t = cl_t if first else no_t
        log_i = cl_i if first else no_i
        log_j = cl_j if first else no_i
        pos_b = pos[b]
        vel_b = vel[b]
        spin_b = spin0[b]
        status_b = status_in[b]
        o_pos = out_pos[b]
        o_vel = out_vel[b]
        o_spin = out_spin[b]
        o_status = out_status[b]
        o_flags = out_flags[b]
        o_contact = out_contact[b]
        o_moved_by = out_moved_by[b]
        o_times = out_times[b]

        n = pos_b.shape[0]
        touch_r = prm[P_TOUCH_R]
        touch2 = touch_r * touch_r
        rho = prm[P_RHO]
        decel = prm[P_DECEL]
        spin_decel = prm[P_SPIN_DECEL]
        status = o_status
        flags = o_flags
        for i in range(n):
            s = status_b[i]
            status[i] = s
            flags[i] = 0
            o_moved_by[i] = -1
            band[i] = 0
            zone[i] = 0
            for k in range(n):
                o_contact[i, k] = INF
            o_times[i, 0] = np.nan
            o_times[i, 1] = np.nan
            st[i, S_TZONE] = 0.0
            st[i, S_TEDGE] = 0.0
            x = pos_b[i, 0]
            y = pos_b[i, 1]
            if _active(s):
                vx = vel_b[i, 0]
                vy = vel_b[i, 1]
                if s == AIRBORNE:
                    set_motion(st, i, 0.0, x, y, vx, vy, spin_b[i], 0.0, 0.0)
                    flags[i] |= F_LEFT_SURFACE | F_TOUCHED_LINE
                else:
                    set_motion(st, i, 0.0, x, y, vx, vy, spin_b[i], decel, spin_decel)
                if st[i, S_V] > 0.0:
                    flags[i] |= F_MOVED
                    if s == LEANER:
                        status[i] = SURFACE
                if x * x + y * y >= touch2:
                    band[i] = 1
            else:
                set_motion(st, i, 0.0, x, y, 0.0, 0.0, 0.0, 0.0, 0.0)

        n_ev = 0
        n_contact = 0
        t = 0.0
        hit_cap = False
        # A disc placed within rho of the hole's centre is unsupported from the start.
        for i in range(n):
            if status[i] != SURFACE:
                continue
            x = st[i, S_PX]
            y = st[i, S_PY]
            if x * x + y * y < rho * rho:
                if st[i, S_V] > 0.0:
                    zone[i] = 1
                else:
                    if n_ev >= max_events:
                        hit_cap = True
                        break
                    status[i] = CAPTURED
                    if rec:
                        _record(
                            n_ev,
                            0.0,
                            EV_HOLE,
                            i,
                            -1,
                            st,
                            status,
                            ev_t,
                            ev_kind,
                            ev_i,
                            ev_j,
                            ev_pos,
                            ev_vel,
                            ev_spin,
                            ev_status,
                        )
                    n_ev += 1

        for i in range(n):
            _predict_single(st, i, 0.0, status, band, zone, prm, pegs, sgl_t, sgl_k, sgl_o)
        for i in range(n):
            pair_t[i, i] = INF
            for j in range(i + 1, n):
                tij = INF
                if st[i, S_V] > 0.0 or st[j, S_V] > 0.0:  # two resting discs never meet
                    tij = _predict_pair(st, i, j, 0.0, status, prm)
                pair_t[i, j] = tij
                pair_t[j, i] = tij

        while not hit_cap:
            bt = INF
            bk = NO_KIND
            bi = -1
            bj = -1
            # The full order is needed only between equal times (rare): compare times first.
            for i in range(n):
                ti = sgl_t[i]
                if ti < bt or (
                    ti == bt and ti < INF and _before(ti, sgl_k[i], i, sgl_o[i], bt, bk, bi, bj)
                ):
                    bt = ti
                    bk = sgl_k[i]
                    bi = i
                    bj = sgl_o[i]
            # A pair's contact is predicted only while one of the two moves (two resting discs
            # never meet, and a disc that stops has its pairs predicted again), so only the rows
            # of the moving discs need a look: a few rows, not the whole triangle. Each pair is
            # compared under its (lower, higher) indices, so the order is that of the full scan.
            for i in range(n):
                if st[i, S_V] <= 0.0:
                    continue
                for j in range(n):
                    if j == i or (j < i and st[j, S_V] > 0.0):
                        continue  # itself, or a pair of two movers already seen from j's row
                    tij = pair_t[i, j]
                    lo = min(i, j)
                    hi = max(i, j)
                    if tij < bt or (
                        tij == bt
                        and tij < INF
                        and _before(tij, EV_DISC_DISC, lo, hi, bt, bk, bi, bj)
                    ):
                        bt = tij
                        bk = EV_DISC_DISC
                        bi = lo
                        bj = hi
            if bt == INF:
                break
            if n_ev >= max_events:
                hit_cap = True
                break
            t = bt
            i = bi
            j = bj
            kind = bk
            traj_i = True  # whether disc i's motion law changed (its pairs must be re-predicted)
            if kind == EV_STOP:
                _rebase(st, i, t, 0.0, 0.0, spin(st, i, t), status, prm)
            elif kind == EV_HOLE:
                _rebase(st, i, t, 0.0, 0.0, 0.0, status, prm)
                status[i] = CAPTURED
                zone[i] = 0
            elif kind == EV_DISC_PEG:
                x, y = position(st, i, t)
                vx, vy = velocity(st, i, t)
                dx = pegs[j, 0] - x
                dy = pegs[j, 1] - y
                d = math.sqrt(dx * dx + dy * dy)
                vx, vy, w, _ = resolve_fixed(
                    vx,
                    vy,
                    spin(st, i, t),
                    dx / d,
                    dy / d,
                    prm[P_E_PEG],
                    prm[P_MU_PEG],
                    prm[P_DISC_R],
                )
                _rebase(st, i, t, vx, vy, w, status, prm)
                flags[i] |= F_HIT_PEG
                _struck(st, i, t, flags, touch_r, False)
            elif kind == EV_DISC_DISC:
                xi, yi = position(st, i, t)
                xj, yj = position(st, j, t)
                vix, viy = velocity(st, i, t)
                vjx, vjy = velocity(st, j, t)
                rest_i = st[i, S_V] <= 0.0
                rest_j = st[j, S_V] <= 0.0
                dx = xj - xi
                dy = yj - yi
                d = math.sqrt(dx * dx + dy * dy)
                vix, viy, wi, vjx, vjy, wj, _ = resolve_pair(
                    vix,
                    viy,
                    spin(st, i, t),
                    vjx,
                    vjy,
                    spin(st, j, t),
                    dx / d,
                    dy / d,
                    prm[P_E_DISC],
                    prm[P_MU_DISC],
                    prm[P_DISC_R],
                )
                _after_pair_hit(st, i, j, t, vix, viy, wi, rest_i, status, flags, o_moved_by, prm)
                _after_pair_hit(st, j, i, t, vjx, vjy, wj, rest_j, status, flags, o_moved_by, prm)
                if o_contact[i, j] == INF:
                    o_contact[i, j] = t
                    o_contact[j, i] = t
                if n_contact < log_t.shape[0]:
                    log_t[n_contact] = t
                    log_i[n_contact] = i
                    log_j[n_contact] = j
                n_contact += 1
            elif kind == EV_RAIL:
                x, y = position(st, i, t)
                vx, vy = velocity(st, i, t)
                d = math.sqrt(x * x + y * y)
                vx, vy, w, _ = resolve_fixed(
                    vx,
                    vy,
                    spin(st, i, t),
                    x / d,
                    y / d,
                    prm[P_E_RAIL],
                    prm[P_MU_RAIL],
                    prm[P_DISC_R],
                )
                _rebase(st, i, t, vx, vy, w, status, prm)
                _struck(st, i, t, flags, touch_r, True)
            elif kind == EV_DITCH_DISC:
                x, y = position(st, i, t)
                vx, vy = velocity(st, i, t)
                dx = st[j, S_PX] - x
                dy = st[j, S_PY] - y
                d = math.sqrt(dx * dx + dy * dy)
                vx, vy, w, _ = resolve_fixed(
                    vx,
                    vy,
                    spin(st, i, t),
                    dx / d,
                    dy / d,
                    prm[P_E_DISC],
                    prm[P_MU_DISC],
                    prm[P_DISC_R],
                )
                _rebase(st, i, t, vx, vy, w, status, prm)
                _struck(st, i, t, flags, touch_r, True)
            elif kind == EV_LINE:
                band[i] = 1
                flags[i] |= F_TOUCHED_LINE
                traj_i = False
            elif kind == EV_LINE_IN:
                band[i] = 0
                traj_i = False
            elif kind == EV_EDGE:
                vx, vy = velocity(st, i, t)
                w = spin(st, i, t)
                status[i] = AIRBORNE
                band[i] = 1
                st[i, S_TEDGE] = t
                _rebase(st, i, t, vx, vy, w, status, prm)
                flags[i] |= F_LEFT_SURFACE | F_TOUCHED_LINE
                if np.isnan(o_times[i, 0]):
                    o_times[i, 0] = t
            elif kind == EV_RETURN:
                vx, vy = velocity(st, i, t)
                w = spin(st, i, t)
                status[i] = SURFACE
                _rebase(st, i, t, vx, vy, w, status, prm)
                flags[i] |= F_RETURNED
                o_times[i, 1] = t
            elif kind == EV_DITCH:
                _rebase(st, i, t, 0.0, 0.0, 0.0, status, prm)
                status[i] = DITCH
                # A new obstacle for every disc still flying over the ditch.
                for k in range(n):
                    if status[k] == AIRBORNE:
                        _predict_single(
                            st, k, t, status, band, zone, prm, pegs, sgl_t, sgl_k, sgl_o
                        )
            elif kind == EV_HOLE_ENTER:
                zone[i] = 1
                st[i, S_TZONE] = t
                traj_i = False
            elif kind == EV_HOLE_EXIT:
                zone[i] = 0
                traj_i = False
            elif kind == EV_LEANER:
                _rebase(st, i, t, 0.0, 0.0, 0.0, status, prm)
                status[i] = LEANER
                zone[i] = 0

            _predict_single(st, i, t, status, band, zone, prm, pegs, sgl_t, sgl_k, sgl_o)
            if traj_i:
                _repredict_pairs(st, i, t, status, prm, pair_t)
            if kind == EV_DISC_DISC:
                _predict_single(st, j, t, status, band, zone, prm, pegs, sgl_t, sgl_k, sgl_o)
                _repredict_pairs(st, j, t, status, prm, pair_t)
            if rec:
                _record(
                    n_ev,
                    t,
                    kind,
                    i,
                    j,
                    st,
                    status,
                    ev_t,
                    ev_kind,
                    ev_i,
                    ev_j,
                    ev_pos,
                    ev_vel,
                    ev_spin,
                    ev_status,
                )
            n_ev += 1

        for i in range(n):
            x, y = position(st, i, t)
            vx, vy = velocity(st, i, t)
            o_pos[i, 0] = x
            o_pos[i, 1] = y
            o_vel[i, 0] = vx
            o_vel[i, 1] = vy
            o_spin[i] = spin(st, i, t)
            if status[i] == SURFACE and x * x + y * y >= touch2:
                flags[i] |= F_TOUCHED_LINE
        out_n_events[b] = n_ev
        out_hit_cap[b] = hit_cap
        out_t_end[b] = t
        out_n_contacts[b] = n_contact
