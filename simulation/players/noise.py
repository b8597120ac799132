"""Execution noise: the shot a player releases is the shot they chose, a little off.

Gaussian on the direction (degrees, absolute: a long take-out drifts further sideways than a
short one, as it does on a real board) and on the speed (relative: a hard shot is less exact in
absolute terms than a soft one). The start position is exact: a player sets the disc down where
they mean to. The same standard-normal draws can be replayed for many candidate shots (common
random numbers), so that the search compares shots under the same luck.
"""

from __future__ import annotations

import math

import numpy as np

from simulation.players.profiles import SkillProfile

ROUND_FORM_SD = 0.2
"""The spread of a round's shared form: every player's direction and speed errors in a round are
multiplied by ``exp(ROUND_FORM_SD * z)``, ``z`` one standard-normal draw per round shared by
everyone at the board (:func:`round_form`). Real rounds come in kinds: in some both players keep
the board clear and trade open 20s, in others discs stick and few 20s fall for either, so the two
players' 20s in a round go together (a correlation of about 0.45, implied by the real tables of
20s per player and per round: ``simulation.players.calibrate.round_correlation``).

Chosen on those tables (``python -m simulation.players.calibrate --games N`` prints both against
the simulation), then the open-20 rates and the open-board weights refitted with it (a profile's
open-20 rate is its mean over rounds). Measured over seeded competitive games: without it, a
correlation of 0.01 and a largest gap of 5.8 points in a share; at 0.3 with its refit, 0.48 and
3.8 to 4.1 (too many rounds with no 20 and too few with two: rounds too unlike each other); at
0.2 with its refit, 0.44 and about 2.3; at 0.12, 0.38 and 2.3. 0.2 fits the correlation too.

Kept at 0.2 when each player's own form (:data:`ROUND_OWN_FORM_SD`, 0.5) came into play, with the
open-20 direction errors, the competitive open-board weight and the ladder refitted with both
(``calibrate``'s ``_draws`` scales each attempt by the shared form times an own one). Refitted
so, the correlation is 0.34 (200 competitive games), not the 0.24 of the own form without a
refit, and a larger shared form does not raise it: over 400 seeded competitive games, 0.2 gave
0.31 (largest gap in a share 7.0 points) and 0.3 gave 0.28 (5.7); over 200, 0.1 gave 0.28
(5.6), all within a sample's noise of each other. The own form costs the 20s tables their close
fit: the largest gap is 6.2 points (200 games; about 2.3 without it), too many player-rounds
with no 20 (about 30 % against 24 %) and too few with two (18 % against 22 %), the price of
games that end as real ones do."""


ROUND_OWN_FORM_SD = 0.5
"""The spread of each player's own form in a round, on top of the shared one: a player's errors
in a round are multiplied by ``exp(ROUND_OWN_FORM_SD * z)`` too, ``z`` drawn per player and per
round (:func:`round_forms`), so that one player may have a good round while the other has a bad
one: the spread of results then comes from play, not only from the levels drawn. Measured on the
backtest
(``bench/backtest.py``, the shares of results 8-0 ... 4-4 of the first 4 rounds of simulated
games between the real games' players, 24-32 games per pair of levels, against the real 21.6 /
6.1 / 36.2 / 12.0 / 24.1 %): without it the simulated games end 8-0 31.7 % and 4-4 13.8 % (a
worst gap of 10.4 points; Brier 0.1546 with the app's day's spread of 2.0, Elo 0.1732), and
shrinking the day's spread alone does not mend it (at 0: 26.9 % and 15.1 %, Brier 0.1602); at
0.35 the worst gap falls to 7.4 points (6.1 with a day's spread of 1.0) and the Brier score to
0.1543-0.1546; at 0.5 every share is within 4.1 points (22.0 / 6.4 / 37.6 / 14.0 / 20.1 %) and
the Brier score is 0.1555 (the 20s logistic 0.1567, Elo 0.1732), the worst tenth of the
calibration 5.2 points (3.9 without; the table's own noise 4.4); at 0.6, 8-0 falls to 16-18 %
and 5-3 rises to 16.6 %. In play at 0.5: the round loop gives each player their own factor
(``round_forms``) and, since a player's errors then grow on average by ``exp(sd**2 / 2)``, the
levels were refitted with it (the open-20 direction errors of ``profiles.PROFILES``, the
competitive open-board weight ``profiles.OPEN_BOARD``, the ladder ``estimate.TWENTIES_PER_GAME``;
see :data:`ROUND_FORM_SD` for the 20s tables and the correlation). So refitted, the backtest
(60 games per pair of levels) gives 21.9 / 6.3 / 37.7 / 12.0 / 22.1 % (worst gap 2.0 points),
a Brier score of 0.1564 (the 20s logistic 0.1567, Elo 0.1732) and a worst tenth of the
calibration 7.2 points (a perfect forecaster's 5.1 on the same games). Without the refit the two
players' 20s in a round correlated at 0.24 (real 0.45) and the 20s tables' largest gap was 9.3
points."""


