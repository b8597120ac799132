"""A player's level as the outcome model reads it: a mean of 20s per game and a spread.

The app describes an entry by a level name (``"competitive"``), a record
(``{"twenties_per_game": x, "spread": s}``, see :mod:`simulation.services.profiles`) or an
execution profile (``{"angle_sd": ...}``); the tables are indexed by 20s per game, so each is
turned into that figure, with the uncertainty ``play_game`` draws the day's level from.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from tournaments.translation import _

MAX_SPREAD = 10.0
"""As :func:`simulation.players.profiles.record_spread` accepts."""


def _number(value: Any, name: str, low: float, high: float) -> float:
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not math.isfinite(value)
        or not low <= value <= high
    ):
        raise ValueError(
            _("%(name)s must be a number from %(low)s to %(high)s, not %(value)r")
            % {"name": name, "low": low, "high": high, "value": value}
        )
    return float(value)


def level_of(spec: Any) -> tuple[float, float]:
    """``(mean, spread)`` of 20s per game for a profile spec as the app's previews use it.

    A level name gives the 20s per game that level makes against itself in simulation
    (:data:`simulation.players.estimate.TWENTIES_PER_GAME`), no spread; a record gives its own
    figures (spread 0 when not given); an execution profile (``angle_sd``, the error that decides
    20s) is placed between the levels by its angle error, as
    :func:`simulation.players.estimate.profile_from_twenties` places a record (clamped at the
    ends, where no level says more). Raises ``ValueError`` saying what is wrong.
    """
    from simulation.players.estimate import TWENTIES_PER_GAME
    from simulation.players.profiles import LEVELS, PROFILES

    if isinstance(spec, str):
        if spec not in TWENTIES_PER_GAME:
            raise ValueError(
                _("unknown level %(spec)r: the levels are %(levels)s")
                % {"spec": spec, "levels": ", ".join(LEVELS)}
            )
        return TWENTIES_PER_GAME[spec], 0.0
    if isinstance(spec, Mapping) and "twenties_per_game" in spec:
        mean = _number(spec["twenties_per_game"], "twenties_per_game", 0.0, 1000.0)
        spread = _number(spec.get("spread", 0.0), "spread", 0.0, MAX_SPREAD)
        return mean, spread
    angle = spec.get("angle_sd") if isinstance(spec, Mapping) else getattr(spec, "angle_sd", None)
    if angle is None:
        raise ValueError(
            _(
                'a level is a level name (%(levels)s), a record {"twenties_per_game": x, '
                '"spread": s} or a profile with angle_sd, not %(spec)r'
            )
            % {"levels": ", ".join(LEVELS), "spec": spec}
        )
    angle = _number(angle, "angle_sd", 0.0, 90.0)
    order = sorted(LEVELS, key=lambda level: PROFILES[level].angle_sd)
    sds = [PROFILES[level].angle_sd for level in order]
    twenties = [TWENTIES_PER_GAME[level] for level in order]
    return float(np.interp(angle, sds, twenties)), 0.0
