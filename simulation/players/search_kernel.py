"""One decision in one compiled call: candidates, noisy executions, physics, values, halving.

The search of :mod:`search` as a numba kernel. Per decision the numpy search made a few hundred
numpy calls on arrays of a few dozen elements and three or four trips through the physics' Python
wrapper; together they cost several times the physics itself. Here the candidates
(:mod:`candidate_kernel`), the released shots, the batch physics (``engine.simulate_kernel``,
called directly), the values (``evaluate.evaluate_kernel``) and the successive halving all run in
compiled code. The random draws come from the player's generator in the same order as in the numpy
search (numba's ``Generator`` shares the bit generator's state and draws normals as numpy does), so
without the early stop (``stop_z`` 0) the kernel makes the decisions of :mod:`reference`: the
same shots, of the same kinds, with the same values, up to the last bits of a candidate's angle or
speed (numba's arithmetic and trigonometry are not numpy's to the last bit), which the physics of
the later shots carries on (a velocity after a collision within about 1e-8 of the other's).
"""

from __future__ import annotations

import math

import numpy as np
from numba import typeof, types

from simulation.physics import codes
from simulation.physics.engine import simulate_kernel
from simulation.physics.nbtypes import B1_1, F1, F2, I1, b1, f8, i8, njit, njit_inner
from simulation.players.candidate_kernel import generate_kernel
from simulation.players.candidates import OPEN_20
from simulation.players.evaluate import evaluate_kernel

GENERATOR = typeof(np.random.default_rng(0))
"""The numba type of a numpy ``Generator`` (whatever its bit generator)."""

_DEG = math.pi / 180.0
"""Degrees to radians, as ``np.radians`` computes it."""

CHOICE_OUT = types.Tuple((f8, f8, f8, i8, i8, f8, i8, i8, i8))
"""What :func:`choose_kernel` returns: the chosen shot's position, angle, speed, kind and target,
its mean value and samples, the physics shots spent and the number of candidates."""