def round_forms(rng: np.random.Generator, players: int) -> list[float]:
    """Each player's factor on their errors for one round: the shared form times their own
    (:data:`ROUND_OWN_FORM_SD`; at 0, the shared form alone, from the same one draw as
    :func:`round_form`)."""
    shared = float(round_form(rng))
    if ROUND_OWN_FORM_SD == 0.0:
        return [shared] * players
    normals = rng.standard_normal(players).tolist()
    return [shared * math.exp(ROUND_OWN_FORM_SD * z) for z in normals]


def round_form(rng: np.random.Generator, n: int | None = None) -> float | np.ndarray:
    """One round's shared form (or ``n`` of them): the factor on every hand's errors.

    The exponential is the C library's (``math.exp``), as in the rules and the compiled physics,
    not numpy's: on processors with AVX-512 numpy computes it with code of its own, which can
    differ in the last bit, and one bit of a round's form changes every shot after it, so the
    same seed would give another game there."""
    if n is None:
        return math.exp(ROUND_FORM_SD * rng.standard_normal())
    normals = rng.standard_normal(n).tolist()
    return np.array([math.exp(ROUND_FORM_SD * z) for z in normals])


def draws(rng: np.random.Generator, n: int) -> np.ndarray:
    """``n`` pairs of standard-normal draws: column 0 for the direction, 1 for the speed."""
    return rng.standard_normal((n, 2))


def perturb(
    angle: np.ndarray, speed: np.ndarray, profile: SkillProfile, z: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The released direction (degrees) and speed for nominal ``angle`` / ``speed`` and draws ``z``.

    Arrays broadcast: ``angle`` and ``speed`` of shape (C, 1) against ``z`` of shape (S, 2) give
    (C, S). The speed never goes below 0. The same formula for one shot, in plain floats, is
    :func:`execute`'s, and for the search's samples, compiled, ``search_kernel._values``'.
    """
    released_angle = angle + profile.angle_sd * z[..., 0]
    released_speed = np.maximum(speed * (1.0 + profile.speed_sd * z[..., 1]), 0.0)
    return released_angle, released_speed


def execute(
    shot: dict[str, float], profile: SkillProfile, rng: np.random.Generator
) -> dict[str, float]:
    """The shot actually released for the chosen ``shot`` (seat, position, angle, speed, id):
    :func:`perturb` for one shot, in plain floats (the same numbers from the same two draws; a
    numpy scalar per step cost more than the rest of the release)."""
    z_angle, z_speed = rng.standard_normal(2).tolist()
    released = dict(shot)
    released["angle"] = shot["angle"] + profile.angle_sd * z_angle
    released["speed"] = max(shot["speed"] * (1.0 + profile.speed_sd * z_speed), 0.0)
    return released
