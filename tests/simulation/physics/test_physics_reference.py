"""The event-driven engine against a brute-force fixed-step integration (dt = 1 us).

The reference below is written independently of the engine: it moves every disc by the exact
one-step distance under constant deceleration, decays spins, and resolves any overlapping,
approaching pair or disc-peg contact at the end of a step with the impulse laws of board.md. It
converges to the exact answer as dt -> 0 for non-chaotic shots (a single collision or two), so
the engine must agree with it to within the step's positional error amplified by one
collision: a hundredth of a millimetre (it agrees to about a micrometre).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from numba import njit

from simulation.physics import geometry, simulate
from tests.simulation.physics.physics_support import P, R, kinds


@njit(cache=False)
def _impulse(v1x, v1y, w1, v2x, v2y, w2, nx, ny, e, mu, fixed):  # pragma: no cover - compiled
    """Contact impulse written out from the laws (body 2 is ignored when ``fixed``)."""
    tx, ty = -ny, nx
    vn = (v1x - v2x) * nx + (v1y - v2y) * ny
    if vn <= 0.0:
        return v1x, v1y, w1, v2x, v2y, w2
    # Inverse effective masses per unit mass: normal 1 + 1 for two discs, 1 against a fixed
    # body; tangential at the rim adds r^2 / I = 2 per disc.
    k_n = 1.0 if fixed else 2.0
    k_t = 3.0 if fixed else 6.0
    jn = (1.0 + e) * vn / k_n
    ut = (v1x - v2x) * tx + (v1y - v2y) * ty + R * (w1 + (0.0 if fixed else w2))
    jt = max(-mu * jn, min(mu * jn, ut / k_t))
    v1x -= jn * nx + jt * tx
    v1y -= jn * ny + jt * ty
    w1 -= 2.0 * jt / R
    if not fixed:
        v2x += jn * nx + jt * tx
        v2y += jn * ny + jt * ty
        w2 -= 2.0 * jt / R
    return v1x, v1y, w1, v2x, v2y, w2


@njit(cache=False)
def reference(pos, vel, spin, pegs, dt, decel, spin_decel, e_d, mu_d, e_p, mu_p, r_peg):
    """Fixed-step integration until every disc rests; returns positions and spins."""
    n = pos.shape[0]
    for _ in range(20_000_000):
        moving = False
        for i in range(n):
            sp = math.hypot(vel[i, 0], vel[i, 1])
            if sp > 0.0:
                moving = True
                tau = min(dt, sp / decel)
                s = sp * tau - 0.5 * decel * tau * tau
                ux = vel[i, 0] / sp
                uy = vel[i, 1] / sp
                pos[i, 0] += ux * s
                pos[i, 1] += uy * s
                new = max(sp - decel * dt, 0.0)
                vel[i, 0] = ux * new
                vel[i, 1] = uy * new
            m = max(abs(spin[i]) - spin_decel * dt, 0.0)
            spin[i] = m if spin[i] > 0 else -m
        if not moving:
            break
        for i in range(n):
            for j in range(i + 1, n):
                dx = pos[j, 0] - pos[i, 0]
                dy = pos[j, 1] - pos[i, 1]
                dist = math.hypot(dx, dy)
                if dist < 2.0 * R:
                    out = _impulse(
                        vel[i, 0],
                        vel[i, 1],
                        spin[i],
                        vel[j, 0],
                        vel[j, 1],
                        spin[j],
                        dx / dist,
                        dy / dist,
                        e_d,
                        mu_d,
                        False,
                    )
                    vel[i, 0], vel[i, 1], spin[i], vel[j, 0], vel[j, 1], spin[j] = out
            for k in range(pegs.shape[0]):
                dx = pegs[k, 0] - pos[i, 0]
                dy = pegs[k, 1] - pos[i, 1]
                dist = math.hypot(dx, dy)
                if dist < R + r_peg:
                    out = _impulse(
                        vel[i, 0],
                        vel[i, 1],
                        spin[i],
                        0.0,
                        0.0,
                        0.0,
                        dx / dist,
                        dy / dist,
                        e_p,
                        mu_p,
                        True,
                    )
                    vel[i, 0], vel[i, 1], spin[i] = out[0], out[1], out[2]
    return pos, spin


def _compare(pos, vel, spin, expect_kinds: set[str]) -> None:
    pos = np.array(pos, dtype=float)
    vel = np.array(vel, dtype=float)
    spin = np.array(spin, dtype=float)
    res = simulate(pos, vel, spins=spin)
    # Only what the reference models: collisions, stops (and the line, which changes nothing).
    assert set(kinds(res)) <= expect_kinds | {"stop", "line", "line-in"}, kinds(res)
    assert [k for k in kinds(res) if k in expect_kinds] == sorted_kinds(res, expect_kinds)
    ref_pos, ref_spin = reference(
        pos.copy(),
        vel.copy(),
        spin.copy(),
        geometry.peg_positions(),
        1e-6,
        P.decel,
        P.spin_decel,
        P.e_disc,
        P.mu_disc,
        P.e_peg,
        P.mu_peg,
        P.peg_radius,
    )
    err = np.abs(res.positions - ref_pos).max()
    assert err < 1e-5, (err, res.positions, ref_pos)
    assert np.allclose(res.spins, ref_spin, atol=0.05)


def sorted_kinds(res, expect: set[str]) -> list[str]:
    """The collision kinds in the order the engine met them (all of ``expect`` must occur)."""
    seen = [k for k in kinds(res) if k in expect]
    assert set(seen) == expect, kinds(res)
    return seen


@pytest.mark.slow
def test_oblique_hit_with_spin_matches_fine_steps() -> None:
    _compare([[-0.2, -0.2], [0.0, -0.2 + R]], [[1.0, 0.0], [0.0, 0.0]], [60.0, 0.0], {"disc-disc"})


def test_cut_shot_with_counter_spin_matches_fine_steps() -> None:
    _compare([[0.2, 0.15], [0.05, 0.19]], [[-0.8, 0.2], [0.0, 0.0]], [-120.0, 0.0], {"disc-disc"})


def test_both_moving_collision_matches_fine_steps() -> None:
    _compare(
        [[-0.2, -0.15], [-0.05, -0.25]],
        [[0.9, 0.0], [0.0, 0.7]],
        [0.0, 40.0],
        {"disc-disc"},
    )


def test_glancing_peg_bounce_matches_fine_steps() -> None:
    px, py = geometry.peg_positions()[7]  # (0.094, -0.039)
    _compare([[px - 0.15, py - 0.012]], [[0.9, 0.0]], [0.0], {"disc-peg"})


@pytest.mark.parametrize("target", [(-0.01, -0.17), (0.0, -0.15)])
def test_peg_then_disc_matches_fine_steps(target: tuple[float, float]) -> None:
    px, py = geometry.peg_positions()[6]  # (0.039, -0.094)
    _compare(
        [[px - 0.005, py - 0.12], target],
        [[0.0, 0.9], [0.0, 0.0]],
        [0.0, 0.0],
        {"disc-peg", "disc-disc"},
    )
