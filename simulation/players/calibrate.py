"""Calibrating the skill profiles: their open-20 rates, then their 20s in games.

Open 20s. The standard open 20 is shot from seat 0, the disc set on the shooting line on the
seat's centre line, aimed at the centre at :data:`~simulation.players.candidates.OPEN_20_SPEED`. A
level's rate is the share of 2,000 seeded attempts under its noise that end flat in the 20 hole,
simulated with the real physics in one batch call. The rate falls steadily as the direction error
grows, and with the draws fixed (common random numbers) it is a step function of it, so bisection
finds the error that meets each target; the speed error of each level is fixed beforehand
(``SPEED_SD``).

20s in games. A player's hand sets how often an open 20 drops, but how many open 20s a game
offers is set by how the players choose their shots: a player who sticks on every take-out keeps
the board full and shoots few 20s. With the open-20 rates fixed, each level's open-board weight
(``SkillProfile.open_board``) is fitted so that the level, playing itself over seeded 4-round
games, makes its 20s per game (:data:`LADDER`); the competitive level's target is the mean of the
real per-round distribution, and its whole distributions are then compared with the real ones
(:data:`PLAYER_ROUND_SHARES`, :data:`BOTH_ROUNDS_SHARES`), which the fit does not aim at: they
check it.

``python -m simulation.players.calibrate`` prints the open-20 constants for ``profiles.py``;
``--games N`` plays N seeded games of each level against itself and prints every target against
the simulation; ``--fit`` fits the open-board weights and prints them (and the simulated ladder,
for :mod:`simulation.players.estimate`).
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

import numpy as np

from simulation.physics import DEFAULT_PARAMS, PhysicsParams, codes, simulate_batch
from simulation.players import noise
from simulation.players.candidates import OPEN_20_SPEED
from simulation.players.noise import perturb, round_form
from simulation.players.profiles import (
    LEVELS,
    OPEN_20_TARGETS,
    PROFILES,
    SPEED_SD,
    SkillProfile,
)
from tournaments.translation import _

ATTEMPTS = 2000
SEED = 2024


def open_20_rate(
    profile: SkillProfile,
    attempts: int = ATTEMPTS,
    seed: int = SEED,
    speed: float = OPEN_20_SPEED,
    params: PhysicsParams = DEFAULT_PARAMS,
) -> float:
    """Share of ``attempts`` standard open 20s under ``profile``'s noise that score a 20, each
    shot in a round's form of its own, shared and the player's own (the mean over rounds)."""
    return _rate(profile, _draws(attempts, seed), speed, params)


def _draws(attempts: int, seed: int) -> np.ndarray:
    """The attempts' standard-normal draws (direction, speed), each pair scaled by its round's
    form, the shared one times the player's own (``noise.round_forms``): the same as scaling the
    profile's errors (``perturb`` is linear in them)."""
    rng = np.random.default_rng(seed)
    z = rng.standard_normal((attempts, 2))
    form = round_form(rng, attempts)
    if noise.ROUND_OWN_FORM_SD:
        own = rng.standard_normal(attempts).tolist()
        form = form * np.array([math.exp(noise.ROUND_OWN_FORM_SD * x) for x in own])
    return z * form[:, None]


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
    z = _draws(attempts, seed)

    def rate(angle_sd: float) -> float:
        return _rate(SkillProfile("calibrating", angle_sd, speed_sd), z, OPEN_20_SPEED, params)

    if rate(low) < target:
        raise ValueError(
            _("an open-20 rate of %(target).3f is out of reach with a speed error of %(speed_sd)s")
            % {"target": target, "speed_sd": speed_sd}
        )
    for _step in range(steps):
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


PLAYER_ROUND_SHARES = (0.240, 0.297, 0.220, 0.127, 0.066, 0.030, 0.014, 0.004, 0.001)
"""Share of competitive singles player-rounds (8 discs) with 0, 1, ... 8 20s (real games)."""

PLAYER_ROUND_MEAN = 1.66
"""20s per player per round in the same games."""

BOTH_ROUNDS_SHARES = (
    0.090,
    0.168,
    0.198,
    0.164,
    0.118,
    0.088,
    0.061,
    0.040,
    0.026,
    0.016,
    0.012,
    0.019,
)
"""Share of competitive singles rounds with 0, 1, ... 10 and 11 or more 20s by both players."""

