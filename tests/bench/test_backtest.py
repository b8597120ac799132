"""The backtest's forecaster: what a player's record says of them, and the prediction read from
the simulation's grid over both players' beliefs (``bench/backtest.py``)."""

import importlib.util
import math
import sys
from pathlib import Path

import numpy as np
import pytest

from simulation.players.belief import belief

PATH = Path(__file__).resolve().parents[2] / "bench" / "backtest.py"
spec = importlib.util.spec_from_file_location("backtest", PATH)
backtest = importlib.util.module_from_spec(spec)
sys.modules.setdefault("backtest", backtest)  # its dataclasses look their module up
spec.loader.exec_module(backtest)

SPREAD = backtest.Spread(game=3.0, field=2.3, form=1.2)


def test_a_player_without_games_is_the_field_with_its_whole_spread():
    mean, sd = belief(0.0, 0, 6.0, SPREAD)
    assert mean == pytest.approx(6.0)
    assert sd == pytest.approx(math.hypot(SPREAD.field, SPREAD.form))


def test_games_pull_the_belief_to_the_player_and_leave_the_form_unknown():
    few = belief(9.0, 3, 6.0, SPREAD)
    many = belief(9.0, 300, 6.0, SPREAD)
    assert 6.0 < few[0] < many[0] < 9.0
    assert many[0] == pytest.approx(9.0, abs=0.05)
    assert SPREAD.form < many[1] < few[1]
    assert many[1] == pytest.approx(SPREAD.form, abs=0.05)


def _grid(steepness: float) -> dict[tuple[float, float], float]:
    """A symmetric grid: the better level wins the more often, the larger the gap."""
    return {
        (a, b): 1 / (1 + math.exp(-steepness * (a - b)))
        for a in backtest.LEVELS
        for b in backtest.LEVELS
    }


def test_uncertainty_makes_a_favourite_less_sure_and_sides_add_up():
    grid = _grid(1.0)
    sure = backtest.expected_score(grid, (7.0, 0.0), (5.0, 0.0))
    unsure = backtest.expected_score(grid, (7.0, 2.0), (5.0, 2.0))
    assert sure == pytest.approx(backtest.interpolate(grid, 7.0, 5.0))
    assert 0.5 < unsure < sure
    other_side = backtest.expected_score(grid, (5.0, 2.0), (7.0, 2.0))
    assert unsure + other_side == pytest.approx(1.0)


def test_the_spreads_are_measured_from_the_games():
    """On a record drawn with known spreads (each player's true average, their form at each
    event, each game's luck), ``spread_of`` finds them again."""
    rng = np.random.default_rng(11)
    truth = backtest.Spread(game=3.0, field=2.3, form=1.2)
    games, opponent = [], 0
    for player in range(80):
        average = 12.0 + truth.field * rng.standard_normal()
        for event in range(6):
            form = truth.form * rng.standard_normal()
            for _ in range(6):
                twenties = round(average + form + truth.game * rng.standard_normal())
                opponent += 1  # one game each: no spread of their own
                games.append(
                    backtest.RealGame(
                        f"2010-01-{event + 1:02}",
                        f"p{player}",
                        f"x{opponent}",
                        1.0,
                        (twenties, 0),
                        4,
                    )
                )
    found = backtest.spread_of(games)
    assert found.game == pytest.approx(truth.game, rel=0.1)
    assert found.field == pytest.approx(truth.field, rel=0.2)
    assert found.form == pytest.approx(truth.form, rel=0.3)


def test_the_table_noise_is_that_of_a_forecaster_who_is_right():
    """A forecaster whose chances are the true ones shows only the table's noise, which shrinks
    with the number of games; one too sure of the favourite shows a gap well beyond it."""
    rng = np.random.default_rng(3)
    true = rng.uniform(0.05, 0.95, 4000)
    few = backtest.perfect_forecaster_gaps(true[:300], tie_rate=0.25, draws=60)
    many = backtest.perfect_forecaster_gaps(true, tie_rate=0.25, draws=60)
    assert np.median(many) < np.median(few)
    assert np.median(many) < 3.0
    outcome = (rng.random(true.size) < true).astype(float)
    assert backtest.worst_gap(true, outcome) < 5.0
    too_sure = np.clip(0.5 + 1.6 * (true - 0.5), 0.01, 0.99)
    assert backtest.worst_gap(too_sure, outcome) > 8.0


