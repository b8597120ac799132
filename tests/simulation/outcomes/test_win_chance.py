"""A match's chances from where it stands, read from the outcome tables."""

import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulation.game import play_game
from simulation.outcomes.levels import level_of
from simulation.outcomes.table import REGULAR_ROUNDS, load_table
from simulation.outcomes.win_chance import win_chance


@pytest.fixture(scope="module")
def table():
    return load_table("singles")


def regular_shares(games: np.ndarray) -> tuple[float, float, float]:
    """A wins, level, B wins after the regular rounds of ``games`` ([..., ROUND_SLOTS, 4])."""
    regular = games[..., :REGULAR_ROUNDS, :].astype(int)
    diff = (regular[..., 0] - regular[..., 1]).sum(axis=-1)
    return float((diff > 0).mean()), float((diff == 0).mean()), float((diff < 0).mean())


def test_before_any_round_the_chances_are_the_cells_games(table):
    for i, j in [(3, 3), (2, 5), (6, 1)]:
        chances = win_chance(
            table, (table.levels[i], 0.0), (table.levels[j], 0.0), draws=40_000, seed=1
        )
        expected = regular_shares(table.games[i, j])
        assert np.allclose(chances, expected, atol=0.015), (i, j, chances, expected)


def test_the_chances_add_up_to_one_and_favour_the_stronger(table):
    even = win_chance(table, (5.0, 1.0), (5.0, 1.0))
    stronger = win_chance(table, (7.0, 1.0), (5.0, 1.0))
    assert sum(even) == pytest.approx(1.0)
    assert sum(stronger) == pytest.approx(1.0)
    assert stronger[0] > even[0] + 0.1
    assert stronger[2] < even[2] - 0.1


def test_a_lead_of_6_0_after_3_rounds_is_nearly_a_win_even_against_a_stronger_player(table):
    p_a, _level, _p_b = win_chance(table, (3.0, 1.0), (8.0, 1.0), [(2, 0), (2, 0), (2, 0)])
    assert p_a >= 0.9


def test_a_lead_raises_the_chances_and_says_something_of_the_day(table):
    before = win_chance(table, (5.0, 1.5), (5.0, 1.5), best_of=3, playoff=True)
    ahead = win_chance(table, (5.0, 1.5), (5.0, 1.5), [(2, 0), (2, 0)], best_of=3, playoff=True)
    behind = win_chance(table, (5.0, 1.5), (5.0, 1.5), [(0, 2), (0, 2)], best_of=3, playoff=True)
    assert ahead[0] > before[0] + 0.05
    assert behind[0] < before[0] - 0.05


def test_swapping_the_sides_swaps_the_chances(table):
    """Before a game begins: over its 4 regular rounds each side has the hammer twice, so who
    shoots first does not matter (within a round the hammer does, so a game under way is not
    symmetric in this way)."""
    for a, b, won in [((4.0, 1.0), (6.5, 1.0), (0, 0)), ((5.5, 0.5), (5.0, 2.0), (1, 0))]:
        forward = win_chance(table, a, b, best_of=3, games_won=won, draws=40_000, seed=2)
        back = win_chance(table, b, a, best_of=3, games_won=won[::-1], draws=40_000, seed=3)
        assert np.allclose(forward, back[::-1], atol=0.03), (forward, back)


@settings(max_examples=40)
@given(
    mean_a=st.floats(0, 12),
    mean_b=st.floats(0, 12),
    spread=st.floats(0, 3),
    points=st.lists(st.sampled_from([(2, 0), (1, 1), (0, 2)]), max_size=4),
    best_of=st.sampled_from([1, 3, 5]),
    seed=st.integers(0, 1000),
)
def test_a_playoff_never_leaves_a_match_level(table, mean_a, mean_b, spread, points, best_of, seed):
    p_a, level, p_b = win_chance(
        table,
        (mean_a, spread),
        (mean_b, spread),
        points,
        playoff=True,
        best_of=best_of,
        draws=300,
        seed=seed,
    )
    assert level == 0.0
    assert p_a + p_b == pytest.approx(1.0)


