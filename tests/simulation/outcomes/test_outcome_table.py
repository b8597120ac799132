"""The stored outcome tables, how a game is drawn from them, and how they are tabulated."""

from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from hypothesis import given
from hypothesis import strategies as st

from simulation.game import play_game
from simulation.management.commands.tabulate_outcomes import pinned_digest
from simulation.outcomes.table import (
    KINDS,
    REGULAR_ROUNDS,
    ROUND_SLOTS,
    OutcomeTable,
    grid_cells,
    load_table,
    read_table,
    sample_games,
    save_table,
    table_path,
)
from simulation.outcomes.tabulate import game_rounds, tabulate
from tests.simulation.test_game import SEEDED_GAMES_SHA256

STORED = [kind for kind in KINDS if table_path(kind).exists()]


def a_share(games: np.ndarray) -> float:
    """The share of ``games`` ([..., ROUND_SLOTS, 4]) that A won, extra rounds included."""
    points = np.where(games[..., 0] >= 0, games[..., 0].astype(int) - games[..., 1], 0)
    return float((points.sum(axis=-1) > 0).mean())


def test_the_singles_table_is_stored():
    assert "singles" in STORED


@pytest.mark.parametrize("kind", STORED)
def test_the_outcome_tables_were_tabulated_with_this_physics(kind):
    assert load_table(kind).physics_digest == SEEDED_GAMES_SHA256, (
        "the outcome tables were tabulated with other physics: run manage.py tabulate_outcomes"
    )


def test_the_command_reads_the_digest_the_test_pins():
    assert pinned_digest(Path(settings.BASE_DIR)) == SEEDED_GAMES_SHA256


@pytest.mark.parametrize("kind", STORED)
def test_a_stored_table_is_shaped_as_said_and_every_game_has_a_winner(kind):
    table = load_table(kind)
    count = len(table.levels)
    assert table.kind == kind
    assert table.games.dtype == np.int8
    assert table.games.shape[:2] == (count, count)
    assert table.games.shape[3:] == (ROUND_SLOTS, 4)
    assert np.all(np.diff(table.levels) > 0)
    regular = table.games[:, :, :, :REGULAR_ROUNDS].astype(int)
    assert np.all(regular >= 0)
    # An NCA round gives 2 points to share: 2-0 or 1-1.
    assert np.all(regular[..., 0] + regular[..., 1] == 2)
    tied = regular[..., 0].sum(axis=-1) == regular[..., 1].sum(axis=-1)
    extra = table.games[:, :, :, REGULAR_ROUNDS, 0] >= 0
    assert np.array_equal(tied, extra), "extra rounds are played exactly when tied after 4"
    points = np.where(table.games[..., 0] >= 0, table.games[..., 0].astype(int), 0)
    against = np.where(table.games[..., 1] >= 0, table.games[..., 1].astype(int), 0)
    assert np.all(points.sum(axis=-1) != against.sum(axis=-1)), "a playoff game has a winner"


def test_load_table_is_cached_and_refuses_an_unknown_kind():
    assert load_table("singles") is load_table("singles")
    with pytest.raises(ValueError, match="triples"):
        load_table("triples")


def test_a_table_is_saved_and_read_back(tmp_path):
    games = np.random.default_rng(1).integers(0, 3, (2, 2, 3, ROUND_SLOTS, 4)).astype(np.int8)
    table = OutcomeTable("doubles", np.array([2.0, 5.0]), games, "abc", "2026-01-01T00:00:00Z")
    again = read_table(save_table(table, tmp_path / "t.npz"))
    assert again.kind == "doubles"
    assert again.physics_digest == "abc"
    assert again.created == table.created
    assert np.array_equal(again.levels, table.levels)
    assert np.array_equal(again.games, games)


def test_a_malformed_table_is_refused():
    with pytest.raises(ValueError, match="ascending"):
        OutcomeTable("singles", np.array([5.0, 2.0]), np.zeros((2, 2, 1, 8, 4), np.int8), "x")
    with pytest.raises(ValueError, match="shaped"):
        OutcomeTable("singles", np.array([2.0, 5.0]), np.zeros((2, 2, 1, 4, 4), np.int8), "x")


def test_at_a_grid_level_the_games_drawn_are_the_cells():
    table = load_table("singles")
    rng = np.random.default_rng(3)
    for i, j in [(2, 2), (1, len(table.levels) - 2)]:
        drawn = sample_games(table, np.full(20_000, table.levels[i]), table.levels[j], rng)
        assert drawn.shape == (20_000, ROUND_SLOTS, 4)
        assert abs(a_share(drawn) - a_share(table.games[i, j])) < 0.02


