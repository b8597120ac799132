"""Estimating a profile from 20s per game: monotone, anchored on the calibrated levels."""

import pytest

from simulation.players.estimate import (
    TWENTIES_PER_GAME,
    open_20_rate_of,
    profile_from_twenties,
)
from simulation.players.profiles import LEVELS, OPEN_20_TARGETS, PROFILES, get_profile


def test_anchors_give_the_calibrated_levels():
    for level in LEVELS:
        estimate = profile_from_twenties(TWENTIES_PER_GAME[level])
        assert estimate["angle_sd"] == pytest.approx(PROFILES[level].angle_sd, abs=1e-4)
        assert estimate["speed_sd"] == pytest.approx(PROFILES[level].speed_sd, abs=1e-4)


def test_more_twenties_never_means_a_worse_player():
    averages = [x / 4 for x in range(0, 48)]
    profiles = [profile_from_twenties(x) for x in averages]
    angles = [p["angle_sd"] for p in profiles]
    speeds = [p["speed_sd"] for p in profiles]
    assert angles == sorted(angles, reverse=True)
    assert speeds == sorted(speeds, reverse=True)
    assert angles[0] > angles[-1]
    rates = [open_20_rate_of(get_profile(p)) for p in profiles]
    assert rates == sorted(rates)


def test_between_two_levels_lies_between_their_errors():
    middle = profile_from_twenties(
        (TWENTIES_PER_GAME["competitive"] + TWENTIES_PER_GAME["top"]) / 2
    )
    assert PROFILES["top"].angle_sd < middle["angle_sd"] < PROFILES["competitive"].angle_sd
    assert get_profile(middle).angle_sd == middle["angle_sd"]


@pytest.mark.parametrize("bad", [-1.0, float("nan"), "six", True])
def test_bad_averages_are_refused(bad):
    with pytest.raises(ValueError):
        profile_from_twenties(bad)


def test_open_20_rate_of_named_and_custom_profiles():
    assert open_20_rate_of(PROFILES["top"]) == OPEN_20_TARGETS["top"]
    custom = get_profile({"angle_sd": 1.5, "speed_sd": 0.04})
    assert OPEN_20_TARGETS["competitive"] < open_20_rate_of(custom) < OPEN_20_TARGETS["top"]
    assert open_20_rate_of(get_profile({"angle_sd": 0.0, "speed_sd": 0.0})) > 0.756