LADDER: Mapping[str, float] = MappingProxyType(
    {"novice": 1.8, "recreational": 3.25, "competitive": 6.64, "top": 7.6, "best": 9.0}
)
"""20s per player per 4-round game of each level against itself. Competitive: 4 rounds of the
real per-round mean (the field of preliminaries, 6.2, and power pools, 6.9); recreational: the
middle of the recreational preliminaries' 2.7-3.8; top: between the power pools (6.9) and the
semifinals (8); best: the middle of semifinals and finals (8-10); novice: no published figure,
below the recreational range by as much as that range is wide."""

FIT_BRACKETS: Mapping[str, tuple[float, float]] = MappingProxyType(
    {
        "novice": (-30.0, -22.0),
        "recreational": (-30.0, -22.0),
        "competitive": (-20.0, 25.0),
        "top": (-20.0, 25.0),
        "best": (-20.0, 25.0),
    }
)
"""Where each level's open-board weight is searched. The 20s per game are not monotone in the
weight: they rise from very negative weights (a player who clears the board at any cost leaves
the opponent open 20s) to a peak near -20, then fall as the player sticks more and more. The
brackets keep each search on one side of the peak: the weak levels on the rising side, where
their low targets lie, the strong ones on the falling side. With each player's own round form in
play the weak levels miss their targets at -30 (3.0 and 5.1 20s per game for 1.8 and 3.25); the
weight that meets them (-120, -87) made the backtest's games end far too one-sidedly
(``profiles.OPEN_BOARD``), so they are not refitted there."""

GAMES = 300
"""Games per level for the comparison table when not told otherwise."""
FIT_GAMES = 120
"""Games per trial of the fit."""
GAME_SEED = 7000
"""Seed of the first game; game ``i`` is played with ``GAME_SEED + i``."""


@dataclass
class GameStats:
    """20s counted over games of one pairing: per player-round, per round, per player-game."""

    player_rounds: np.ndarray = field(default_factory=lambda: np.zeros(9, dtype=np.int64))
    both_rounds: np.ndarray = field(default_factory=lambda: np.zeros(17, dtype=np.int64))
    player_games: list[int] = field(default_factory=list)

    def add(self, other: GameStats) -> None:
        self.player_rounds += other.player_rounds
        self.both_rounds += other.both_rounds
        self.player_games.extend(other.player_games)

    @property
    def per_round(self) -> float:
        """Mean 20s per player per round."""
        n = self.player_rounds.sum()
        return float(np.arange(9) @ self.player_rounds / n) if n else math.nan

    @property
    def per_game(self) -> float:
        """Mean 20s per player per game."""
        return float(np.mean(self.player_games)) if self.player_games else math.nan

    def player_shares(self) -> np.ndarray:
        """Shares of player-rounds with 0..8 20s."""
        return self.player_rounds / max(self.player_rounds.sum(), 1)

    def both_shares(self) -> np.ndarray:
        """Shares of rounds with 0..10 and 11+ 20s by both players (as the real table bins)."""
        counts = np.append(self.both_rounds[:11], self.both_rounds[11:].sum())
        return counts / max(counts.sum(), 1)


def _play_one(job: tuple[Any, Any, int]) -> GameStats:
    from simulation.game import play_game  # the game loop lives outside the pure core's imports

    a, b, seed = job
    record = play_game([a, b], seed=seed, events=False)  # only the 20s are counted
    stats = GameStats()
    for made in (r["twenties"] for r in record["rounds"]):
        for count in made:
            stats.player_rounds[min(count, 8)] += 1
        stats.both_rounds[min(sum(made), 16)] += 1
    stats.player_games.extend(record["twenties"])
    return stats


def play_games(
    a: Any, b: Any | None = None, games: int = GAMES, seed: int = GAME_SEED, jobs: int = 1
) -> GameStats:
    """The 20s of ``games`` seeded 4-round singles games of ``a`` against ``b`` (``a`` itself by
    default); ``a``/``b`` are anything ``play_game`` takes for a player. ``jobs`` processes."""
    b = a if b is None else b
    if isinstance(a, SkillProfile):
        a = a.to_json()
    if isinstance(b, SkillProfile):
        b = b.to_json()
    work = [(a, b, seed + i) for i in range(games)]
    total = GameStats()
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            for stats in pool.map(_play_one, work, chunksize=4):
                total.add(stats)
    else:
        for job in work:
            total.add(_play_one(job))
    return total


@dataclass(frozen=True)
class Row:
    """One line of the comparison: a target, what the simulation gives, the difference."""

    target: str
    real: float
    simulated: float
    unit: str = ""

    @property
    def difference(self) -> float:
        return self.simulated - self.real


