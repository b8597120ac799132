"""The search: legal choices, take-outs that connect, budgets, and the evaluator agreeing with the
rules on what is valid."""

import numpy as np
import pytest

from simulation.api import simulate_shot
from simulation.physics import simulate_batch
from simulation.players.candidates import TAKE_OUT, generate, start_points
from simulation.players.evaluate import Evaluator
from simulation.players.noise import draws, perturb
from simulation.players.player import AIPlayer
from simulation.players.profiles import PROFILES
from simulation.players.search import Budget, choose
from simulation.players.situation import situation_from_state
from simulation.rules.state import parse_state
from simulation.rules.variants import get_rules

BOARD = [
    {"id": "b1", "side": 1, "x": 0.06, "y": 0.04},
    {"id": "a1", "side": 0, "x": -0.09, "y": -0.12},
]


def sit_for(discs, rules="nca", order=(2, 0, 2)):
    state = {"discs": discs, "seats": {"0": 0, "2": 1}}
    return state, situation_from_state(state, 0, list(order), (0, 0), get_rules(rules))


def test_top_player_hits_the_opposing_disc_most_of_the_time():
    state, sit = sit_for(BOARD)
    player = AIPlayer.of("top")
    hits = 0
    for seed in range(30):
        rng = np.random.default_rng(seed)
        choice = player.decide(sit, rng)
        shot = player.release(choice, 0, "a2", rng)
        outcome = simulate_shot(state, shot)  # raises on an illegal shot
        hits += outcome["valid"]
    assert hits >= 26


def test_chosen_shot_is_legal_and_no_foul_on_an_empty_board():
    state, sit = sit_for([])
    choice = choose(sit, PROFILES["best"], np.random.default_rng(3))
    shot = {"seat": 0, "position": choice.position, "angle": choice.angle, "speed": choice.speed}
    outcome = simulate_shot(state, shot)
    assert outcome["valid"]
    assert choice.shots_simulated <= Budget().empty_board_shots + 8


def test_halving_spends_the_budget_and_beats_nothing_worse_than_uniform():
    _, sit = sit_for(BOARD)
    budget = Budget(shots=120)
    halving = choose(sit, PROFILES["competitive"], np.random.default_rng(5), budget)
    uniform = choose(sit, PROFILES["competitive"], np.random.default_rng(5), budget, uniform=True)
    assert halving.shots_simulated <= 2 * budget.shots
    assert halving.samples > 1
    assert uniform.shots_simulated >= halving.shots_simulated
    assert halving.value >= uniform.value - 15.0


def test_last_shot_with_the_hammer_takes_out_the_only_opposing_disc():
    """On the last shot of the round, behind by one disc, the hammer must remove it."""
    discs = [{"id": "b1", "side": 1, "x": 0.0, "y": 0.07}]
    _, sit = sit_for(discs, order=())
    assert sit.my_left == 0 and sit.opp_left == 0  # nobody shoots after this shot
    choice = choose(sit, PROFILES["best"], np.random.default_rng(11))
    assert choice.kind == TAKE_OUT
    assert choice.value > 0


@pytest.mark.parametrize("rules", ["nca", "wcc", "family"])
def test_evaluator_rules_on_validity_and_20s_like_the_rules(rules):
    discs = [
        {"id": "b1", "side": 1, "x": 0.02, "y": 0.09},
        {"id": "b2", "side": 1, "x": -0.12, "y": 0.05},
        {"id": "a1", "side": 0, "x": 0.05, "y": -0.04},
    ]
    state, sit = sit_for(discs, rules)
    cands = generate(sit)
    cands = cands.take(np.arange(min(len(cands), 12)))
    z = draws(np.random.default_rng(2), 4) * 3.0  # wide misses too
    angle, speed = perturb(cands.angle[:, None], cands.speed[:, None], PROFILES["novice"], z)
    position = np.repeat(cands.position, z.shape[0])
    angle, speed = angle.ravel(), speed.ravel()
    heading = np.radians(-90.0 + 180.0 + angle)
    vel = np.stack([speed * np.cos(heading), speed * np.sin(heading)], axis=-1)
    pos = np.vstack([sit.positions, [[0.0, 0.0]]])
    batch = simulate_batch(pos, np.zeros(4, dtype=np.int8), 3, start_points(-90.0, position), vel)
    evaluation = Evaluator(sit)(batch)
    parse_state(state)
    agree = 0
    for k in range(len(angle)):
        shot = {
            "seat": 0,
            "position": float(position[k]),
            "angle": float(angle[k]),
            "speed": float(speed[k]),
            "id": "a2",
        }
        outcome = simulate_shot(state, shot, rules=rules)
        mine = sum(t["side"] == 0 for t in outcome["twenties"])
        agree += outcome["valid"] == bool(evaluation.valid[k]) and mine == evaluation.twenties[k]
    assert len(angle) >= 40
    assert not evaluation.valid.all()
    assert agree == len(angle)


def test_a_game_s_board_gives_the_situation_its_json_gives() -> None:
    """``play_game`` builds each situation from the board it holds: the same arrays, counts and
    rates as from the board's JSON."""
    discs = [*BOARD, {"id": "a2", "side": 0, "x": 0.0, "y": 0.0, "leaner": True}]
    state = {"discs": discs, "seats": {"0": 0, "1": 1, "2": 0, "3": 1}}
    rates = {0: 0.5, 1: 0.6, 2: 0.7, 3: 0.8}
    args = (1, [2, 3, 0, 1, 2], (1, 0), get_rules("nca"), rates)
    from_json = situation_from_state(state, *args)
    from_board = situation_from_state(parse_state(state), *args)
    for name in ("positions", "sides", "leaners"):
        assert np.array_equal(getattr(from_board, name), getattr(from_json, name))
        assert getattr(from_board, name).dtype == getattr(from_json, name).dtype
    same = ("seat", "side", "seats", "ids", "my_left", "opp_left", "my_seats_next")
    same += ("opp_seats_next", "twenties", "my_open_20", "opp_open_20")
    for name in same:
        assert getattr(from_board, name) == getattr(from_json, name), name
    assert from_board.leaners.tolist() == [False, False, True]
