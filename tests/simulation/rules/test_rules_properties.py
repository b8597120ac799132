"""Properties that hold for every input, checked with generated cases."""

import itertools
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from simulation.rules.geometry import DEFAULT_GEOMETRY as G
from simulation.rules.placement import place_shot, position_limit, radius_range
from simulation.rules.regions import region_value
from simulation.rules.seats import DOUBLES, SINGLES, seat_angle, turn_order
from simulation.rules.variants import get_rules

NCA = get_rules("nca")
LOW, HIGH = radius_range(G)


@given(st.floats(0.0, 0.4), st.floats(0.0, 0.4))
def test_region_value_never_rises_going_outwards(a, b):
    """NCA 6b: the further out, the lower (or equal) the lowest region a disc touches."""
    near, far = sorted((a, b))
    assert region_value(near, G) >= region_value(far, G)
    assert region_value(near, G) in (15, 10, 5, 0)


@given(
    st.sampled_from([0, 1, 2, 3]),
    st.floats(-1.0, 1.0),
    st.floats(0.0, 1.0),
    st.floats(-90.0, 90.0),
    st.floats(0.0, 5.0),
)
def test_every_legal_start_touches_the_shooting_line_and_the_quadrant(
    seat, where, depth, angle, speed
):
    """NCA 7d: a legal start touches the shooting line and at least touches the quadrant."""
    radius = LOW + depth * (HIGH - LOW)
    position = where * position_limit(radius, NCA, G)
    p = place_shot(seat, position, angle, speed, NCA, radius=radius)
    distance = math.hypot(p.x, p.y)
    assert distance + G.disc_radius >= G.shooting_line_radius - G.half_line - 1e-9
    assert distance - G.disc_radius <= G.shooting_line_radius + G.half_line + 1e-9
    off_centre = math.radians(abs(position)) - math.radians(45.0)
    past_line = distance * math.sin(off_centre) if off_centre > 0 else 0.0
    assert past_line <= G.disc_radius + G.half_line + 1e-9
    assert math.hypot(p.vx, p.vy) == pytest.approx(speed)
    if speed < 1e-6:  # no heading to speak of
        return
    heading = math.degrees(math.atan2(p.vy, p.vx))
    expected = seat_angle(seat) + 180.0 + angle
    assert math.remainder(heading - expected, 360.0) == pytest.approx(0, abs=1e-6)


@given(st.sampled_from([SINGLES, DOUBLES]), st.integers(1, 12), st.data())
def test_turn_order_gives_every_player_the_same_number_of_shots(seats, discs, data):
    """NCA 2a(i): each player in turn, clockwise; everyone shoots all their discs once."""
    first = data.draw(st.sampled_from(sorted(seats)))
    order = turn_order(seats, first, discs)
    assert order[0] == first
    assert all(order.count(seat) == discs for seat in seats)
    assert all(seats[a] != seats[b] for a, b in itertools.pairwise(order))
