"""The compiled search against the numpy one it replaced (``simulation.players.reference``): the
same candidates, the same values, the same decisions (the early stop aside), on seeded boards."""

from dataclasses import replace

import numpy as np
import pytest

from simulation import game as game_module
from simulation.physics import codes
from simulation.players import player as player_module
from simulation.players import reference
from simulation.players.candidate_kernel import generate as generate_compiled
from simulation.players.candidates import Breadth, generate
from simulation.players.evaluate import DEFAULT_WEIGHTS, Weights, evaluation_arrays
from simulation.players.profiles import PROFILES
from simulation.players.search import (
    BASIC_BREADTH,
    DEFAULT_BUDGET,
    FIGURES,
    _physics,
    budget_for,
    choose,
    schedule,
)
from simulation.players.search_kernel import _values, schedule_kernel
from simulation.players.situation import Situation, situation_from_state
from simulation.rules.seats import seat_angle
from simulation.rules.variants import get_rules

WIDE = Breadth(targets=6, starts_per_target=3, pairs=6, bumped=4, hides=5, roll_spots=5)
BREADTHS = (Breadth(), BASIC_BREADTH, WIDE)


def random_board(rng: np.random.Generator, count: int) -> list[dict]:
    """``count`` discs that do not overlap, anywhere on the playing surface, a few leaners."""
    discs: list[dict] = []
    while len(discs) < count:
        radius = 0.3 * np.sqrt(rng.uniform())
        theta = rng.uniform(0.0, 2.0 * np.pi)
        x, y = radius * np.cos(theta), radius * np.sin(theta)
        if any(np.hypot(x - d["x"], y - d["y"]) < 2.0 * FIGURES.disc_r for d in discs):
            continue
        side = int(rng.integers(2))
        discs.append(
            {
                "id": f"{'ab'[side]}{len(discs)}",
                "side": side,
                "x": float(x),
                "y": float(y),
                "leaner": bool(rng.uniform() < 0.05),
            }
        )
    return discs


def random_situation(seed: int) -> Situation:
    """A seeded board and turn: singles or doubles seating, any seat to shoot, 0 to 10 discs."""
    rng = np.random.default_rng(seed)
    doubles = seed % 3 == 0
    seats = {"0": 0, "1": 1, "2": 0, "3": 1} if doubles else {"0": 0, "2": 1}
    seat = int(rng.choice([int(s) for s in seats]))
    order = [int(s) for s in rng.choice(list(seats), size=int(rng.integers(0, 8)))]
    state = {"discs": random_board(rng, int(rng.integers(0, 11))), "seats": seats}
    rules = get_rules(("nca", "wcc", "family")[seed % 3])
    twenties = (int(rng.integers(3)), int(rng.integers(3)))
    return situation_from_state(state, seat, order, twenties, rules)


SITUATIONS = [random_situation(seed) for seed in range(120)]


@pytest.mark.parametrize("breadth", BREADTHS, ids=["default", "basic", "wide"])
def test_compiled_candidates_are_the_numpy_candidates(breadth):
    kinds = set()
    for sit in SITUATIONS:
        expected = generate(sit, breadth)
        got = generate_compiled(sit, breadth)
        assert got.kind.tolist() == expected.kind.tolist()
        assert got.target.tolist() == expected.target.tolist()
        assert got.position.tolist() == expected.position.tolist()
        np.testing.assert_allclose(got.angle, expected.angle, rtol=0, atol=1e-9)
        np.testing.assert_allclose(got.speed, expected.speed, rtol=0, atol=1e-12)
        kinds.update(expected.kind.tolist())
    # The boards exercise (nearly) every kind of shot in the repertoire.
    assert len(kinds) >= (4 if breadth == BASIC_BREADTH else 6)


def test_compiled_values_are_the_numpy_values():
    for k, sit in enumerate(SITUATIONS[:60]):
        profile = PROFILES[("novice", "competitive", "best")[k % 3]]
        weights = replace(DEFAULT_WEIGHTS, open_board=profile.open_board)
        cands = generate(sit)
        z = np.random.default_rng(k).standard_normal((3, 2)) * 2.0
        expected = reference.Simulator(sit, profile, weights).values(cands, z)
        n = sit.n_discs
        state_pos = np.zeros((n + 1, 2))
        state_pos[:n] = sit.positions
        state_status = np.full(n + 1, codes.SURFACE, dtype=np.int8)
        state_status[:n][sit.leaners] = codes.LEANER
        sides = np.append(sit.sides, sit.side).astype(np.int64)
        evaluation = (sides, sit.side, sit.opponents_in_play, *evaluation_arrays(sit, weights))
        got = _values(
            np.arange(len(cands)),
            3,
            z,
            cands.position,
            cands.angle,
            cands.speed,
            state_pos,
            state_status,
            seat_angle(sit.seat),
            (profile.angle_sd, profile.speed_sd, FIGURES.shooting_r),
            _physics(reference.DEFAULT_PARAMS),
            evaluation,
        )
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-9)


