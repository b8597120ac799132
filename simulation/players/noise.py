"""Execution noise: the shot a player releases is the shot they chose, a little off.

Gaussian on the direction (degrees, absolute: a long take-out drifts further sideways than a
short one, as it does on a real board) and on the speed (relative: a hard shot is less exact in
absolute terms than a soft one). The start position is exact: a player sets the disc down where
they mean to. The same standard-normal draws can be replayed for many candidate shots (common
random numbers), so that the search compares shots under the same luck.
"""

from __future__ import annotations

import numpy as np

from simulation.players.profiles import SkillProfile


def draws(rng: np.random.Generator, n: int) -> np.ndarray:
    """``n`` pairs of standard-normal draws: column 0 for the direction, 1 for the speed."""
    return rng.standard_normal((n, 2))


def perturb(
    angle: np.ndarray, speed: np.ndarray, profile: SkillProfile, z: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The released direction (degrees) and speed for nominal ``angle`` / ``speed`` and draws ``z``.

    Arrays broadcast: ``angle`` and ``speed`` of shape (C, 1) against ``z`` of shape (S, 2) give
    (C, S). The speed never goes below 0.
    """
    released_angle = angle + profile.angle_sd * z[..., 0]
    released_speed = np.maximum(speed * (1.0 + profile.speed_sd * z[..., 1]), 0.0)
    return released_angle, released_speed


def execute(
    shot: dict[str, float], profile: SkillProfile, rng: np.random.Generator
) -> dict[str, float]:
    """The shot actually released for the chosen ``shot`` (seat, position, angle, speed, id)."""
    z = draws(rng, 1)[0]
    angle, speed = perturb(np.float64(shot["angle"]), np.float64(shot["speed"]), profile, z)
    released = dict(shot)
    released["angle"] = float(angle)
    released["speed"] = float(speed)
    return released
