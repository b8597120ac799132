"""Collisions: closed-form outcomes and conservation laws (board.md, Motion)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from simulation.physics import PhysicsParams, simulate
from simulation.physics.events.impulse import resolve_fixed, resolve_pair
from tests.simulation.physics.physics_support import A, D, P, R, first, kinds, one, state_before

M = P.disc_mass
INERTIA = M * R * R / 2


def _energy(vel: np.ndarray, spin: np.ndarray) -> float:
    return 0.5 * M * float(np.sum(vel * vel)) + 0.5 * INERTIA * float(np.sum(spin * spin))


@pytest.mark.parametrize("e", [0.5, 0.8, 0.9, 1.0])
def test_head_on_equal_masses_closed_form(e: float) -> None:
    p = PhysicsParams(e_disc=e)
    v0, gap = 1.0, 0.1  # centres 0.1 apart: contact after 0.1 - 2r of travel
    res = simulate(
        np.array([[0.1, -0.2], [0.2, -0.2]]), np.array([[v0, 0.0], [0.0, 0.0]]), params=p
    )
    hit = first(res, "disc-disc")
    v = math.sqrt(v0 * v0 - 2 * A * (gap - D))
    assert hit.t == pytest.approx((v0 - v) / A, rel=1e-12)
    assert hit.velocities[0, 0] == pytest.approx(v * (1 - e) / 2, rel=1e-12, abs=1e-15)
    assert hit.velocities[1, 0] == pytest.approx(v * (1 + e) / 2, rel=1e-12)
    assert np.all(hit.velocities[:, 1] == 0.0)
    assert np.all(hit.spins == 0.0)  # no tangential slip, no throw
    assert res.contacts == [(0, 1)]
    assert res.moved_by.tolist() == [-1, 0]


@given(
    vi=st.tuples(st.floats(-4, 4), st.floats(-4, 4)),
    vj=st.tuples(st.floats(-4, 4), st.floats(-4, 4)),
    wi=st.floats(-300, 300),
    wj=st.floats(-300, 300),
    ang=st.floats(0, 2 * math.pi),
    e=st.floats(0.0, 1.0),
    mu=st.floats(0.0, 0.5),
)
@settings(max_examples=300, deadline=None)
def test_pair_impulse_conserves_momentum_and_never_adds_energy(vi, vj, wi, wj, ang, e, mu) -> None:
    nx, ny = math.cos(ang), math.sin(ang)
    out = resolve_pair(*vi, wi, *vj, wj, nx, ny, e, mu, R)
    vix, viy, wi2, vjx, vjy, wj2, jn = out
    assert vix + vjx == pytest.approx(vi[0] + vj[0], abs=1e-12)
    assert viy + vjy == pytest.approx(vi[1] + vj[1], abs=1e-12)
    before = _energy(np.array([vi, vj]), np.array([wi, wj]))
    after = _energy(np.array([[vix, viy], [vjx, vjy]]), np.array([wi2, wj2]))
    assert after <= before * (1 + 1e-12) + 1e-18
    vn = (vi[0] - vj[0]) * nx + (vi[1] - vj[1]) * ny
    vn2 = (vix - vjx) * nx + (viy - vjy) * ny
    if vn > 0:
        assert vn2 == pytest.approx(-e * vn, abs=1e-12)
        # angular momentum about the contact point is conserved: the tangential impulse is
        # limited by friction, and it changes the spins by 2 jt / r each.
        tx, ty = -ny, nx
        jt = -((vix - vi[0]) * tx + (viy - vi[1]) * ty)
        assert abs(jt) <= mu * jn * (1 + 1e-9) + 1e-12
        assert wi2 == pytest.approx(wi - 2 * jt / R, abs=1e-6)
    else:
        assert out[:6] == (*vi, wi, *vj, wj)  # separating: no impulse


@given(
    v=st.floats(0.3, 3.0),
    offset=st.floats(-0.99, 0.99),
    spin=st.floats(-200, 200),
    angle=st.floats(0, 2 * math.pi),
)
@settings(max_examples=80, deadline=None)
def test_engine_collisions_conserve_momentum(v, offset, spin, angle) -> None:
    """Random striker/target pairs in the open 10 region: momentum just before and just after
    every disc-disc event is the same, and energy never grows."""
    c = np.array([0.15 * math.cos(angle), 0.15 * math.sin(angle)])
    u = np.array([-math.sin(angle), math.cos(angle)])  # tangent to the 15 line there
    n = np.array([u[1], -u[0]])
    start = c - 0.06 * u + offset * D * n
    res = one([start, c], [v * u, [0.0, 0.0]], spins=np.array([spin, 0.0]))
    hits = [e for e in res.events if e.kind == "disc-disc"]
    assume(hits)
    for hit in hits:
        _, vel_b, spin_b = state_before(res, hit)
        assert np.allclose(vel_b.sum(axis=0), hit.velocities.sum(axis=0), atol=1e-12)
        assert _energy(hit.velocities, hit.spins) <= _energy(vel_b, spin_b) * (1 + 1e-12)


def test_fixed_body_impulse_reverses_normal_speed_and_caps_friction() -> None:
    vx, vy, w, jn = resolve_fixed(1.0, 0.0, 0.0, 1.0, 0.0, 0.7, 0.2, R)
    assert (vx, vy, w) == pytest.approx((-0.7, 0.0, 0.0))
    assert jn == pytest.approx(1.7)
    # Tangent t = (0, 1). Slip 1 m/s: the no-slip impulse 1/3 is below the cap 0.2 * 1.7, so
    # the contact point stops slipping.
    vx, vy, w, jn = resolve_fixed(1.0, 1.0, 0.0, 1.0, 0.0, 0.7, 0.2, R)
    assert vy + w * R == pytest.approx(0.0, abs=1e-12)
    # Slip 3 m/s: the no-slip impulse 1 exceeds the cap, which then limits it.
    vx, vy, w, jn = resolve_fixed(1.0, 3.0, 0.0, 1.0, 0.0, 0.7, 0.2, R)
    assert 3.0 - vy == pytest.approx(0.2 * 1.7)


def test_peg_rebound_head_on() -> None:
    px = P.peg_circle_radius * math.cos(math.pi / 8)
    py = P.peg_circle_radius * math.sin(math.pi / 8)
    # Approach the peg at 22.5 deg from outside along the radius, at 0.8 m/s.
    u = np.array([-math.cos(math.pi / 8), -math.sin(math.pi / 8)])
    start = np.array([px, py]) - 0.1 * u
    res = one([start], [0.8 * u])
    hit = first(res, "disc-peg")
    assert hit.other == 0  # the peg at 22.5 degrees
    s = 0.1 - (R + P.peg_radius)
    v = math.sqrt(0.64 - 2 * A * s)
    assert hit.velocities[0] == pytest.approx(-P.e_peg * v * u, abs=1e-12)
    assert res.hit_peg[0]
    assert kinds(res) == ["disc-peg", "stop"]


def test_glancing_peg_hit_transfers_spin() -> None:
    px = P.peg_circle_radius * math.cos(math.pi / 8)
    py = P.peg_circle_radius * math.sin(math.pi / 8)
    start = np.array([px - 0.1, py - 0.5 * (R + P.peg_radius)])
    res = one([start], [[0.8, 0.0]])
    hit = first(res, "disc-peg")
    assert hit.spins[0] != 0.0
    assert hit.velocities[0, 1] < 0.0  # deflected away from the peg


def test_chain_records_who_set_whom_moving() -> None:
    pos = [[-0.25, -0.2], [-0.15, -0.2], [-0.05, -0.2], [0.2, 0.2]]
    res = one(pos, [[2.0, 0.0], [0, 0], [0, 0], [0, 0]])
    assert res.contacts == [(0, 1), (1, 2)]
    assert res.moved_by.tolist() == [-1, 0, 1, -1]
    assert res.moved.tolist() == [True, True, True, False]
    assert [c[1:] for c in res.contact_log] == [(0, 1), (1, 2)]
    assert res.contact_log[0][0] < res.contact_log[1][0]


def test_resting_discs_touching_pass_the_impulse_along() -> None:
    # Newton's cradle with e = 1: the last disc leaves with the striker's speed.
    p = PhysicsParams(e_disc=1.0)
    pos = np.array([[-0.2, -0.2], [-0.1, -0.2], [-0.1 + D, -0.2], [-0.1 + 2 * D, -0.2]])
    vel = np.zeros((4, 2))
    vel[0, 0] = 1.0
    res = simulate(pos, vel, params=p)
    dd = [e for e in res.events if e.kind == "disc-disc"]
    assert [(e.disc, e.other) for e in dd][:3] == [(0, 1), (1, 2), (2, 3)]
    last = dd[2]
    assert last.velocities[3, 0] == pytest.approx(math.sqrt(1 - 2 * A * (0.1 - D)), rel=1e-9)
    assert np.allclose(last.velocities[:3], 0.0, atol=1e-12)