def test_a_match_already_won_is_certain(table):
    assert win_chance(table, (2.0, 0.0), (9.0, 0.0), best_of=3, games_won=(2, 0)) == (1, 0, 0)
    assert win_chance(table, (9.0, 0.0), (2.0, 0.0), best_of=5, games_won=(1, 3)) == (0, 0, 1)


def test_a_decided_game_of_a_single_game_match_is_certain(table):
    played = [(2, 0), (1, 1), (0, 2), (2, 0)]
    assert win_chance(table, (2.0, 1.0), (9.0, 1.0), played) == (1, 0, 0)
    level = [(2, 0), (0, 2), (1, 1), (1, 1)]
    assert win_chance(table, (2.0, 1.0), (9.0, 1.0), level) == (0, 1, 0)
    assert win_chance(table, (2.0, 1.0), (9.0, 1.0), [*level, (0, 2)], playoff=True) == (0, 0, 1)


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"level_a": (5.0, -1.0)}, "level_a"),
        ({"level_b": "top"}, "level_b"),
        ({"best_of": 0}, "best_of"),
        ({"best_of": 3, "games_won": (2, 2)}, "games_won"),
        ({"rounds_played": [(2, 0)] * 5}, "5 rounds played"),
        ({"rounds_played": [(2, -1)]}, "points B of round 1"),
        ({"rounds": 0}, "rounds"),
        ({"draws": 0}, "draws"),
    ],
)
def test_bad_input_is_refused_saying_what(table, kwargs, words):
    args = {"level_a": (5.0, 1.0), "level_b": (5.0, 1.0), **kwargs}
    with pytest.raises(ValueError, match=words):
        win_chance(table, **args)


def test_one_call_is_fast(table):
    win_chance(table, (5.0, 1.0), (6.0, 1.0))  # the per-table shares are computed once
    times = []
    for seed in range(5):
        started = time.perf_counter()
        win_chance(table, (5.0, 1.0), (6.0, 1.0), [(2, 0)], best_of=3, playoff=True, seed=seed)
        times.append(time.perf_counter() - started)
    assert min(times) < 0.05


def test_level_of_reads_the_app_s_profile_specs():
    from simulation.players.estimate import TWENTIES_PER_GAME
    from simulation.players.profiles import PROFILES

    assert level_of("competitive") == (TWENTIES_PER_GAME["competitive"], 0.0)
    assert level_of({"twenties_per_game": 4.5, "spread": 1.2}) == (4.5, 1.2)
    assert level_of({"twenties_per_game": 4}) == (4.0, 0.0)
    top = level_of({"angle_sd": PROFILES["top"].angle_sd, "speed_sd": 0.03})
    assert top == pytest.approx((TWENTIES_PER_GAME["top"], 0.0))
    for bad in ["grand master", {"twenties_per_game": -1}, {"twenties_per_game": 3, "spread": 11}]:
        with pytest.raises(ValueError):
            level_of(bad)


@pytest.mark.slow
def test_the_chances_agree_with_games_played_by_the_physics(table):
    """Off the grid, with spreads: 600 games of ``play_game`` against the table's reading, from
    the start and after A won the first round (the rounds-are-independent assumption)."""
    a = {"twenties_per_game": 4.4, "spread": 1.0}
    b = {"twenties_per_game": 6.3, "spread": 1.0}
    games = [play_game([a, b], seed=50_000 + n, events=False) for n in range(600)]
    points = np.array([[r["points"] for r in g["rounds"]] for g in games])
    diff = (points[..., 0] - points[..., 1]).sum(axis=1)
    played = np.array([(diff > 0).mean(), (diff == 0).mean(), (diff < 0).mean()])
    read = win_chance(table, level_of(a), level_of(b), draws=40_000)
    assert np.allclose(read, played, atol=0.06), (read, played)
    first_won = points[:, 0, 0] == 2
    sub = diff[first_won]
    played_after = np.array([(sub > 0).mean(), (sub == 0).mean(), (sub < 0).mean()])
    read_after = win_chance(table, level_of(a), level_of(b), [(2, 0)], draws=40_000)
    assert np.allclose(read_after, played_after, atol=0.09), (read_after, played_after)