@pytest.mark.parametrize("level", ["novice", "competitive", "best"])
def test_without_the_early_stop_the_decisions_are_the_reference_decisions(level):
    profile = PROFILES[level]
    budget = replace(budget_for(profile), stop_z=0.0)
    weights = Weights(open_board=profile.open_board)
    for k, sit in enumerate(SITUATIONS[:50]):
        fast_rng, old_rng = np.random.default_rng(k), np.random.default_rng(k)
        fast = choose(sit, profile, fast_rng, budget, weights)
        old = reference.choose(sit, profile, old_rng, budget, weights)
        assert (fast.kind, fast.target, fast.position) == (old.kind, old.target, old.position)
        assert (fast.samples, fast.shots_simulated, fast.candidates) == (
            old.samples,
            old.shots_simulated,
            old.candidates,
        )
        assert fast.angle == pytest.approx(old.angle, abs=1e-9)
        assert fast.speed == pytest.approx(old.speed, abs=1e-12)
        assert fast.value == pytest.approx(old.value, rel=1e-9, abs=1e-9)
        # Both drew the same numbers from the player's generator, no more.
        assert fast_rng.standard_normal() == old_rng.standard_normal()


def test_naive_baseline_is_the_reference_naive_baseline():
    profile = PROFILES["competitive"]
    for k, sit in enumerate(SITUATIONS[:20]):
        fast = choose(sit, profile, np.random.default_rng(k), DEFAULT_BUDGET, uniform=True)
        old = reference.choose(sit, profile, np.random.default_rng(k), DEFAULT_BUDGET, uniform=True)
        assert (fast.kind, fast.target, fast.shots_simulated) == (
            old.kind,
            old.target,
            old.shots_simulated,
        )
        assert fast.value == pytest.approx(old.value, rel=1e-9, abs=1e-9)


def test_a_seeded_game_is_played_alike_by_both_searches(monkeypatch):
    """Without the early stop a whole game, shot for shot, is the same with either search."""
    original = player_module.AIPlayer.of
    no_stop = replace(DEFAULT_BUDGET, stop_z=0.0)

    def compiled(spec, **options):
        return original(spec, budget=no_stop, **options)

    def numpy(spec, **options):
        return original(spec, budget=no_stop, reference=True, **options)

    games = []
    for make in (compiled, numpy):
        monkeypatch.setattr(player_module.AIPlayer, "of", make)
        games.append(game_module.play_game(["competitive", "novice"], seed=42))
    # Every shot the same, of the same kind, on the same board; the numbers to round-off (the
    # two searches' arithmetic differs in the last bits, and the physics carries it on).
    assert _alike(games[0]["rounds"], games[1]["rounds"])
    assert games[0]["points"] == games[1]["points"]
    assert games[0]["twenties"] == games[1]["twenties"]


def _alike(a, b) -> bool:
    """Equal, floats within a millionth."""
    if isinstance(a, float) and isinstance(b, float):
        return a == pytest.approx(b, rel=1e-6, abs=1e-9)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_alike(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_alike(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def test_early_stop_mostly_chooses_as_every_stage_does():
    profile = PROFILES["competitive"]
    budget = replace(budget_for(profile), stop_z=3.0, checks=2)
    same = 0
    spent = [0, 0]
    for k, sit in enumerate(SITUATIONS):
        full = choose(sit, profile, np.random.default_rng(k), replace(budget, stop_z=0.0))
        early = choose(sit, profile, np.random.default_rng(k), budget)
        chosen = (early.kind, early.target, early.position)
        same += chosen == (full.kind, full.target, full.position)
        assert early.shots_simulated <= full.shots_simulated
        spent[0] += full.shots_simulated
        spent[1] += early.shots_simulated
    assert same >= 0.95 * len(SITUATIONS)
    assert spent[1] < spent[0]


@pytest.mark.parametrize("eta", [2, 3, 4])
def test_compiled_schedule_is_the_schedule(eta):
    for n in range(1, 90):
        for total in (1, 7, 36, 40, 160, 240):
            assert schedule_kernel(n, total, eta).tolist() == schedule(n, total, eta)
