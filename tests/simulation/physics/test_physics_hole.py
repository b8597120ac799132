"""The 20 hole: capture, riding over, leaners (board.md, the 20 hole)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from simulation.physics import codes, geometry
from tests.simulation.physics.physics_support import A, P, first, kinds, one

RHO = P.hole_support_radius
T_DROP = P.drop_time
Y0 = -0.2  # straight up the seat 0 centre line passes between two pegs


def _v0_for_entry_speed(v_entry: float, offset: float = 0.0) -> float:
    """Initial speed at (offset, Y0) heading +y that reaches the zone at ``v_entry``."""
    s = -Y0 - math.sqrt(RHO * RHO - offset * offset)
    return math.sqrt(v_entry * v_entry + 2 * A * s)


def _critical_entry_speed(chord: float) -> float:
    """Entry speed whose crossing of ``chord`` (decelerating) takes exactly t_drop."""
    return chord / T_DROP + A * T_DROP / 2


def test_slow_dead_centre_shot_drops_in() -> None:
    res = one([[0.0, Y0]], [[0.0, 1.0]])
    assert res.status.tolist() == [codes.CAPTURED]
    assert kinds(res) == ["hole-enter", "hole"]
    enter, hole = res.events
    assert hole.t == pytest.approx(enter.t + T_DROP)


def test_fast_dead_centre_shot_rides_over() -> None:
    # Fast enough to ride over the hole means (at mu = 0.15) fast enough to slide off the far
    # side of the board too.
    res = one([[0.0, Y0]], [[0.0, 2.0]])
    assert kinds(res)[:2] == ["hole-enter", "hole-exit"]
    assert res.status.tolist() == [codes.DITCH]
    assert res.positions[0, 1] > P.surface_radius


@pytest.mark.parametrize("offset", [0.0, 0.004])
def test_capture_threshold_follows_the_chord(offset: float) -> None:
    chord = 2 * math.sqrt(RHO * RHO - offset * offset)
    vc = _critical_entry_speed(chord)
    # board.md's estimate L sqrt(g / 2 h_c) ignores the deceleration across the chord.
    assert vc == pytest.approx(P.capture_speed(chord), rel=0.02)
    below = one([[offset, Y0]], [[0.0, _v0_for_entry_speed(vc * 0.999, offset)]])
    assert below.status[0] == codes.CAPTURED
    just_above = one([[offset, Y0]], [[0.0, _v0_for_entry_speed(vc * 1.001, offset)]])
    assert just_above.status[0] == codes.LEANER
    above = one([[offset, Y0]], [[0.0, _v0_for_entry_speed(vc * 1.2, offset)]])
    assert above.status[0] not in (codes.CAPTURED, codes.LEANER)
    assert "hole-exit" in kinds(above)


def test_leaner_rests_tilted_on_the_far_rim() -> None:
    vc = _critical_entry_speed(2 * RHO)
    res = one([[0.0, Y0]], [[0.0, _v0_for_entry_speed(vc * 1.02)]])
    assert res.status_names == ["leaner"]
    assert kinds(res)[-1] == "leaner"
    assert res.positions[0, 1] == pytest.approx(RHO, rel=1e-9)  # centre on the zone's far edge
    assert np.all(res.velocities == 0.0)
    # Leaner band: the leading edge fell at least leaner_fraction of h_c, not all of it.
    enter = first(res, "hole-enter")
    fall = 0.5 * P.g * (res.events[-1].t - enter.t) ** 2
    assert P.leaner_fraction * P.hole_capture_depth <= fall < P.hole_capture_depth


def test_disc_stopping_inside_the_zone_drops_in() -> None:
    # Stops 0.1 mm inside the zone, sooner than t_drop after entering: dropped in at rest.
    y_stop = -(RHO - 1e-4)
    res = one([[0.0, Y0]], [[0.0, math.sqrt(2 * A * (y_stop - Y0))]])
    assert kinds(res) == ["hole-enter", "hole"]
    assert res.status[0] == codes.CAPTURED
    assert res.positions[0, 1] == pytest.approx(y_stop, abs=1e-12)
    assert res.events[1].t - res.events[0].t < T_DROP


def test_crawling_disc_drops_in_after_the_drop_time() -> None:
    # Would stop 3 mm short of the centre, but is unsupported for t_drop before that.
    res = one([[0.0, Y0]], [[0.0, math.sqrt(2 * A * (-Y0 - 0.003))]])
    assert kinds(res) == ["hole-enter", "hole"]
    assert res.events[1].t - res.events[0].t == pytest.approx(T_DROP)
    assert -RHO < res.positions[0, 1] < -0.003


def test_resting_disc_over_the_hole_falls_in_but_one_on_the_rim_stays() -> None:
    res = one([[0.007, 0.0], [0.0, -0.0075]])
    assert res.status.tolist() == [codes.CAPTURED, codes.SURFACE]
    assert kinds(res) == ["hole"]
    assert geometry.in_hole_zone(0.007, 0.0)


def test_captured_disc_is_no_obstacle() -> None:
    # Disc 0 drops in at t = 0.25 s; disc 1 arrives over the hole 0.1 s later, right where
    # disc 0 went down, and drops in too: no contact.
    res = one([[0.0, Y0], [-0.25, 0.0]], [[0.0, 1.0], [0.972, 0.0]])
    hole_t = first(res, "hole").t
    crossing = [e for e in res.events if e.kind == "hole-enter" and e.disc == 1]
    assert crossing and crossing[0].t > hole_t
    assert res.contacts == []
    assert res.status.tolist() == [codes.CAPTURED, codes.CAPTURED]
    # A disc placed over the hole falls in at once and is no obstacle either.
    res = one([[0.003, 0.0], [-0.25, 0.0]], [[0.0, 0.0], [3.0, 0.0]])
    assert res.events[0].kind == "hole" and res.events[0].t == 0.0
    assert res.contacts == []


def test_leaner_is_an_obstacle_and_can_be_knocked_out() -> None:
    status = np.array([codes.LEANER, codes.SURFACE], dtype=np.int8)
    res = one([[0.0, RHO], [0.0, -0.2]], [[0.0, 0.0], [0.0, 2.5]], status=status)
    assert res.contacts == [(0, 1)]
    assert res.moved[0]
    assert res.status[0] != codes.LEANER


def test_leaner_untouched_stays_a_leaner() -> None:
    status = np.array([codes.LEANER, codes.SURFACE], dtype=np.int8)
    res = one([[0.0, RHO], [0.2, -0.2]], [[0.0, 0.0], [0.0, 0.5]], status=status)
    assert res.status[0] == codes.LEANER
    assert res.positions[0].tolist() == [0.0, RHO]
