"""The event-driven engine: root finding, ordering, determinism, symmetry, batch, replay."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulation.physics import PhysicsParams, codes, simulate, simulate_batch
from simulation.physics.events.pair import first_contact
from tests.simulation.physics.physics_support import D, P, R, first, kinds, one


def random_board(seed: int, n: int = 8) -> tuple[np.ndarray, np.ndarray]:
    """Discs at rest inside the shooting line, none overlapping, plus a shot from seat 0."""
    rng = np.random.default_rng(seed)
    placed: list[np.ndarray] = []
    while len(placed) < n:
        d = 0.27 * math.sqrt(rng.uniform())
        a = rng.uniform(0, 2 * math.pi)
        p = np.array([d * math.cos(a), d * math.sin(a)])
        if d < 0.02 or abs(d - P.peg_circle_radius) < R + P.peg_radius:
            continue
        if all(np.hypot(*(p - q)) > D for q in placed):
            placed.append(p)
    a = math.radians(rng.uniform(-120, -60))
    shot = np.array([0.3048 * math.cos(a), 0.3048 * math.sin(a)])
    while any(np.hypot(*(shot - q)) <= D for q in placed):
        a += 0.05
        shot = np.array([0.3048 * math.cos(a), 0.3048 * math.sin(a)])
    aim = math.atan2(-shot[1], -shot[0]) + rng.uniform(-0.3, 0.3)
    v = rng.uniform(1.0, 4.0)
    pos = np.vstack([placed, shot])
    vel = np.zeros_like(pos)
    vel[-1] = (v * math.cos(aim), v * math.sin(aim))
    return pos, vel


# Root finding ------------------------------------------------------------------------------


@pytest.mark.parametrize("delta, hits", [(-1e-9, True), (1e-9, False)])
def test_grazing_a_resting_disc(delta: float, hits: bool) -> None:
    res = one([[-0.25, -0.2], [0.0, -0.2 + D + delta]], [[1.0, 0.0], [0.0, 0.0]])
    assert (res.contacts == [(0, 1)]) is hits
    assert ("disc-disc" in kinds(res)) is hits


@pytest.mark.parametrize("delta, hits", [(-1e-9, True), (1e-9, False)])
def test_grazing_two_moving_discs(delta: float, hits: bool) -> None:
    """Mirror-image discs passing each other: the closest approach of the centres is exactly
    the offset between their lines (a double root of the quartic)."""
    h = D + delta
    res = one([[-0.1, 0.2 - h / 2], [0.1, 0.2 + h / 2]], [[1.0, 0.0], [-1.0, 0.0]])
    assert (res.contacts == [(0, 1)]) is hits
    if hits:
        hit = first(res, "disc-disc")
        assert hit.positions[0, 0] == pytest.approx(-hit.positions[1, 0], abs=1e-12)
        assert np.hypot(*(hit.positions[0] - hit.positions[1])) == pytest.approx(D, abs=1e-12)


@pytest.mark.parametrize("delta, hits", [(-1e-9, True), (1e-9, False)])
def test_grazing_moving_discs_at_different_speeds(delta: float, hits: bool) -> None:
    """Discs sliding towards each other on parallel lines h apart at 1.0 and 1.7 m/s, placed so
    that they are level at t* = 0.05 s: the relative distance is a genuine quartic in t whose
    minimum, h, falls at t*."""
    h = D + delta
    t_star, v0, v1 = 0.05, 1.0, 1.7
    s0 = v0 * t_star - P.decel * t_star**2 / 2
    s1 = v1 * t_star - P.decel * t_star**2 / 2
    xc, yc = 0.03, 0.2
    pos = [[xc - s0, yc - h / 2], [xc + s1, yc + h / 2]]
    res = one(pos, [[v0, 0.0], [-v1, 0.0]])
    assert (res.contacts == [(0, 1)]) is hits
    if hits:
        assert first(res, "disc-disc").t == pytest.approx(t_star, abs=1e-4)


def test_touching_and_separating_is_no_event() -> None:
    pos = [[0.0, -0.2], [D, -0.2]]
    assert "disc-disc" not in kinds(one(pos, [[-1.0, 0.0], [0.0, 0.0]]))  # moving apart
    assert "disc-disc" not in kinds(one(pos, [[0.0, 1.0], [0.0, 0.0]]))  # sliding past
    res = one(pos, [[1.0, 0.0], [0.0, 0.0]])  # pushing: at once
    assert res.events[0].kind == "disc-disc" and res.events[0].t == 0.0


@given(
    px=st.floats(-0.3, 0.3),
    py=st.floats(-0.3, 0.3),
    vx=st.floats(-4, 4),
    vy=st.floats(-4, 4),
    ax=st.floats(-3, 3),
    ay=st.floats(-3, 3),
    horizon=st.floats(0.01, 3.0),
)
@settings(max_examples=400, deadline=None)
def test_quartic_first_root_is_neither_missed_nor_spurious(px, py, vx, vy, ax, ay, horizon):
    def dist(t):
        return np.hypot(px + vx * t + 0.5 * ax * t * t, py + vy * t + 0.5 * ay * t * t)

    t = first_contact(px, py, vx, vy, ax, ay, D, horizon)
    grid = np.linspace(0.0, horizon, 20001)
    d = dist(grid)
    if dist(0.0) <= D:
        return  # overlapping start: covered by the touching tests
    inside = np.nonzero(d < D - 1e-7)[0]
    if inside.size:  # a clear contact exists: found, and not later than the sampled one
        assert t <= grid[inside[0]] + 1e-12
    if math.isfinite(t):
        assert 0.0 <= t <= horizon
        assert dist(t) == pytest.approx(D, abs=1e-12)  # a real contact, not a spurious root
        before = grid[grid < t * (1 - 1e-9)]
        assert np.all(dist(before) > D - 1e-9)  # and the first one
    else:
        assert not inside.size


# Ordering, cap, determinism -----------------------------------------------------------------


def test_simultaneous_events_follow_the_fixed_order() -> None:
    # Two mirror-image strikers reach the same target at the same instant.
    pos = [[-0.1, 0.2], [0.1, 0.2], [0.0, 0.2]]
    vel = [[1.0, 0.0], [-1.0, 0.0], [0.0, 0.0]]
    res = one(pos, vel)
    dd = [e for e in res.events if e.kind == "disc-disc"]
    assert dd[0].t == dd[1].t
    assert [(e.disc, e.other) for e in dd[:2]] == [(0, 2), (1, 2)]
    again = one(pos, vel)
    assert [(e.t, e.code, e.disc, e.other) for e in again.events] == [
        (e.t, e.code, e.disc, e.other) for e in res.events
    ]


def test_event_cap_is_reported() -> None:
    pos, vel = max((random_board(s) for s in range(12)), key=lambda b: simulate(*b).n_events)
    full = simulate(pos, vel)
    assert not full.hit_event_cap and full.n_events > 3
    cut = simulate(pos, vel, max_events=3)
    assert cut.hit_event_cap
    assert cut.n_events == 3 and len(cut.events) == 3
    assert [e.t for e in cut.events] == [e.t for e in full.events[:3]]
    batch = simulate_batch(
        pos, np.zeros(len(pos), bool) | True, len(pos) - 1, pos[-1:], vel[-1:], max_events=3
    )
    assert batch.hit_event_cap[0]


@pytest.mark.parametrize("seed", range(6))
def test_same_input_same_result(seed: int) -> None:
    pos, vel = random_board(seed)
    a = simulate(pos, vel)
    b = simulate(pos.copy(), vel.copy())
    assert np.array_equal(a.positions, b.positions)
    assert np.array_equal(a.flags, b.flags)
    assert a.contacts == b.contacts
    assert [(e.t, e.code) for e in a.events] == [(e.t, e.code) for e in b.events]
    assert all(
        np.array_equal(x.positions, y.positions) for x, y in zip(a.events, b.events, strict=True)
    )


@pytest.mark.parametrize("seed", range(8))
def test_mirror_image_shot_gives_mirror_image_outcome(seed: int) -> None:
    pos, vel = random_board(seed)
    flip = np.array([-1.0, 1.0])
    a = simulate(pos, vel)
    b = simulate(pos * flip, vel * flip)
    assert np.allclose(b.positions, a.positions * flip, atol=1e-9)
    assert np.array_equal(a.status, b.status)
    assert np.array_equal(a.flags, b.flags)
    assert a.contacts == b.contacts
    assert kinds(a) == kinds(b)
    assert np.allclose([e.t for e in a.events], [e.t for e in b.events], rtol=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_quarter_turn_gives_turned_outcome(seed: int) -> None:
    pos, vel = random_board(seed)
    turn = np.array([[0.0, 1.0], [-1.0, 0.0]])  # (x, y) -> (-y, x), exact in floating point
    a = simulate(pos, vel)
    b = simulate(pos @ turn, vel @ turn)
    assert np.allclose(b.positions, a.positions @ turn, atol=1e-9)
    assert np.array_equal(a.status, b.status)


# Batch, replay, interface -------------------------------------------------------------------


def test_batch_matches_single_shots_exactly() -> None:
    boards = [random_board(s) for s in range(30)]
    pos = np.stack([b[0] for b in boards])
    n = pos.shape[1]
    shot_pos = pos[:, -1].copy()
    shot_vel = np.stack([b[1][-1] for b in boards])
    spins = np.linspace(-50, 50, len(boards))
    status = np.zeros((len(boards), n), dtype=np.int8)
    status[:, -1] = codes.ABSENT  # the slot the shot disc goes into
    pos_in = pos.copy()
    pos_in[:, -1] = 9.9  # ignored
    batch = simulate_batch(pos_in, status, n - 1, shot_pos, shot_vel, spins)
    for k, (p, v) in enumerate(boards):
        single = simulate(p, v, spins=np.r_[np.zeros(n - 1), spins[k]], record_events=False)
        assert np.array_equal(batch.positions[k], single.positions)
        assert np.array_equal(batch.status[k], single.status)
        assert np.array_equal(batch.flags[k], single.flags)
        assert np.array_equal(batch.moved_by[k], single.moved_by)
        assert batch.n_events[k] == single.n_events
        touched = {
            (i, j)
            for i, j in zip(*np.nonzero(np.isfinite(batch.contacts[k])), strict=True)
            if i < j
        }
        assert touched == set(single.contacts)


def test_replay_reconstructs_every_event_state() -> None:
    """Moving each record on in closed form to the next event's time gives that event's state
    for every disc the event did not touch."""
    for seed in (5, 9):
        pos, vel = random_board(seed)
        res = simulate(pos, vel)
        assert len(res.events) > 3
        for prev, ev in zip(res.events[:-1], res.events[1:], strict=True):
            p, v, w = prev.state_at(ev.t)
            touched = {ev.disc, ev.other} if ev.kind == "disc-disc" else {ev.disc}
            for k in range(len(pos)):
                if k in touched or ev.status[k] != prev.status[k]:
                    continue
                assert np.allclose(p[k], ev.positions[k], atol=1e-12)
                assert np.allclose(v[k], ev.velocities[k], atol=1e-12)
                assert w[k] == pytest.approx(ev.spins[k], abs=1e-9)
        # The result's own helper picks the right record for any time.
        mid = 0.5 * (res.events[1].t + res.events[2].t)
        assert np.array_equal(res.state_at(mid)[0], res.events[1].state_at(mid)[0])
        p_end, _, _, s_end = res.state_at(res.t_end + 5.0)
        on = s_end == codes.SURFACE
        assert np.allclose(p_end[on], res.positions[on])


def test_events_carry_the_whole_board_and_serialise() -> None:
    pos, vel = random_board(1)
    res = simulate(pos, vel)
    times = [e.t for e in res.events]
    assert times == sorted(times)
    for e in res.events:
        assert e.positions.shape == pos.shape and e.velocities.shape == pos.shape
        assert e.spins.shape == (len(pos),) and e.kind in codes.EVENT_NAMES.values()
    d = res.events[0].to_dict()
    assert set(d) == {"t", "kind", "disc", "other", "positions", "velocities", "spins", "status"}
    assert len(d["positions"]) == len(pos)


def test_absent_discs_are_ignored() -> None:
    status = np.array([codes.SURFACE, codes.ABSENT], dtype=np.int8)
    res = one([[-0.25, -0.2], [0.0, -0.2]], [[1.0, 0.0], [0.0, 0.0]], status=status)
    assert res.contacts == []
    assert res.status[1] == codes.ABSENT
    alive = one([[-0.25, -0.2], [0.0, -0.2]], [[1.0, 0.0], [0.0, 0.0]], status=[True, False])
    assert alive.contacts == []


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="finite"):
        simulate(np.array([[np.nan, 0.0]]))
    with pytest.raises(ValueError, match="statuses"):
        simulate(np.zeros((2, 2)), status=[0])
    with pytest.raises(ValueError, match="status codes"):
        simulate(np.zeros((1, 2)), status=[7])
    with pytest.raises(ValueError, match="shooter_index"):
        simulate_batch(np.zeros((1, 2, 2)), np.zeros((1, 2)), 5, [[0, -0.3]], [[0, 1]])


def test_parameters_change_the_outcome() -> None:
    pos = np.array([[0.1, -0.2], [0.2, -0.2]])
    vel = np.array([[1.0, 0.0], [0.0, 0.0]])
    soft = simulate(pos, vel, params=PhysicsParams(e_disc=0.8))
    hard = simulate(pos, vel, params=PhysicsParams(e_disc=0.95))
    assert hard.positions[1, 0] > soft.positions[1, 0]
    assert hard.positions[0, 0] < soft.positions[0, 0]


@pytest.mark.parametrize(
    ("status", "words"),
    [
        ([0, 7], "status codes must be among"),
        ([0, -1], "status codes must be among"),
        ([0, 5], "status codes must be among"),  # airborne: never a state to start from
        ([0.0, 1.5], "status codes must be integers"),
    ],
)
def test_a_bad_status_code_is_refused_by_name(status, words):
    from simulation.physics import simulate_batch

    with pytest.raises(ValueError, match=words):
        simulate_batch([[0.0, 0.0], [0.1, 0.0]], status, 1, [[0.0, -0.3]], [[0.0, 1.0]])


def test_status_codes_and_booleans_are_read_alike():
    from simulation.physics import codes, simulate_batch

    shot = ([[0.0, -0.3]], [[0.0, 1.0]])
    by_code = simulate_batch([[0.05, 0.05], [0.0, 0.0]], [codes.SURFACE, codes.ABSENT], 1, *shot)
    by_bool = simulate_batch([[0.05, 0.05], [0.0, 0.0]], [True, False], 1, *shot)
    floats = simulate_batch([[0.05, 0.05], [0.0, 0.0]], [0.0, 4.0], 1, *shot)
    assert (by_code.positions == by_bool.positions).all()
    assert (by_code.positions == floats.positions).all()
