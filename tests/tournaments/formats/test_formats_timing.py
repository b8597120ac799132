"""The timed-match rules: one equalising shot after the buzzer, and 0-0 for an unstarted round."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.formats import equalising_shot, timed_round_points


def test_the_side_one_shot_behind_takes_one_last_shot():
    """WCC: "if a player or team has had one less shot, they will be allowed to take one last
    shot immediately after the buzzer to even out number of shots taken"."""
    assert equalising_shot(6, 5) == "b"
    assert equalising_shot(3, 4) == "a"


def test_no_extra_shot_when_the_shots_are_even():
    """NCA 8b: "one additional shot will be allowed, if necessary, to equalize the number of
    shots" - with even counts it is not necessary."""
    assert equalising_shot(5, 5) is None
    assert equalising_shot(8, 8, discs_per_side=8) is None
    assert equalising_shot(0, 0) is None


@given(st.integers(min_value=0, max_value=12), st.sampled_from([-1, 0, 1]))
def test_after_the_equalising_shot_both_sides_have_shot_as_often(shots_a, difference):
    shots_b = max(shots_a + difference, 0)
    side = equalising_shot(shots_a, shots_b)
    after_a = shots_a + (side == "a")
    after_b = shots_b + (side == "b")
    assert after_a == after_b


@pytest.mark.parametrize(
    ("shots_a", "shots_b", "discs"),
    [(6, 4, None), (2, 0, None), (-1, 0, None), (9, 8, 8)],
)
def test_impossible_shot_counts_are_refused(shots_a, shots_b, discs):
    with pytest.raises(ValueError):
        equalising_shot(shots_a, shots_b, discs)


def test_a_round_with_no_disc_shot_before_time_expires_is_zero_zero():
    """WCC: "For any round where no discs are shot before time expires, both teams will record a
    zero for that round"."""
    assert timed_round_points(0, 0, 0, 0) == (0, 0)


def test_a_started_round_is_scored_two_one_zero_from_the_board():
    """WCC: "The player / team with the higher score after a round shall receive two points. If
    the round is tied, each player / team shall receive one point. Zero points for a loss"."""
    assert timed_round_points(35, 20, 3, 3) == (2, 0)
    assert timed_round_points(10, 45, 4, 3) == (0, 2)
    assert timed_round_points(0, 0, 1, 0) == (1, 1)
    assert timed_round_points(15, 15, 2, 2) == (1, 1)


def test_negative_shot_counts_are_refused_when_scoring():
    with pytest.raises(ValueError):
        timed_round_points(0, 0, -1, 0)