def test_the_games_drawn_favour_the_stronger_player_more_as_their_level_rises():
    """Against a player of the grid's middle level, at 5 levels from its bottom to its top."""
    table = load_table("singles")
    rng = np.random.default_rng(4)
    middle = float(np.median(table.levels))
    rising = np.linspace(table.levels[0], table.levels[-1], 5)
    shares = [a_share(sample_games(table, np.full(20_000, x), middle, rng)) for x in rising]
    # Rising within the noise of a cell's games (the lowest levels play nearly alike: novice and
    # recreational players make 2-3 20s a game whatever their record says).
    assert all(later > earlier - 0.08 for earlier, later in pairwise(shares)), shares
    assert shares[-1] - shares[0] > 0.4


@given(
    st.floats(-5, 30, allow_nan=False),
    st.lists(st.floats(0.1, 3), min_size=1, max_size=6),
    st.integers(0, 2**32),
)
def test_a_level_is_drawn_between_its_grid_neighbours_in_proportion(x, steps, seed):
    """Stochastic interpolation: the level drawn on average is the level wanted (clamped)."""
    levels = np.cumsum([1.0, *steps])
    cells = grid_cells(levels, np.full(4000, x), np.random.default_rng(seed))
    wanted = min(max(x, levels[0]), levels[-1])
    low = min(int(np.searchsorted(levels, wanted, side="right")) - 1, len(levels) - 2)
    assert set(np.unique(cells).tolist()) <= {low, low + 1}
    gap = levels[low + 1] - levels[low]
    assert abs(levels[cells].mean() - wanted) < 0.05 * gap


@pytest.mark.parametrize("seed", [3, 11, 29])
def test_a_playoff_game_plays_the_regular_game_of_its_seed_first(seed):
    players = [{"twenties_per_game": 4.0}, {"twenties_per_game": 4.5}]
    regular = play_game(players, seed=seed, events=False)
    playoff = play_game(players, seed=seed, playoff=True, events=False)
    assert playoff["rounds"][:4] == regular["rounds"]


def test_a_long_playoff_keeps_its_deciding_round_in_the_last_slot():
    rounds = [{"points": [1, 1], "twenties": [0, 0]}] * 9 + [{"points": [2, 0], "twenties": [1, 0]}]
    rows = game_rounds({"rounds": rounds})
    assert rows.shape == (ROUND_SLOTS, 4)
    assert rows[-1].tolist() == [2, 0, 1, 0]
    short = game_rounds({"rounds": rounds[-5:]})
    assert short[5:].tolist() == [[-1] * 4] * 3


def test_tabulating_is_deterministic_for_a_seed():
    one = tabulate("singles", [3.0, 6.0], 2, physics_digest="d", seed=5)
    two = tabulate("singles", [3.0, 6.0], 2, physics_digest="d", seed=5)
    other = tabulate("singles", [3.0, 6.0], 2, physics_digest="d", seed=6)
    assert one.games.shape == (2, 2, 2, ROUND_SLOTS, 4)
    assert np.array_equal(one.games, two.games)
    assert not np.array_equal(one.games, other.games)


@pytest.mark.slow
def test_the_command_writes_tables_whatever_the_workers(tmp_path):
    for workers, folder in [(1, "one"), (2, "two")]:
        call_command(
            "tabulate_outcomes",
            "--kind=all",
            "--levels",
            "3",
            "6",
            "--games-per-cell=2",
            f"--workers={workers}",
            "--seed=7",
            f"--output-dir={tmp_path / folder}",
        )
    for kind in KINDS:
        one = read_table(tmp_path / "one" / f"{kind}.npz")
        two = read_table(tmp_path / "two" / f"{kind}.npz")
        assert one.kind == kind
        assert one.physics_digest == SEEDED_GAMES_SHA256
        assert np.array_equal(one.games, two.games)


@pytest.mark.parametrize(
    "options, word",
    [
        (["--kind=triples"], "--kind"),
        (["--games-per-cell=0"], "--games-per-cell"),
        (["--workers=0"], "--workers"),
        (["--seed=-1"], "--seed"),
        (["--levels", "5", "2"], "--levels"),
    ],
)
def test_bad_options_exit_2_saying_which(options, word):
    with pytest.raises(CommandError, match=word) as caught:
        call_command("tabulate_outcomes", *options)
    assert caught.value.returncode == 2


@pytest.mark.parametrize("kind", STORED)
def test_over_the_regular_rounds_the_first_shooter_has_no_edge(kind):
    """Each side has the hammer in two of the 4 regular rounds: A at level x against B at y wins
    as often as B at x against A at y (within the noise of the cells' games). Only past round 4
    do the two differ (the first shooter of round 1 shoots first in round 5 too), which is why
    every cell is tabulated rather than read from its mirror."""
    table = load_table(kind)
    regular = table.games[:, :, :, :REGULAR_ROUNDS].astype(int)
    diff = (regular[..., 0] - regular[..., 1]).sum(axis=-1)
    a_wins = (diff > 0).mean(axis=2)
    b_wins = (diff < 0).mean(axis=2)
    edge = a_wins - b_wins.T
    noise = np.sqrt(0.5 / table.games_per_cell / edge.size)
    assert abs(edge.mean()) < 4 * noise + 0.005, edge.mean()
