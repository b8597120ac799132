"""What an entry needs is read by changing its games in every drawn finish and ranking again; the
fast reading (two binary searches a finish, all undecided entries at once) must give what a plain
re-ranking of each changed finish gives, opponents met twice included."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from simulation.outcomes.cut import Standing, _check_inputs, cut_share, draw_finishes, rank_finishes
from simulation.outcomes.needs import _Field

from .synthetic import table_of, won

ODD_AND_EVEN = table_of([won(points, tw, 3 - tw % 4) for points in range(9) for tw in range(4)])


def plain_share(drawn, column, points, twenties, cut, per_game=8):
    """Entry ``column``'s cut share with its games ending ``points`` (spread as evenly as whole
    points allow, in the order of its games) and, when given, ``twenties`` in its games."""
    games = [g for g in range(len(drawn.games)) if column in drawn.games[g]]
    split = [points // len(games) + (k < points % len(games)) for k in range(len(games))]
    total_points = drawn.points.copy()
    total_twenties = drawn.twenties.copy()
    for k, g in enumerate(games):
        side = 0 if drawn.games[g, 0] == column else 1
        other = drawn.games[g, 1 - side]
        total_points[:, column] += split[k] - drawn.game_points[:, g, side]
        total_points[:, other] += per_game - split[k] - drawn.game_points[:, g, 1 - side]
        if twenties is not None:
            total_twenties[:, column] -= drawn.game_twenties[:, g, side]
    if twenties is not None:
        total_twenties[:, column] += twenties
    ahead, tied = rank_finishes(total_points, total_twenties)
    return cut_share(ahead, tied, cut)[:, column].mean()


@settings(max_examples=40, deadline=None)
@given(
    size=st.integers(3, 8),
    games=st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7)), min_size=1, max_size=8),
    cut=st.integers(1, 7),
    seed=st.integers(0, 100),
    points=st.lists(st.integers(0, 30), min_size=8, max_size=8),
)
def test_the_fast_reading_is_a_plain_reranking(size, games, cut, seed, points):
    games = [(a % size, b % size) for a, b in games if a % size != b % size]
    if not games:
        return
    cut = min(cut, size)
    standings = [Standing(n, points[n], n, 3) for n in range(size)]
    levels = {n: (5.0, 1.0) for n in range(size)}
    _check_inputs(standings, games, levels, cut, 1, 30, 8)
    drawn = draw_finishes(
        standings, games, levels, table=ODD_AND_EVEN, finishes=30, rng=np.random.default_rng(seed)
    )
    columns = np.array(sorted({c for pair in games for c in pair}))
    counts = np.array([sum(c in pair for pair in games) for c in columns])
    field = _Field(drawn, columns, 8, int(drawn.twenties.max()) + 8 * 4 * int(counts.max()))
    rng = np.random.default_rng(seed)
    for _ in range(3):
        asked = rng.integers(0, 8 * counts + 1)
        fast = field.share(cut, asked, None)
        twenties = rng.integers(0, 10, size=len(columns))
        fast_twenties = field.share(cut, asked, twenties)
        for row, column in enumerate(columns):
            plain = plain_share(drawn, column, int(asked[row]), None, cut)
            assert np.isclose(fast[row], plain), (column, asked[row], fast[row], plain)
            plain = plain_share(drawn, column, int(asked[row]), int(twenties[row]), cut)
            assert np.isclose(fast_twenties[row], plain)
