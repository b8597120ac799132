"""The odds rank a finish exactly as the scoring engine ranks a preliminary (the engine's
``compute_standings`` with the method ``"preliminary"``, which ``python -m scoring standings``
runs): points, then 20s, entries still level sharing a rank until a shoot-out."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import Game, Round, compute_standings
from simulation.outcomes.cut import cut_share, rank_finishes

ROUND_RESULTS = [(2, 0), (1, 1), (0, 2)]


@st.composite
def preliminaries(draw):
    """A few entries and random games between them, each of 4 rounds with a few 20s."""
    count = draw(st.integers(2, 9))
    games = []
    for _ in range(draw(st.integers(0, 14))):
        a = draw(st.integers(0, count - 1))
        b = draw(st.integers(0, count - 1).filter(lambda x, a=a: x != a))
        rounds = [
            Round(
                points=draw(st.sampled_from(ROUND_RESULTS)),
                twenties=(draw(st.integers(0, 2)), draw(st.integers(0, 2))),
            )
            for _ in range(4)
        ]
        games.append(Game(f"E{a}", f"E{b}", rounds))
    return count, games


@settings(max_examples=150, deadline=None)
@given(preliminaries())
def test_the_finish_ranking_is_the_engines(case):
    count, games = case
    names = [f"E{n}" for n in range(count)]
    standings = compute_standings(games, method="preliminary", entries=names)
    rows = {row.entry: row for row in standings.rows}
    points = np.array([rows[name].points for name in names])
    twenties = np.array([rows[name].twenties for name in names])

    ahead, tied = rank_finishes(points, twenties)

    for column, name in enumerate(names):
        assert ahead[column] + 1 == rows[name].rank, (name, standings.rows)
    # Entries still level after the 20s are the engine's shoot-out groups, no more, no fewer.
    groups = {frozenset(group) for group in standings.shootouts_required}
    ours = {
        frozenset(names[c] for c in range(count) if ahead[c] == ahead[column])
        for column in range(count)
        if tied[column] > 1
    }
    assert ours == groups
    for column in range(count):
        assert tied[column] == sum(1 for c in range(count) if ahead[c] == ahead[column])


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 12), st.integers(0, 6)), min_size=1, max_size=12),
    st.integers(1, 12),
)
def test_many_finishes_at_once_rank_as_each_alone(rows, cut):
    """The ``[finishes, entries]`` ranking gives each row what it gives that row alone, and the
    cut shares of a finish add up to the cut."""
    data = np.array(rows)
    points = np.stack([data[:, 0], data[::-1, 0], np.zeros(len(rows), dtype=int)])
    twenties = np.stack([data[:, 1], data[::-1, 1], data[:, 1]])
    ahead, tied = rank_finishes(points, twenties)
    for row in range(3):
        alone_ahead, alone_tied = rank_finishes(points[row], twenties[row])
        assert (alone_ahead == ahead[row]).all() and (alone_tied == tied[row]).all()
    cut = min(cut, len(rows))
    assert np.allclose(cut_share(ahead, tied, cut).sum(axis=1), cut)