def compare(
    competitive: GameStats,
    ladder: Mapping[str, GameStats] | None = None,
    open_20: Mapping[str, float] | None = None,
) -> list[Row]:
    """Every target of the calibration against the simulation: the competitive distributions
    (shares in %), the 20s per game of each level, and the open-20 rates (%)."""
    rows = [Row(_("20s per player per round, mean"), PLAYER_ROUND_MEAN, competitive.per_round)]
    for k, (real, sim) in enumerate(
        zip(PLAYER_ROUND_SHARES, competitive.player_shares(), strict=True)
    ):
        label = _("player-rounds with %(count)s 20s") % {"count": k}
        rows.append(Row(label, 100 * real, 100 * sim, "%"))
    for k, (real, sim) in enumerate(
        zip(BOTH_ROUNDS_SHARES, competitive.both_shares(), strict=True)
    ):
        label = _("rounds with %(count)s 20s by both") % {"count": f"{k}" if k < 11 else "11+"}
        rows.append(Row(label, 100 * real, 100 * sim, "%"))
    for level, stats in (ladder or {}).items():
        label = _("20s per game, %(level)s v %(level)s") % {"level": level}
        rows.append(Row(label, LADDER[level], stats.per_game))
    for level, rate in (open_20 or {}).items():
        label = _("open-20 rate, %(level)s") % {"level": level}
        rows.append(Row(label, 100 * OPEN_20_TARGETS[level], 100 * rate, "%"))
    return rows


def format_table(rows: Sequence[Row]) -> str:
    """The rows as an aligned text table: target, real, simulated, difference."""
    target, real, simulated, difference = _("target"), _("real"), _("simulated"), _("difference")
    lines = [f"{target:42s} {real:>8s} {simulated:>10s} {difference:>11s}"]
    for row in rows:
        lines.append(
            f"{row.target + (' (' + row.unit + ')' if row.unit else ''):42s} {row.real:8.2f} "
            f"{row.simulated:10.2f} {row.difference:+11.2f}"
        )
    return "\n".join(lines)


def worst_share_gap(competitive: GameStats) -> float:
    """The largest gap (in points of %) between a simulated and a real share, both tables."""
    gaps = [
        np.abs(competitive.player_shares() - np.array(PLAYER_ROUND_SHARES)).max(),
        np.abs(competitive.both_shares() - np.array(BOTH_ROUNDS_SHARES)).max(),
    ]
    return float(100 * max(gaps))


def round_correlation(player_shares: Sequence[float], both_shares: Sequence[float]) -> float:
    """The correlation of the two players' 20s in a round, implied by the two tables: the
    variance of the round's total is twice a player's variance plus twice the covariance (the
    11+ bin of the total counted as 11, so a little low)."""
    p = np.asarray(player_shares, dtype=float) / np.sum(player_shares)
    b = np.asarray(both_shares, dtype=float) / np.sum(both_shares)
    k, j = np.arange(len(p)), np.arange(len(b))
    var_p = p @ k**2 - (p @ k) ** 2
    var_b = b @ j**2 - (b @ j) ** 2
    return float((var_b - 2 * var_p) / (2 * var_p))


def fit_open_board(
    level: str,
    games: int = FIT_GAMES,
    seed: int = GAME_SEED,
    jobs: int = 1,
    low: float | None = None,
    high: float | None = None,
    steps: int = 4,
    report: Callable[[str], None] | None = None,
) -> tuple[float, float]:
    """The open-board weight at which ``level`` against itself makes its :data:`LADDER` 20s per
    game, and the 20s per game it makes there.

    The weight's effect is not the same at every level (a strong player who values an empty board
    less clears it and shoots open 20s; a novice who does so mostly misses them and leaves the
    opponent open boards), so the search assumes no direction within the level's bracket
    (:data:`FIT_BRACKETS`): its ends are measured first, the nearer end is kept when the target lies
    outside, and regula falsi keeps whichever half holds a change of sign. The seeds are the same at
    every trial (common random numbers), which keeps the search from chasing noise.
    """
    target = LADDER[level]
    base = PROFILES[level]
    low = FIT_BRACKETS[level][0] if low is None else low
    high = FIT_BRACKETS[level][1] if high is None else high

    def measure(weight: float) -> float:
        profile = replace(base, open_board=round(weight, 2))
        value = play_games(profile, games=games, seed=seed, jobs=jobs).per_game
        if report:
            report(
                _("  %(level)-13s open_board=%(weight)7.2f -> %(value).2f 20s per game")
                % {"level": level, "weight": weight, "value": value}
            )
        return value - target

    f_low, f_high = measure(low), measure(high)
    best = (low, f_low) if abs(f_low) <= abs(f_high) else (high, f_high)
    if f_low * f_high > 0:
        return round(best[0], 2), best[1] + target
    for _step in range(steps):
        weight = low + (high - low) * f_low / (f_low - f_high)
        weight = min(max(weight, low + 0.1 * (high - low)), high - 0.1 * (high - low))
        f = measure(weight)
        if abs(f) < abs(best[1]):
            best = (weight, f)
        if abs(f) < 0.05:
            break
        if f * f_low > 0:
            low, f_low = weight, f
        else:
            high, f_high = weight, f
    return round(best[0], 2), best[1] + target


