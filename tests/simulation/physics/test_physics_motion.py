"""Sliding discs against the closed forms of board.md (Motion)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulation.physics import PhysicsParams, advance, simulate
from tests.simulation.physics.physics_support import A, P, kinds, one

# A straight run along y = -0.17 from x = -0.2 passes no peg, the hole or the line.
START = (-0.2, -0.17)


def _rot(v: tuple[float, float], quarter: int) -> tuple[float, float]:
    x, y = v
    for _ in range(quarter % 4):
        x, y = -y, x
    return x, y


@given(v=st.floats(0.05, 0.8), quarter=st.integers(0, 3))
@settings(max_examples=60, deadline=None)
def test_stopping_distance_and_time_are_closed_form(v: float, quarter: int) -> None:
    start = _rot(START, quarter)
    vel = _rot((v, 0.0), quarter)
    res = one([start], [vel])
    moved = math.hypot(*(res.positions[0] - np.array(start)))
    assert moved == pytest.approx(v * v / (2 * A), rel=1e-12, abs=1e-15)
    assert res.t_end == pytest.approx(v / A, rel=1e-12)
    assert kinds(res)[-1] == "stop"
    assert res.status_names == ["surface"]
    assert np.all(res.velocities == 0.0)


@pytest.mark.parametrize("mu", [0.1, 0.15, 0.25])
def test_stopping_distance_follows_the_friction_parameter(mu: float) -> None:
    p = PhysicsParams(mu_board=mu)
    res = simulate(np.array([START]), np.array([[0.6, 0.0]]), params=p)
    assert res.positions[0, 0] - START[0] == pytest.approx(0.36 / (2 * mu * 9.81), rel=1e-12)


def test_spin_decays_without_bending_the_path() -> None:
    res = one([START], [[0.5, 0.0]], spins=np.array([100.0]))
    assert res.positions[0, 1] == START[1]  # exactly straight
    expected = 100.0 - P.spin_decel * res.t_end
    assert res.spins[0] == pytest.approx(expected, rel=1e-12)
    res2 = one([START], [[0.5, 0.0]], spins=np.array([1.0]))
    assert res2.spins[0] == 0.0  # decayed to zero and stays there


def test_replay_between_events_is_the_closed_form() -> None:
    res = one([START], [[0.7, 0.0]])
    for t in (0.0, 0.1, 0.3, res.t_end, res.t_end + 1.0):
        pos, vel, _, _ = res.state_at(t)
        tau = min(t, 0.7 / A)
        assert pos[0, 0] == pytest.approx(START[0] + 0.7 * tau - A * tau * tau / 2, abs=1e-14)
        assert vel[0, 0] == pytest.approx(max(0.7 - A * t, 0.0), abs=1e-14)


def test_advance_flying_disc_keeps_its_velocity() -> None:
    pos, vel, spin = advance([[0.34, 0.0]], [[1.0, 0.0]], [5.0], [5], 0.01)
    assert pos[0, 0] == pytest.approx(0.35)
    assert vel[0, 0] == 1.0
    assert spin[0] == 5.0
