"""Ties on the cut line call a shoot-out; ties away from it do not."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.formats import CutLineTie, RankedEntry, shootout_at_cut


def competition_ranks(points: list[int]) -> list[tuple[str, int]]:
    """Standard ranking (1, 1, 3): entries on equal points share the better rank."""
    order = sorted(range(len(points)), key=lambda i: -points[i])
    rows = []
    for position, i in enumerate(order):
        rank = position + 1
        if position and points[order[position - 1]] == points[i]:
            rank = rows[-1][1]
        rows.append((f"E{i}", rank))
    return rows


def test_a_tie_across_the_cut_calls_every_tied_entry_to_shoot_out():
    """WCC: "If there still is a tie, a Shoot-Out will be conducted"; "Top scorer(s) after all
    shots are taken will advance"."""
    rows = [("A", 1), ("B", 2), ("C", 3), ("D", 3), ("E", 3), ("F", 6)]
    tie = shootout_at_cut(rows, advancing=4)
    assert tie == CutLineTie(entries=("C", "D", "E"), places=2)
    assert tie


def test_a_clean_cut_needs_no_shootout():
    rows = [("A", 1), ("B", 1), ("C", 3), ("D", 4), ("E", 4)]
    for advancing in (2, 3):
        tie = shootout_at_cut(rows, advancing)
        assert tie.entries == ()
        assert not tie


def test_dense_ranking_and_any_row_order_are_accepted():
    rows = [RankedEntry("D", 3), RankedEntry("A", 1), RankedEntry("C", 2), RankedEntry("B", 2)]
    assert shootout_at_cut(rows, advancing=2) == CutLineTie(entries=("C", "B"), places=1)


def test_everyone_or_no_one_advancing_is_a_clean_cut():
    rows = [("A", 1), ("B", 1)]
    assert not shootout_at_cut(rows, 2)
    assert not shootout_at_cut(rows, 5)
    assert not shootout_at_cut(rows, 0)
    assert shootout_at_cut(rows, 1) == CutLineTie(entries=("A", "B"), places=1)


@given(
    st.lists(st.integers(min_value=0, max_value=6), min_size=1, max_size=30),
    st.integers(min_value=0, max_value=32),
)
def test_the_group_is_exactly_the_rank_that_straddles_the_cut(points, advancing):
    rows = competition_ranks(points)
    tie = shootout_at_cut(rows, advancing)
    ranks = dict(rows)
    straddles = 0 < advancing < len(rows) and rows[advancing - 1][1] == rows[advancing][1]
    assert bool(tie) == straddles
    if straddles:
        rank = rows[advancing - 1][1]
        assert set(tie.entries) == {e for e, r in rows if r == rank}
        above = sum(1 for _, r in rows if r < rank)
        assert above + tie.places == advancing
        assert 1 <= tie.places < len(tie.entries)
        assert all(ranks[e] == rank for e in tie.entries)
    else:
        assert tie.places == 0


def test_bad_input_is_refused():
    with pytest.raises(ValueError):
        shootout_at_cut([("A", 1)], -1)
    with pytest.raises(ValueError, match="ranks start at 1"):
        shootout_at_cut([("A", 0), ("B", 1)], 1)
