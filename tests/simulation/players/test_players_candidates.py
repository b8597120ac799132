"""Candidate shots: take-outs of each opposing disc, the open 20 on an empty board, legal starts."""

import numpy as np
import pytest

from simulation.players.candidates import (
    BUMP_20,
    DOUBLE,
    HIDE,
    HIT_AND_ROLL,
    OPEN_20,
    OPEN_20_SPEED,
    TAKE_OUT,
    Breadth,
    generate,
    segment_margin,
)
from simulation.players.situation import FIGURES, situation_from_state
from simulation.rules.placement import place_shot
from simulation.rules.state import parse_state
from simulation.rules.variants import get_rules

NCA = get_rules("nca")


def situation(discs, seat=0, order=(2, 0, 2, 0, 2, 0, 2), twenties=(0, 0)):
    state = {"discs": discs, "seats": {"0": 0, "2": 1}}
    return state, situation_from_state(state, seat, list(order), twenties, NCA)


def assert_legal(state, cands, seat=0):
    board = parse_state(state)
    for k in range(len(cands)):
        place_shot(
            seat,
            float(cands.position[k]),
            float(cands.angle[k]),
            float(cands.speed[k]),
            NCA,
            discs=board.discs,
        )


def test_empty_board_gives_the_open_20_from_the_centre_line():
    state, sit = situation([])
    cands = generate(sit)
    open_20 = cands.kind == OPEN_20
    assert open_20.any()
    first = int(np.flatnonzero(open_20)[0])
    assert cands.position[first] == 0.0
    assert cands.angle[first] == 0.0
    assert cands.speed[first] == pytest.approx(OPEN_20_SPEED)
    assert not (cands.kind == TAKE_OUT).any()
    assert_legal(state, cands)


def test_take_outs_for_each_opposing_disc():
    discs = [
        {"id": "b1", "side": 1, "x": 0.05, "y": 0.02},
        {"id": "b2", "side": 1, "x": -0.15, "y": 0.12},
        {"id": "b3", "side": 1, "x": 0.02, "y": -0.19},
        {"id": "a1", "side": 0, "x": -0.06, "y": -0.05},
    ]
    state, sit = situation(discs)
    cands = generate(sit, Breadth(targets=4))
    targets = set(cands.target[cands.kind == TAKE_OUT].tolist())
    assert targets == {0, 1, 2}
    # No open 20 and no hiding while an opposing disc is in play: such a shot would be a foul.
    assert not np.isin(cands.kind, [OPEN_20, HIDE, BUMP_20]).any()
    assert_legal(state, cands)


def test_double_take_out_for_two_close_opposing_discs():
    discs = [
        {"id": "b1", "side": 1, "x": 0.0, "y": 0.12},
        {"id": "b2", "side": 1, "x": 0.0, "y": 0.19},
    ]
    state, sit = situation(discs)
    cands = generate(sit)
    assert (cands.kind == DOUBLE).any()
    assert_legal(state, cands)


def test_take_out_aims_at_the_target():
    """A full hit's nominal path, shot without noise, passes through the target's centre line."""
    discs = [{"id": "b1", "side": 1, "x": 0.03, "y": 0.06}]
    _, sit = situation(discs)
    cands = generate(sit)
    full = np.flatnonzero(cands.kind == TAKE_OUT)[0]
    theta = np.radians(-90.0 + cands.position[full])
    start = FIGURES.shooting_r * np.array([np.cos(theta), np.sin(theta)])
    heading = np.radians(-90.0 + 180.0 + cands.angle[full])
    direction = np.array([np.cos(heading), np.sin(heading)])
    offset = sit.positions[0] - start
    miss = abs(offset[0] * direction[1] - offset[1] * direction[0])
    assert miss < 1e-9


def test_bump_own_disc_and_hide_only_with_no_opposing_disc():
    discs = [{"id": "a1", "side": 0, "x": 0.0, "y": -0.06}]
    state, sit = situation(discs)
    cands = generate(sit)
    assert (cands.kind == BUMP_20).any()
    assert (cands.kind == HIDE).any()
    hide = np.flatnonzero(cands.kind == HIDE)
    assert_legal(state, cands)
    # A hide draw stops touching the 15 line: the no-hiding rule is still met.
    theta = np.radians(-90.0 + cands.position[hide])
    start = FIGURES.shooting_r * np.stack([np.cos(theta), np.sin(theta)], axis=-1)
    heading = np.radians(90.0 + cands.angle[hide])
    travel = cands.speed[hide] ** 2 / (2 * FIGURES.decel)
    stop = start + travel[:, None] * np.stack([np.cos(heading), np.sin(heading)], axis=-1)
    assert (np.hypot(stop[:, 0], stop[:, 1]) <= FIGURES.reach_15_r).all()


def test_hit_and_roll_candidates_when_a_peg_can_hide_the_shooter():
    discs = [{"id": "b1", "side": 1, "x": 0.04, "y": 0.03}]
    state, sit = situation(discs)
    cands = generate(sit)
    assert (cands.kind == HIT_AND_ROLL).any()
    assert_legal(state, cands)


def test_start_positions_avoid_discs_on_the_line():
    # A disc of one's own just inside the shooting line, dead ahead of the seat.
    discs = [
        {"id": "a1", "side": 0, "x": 0.0, "y": -0.28},
        {"id": "b1", "side": 1, "x": 0.0, "y": 0.05},
    ]
    state, sit = situation(discs)
    cands = generate(sit)
    assert len(cands)
    assert_legal(state, cands)


def test_segment_margin_sees_an_obstacle():
    start = np.array([[0.0, -0.3]])
    end = np.array([[0.0, 0.0]])
    blocked = segment_margin(start, end, np.array([[0.01, -0.15]]), np.array([0.03]))
    clear = segment_margin(start, end, np.array([[0.05, -0.15]]), np.array([0.03]))
    assert blocked[0] < 0 < clear[0]
