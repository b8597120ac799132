"""Where a shot may start (NCA 7d, WCC "Playing Guidelines", family rule 2)."""

import math

import pytest

from simulation.rules.geometry import BoardGeometry
from simulation.rules.placement import place_shot, position_limit, radius_range
from simulation.rules.state import Disc
from simulation.rules.variants import get_rules

NCA = get_rules("nca")
FAMILY = get_rules("family")
G = BoardGeometry()


def test_position_zero_starts_on_the_seat_centre_line():
    """Seat 0 (south) shoots towards +y from the bottom of the board."""
    p = place_shot(0, 0.0, 0.0, 1.5, NCA)
    assert p.x == pytest.approx(0.0, abs=1e-12)
    assert p.y == pytest.approx(-G.shooting_line_radius)
    assert (p.vx, p.vy) == (pytest.approx(0.0, abs=1e-12), pytest.approx(1.5))


def test_positive_position_and_angle_are_counterclockwise():
    """Design: position and angle are measured counterclockwise from the seat's centre line."""
    p = place_shot(0, 20.0, 10.0, 1.0, NCA)
    assert p.x > 0  # south seat, counterclockwise: towards the east
    assert p.vx < 0 and p.vy > 0  # heading rotated counterclockwise from +y
    q = place_shot(2, 20.0, 0.0, 1.0, NCA)  # north seat shoots towards -y
    assert q.x < 0 and q.y > 0
    assert q.vy == pytest.approx(-1.0)


def test_angle_is_parallel_to_the_centre_line_whatever_the_position():
    p = place_shot(1, -40.0, 0.0, 2.0, NCA)
    assert p.vx == pytest.approx(2.0)  # west seat shoots towards +x
    assert p.vy == pytest.approx(0.0, abs=1e-12)


def test_nca_lets_the_disc_overhang_while_it_touches_the_quadrant_line():
    """NCA 7d: touching both the outer boundary line and the quadrant dividing line is legal."""
    limit = position_limit(G.shooting_line_radius, NCA, G)
    expected = 45 + math.degrees(math.asin((G.disc_radius + G.half_line) / 0.3048))
    assert limit == pytest.approx(expected)
    place_shot(0, limit - 1e-6, 0.0, 1.0, NCA)
    place_shot(3, -limit + 1e-6, 0.0, 1.0, NCA)
    with pytest.raises(ValueError, match=r"off seat 0's \(south\) quadrant") as err:
        place_shot(0, limit + 0.01, 0.0, 1.0, NCA)
    assert f"{limit:.3f}" in str(err.value)


def test_family_allows_no_more_than_halfway_over():
    """Family rule 2: "A shot may be placed on the quadrant line itself, but no more than halfway
    over." — legal under NCA, refused under the family rules."""
    place_shot(0, 46.5, 0.0, 1.0, NCA)
    with pytest.raises(ValueError, match="halfway over"):
        place_shot(0, 46.5, 0.0, 1.0, FAMILY)
    place_shot(0, 45.0, 0.0, 1.0, FAMILY)


def test_radius_must_keep_the_disc_touching_the_shooting_line():
    """NCA 7d: the disc must be touching the outer boundary line."""
    low, high = radius_range(G)
    place_shot(0, 0.0, 0.0, 1.0, NCA, radius=low)
    place_shot(0, 0.0, 0.0, 1.0, NCA, radius=high)
    with pytest.raises(
        ValueError, match=r"does not keep the disc touching.*0\.287925 and 0\.321675"
    ):
        place_shot(0, 0.0, 0.0, 1.0, NCA, radius=low - 0.001)
    with pytest.raises(ValueError, match="touching the shooting line"):
        place_shot(0, 0.0, 0.0, 1.0, NCA, radius=high + 0.001)


def test_negative_speed_is_refused():
    with pytest.raises(ValueError, match=r"speed must be 0 m/s or more, not -0\.5"):
        place_shot(0, 0.0, 0.0, -0.5, NCA)


@pytest.mark.parametrize("seat", [4, -1, "0", None, True])
def test_unknown_seat_is_refused(seat):
    with pytest.raises(
        ValueError, match=r"seats are 0 \(south\), 1 \(west\), 2 \(north\), 3 \(east\)"
    ):
        place_shot(seat, 0.0, 0.0, 1.0, NCA)


@pytest.mark.parametrize("field", ["position", "angle", "speed"])
def test_non_numbers_are_refused(field):
    values = {"position": 0.0, "angle": 0.0, "speed": 1.0}
    values[field] = float("nan")
    with pytest.raises(ValueError, match=f"shot {field} must be a finite number"):
        place_shot(0, values["position"], values["angle"], values["speed"], NCA)


def test_a_shot_cannot_start_on_top_of_a_disc():
    low, _ = radius_range(G)
    near = Disc("b1", 1, 0.0, -(low - 0.02))
    with pytest.raises(ValueError, match="on top of disc 'b1'"):
        place_shot(0, 0.0, 0.0, 1.0, NCA, radius=low, discs=[near])
