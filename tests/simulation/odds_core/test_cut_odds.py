"""The live cut odds' pure core: chances that add up, the sure and the hopeless, shoot-outs only
where ties can happen, what an entry needs, the same odds for the same seed, and bad input."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulation.outcomes.cut import Needs, Standing, cut_odds
from simulation.outcomes.table import load_table

from .synthetic import ALWAYS_LEVEL, ANY_RESULT, table_of, won

EVEN = (5.0, 1.0)


def field(totals, games=6):
    return [
        Standing(entry, points, twenties, games) for entry, (points, twenties) in totals.items()
    ]


def levels(entries, level=EVEN):
    return dict.fromkeys(entries, level)


def by_entry(result):
    return {odds.entry: odds for odds in result.entries}


def test_the_chances_add_up():
    standings = field({n: (20 + 2 * (n % 5), n) for n in range(1, 13)})
    remaining = [(n, n + 1) for n in range(1, 13, 2)]
    result = cut_odds(
        standings, remaining, levels(range(1, 13)), 5, places=3, table=ANY_RESULT, finishes=500
    )
    assert result.cut == 5 and result.finishes == 500
    assert sum(odds.cut for odds in result.entries) == pytest.approx(5.0)
    for place in range(3):
        assert sum(odds.places[place] for odds in result.entries) == pytest.approx(1.0)
    for odds in result.entries:
        assert 0.0 <= odds.cut <= 1.0
        assert sum(odds.places) <= 1.0 + 1e-9
        # Finishing in one of the first places is finishing inside a cut of 5.
        assert sum(odds.places) <= odds.cut + 1e-9


@settings(max_examples=30, deadline=None)
@given(
    points=st.lists(st.integers(0, 40), min_size=3, max_size=10),
    cut=st.integers(1, 10),
    seed=st.integers(0, 1000),
)
def test_the_cut_mass_is_the_cut_size(points, cut, seed):
    cut = min(cut, len(points))
    standings = [Standing(n, p, n % 3, 4) for n, p in enumerate(points)]
    remaining = [(n, n + 1) for n in range(0, len(points) - 1, 2)]
    result = cut_odds(
        standings,
        remaining,
        levels(range(len(points))),
        cut,
        places=1,
        table=ANY_RESULT,
        finishes=200,
        seed=seed,
    )
    assert sum(odds.cut for odds in result.entries) == pytest.approx(cut)
    assert sum(odds.places[0] for odds in result.entries) == pytest.approx(1.0)


def test_a_clinched_leader_and_an_entry_that_cannot_reach():
    table = load_table("singles")
    standings = field({1: (60, 30), 2: (40, 20), 3: (38, 25), 4: (37, 10), 5: (36, 9), 6: (10, 2)})
    remaining = [(1, 6), (2, 3), (4, 5)]
    result = by_entry(
        cut_odds(standings, remaining, levels(range(1, 7)), 3, table=table, finishes=2000)
    )
    assert result[1].cut == pytest.approx(1.0)
    assert result[1].places[0] == pytest.approx(1.0)
    assert result[1].needs is None  # made whatever happens
    assert result[6].cut == pytest.approx(0.0)
    assert result[6].needs is None  # missed whatever happens
    assert 0.05 < result[4].cut < 0.95


def test_a_shoot_out_only_where_ties_can_happen():
    level = field({1: (20, 5), 2: (20, 5), 3: (20, 5), 4: (20, 5)})
    tied = by_entry(
        cut_odds(level, [(1, 2), (3, 4)], levels(range(1, 5)), 2, table=ALWAYS_LEVEL, finishes=100)
    )
    for odds in tied.values():
        assert odds.shootout == pytest.approx(1.0)  # all four level: two places, a shoot-out
        assert odds.cut == pytest.approx(0.5)
        assert odds.places[0] == pytest.approx(0.25)
    apart = field({1: (40, 5), 2: (30, 5), 3: (20, 5), 4: (10, 5)})
    clear = cut_odds(apart, [(1, 2), (3, 4)], levels(range(1, 5)), 2, table=ANY_RESULT)
    assert all(odds.shootout == 0.0 for odds in clear.entries)
    # Points apart by less than a game: a tie on points and 20s at the line becomes possible.
    close = field({1: (40, 5), 2: (22, 0), 3: (20, 0), 4: (10, 5)})
    near = by_entry(cut_odds(close, [(2, 3)], levels(range(1, 5)), 2, table=ANY_RESULT))
    assert near[2].shootout == 0.0  # 22 + x against 20 + 8 - x: never level (x is even here)
    odd = table_of([won(points) for points in range(9)])  # 0 to 8, odd results too
    near = by_entry(cut_odds(close, [(2, 3)], levels(range(1, 5)), 2, table=odd))
    assert near[2].shootout == pytest.approx(1 / 9, abs=0.03)  # 25-25 on points and 20s
    assert near[2].shootout == near[3].shootout


def test_needs_on_a_hand_made_case():
    # Cut 2: entry 1 is through; 2 and 3 play each other for the second place.
    # 2 makes it with x of the 8 points when 16 + x beats 14 + (8 - x), or ties on points with
    # more 20s than 3's 12: x = 4 (20 to 18). With 3 points both have 19 and 2 needs 2 more
    # 20s to draw level with 3's 12 (a shoot-out: half of the finishes).
    # 3 needs 5 (19 to 19, its 12 20s beat 2's 10); with 4 points (18 to 20) no 20s help.
    standings = field({1: (40, 20), 2: (16, 10), 3: (14, 12), 4: (0, 0)})
    result = by_entry(
        cut_odds(standings, [(2, 3)], levels([2, 3]), 2, table=ANY_RESULT, finishes=400)
    )
    assert result[2].needs == Needs(points=4, of_points=8, twenties=2)
    assert result[3].needs == Needs(points=5, of_points=8, twenties=None)
    assert result[1].needs is None and result[4].needs is None
    assert result[2].cut + result[3].cut == pytest.approx(1.0)


def test_needs_of_an_entry_that_needs_nothing_or_too_much():
    # Cut 1: the leader (30) plays a weak 4, 2 (25) plays 3; a game ends 0, 2, 4, 6 or 8 to 8.
    standings = field({1: (30, 10), 2: (25, 5), 3: (5, 0), 4: (0, 0)})
    result = by_entry(
        cut_odds(standings, [(1, 4), (2, 3)], levels(range(1, 5)), 1, table=ANY_RESULT)
    )
    # With no point 1 still stays ahead unless 2 makes 6 or 8: three finishes in five.
    assert result[1].needs == Needs(points=0, of_points=8, twenties=None)
    assert 0.6 < result[1].cut < 1.0
    # 2 even with all 8 points (33) is ahead only when 1 makes 0 or 2: two in five, not half.
    assert result[2].needs is None
    assert 0.0 < result[2].cut < 0.5
    assert result[3].needs is None  # 5 + 8 never reaches 1's 30


def test_the_same_seed_gives_the_same_odds():
    table = load_table("singles")
    standings = field({n: (20 + n, n) for n in range(1, 9)})
    remaining = [(1, 2), (3, 4), (5, 6), (7, 8)]
    spread = {n: (2.0 + n, 2.0) for n in range(1, 9)}
    first = cut_odds(standings, remaining, spread, 4, table=table, finishes=300, seed=7)
    again = cut_odds(standings, remaining, spread, 4, table=table, finishes=300, seed=7)
    other = cut_odds(standings, remaining, spread, 4, table=table, finishes=300, seed=8)
    assert first == again
    assert first != other


@pytest.mark.parametrize(
    ("remaining", "cut", "words"),
    [
        ([(1, 9)], 2, "entry 9, which is not in the standings"),
        ([(1, 2)], 5, "the cut (5) is larger than the field (4 entries)"),
        ([(1, 1)], 2, "entry 1 play itself"),
        ([(1, 2)], 0, "cut must be from 1 to 4"),
    ],
)
def test_bad_input_says_what_is_wrong(remaining, cut, words):
    standings = field({1: (10, 1), 2: (9, 1), 3: (8, 1), 4: (7, 1)})
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)")):
        cut_odds(standings, remaining, levels(range(1, 10)), cut, table=ANY_RESULT)


def test_bad_input_of_other_kinds():
    standings = field({1: (10, 1), 2: (9, 1), 3: (8, 1)})
    with pytest.raises(ValueError, match="entry 2 plays remaining game 1 but has no level"):
        cut_odds(standings, [(1, 2)], {1: EVEN}, 2, table=ANY_RESULT)
    with pytest.raises(ValueError, match="entry 1 is in the standings twice"):
        cut_odds([*standings, standings[0]], [], {}, 2, table=ANY_RESULT)
    with pytest.raises(ValueError, match="points_per_game"):
        cut_odds(standings, [], {}, 2, table=ANY_RESULT, points_per_game=7)
    with pytest.raises(ValueError, match="the standings are empty"):
        cut_odds([], [], {}, 1, table=ANY_RESULT)


def test_a_field_with_no_game_left_is_ranked_as_it_stands():
    standings = field({1: (10, 1), 2: (12, 1), 3: (10, 3), 4: (10, 3)})
    result = by_entry(cut_odds(standings, [], {}, 2, places=2, table=ANY_RESULT, finishes=10))
    assert result[2].places[0] == 1.0 and result[2].cut == 1.0
    # 3 and 4 are level on points and 20s for second place: a shoot-out, half a chance each.
    assert result[3].cut == result[4].cut == 0.5
    assert result[3].shootout == 1.0 and result[1].shootout == 0.0
    assert result[1].cut == 0.0
    assert np.isclose(result[3].places[1], 0.5)
