"""Estimating a profile from a player's record, and a profile's open-20 rate.

A registered player has no measured execution noise, but their scorecards give their 20s per game.
The project's board facts give the 20s per game of players of each level, so a player's average
places them between two calibrated levels, and their noise is interpolated between those levels'
(linearly in the 20s per game; clamped at the novice and best ends, where no figure says more),
with the search budget likewise and the repertoire of the nearest level.

Anchors (20s per game per player, 4-round singles games):

- recreational 3.25: the middle of the WCC recreational preliminaries' 2.7-3.8;
- competitive 5.5: the middle of the WCC competitive preliminaries' 4.8-6.2;
- top 6.4: the competitive singles preliminary average of 2009-2020 (that field's upper half);
- best 8.5: the same players' playoff average, the level of those who reach the playoffs;
- novice 1.8: no published figure; below the recreational range by as much as that range is wide.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import numpy as np

from simulation.players.profiles import LEVELS, OPEN_20_TARGETS, PROFILES, SkillProfile

TWENTIES_PER_GAME: Mapping[str, float] = MappingProxyType(
    {"novice": 1.8, "recreational": 3.25, "competitive": 5.5, "top": 6.4, "best": 8.5}
)
"""20s per game per player at each level (see the module docstring for the sources)."""


def profile_from_twenties(twenties_per_game: float) -> dict[str, Any]:
    """A profile dict (for ``play_game``) for a player averaging ``twenties_per_game``.

    More 20s never means a larger error: the result is monotone in the average.
    """
    if isinstance(twenties_per_game, bool) or not isinstance(twenties_per_game, int | float):
        raise ValueError(f"20s per game must be a number, not {twenties_per_game!r}")
    if not np.isfinite(twenties_per_game) or twenties_per_game < 0:
        raise ValueError(f"20s per game must be 0 or more, not {twenties_per_game}")
    anchors = np.array([TWENTIES_PER_GAME[level] for level in LEVELS])
    angle = np.interp(twenties_per_game, anchors, [PROFILES[lv].angle_sd for lv in LEVELS])
    speed = np.interp(twenties_per_game, anchors, [PROFILES[lv].speed_sd for lv in LEVELS])
    shots = np.interp(twenties_per_game, anchors, [PROFILES[lv].shots for lv in LEVELS])
    nearest = LEVELS[int(np.argmin(np.abs(anchors - twenties_per_game)))]
    return {
        "name": f"estimated from {twenties_per_game:.2f} 20s per game",
        "angle_sd": round(float(angle), 4),
        "speed_sd": round(float(speed), 4),
        "shots": round(float(shots)),
        "repertoire": PROFILES[nearest].repertoire,
    }


def open_20_rate_of(profile: SkillProfile) -> float:
    """The open-20 rate of a profile: a named level's calibrated target, otherwise interpolated
    between the levels by direction error (the error that matters for the open 20), and
    extrapolated linearly beyond them, within 1 % and 99 %."""
    named = PROFILES.get(profile.name)
    if named is not None and named == profile:
        return OPEN_20_TARGETS[profile.name]
    order = sorted(LEVELS, key=lambda level: PROFILES[level].angle_sd)
    sds = np.array([PROFILES[level].angle_sd for level in order])
    rates = np.array([OPEN_20_TARGETS[level] for level in order])
    x = profile.angle_sd
    if x < sds[0]:
        rate = rates[0] + (x - sds[0]) * (rates[1] - rates[0]) / (sds[1] - sds[0])
    elif x > sds[-1]:
        rate = rates[-1] + (x - sds[-1]) * (rates[-1] - rates[-2]) / (sds[-1] - sds[-2])
    else:
        rate = float(np.interp(x, sds, rates))
    return float(min(max(rate, 0.01), 0.99))