@njit(I1(i8, i8, i8))
def schedule_kernel(n: int, total: int, eta: int) -> np.ndarray:
    """Samples per candidate at each halving stage (as :func:`search.schedule`)."""
    stages = max(1, math.ceil(math.log(max(n, 2)) / math.log(eta)))
    per_stage = max(1, total // stages)
    plan = np.empty(stages, dtype=np.int64)
    alive = n
    for k in range(stages):
        plan[k] = max(1, per_stage // alive)
        alive = max(1, math.ceil(alive / eta))
    return plan


@njit_inner(f8(F1, i8, i8))
def _sum(a: np.ndarray, lo: int, n: int) -> float:
    """``a[lo:lo + n].sum()`` added in numpy's order (pairwise, in blocks of eight), to the last
    bit: outcomes are often exactly equal, so two means can tie and their round-off decides
    which candidate goes on, as it does in the numpy search."""
    if n < 8:
        res = 0.0
        for i in range(lo, lo + n):
            res += a[i]
        return res
    if n <= 128:
        r0, r1, r2, r3 = a[lo], a[lo + 1], a[lo + 2], a[lo + 3]
        r4, r5, r6, r7 = a[lo + 4], a[lo + 5], a[lo + 6], a[lo + 7]
        i = 8
        while i < n - (n % 8):
            r0 += a[lo + i]
            r1 += a[lo + i + 1]
            r2 += a[lo + i + 2]
            r3 += a[lo + i + 3]
            r4 += a[lo + i + 4]
            r5 += a[lo + i + 5]
            r6 += a[lo + i + 6]
            r7 += a[lo + i + 7]
            i += 8
        res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
        while i < n:
            res += a[lo + i]
            i += 1
        return res
    half = n // 2
    half -= half % 8
    return _sum(a, lo, half) + _sum(a, lo + half, n - half)


@njit
def _values(
    index,
    samples,
    z,
    c_pos,
    c_angle,
    c_speed,
    state_pos,
    state_status,
    seat,
    noise,
    physics,
    evaluation,
):  # pragma: no cover - compiled; exercised through choose_kernel
    """Values (len(index), samples) of the candidates ``index`` released with the draws ``z``.

    As ``reference.Simulator.values``: each nominal shot perturbed by the player's noise, set on
    the shooting line, simulated from the situation's discs (the shot disc in the last slot) and
    valued by the evaluator.
    """
    angle_sd, speed_sd, shoot_r = noise
    prm, pegs, max_events = physics
    c = index.shape[0]
    n = state_pos.shape[0]
    nb = c * samples
    pos = np.empty((nb, n, 2))
    vel = np.zeros((nb, n, 2))
    spin = np.zeros((nb, n))
    status = np.empty((nb, n), dtype=np.int8)
    for a in range(c):
        k = index[a]
        theta = (seat + c_pos[k]) * _DEG
        sx = shoot_r * math.cos(theta)
        sy = shoot_r * math.sin(theta)
        for s in range(samples):
            b = a * samples + s
            angle = c_angle[k] + angle_sd * z[s, 0]
            speed = max(c_speed[k] * (1.0 + speed_sd * z[s, 1]), 0.0)
            heading = (seat + 180.0 + angle) * _DEG
            for d in range(n - 1):
                pos[b, d, 0] = state_pos[d, 0]
                pos[b, d, 1] = state_pos[d, 1]
                status[b, d] = state_status[d]
            pos[b, n - 1, 0] = sx
            pos[b, n - 1, 1] = sy
            status[b, n - 1] = codes.SURFACE
            vel[b, n - 1, 0] = speed * math.cos(heading)
            vel[b, n - 1, 1] = speed * math.sin(heading)
    c_log = max_events if nb else 0
    out_pos = np.empty((nb, n, 2))
    out_status = np.empty((nb, n), dtype=np.int8)
    out_flags = np.empty((nb, n), dtype=np.int32)
    out_contacts = np.empty((nb, n, n))
    simulate_kernel(
        pos,
        vel,
        spin,
        status,
        prm,
        pegs,
        max_events,
        False,
        out_pos,
        np.empty((nb, n, 2)),
        np.empty((nb, n)),
        out_status,
        out_flags,
        out_contacts,
        np.empty((nb, n), dtype=np.int32),
        np.empty((nb, n, 2)),
        np.empty(nb, dtype=np.int64),
        np.empty(nb, dtype=np.bool_),
        np.empty(nb),
        np.empty(nb, dtype=np.int64),
        np.empty(c_log),
        np.empty(c_log, dtype=np.int32),
        np.empty(c_log, dtype=np.int32),
        np.empty(0),
        np.empty(0, dtype=np.int32),
        np.empty(0, dtype=np.int32),
        np.empty(0, dtype=np.int32),
        np.empty((0, n, 2)),
        np.empty((0, n, 2)),
        np.empty((0, n)),
        np.empty((0, n), dtype=np.int8),
    )
    value = np.empty(nb)
    evaluate_kernel(
        out_pos,
        out_status,
        out_flags,
        out_contacts,
        *evaluation,  # the situation's arrays, in evaluate_kernel's order
        value,
        np.empty(nb, dtype=np.bool_),
        np.empty(nb, dtype=np.int64),
    )
    return value.reshape(c, samples)


@njit_inner(
    b1(I1, F1, F1, F1, I1, f8),
)
def _settled(
    alive: np.ndarray,
    means: np.ndarray,
    sums: np.ndarray,
    squares: np.ndarray,
    counts: np.ndarray,
    stop_z: float,
) -> bool:
    """Whether more samples could only confirm the leader: every other candidate in the race is
    behind it by more than ``stop_z`` standard errors of the difference of their means, each
    mean of at least 3 samples."""
    first = 0
    for a in range(alive.shape[0]):
        if means[a] > means[first]:
            first = a
    k1 = alive[first]
    n1 = counts[k1]
    if n1 < 3:
        return False
    var1 = max(squares[k1] - sums[k1] * sums[k1] / n1, 0.0) / (n1 - 1) / n1
    for a in range(alive.shape[0]):
        if a == first:
            continue
        k = alive[a]
        n = counts[k]
        if n < 3:
            return False
        var = max(squares[k] - sums[k] * sums[k] / n, 0.0) / (n - 1) / n
        if not means[first] - means[a] > stop_z * math.sqrt(var1 + var):
            return False
    return True


BOARD = types.Tuple((F1, F2, F1, F1, F1, F1, F1, F1))
"""Board figures, pegs and the technique's fixed grids (``candidate_kernel.board_arrays``)."""
NOISE = types.UniTuple(f8, 3)
"""The player's direction and speed errors and the shooting line's radius."""
PHYSICS = types.Tuple((F1, F2, i8))
"""Packed physics parameters, peg centres and the event cap per shot."""
EVALUATION = types.Tuple((i8, i8, b1, f8, f8, i8, i8, F1, F1, F1, F2, F1, F1))
"""The evaluator's inputs for one situation but the sides (``evaluate.evaluation_arrays``)."""


@njit(
    CHOICE_OUT(
        F2,
        I1,
        B1_1,
        i8,
        f8,
        F1,
        I1,
        BOARD,
        i8,
        i8,
        i8,
        i8,
        b1,
        f8,
        i8,
        GENERATOR,
        NOISE,
        PHYSICS,
        EVALUATION,
    ),
)
def choose_kernel(
    positions,
    sides,
    leaners,
    side,
    seat,
    opp_seats,
    breadth,
    board,
    total,
    eta,
    n_leaders,
    neighbours,
    uniform,
    stop_z,
    checks,
    rng,
    noise,
    physics,
    evaluation,
):  # pragma: no cover - compiled; exercised through search.choose
    """The best candidate by successive halving, or with ``uniform`` by the naive baseline (as
    ``reference.choose``; see :mod:`search` for the method)."""
    fig, pegs, start_grid, open_starts, exposure_grid, cuts, force, hide_offsets = board
    c_pos, c_angle, c_speed, c_kind, c_target = generate_kernel(
        positions,
        sides,
        leaners,
        side,
        seat,
        opp_seats,
        breadth,
        fig,
        pegs,
        start_grid,
        open_starts,
        exposure_grid,
        cuts,
        force,
        hide_offsets,
    )
    # The board the shots are played on: the discs, and a last slot for the shot disc.
    n = positions.shape[0]
    state_pos = np.zeros((n + 1, 2))
    state_status = np.full(n + 1, codes.SURFACE, dtype=np.int8)
    ev_sides = np.empty(n + 1, dtype=np.int64)
    opp_in_play = False
    for k in range(n):
        state_pos[k, 0] = positions[k, 0]
        state_pos[k, 1] = positions[k, 1]
        if leaners[k]:
            state_status[k] = codes.LEANER
        ev_sides[k] = sides[k]
        opp_in_play = opp_in_play or sides[k] != side
    ev_sides[n] = side
    evaluation = (ev_sides, side, opp_in_play) + evaluation  # noqa: RUF005 - compiled: no star
    n0 = c_pos.shape[0]
    if n0 == 1:
        return c_pos[0], c_angle[0], c_speed[0], c_kind[0], c_target[0], 0.0, 0, 0, 1
    plan = schedule_kernel(n0, total, eta)
    if uniform:
        samples = plan.sum()
        z = rng.standard_normal((samples, 2))
        values = _values(
            np.arange(n0), samples, z, c_pos, c_angle, c_speed,
            state_pos, state_status, seat, noise, physics, evaluation,
        )  # fmt: skip
        best = 0
        best_sum = -np.inf
        for k in range(n0):
            total_k = _sum(values[k], 0, samples)
            if total_k > best_sum:
                best = k
                best_sum = total_k
        return (
            c_pos[best], c_angle[best], c_speed[best], c_kind[best], c_target[best],
            best_sum / samples, samples, n0 * samples, n0,
        )  # fmt: skip
    stages = plan.shape[0]
    per_stage = max(1, total // stages)
    sums = np.zeros(n0 + n_leaders * neighbours)
    squares = np.zeros(n0 + n_leaders * neighbours)
    counts = np.zeros(n0 + n_leaders * neighbours, dtype=np.int64)
    alive = np.arange(n0)
    means = np.empty(n0)
    shots = 0
    settled = False
    for stage in range(stages):
        n_alive = alive.shape[0]
        samples = max(1, per_stage // n_alive)
        # The stage's draws come in up to ``checks`` parts, the race checked after each: a clear
        # leader ends the search without the rest of the stage (the same draws otherwise).
        parts = max(1, min(checks, samples)) if stop_z > 0.0 else 1
        means = np.empty(n_alive)
        for part in range(parts):
            size = samples // parts + (1 if part < samples % parts else 0)
            z = rng.standard_normal((size, 2))
            values = _values(
                alive, size, z, c_pos, c_angle, c_speed,
                state_pos, state_status, seat, noise, physics, evaluation,
            )  # fmt: skip
            shots += n_alive * size
            for a in range(n_alive):
                k = alive[a]
                sums[k] += _sum(values[a], 0, size)
                counts[k] += size
                if stop_z > 0.0:  # only the early stop reads the squares
                    squares[k] += (values[a] * values[a]).sum()
                means[a] = sums[k] / counts[k]
            last = stage == stages - 1 and part == parts - 1
            if n_alive == 1 or last:
                break
            if stop_z > 0.0 and _settled(alive, means, sums, squares, counts, stop_z):
                settled = True
                break
        if settled or n_alive == 1 or stage == stages - 1:
            break
        order = alive[np.argsort(-means, kind="mergesort")]
        keep = max(1, math.ceil(n_alive / eta))
        following = order[:keep]
        leaders = order[:n_leaders]
        leaders = leaders[c_kind[leaders] != OPEN_20]
        if stage == 0 and neighbours and leaders.shape[0]:
            # Jittered neighbours of the leaders join the race (a small local search).
            index = np.repeat(leaders, neighbours)
            m = index.shape[0]
            first = c_pos.shape[0]
            turn = c_angle[index] + 0.6 * rng.standard_normal(m)
            pace = c_speed[index] * (1.0 + 0.05 * rng.standard_normal(m))
            c_pos = np.concatenate((c_pos, c_pos[index]))
            c_angle = np.concatenate((c_angle, turn))
            c_speed = np.concatenate((c_speed, pace))
            c_kind = np.concatenate((c_kind, c_kind[index]))
            c_target = np.concatenate((c_target, c_target[index]))
            following = np.concatenate((following, np.arange(first, first + m)))
        alive = following
    best = alive[np.argmax(means)]
    return (
        c_pos[best], c_angle[best], c_speed[best], c_kind[best], c_target[best],
        sums[best] / counts[best], counts[best], shots, n0,
    )  # fmt: skip
