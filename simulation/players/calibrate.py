"""Calibrating the skill profiles: the direction error that gives each level its open-20 rate.

The standard open 20 is shot from seat 0, the disc set on the shooting line on the seat's centre
line, aimed at the centre at :data:`~simulation.players.candidates.OPEN_20_SPEED`. A level's rate
is the share of 2,000 seeded attempts under its noise that end flat in the 20 hole, simulated with
the real physics in one batch call. The rate falls steadily as the direction error grows, and with
the draws fixed (common random numbers) it is a step function of it, so bisection finds the error
that meets each target; the speed error of each level is fixed beforehand (``SPEED_SD``).

Run ``python -m simulation.players.calibrate`` to print the constants for ``profiles.py``.
"""

from __future__ import annotations

import numpy as np

from simulation.physics import DEFAULT_PARAMS, PhysicsParams, codes, simulate_batch
from simulation.players.candidates import OPEN_20_SPEED
from simulation.players.noise import perturb
from simulation.players.profiles import LEVELS, OPEN_20_TARGETS, SPEED_SD, SkillProfile

ATTEMPTS = 2000
SEED = 2024


def open_20_rate(
    profile: SkillProfile,
    attempts: int = ATTEMPTS,
    seed: int = SEED,
    speed: float = OPEN_20_SPEED,
    params: PhysicsParams = DEFAULT_PARAMS,
) -> float:
    """Share of ``attempts`` standard open 20s under ``profile``'s noise that score a 20."""
    z = np.random.default_rng(seed).standard_normal((attempts, 2))
    return _rate(profile, z, speed, params)


def _rate(profile: SkillProfile, z: np.ndarray, speed: float, params: PhysicsParams) -> float:
    angle, released = perturb(np.float64(0.0), np.float64(speed), profile, z)
    heading = np.radians(90.0 + angle)  # seat 0 shoots towards +y; angle counterclockwise
    vel = np.stack([released * np.cos(heading), released * np.sin(heading)], axis=-1)
    start = np.tile([0.0, -params.shooting_line_radius], (len(z), 1))
    batch = simulate_batch(
        np.zeros((1, 2)), np.zeros(1, dtype=np.int8), 0, start, vel, params=params
    )
    return float(np.mean(batch.status[:, 0] == codes.CAPTURED))


def calibrate_angle_sd(
    target: float,
    speed_sd: float,
    attempts: int = ATTEMPTS,
    seed: int = SEED,
    low: float = 0.01,
    high: float = 10.0,
    steps: int = 30,
    params: PhysicsParams = DEFAULT_PARAMS,
) -> float:
    """The direction error (degrees, 3 decimals) at which the open-20 rate meets ``target``."""
    z = np.random.default_rng(seed).standard_normal((attempts, 2))

    def rate(angle_sd: float) -> float:
        return _rate(SkillProfile("calibrating", angle_sd, speed_sd), z, OPEN_20_SPEED, params)

    if rate(low) < target:
        raise ValueError(
            f"an open-20 rate of {target:.3f} is out of reach with a speed error of {speed_sd}"
        )
    for _ in range(steps):
        middle = 0.5 * (low + high)
        if rate(middle) >= target:
            low = middle
        else:
            high = middle
    return round(low, 3)


def calibrate_profiles(
    attempts: int = ATTEMPTS, seed: int = SEED, params: PhysicsParams = DEFAULT_PARAMS
) -> dict[str, SkillProfile]:
    """Every named level, its direction error calibrated to its open-20 target."""
    return {
        level: SkillProfile(
            level,
            calibrate_angle_sd(
                OPEN_20_TARGETS[level], SPEED_SD[level], attempts, seed, params=params
            ),
            SPEED_SD[level],
        )
        for level in LEVELS
    }


def main() -> None:
    profiles = calibrate_profiles()
    for level, profile in profiles.items():
        rate = open_20_rate(profile)
        print(
            f"{level:13s} angle_sd={profile.angle_sd:.3f} speed_sd={profile.speed_sd:.3f} "
            f"open-20 rate {rate:.3f} (target {OPEN_20_TARGETS[level]:.3f})"
        )


if __name__ == "__main__":
    main()
