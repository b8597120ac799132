"""Skill profiles: the open-20 rates they were calibrated for, and how players are named."""

import numpy as np
import pytest

from simulation.players.calibrate import calibrate_angle_sd, open_20_rate
from simulation.players.noise import execute, perturb
from simulation.players.profiles import LEVELS, OPEN_20_TARGETS, PROFILES, get_profile


@pytest.mark.parametrize("level", LEVELS)
def test_open_20_rate_matches_the_target_within_3_points(level):
    # Another seed than the calibration's: the rate is a property of the noise, not of the draws.
    rate = open_20_rate(PROFILES[level], attempts=2000, seed=7)
    assert abs(rate - OPEN_20_TARGETS[level]) <= 0.03, (level, rate)


def test_levels_are_ordered_by_skill():
    angle = [PROFILES[level].angle_sd for level in LEVELS]
    speed = [PROFILES[level].speed_sd for level in LEVELS]
    assert angle == sorted(angle, reverse=True)
    assert speed == sorted(speed, reverse=True)
    assert [OPEN_20_TARGETS[level] for level in LEVELS] == [0.35, 0.45, 0.55, 0.65, 0.756]


def test_calibration_finds_the_error_for_a_rate():
    angle_sd = calibrate_angle_sd(0.6, 0.04, attempts=400, seed=3, steps=14)
    from simulation.players.profiles import SkillProfile

    rate = open_20_rate(SkillProfile("x", angle_sd, 0.04), attempts=400, seed=3)
    assert rate == pytest.approx(0.6, abs=0.01)
    assert 1.0 < angle_sd < 2.0


def test_get_profile_by_name_and_by_dict():
    assert get_profile("best") is PROFILES["best"]
    custom = get_profile({"angle_sd": 1.2, "speed_sd": 0.05})
    assert (custom.angle_sd, custom.speed_sd, custom.name) == (1.2, 0.05, "custom")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("wizard", "unknown skill profile"),
        ({"angle_sd": 1.0}, "missing"),
        ({"angle_sd": 1.0, "speed_sd": 0.1, "luck": 1}, "unknown keys"),
        ({"angle_sd": -1.0, "speed_sd": 0.1}, "at least 0"),
        ({"angle_sd": "big", "speed_sd": 0.1}, "must be a number"),
        (3, "skill level"),
        ({"angle_sd": 1.0, "speed_sd": 0.1, "repertoire": "magic"}, "repertoire"),
        ({"angle_sd": 1.0, "speed_sd": 0.1, "shots": 0}, "shots"),
    ],
)
def test_bad_profiles_are_refused(spec, message):
    with pytest.raises(ValueError, match=message):
        get_profile(spec)


def test_noise_is_gaussian_with_the_profile_spreads():
    profile = PROFILES["novice"]
    z = np.random.default_rng(0).standard_normal((20000, 2))
    angle, speed = perturb(np.float64(5.0), np.float64(2.0), profile, z)
    assert np.std(angle) == pytest.approx(profile.angle_sd, rel=0.03)
    assert np.mean(angle) == pytest.approx(5.0, abs=0.05)
    assert np.std(speed / 2.0) == pytest.approx(profile.speed_sd, rel=0.03)


def test_execute_changes_only_angle_and_speed():
    shot = {"seat": 2, "position": 10.0, "angle": 1.0, "speed": 1.5, "id": "b1"}
    released = execute(shot, PROFILES["competitive"], np.random.default_rng(1))
    assert {k: released[k] for k in ("seat", "position", "id")} == {
        "seat": 2,
        "position": 10.0,
        "id": "b1",
    }
    assert released["angle"] != 1.0 and released["speed"] != 1.5


def test_a_rounds_form_scales_the_hand_and_leaves_the_profile():
    """``in_form`` multiplies both errors for the round; the player's profile (what the record
    shows, what estimates read) stays as it was, and form 1 is the profile itself."""
    from simulation.players.player import AIPlayer

    player = AIPlayer.of("competitive")
    base = PROFILES["competitive"]
    player.in_form(1.5)
    assert player.hand.angle_sd == pytest.approx(1.5 * base.angle_sd)
    assert player.hand.speed_sd == pytest.approx(1.5 * base.speed_sd)
    assert player.profile == base
    player.in_form(1.0)
    assert player.hand is base


def test_round_forms_have_median_one_and_the_documented_spread():
    from simulation.players.noise import ROUND_FORM_SD, round_form

    forms = round_form(np.random.default_rng(5), 20_000)
    assert np.median(forms) == pytest.approx(1.0, abs=0.02)
    assert np.std(np.log(forms)) == pytest.approx(ROUND_FORM_SD, rel=0.03)


def test_round_forms_are_the_c_librarys_exponential_of_the_generators_draws():
    """A seed gives the same game on any processor only if the round's form does: it is
    ``math.exp`` of the draws (numpy's own exponential differs in the last bit on some)."""
    import math

    from simulation.players.noise import ROUND_FORM_SD, round_form

    normals = np.random.default_rng(11).standard_normal(5_000).tolist()
    forms = round_form(np.random.default_rng(11), 5_000)
    assert forms.tolist() == [math.exp(ROUND_FORM_SD * z) for z in normals]
    one = round_form(np.random.default_rng(12))
    assert type(one) is float
    assert one == math.exp(ROUND_FORM_SD * np.random.default_rng(12).standard_normal())