def main(argv: Sequence[str] | None = None) -> None:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(
        prog="python -m simulation.players.calibrate",  # untranslated: the command people type
        description=_("Calibrate the skill profiles on real open-20 rates and 20s in games."),
    )
    parser.add_argument("--games", type=int, help="games per level for the comparison table")
    parser.add_argument("--fit", action="store_true", help="fit the open-board weights")
    parser.add_argument("--fit-games", type=int, default=FIT_GAMES, help="games per fit trial")
    parser.add_argument("--seed", type=int, default=GAME_SEED, help="seed of the first game")
    parser.add_argument("--jobs", type=int, default=1, help="processes to play games in")
    parser.add_argument("--levels", nargs="*", default=list(LEVELS), help="levels to fit")
    args = parser.parse_args(argv)
    if args.games is not None and args.games < 1:
        parser.error(_("--games must be at least 1"))
    if not args.fit and args.games is None:
        open_20_main()
        return
    profiles = dict(PROFILES)
    if args.fit:
        print(
            _("Fitting open_board (%(games)s games per trial, seed %(seed)s):")
            % {"games": args.fit_games, "seed": args.seed}
        )
        for level in args.levels:
            weight, made = fit_open_board(level, args.fit_games, args.seed, args.jobs, report=print)
            profiles[level] = replace(profiles[level], open_board=weight)
            print(
                _("%(level)s: open_board=%(weight)s (%(made).2f 20s per game, target %(target)s)")
                % {"level": level, "weight": weight, "made": made, "target": LADDER[level]}
            )
        print("\n" + _("For profiles.py (OPEN_BOARD):"))
        print("    {" + ", ".join(f'"{lv}": {profiles[lv].open_board}' for lv in LEVELS) + "}")
    games = args.games if args.games is not None else GAMES
    ladder = {
        level: play_games(profiles[level], games=games, seed=args.seed, jobs=args.jobs)
        for level in LEVELS
    }
    rates = {level: open_20_rate(profiles[level]) for level in LEVELS}
    print(
        "\n"
        + _("%(games)s seeded games of each level against itself (seed %(seed)s):")
        % {"games": games, "seed": args.seed}
    )
    print(format_table(compare(ladder["competitive"], ladder, rates)))
    competitive = ladder["competitive"]
    print(_("largest gap in a share: %(gap).1f points") % {"gap": worst_share_gap(competitive)})
    real_corr = round_correlation(PLAYER_ROUND_SHARES, BOTH_ROUNDS_SHARES)
    sim_corr = round_correlation(competitive.player_shares(), competitive.both_shares())
    print(
        _(
            "correlation of the two players' 20s in a round, implied by the tables: real "
            "%(real).2f, simulated %(simulated).2f"
        )
        % {"real": real_corr, "simulated": sim_corr}
    )
    print("\n" + _("For estimate.py (TWENTIES_PER_GAME, the simulated ladder):"))
    print("    {" + ", ".join(f'"{lv}": {ladder[lv].per_game:.2f}' for lv in LEVELS) + "}")


def open_20_main() -> None:
    """Print the direction error of each level that meets its open-20 rate."""
    profiles = calibrate_profiles()
    for level, profile in profiles.items():
        rate = open_20_rate(profile)
        print(
            _(
                "%(level)-13s angle_sd=%(angle_sd).3f speed_sd=%(speed_sd).3f open-20 rate "
                "%(rate).3f (target %(target).3f)"
            )
            % {
                "level": level,
                "angle_sd": profile.angle_sd,
                "speed_sd": profile.speed_sd,
                "rate": rate,
                "target": OPEN_20_TARGETS[level],
            }
        )


if __name__ == "__main__":
    main()
