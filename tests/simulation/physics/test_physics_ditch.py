"""The edge, the ditch and the rail (NCA 8c-8f: the spinning disc and damage-stays rules)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from simulation.physics import PhysicsParams, codes, simulate
from tests.simulation.physics.physics_support import P, R, first, kinds, one

OUT = (0.0, -0.25)  # a disc sent straight out towards seat 0's rail


def test_slow_disc_falls_into_the_ditch() -> None:
    res = one([OUT], [[0.0, -1.0]])
    assert kinds(res) == ["line", "edge", "ditch"]
    assert res.status_names == ["ditch"]
    assert res.left_surface[0] and res.touched_line[0]
    assert not res.returned_from_ditch[0] and not res.struck_rail_or_ditch_disc[0]
    edge, ditch = res.events[1], res.events[2]
    assert ditch.t - edge.t == pytest.approx(P.fall_time)
    assert P.surface_radius < abs(res.positions[0, 1]) < P.rail_radius - R
    assert res.left_surface_at[0] == pytest.approx(edge.t)
    assert math.isnan(res.returned_at[0])


def test_disc_reaching_the_rail_late_still_falls() -> None:
    res = one([OUT], [[0.0, -2.0]])
    assert kinds(res) == ["line", "edge", "rail", "ditch"]
    assert res.status_names == ["ditch"]
    assert res.struck_rail_or_ditch_disc[0] and res.struck_beyond_line[0]
    assert not res.returned_from_ditch[0]


def test_fast_disc_bounces_off_the_rail_back_onto_the_surface() -> None:
    res = one([OUT], [[0.0, -3.2]])
    assert kinds(res)[:4] == ["line", "edge", "rail", "return"]
    ret = first(res, "return")
    assert ret.status[0] == codes.SURFACE
    assert ret.velocities[0, 1] > 0.0  # coming back in
    rail = first(res, "rail")
    before_y = -3.2  # outward speed at the rail is lower than at release, but not by much
    assert -rail.velocities[0, 1] / before_y == pytest.approx(P.e_rail, rel=0.05)
    assert res.returned_from_ditch[0] and res.left_surface[0]
    assert res.struck_rail_or_ditch_disc[0] and res.struck_beyond_line[0]
    assert res.returned_at[0] == pytest.approx(ret.t)


def test_returning_disc_disturbs_the_board_and_stays_on_it() -> None:
    """The case the damage-stays rule (NCA 8f) is written for: the disc flies back, strikes a
    disc in play and comes to rest on the surface."""
    a = math.radians(20.0)
    vel = [3.2 * math.sin(a), -3.2 * math.cos(a)]
    ret = first(one([OUT], [vel]), "return")
    v = ret.velocities[0] / np.hypot(*ret.velocities[0])
    target = ret.positions[0] + 0.08 * v
    res = one([OUT, target], [vel, [0.0, 0.0]])
    assert kinds(res)[:4] == ["line", "edge", "rail", "return"]
    assert res.contacts == [(0, 1)]
    assert res.contact_log[0][0] > res.returned_at[0]
    assert res.status_names[0] == "surface"
    assert res.returned_from_ditch[0] and res.struck_rail_or_ditch_disc[0]
    assert res.moved_by[1] == 0


def test_discs_lying_in_the_ditch_are_struck_by_a_flying_disc_only() -> None:
    ditch_disc = [0.0, -(P.surface_radius + 0.02)]
    status = np.array([codes.SURFACE, codes.DITCH], dtype=np.int8)
    res = one([OUT, ditch_disc], [[0.0, -2.0], [0.0, 0.0]], status=status)
    hit = first(res, "ditch-disc")
    assert hit.disc == 0 and hit.other == 1
    assert hit.velocities[0, 1] > 0.0  # bounced back off it
    assert res.struck_rail_or_ditch_disc[0]
    assert res.status[1] == codes.DITCH
    assert res.positions[1].tolist() == ditch_disc  # it does not move
    assert res.contacts == []  # not a contact between discs in play
    # A disc sliding on the surface passes over discs lying in the ditch.
    res = one([[-0.1, -0.31], ditch_disc], [[0.5, 0.0], [0.0, 0.0]], status=status)
    assert "ditch-disc" not in kinds(res)


def test_disc_fallen_in_during_the_shot_is_an_obstacle_for_the_next() -> None:
    # Disc 0 falls in first; disc 1 follows on the same line a little later.
    res = one([OUT, [0.0, -0.2]], [[0.0, -1.0], [0.0, -1.9]])
    ev = [(e.kind, e.disc) for e in res.events]
    assert ("ditch", 0) in ev
    assert ("ditch-disc", 1) in ev
    assert ev.index(("ditch", 0)) < ev.index(("ditch-disc", 1))


def test_spinning_disc_rule_flags() -> None:
    # A disc that crosses the line outward and strikes a disc beyond it.
    res = one([[0.0, 0.25], [0.0, 0.33]], [[0.0, 1.0], [0.0, 0.0]])
    assert res.touched_line[0] and res.struck_beyond_line[0]
    # The shot disc starts on the line: striking a disc at once is no spinning-disc case.
    res = one([[0.0, -0.3048], [0.0, -0.27]], [[0.0, 1.0], [0.0, 0.0]])
    assert res.contacts == [(0, 1)]
    assert not res.struck_beyond_line[0]
    assert kinds(res)[0] == "disc-disc"
    # It keeps 5 % of its speed and comes to rest still on the line: that alone sets the flag.
    assert np.hypot(*res.positions[0]) >= P.touch_radius
    assert res.touched_line[0]
    # Shot hard past a disc, it leaves the line behind: the flag stays clear.
    res = one([[0.0, -0.3048], [0.0, -0.2]], [[0.0, 0.8], [0.0, 0.0]])
    assert kinds(res)[0] == "line-in"
    assert not res.touched_line[0] and not res.touched_line[1]


def test_ditch_and_rail_parameters_are_honoured() -> None:
    # With a deep drop allowance even a slower disc makes it back.
    p = PhysicsParams(ditch_drop=0.02)
    res = simulate(np.array([OUT]), np.array([[0.0, -2.0]]), params=p)
    assert res.returned_from_ditch[0]
    narrow = PhysicsParams(ditch_width=0.06)
    res = simulate(np.array([OUT]), np.array([[0.0, -1.5]]), params=narrow)
    rail = first(res, "rail")
    assert abs(rail.positions[0, 1]) == pytest.approx(P.surface_radius + 0.06 - R)
