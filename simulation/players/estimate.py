"""Estimating a profile from a player's record, and a profile's open-20 rate.

A registered player has no measured execution noise, but their scorecards give their 20s per game.
A player averaging x should be one who makes about x 20s per game against a like opponent, so the
anchors are the 20s per game each calibrated level makes against itself in simulation (measured by
``python -m simulation.players.calibrate --games N``; the levels were fitted to the real ladder of
:data:`simulation.players.calibrate.LADDER`), not the real figures the levels were fitted to: a
player between two levels gets their noise, search budget and open-board weight interpolated
between those levels' (linearly in the 20s per game; clamped at the novice and best ends, where
no level says more), with the repertoire of the nearest level.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import numpy as np

from simulation.players.evaluate import DEFAULT_WEIGHTS
from simulation.players.profiles import LEVELS, OPEN_20_TARGETS, PROFILES, SkillProfile
from tournaments.translation import _

TWENTIES_PER_GAME: Mapping[str, float] = MappingProxyType(
    {"novice": 3.10, "recreational": 5.04, "competitive": 6.38, "top": 9.38, "best": 11.55}
)
"""20s per player per 4-round game of each level against itself, in simulation: ``python -m
simulation.players.calibrate --games 200 --jobs 2`` (200 seeded games of each level), with
each player's own round form in play (``noise.ROUND_OWN_FORM_SD``; with the shared form alone the
ladder was 1.90, 3.23, 6.58, 7.71, 8.92). Wider than the real ladder at both ends: only the
competitive level's open-board weight was refitted with the own form (``profiles.OPEN_BOARD``)."""


def profile_from_twenties(twenties_per_game: float) -> dict[str, Any]:
    """A profile dict (for ``play_game``) for a player averaging ``twenties_per_game``.

    More 20s never means a larger error: the result is monotone in the average.
    """
    if isinstance(twenties_per_game, bool) or not isinstance(twenties_per_game, int | float):
        raise ValueError(
            _("20s per game must be a number, not %(value)r") % {"value": twenties_per_game}
        )
    if not np.isfinite(twenties_per_game) or twenties_per_game < 0:
        raise ValueError(
            _("20s per game must be 0 or more, not %(value)s") % {"value": twenties_per_game}
        )
    anchors = np.array([TWENTIES_PER_GAME[level] for level in LEVELS])
    angle = np.interp(twenties_per_game, anchors, [PROFILES[lv].angle_sd for lv in LEVELS])
    speed = np.interp(twenties_per_game, anchors, [PROFILES[lv].speed_sd for lv in LEVELS])
    shots = np.interp(twenties_per_game, anchors, [PROFILES[lv].shots for lv in LEVELS])
    open_board = np.interp(twenties_per_game, anchors, [_open_board(lv) for lv in LEVELS])
    nearest = LEVELS[int(np.argmin(np.abs(anchors - twenties_per_game)))]
    return {
        "name": _("estimated from %(twenties).2f 20s per game") % {"twenties": twenties_per_game},
        "angle_sd": round(float(angle), 4),
        "speed_sd": round(float(speed), 4),
        "shots": round(float(shots)),
        "repertoire": PROFILES[nearest].repertoire,
        "open_board": round(float(open_board), 2),
    }


def _open_board(level: str) -> float:
    weight = PROFILES[level].open_board
    return DEFAULT_WEIGHTS.open_board if weight is None else weight


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