def test_the_day_spread_is_chosen_on_earlier_games_only():
    """Walking forward, each game is predicted with the spread that scored best on the games
    before it (the first one during the warm-up), so no outcome reaches back into an earlier
    prediction; the whole record's choice is the lowest Brier over all of it."""
    rng = np.random.default_rng(5)
    truth = rng.uniform(0.2, 0.8, 400)
    observed = (rng.random(truth.size) < truth).astype(float)
    by_form = {
        1.2: np.clip(0.5 + 1.8 * (truth - 0.5), 0.01, 0.99),  # too sure of the favourite
        2.0: truth,
        3.0: np.full(truth.size, 0.5),  # knows nothing
    }
    fit = backtest.walk_forward(by_form, observed, first=1.2, warm_up=50)
    assert fit.chosen[:50] == [1.2] * 50
    assert fit.chosen[-1] == 2.0
    assert fit.whole_record == 2.0
    assert fit.predicted[-1] == by_form[2.0][-1]
    for i in (60, 200, 399):
        earlier = {f: np.mean((p[:i] - observed[:i]) ** 2) for f, p in by_form.items()}
        assert fit.chosen[i] == min(earlier, key=earlier.get)
    # The later outcomes turned upside down: the first 300 predictions do not move.
    flipped = observed.copy()
    flipped[300:] = 1.0 - flipped[300:]
    again = backtest.walk_forward(by_form, flipped, first=1.2, warm_up=50)
    assert again.predicted[:301] == fit.predicted[:301]
    assert again.chosen[:301] == fit.chosen[:301]


@pytest.mark.parametrize(
    ("points_a", "points_b", "result"),
    [
        ((2, 2, 2, 2), (0, 0, 0, 0), "8-0"),
        ((0, 0, 0, 1), (2, 2, 2, 1), "7-1"),
        ((2, 0, 2, 2), (0, 2, 0, 0), "6-2"),
        ((1, 2, 0, 2, 0), (1, 0, 2, 0, 2), "5-3"),  # an extra round does not count
        ((2, 0, 1, 1), (0, 2, 1, 1), "4-4"),
    ],
)
def test_a_game_result_is_read_from_its_first_four_rounds(points_a, points_b, result):
    assert backtest.RESULTS[backtest.result_index(points_a, points_b)] == result
    assert backtest.result_index(points_a[:3], points_b[:3]) is None


def _share_grid() -> dict[tuple[float, float], np.ndarray]:
    """Shares that grow more decisive with the gap between the levels."""
    even, lopsided = np.array([0.1, 0.1, 0.3, 0.2, 0.3]), np.array([0.6, 0.1, 0.2, 0.1, 0.0])
    top = max(backtest.LEVELS) - min(backtest.LEVELS)
    return {
        (a, b): even + (lopsided - even) * abs(a - b) / top
        for a in backtest.LEVELS
        for b in backtest.LEVELS
    }


def _game(day: int, a: str, b: str, points_a, points_b, twenties=(5, 5)) -> object:
    detail = tuple((pa, pb, 0, 0) for pa, pb in zip(points_a, points_b, strict=True))
    score = 1.0 if sum(points_a) > sum(points_b) else 0.0 if sum(points_a) < sum(points_b) else 0.5
    return backtest.RealGame(f"2010-01-{day:02}", a, b, score, twenties, len(points_a), detail)


def test_result_shares_set_simulated_against_real_games_and_split_by_evenness():
    """Each complete game counts once in the real shares; the simulated shares are the grid's
    read over the players' beliefs, more decisive for the uneven pairings; games before
    ``first`` only feed the record (the check of later games kept apart)."""
    games = [
        _game(1, "p", "q", (2, 2, 2, 2), (0, 0, 0, 0), twenties=(16, 0)),
        _game(2, "p", "q", (2, 0, 1, 1), (0, 2, 1, 1), twenties=(16, 0)),
        _game(3, "p", "q", (2, 2, 2), (0, 0, 0), twenties=(16, 0)),  # 3 rounds: not counted
        _game(4, "r", "s", (2, 2, 0, 2), (0, 0, 2, 0)),
    ]
    grid, shares = _grid(1.0), _share_grid()
    check = backtest.result_shares(games, grid, shares, SPREAD)
    assert check.games == 3
    assert check.real == pytest.approx([1 / 3, 0, 1 / 3, 0, 1 / 3])
    assert check.simulated.sum() == pytest.approx(1.0)
    assert check.worst_gap == pytest.approx(np.max(np.abs(check.simulated - check.real)) * 100)
    assert sum(n for n, _, _ in check.split.values()) == 3
    later = backtest.result_shares(games, grid, shares, SPREAD, first=3)
    assert later.games == 1
    assert later.real == pytest.approx([0, 0, 1, 0, 0])
    assert later.split["even"][1] == pytest.approx(later.simulated)
    # p has beaten q twice with many more 20s: their third game reads as uneven and lopsided.
    lopsided = backtest.expected_shares(shares, (9.0, 0.5), (2.0, 0.5))
    assert lopsided[0] > later.simulated[0]
