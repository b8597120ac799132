"""Parameters and board geometry against board.md's figures."""

from __future__ import annotations

import math

import numpy as np
import pytest

from simulation.physics import PhysicsParams, geometry
from simulation.physics import params as prm
from tests.simulation.physics.physics_support import P, R


def test_packed_array_carries_fields_and_derived_values() -> None:
    p = PhysicsParams(mu_board=0.2, e_disc=0.85)
    a = p.to_array()
    assert a.shape == (prm.N_PARAMS,)
    assert a.dtype == np.float64
    assert a[prm.P_MU_BOARD] == 0.2
    assert a[prm.P_E_DISC] == 0.85
    assert a[prm.P_DECEL] == pytest.approx(0.2 * 9.81)
    assert a[prm.P_TOUCH_R] == pytest.approx(0.3048 - 0.001 - 0.015875)
    assert a[prm.P_RAIL_CONTACT_R] == pytest.approx(0.3302 + 0.051 - 0.015875)
    assert a[prm.P_PAIR_CONTACT_R] == pytest.approx(2 * 0.015875)
    assert a[prm.P_PEG_CONTACT_R] == pytest.approx(0.015875 + 0.0048)


def test_defaults_are_board_md_values() -> None:
    assert (P.mu_board, P.e_disc, P.mu_disc, P.e_peg, P.mu_peg) == (0.15, 0.9, 0.1, 0.7, 0.2)
    assert (P.hole_capture_depth, P.g, P.disc_radius, P.disc_mass) == (
        0.001,
        9.81,
        0.015875,
        0.0055,
    )
    assert (P.peg_radius, P.line_width, P.surface_radius) == (0.0048, 0.002, 0.3302)
    assert P.ditch_width >= 0.051


def test_hole_support_radius_and_dead_centre_capture_speed() -> None:
    # board.md: rho = sqrt(R_hole^2 - r^2) ~ 7.3 mm; capture about 1 m/s dead centre.
    assert P.hole_support_radius == pytest.approx(math.sqrt(0.017463**2 - 0.015875**2))
    assert 0.0072 < P.hole_support_radius < 0.0074
    v = P.capture_speed(2 * P.hole_support_radius)
    assert v == pytest.approx(2 * P.hole_support_radius * math.sqrt(9.81 / 0.002))
    assert 0.9 < v < 1.1


@pytest.mark.parametrize(
    "field, value",
    [("e_disc", 1.5), ("mu_board", 0.0), ("hole_radius", 0.01), ("leaner_fraction", 0.0)],
)
def test_invalid_parameters_are_refused(field: str, value: float) -> None:
    with pytest.raises(ValueError, match=field.split("_")[0]):
        PhysicsParams(**{field: value})


def test_pegs_on_the_fifteen_line_offset_from_every_centre_line() -> None:
    pegs = geometry.peg_positions()
    assert pegs.shape == (8, 2)
    assert np.allclose(np.hypot(pegs[:, 0], pegs[:, 1]), 0.1016)
    angles = np.sort(np.degrees(np.arctan2(pegs[:, 1], pegs[:, 0])) % 360.0)
    assert np.allclose(angles, 22.5 + 45.0 * np.arange(8))
    # Exactly symmetric under the board's mirror images and quarter turns.
    as_set = {tuple(p) for p in pegs.tolist()}
    assert {(-x, y) for x, y in as_set} == as_set
    assert {(x, -y) for x, y in as_set} == as_set
    assert {(-y, x) for x, y in as_set} == as_set
    # The gap between two neighbouring pegs is a little over two disc diameters (board.md).
    gap = np.hypot(*(pegs[0] - pegs[1])) - 2 * P.peg_radius
    assert 0.066 < gap < 0.070
    assert gap > 4 * R


def test_score_regions_respect_line_width() -> None:
    half = P.line_width / 2
    eps = 1e-9
    cases = [
        (P.peg_circle_radius - half - R - eps, 15),
        (P.peg_circle_radius - half - R + eps, 10),
        (P.ten_five_radius - half - R - eps, 10),
        (P.ten_five_radius - half - R + eps, 5),
        (P.shooting_line_radius - half - R - eps, 5),
        (P.shooting_line_radius - half - R + eps, 0),
    ]
    for d, expected in cases:
        assert geometry.score_region(0.0, -d) == expected, d
    assert geometry.touched_regions(0.0, -(P.peg_circle_radius)) == frozenset({15, 10})
    assert geometry.wholly_inside_fifteen(0.05, 0.0)
    assert not geometry.wholly_inside_fifteen(0.0, 0.09)


def test_touching_the_shooting_line_matches_the_engine_threshold() -> None:
    t = P.touch_radius
    assert geometry.touches_shooting_line(t, 0.0)
    assert not geometry.touches_shooting_line(t - 1e-9, 0.0)
    assert geometry.score_region(t, 0.0) == 0


def test_quadrants_and_shooting_positions() -> None:
    assert geometry.quadrant_of(0.0, -0.3) == 0
    assert geometry.quadrant_of(-0.3, 0.0) == 1
    assert geometry.quadrant_of(0.0, 0.3) == 2
    assert geometry.quadrant_of(0.3, 0.0) == 3
    x, y = geometry.shooting_position(0, 0.0)
    assert (x, y) == pytest.approx((0.0, -0.3048))
    x, y = geometry.shooting_position(0, 30.0)
    assert geometry.angle_from_centre_line(x, y, 0) == pytest.approx(30.0)
    assert x > 0.0  # counterclockwise from south is towards east


def test_hole_zone_and_ditch_position() -> None:
    assert geometry.in_hole_zone(0.007, 0.0)
    assert not geometry.in_hole_zone(0.0075, 0.0)
    x, y = geometry.ditch_position(90.0)
    assert P.surface_radius < math.hypot(x, y) < P.rail_radius
    assert geometry.overlapping_pairs([[0, 0], [0.03, 0], [0.2, 0]]) == [(0, 1)]
    assert geometry.radii()["rail"] == pytest.approx(0.3812)
