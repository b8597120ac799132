"""Backtest: does the simulation predict real games? Each game of the real competitive singles
record (``shared/data/competitive-singles-2009-2017.csv``) is predicted from the players' earlier
games only, by three forecasters side by side:

- the simulation: each player described by their record so far (20s per 4-round game, shrunk
  towards the competitive field's average while they have few games), and P(A wins) + P(tie)/2
  read from simulated games between players so described (a grid of 20s-per-game levels played
  once, in a process pool, and interpolated between its points);
- Elo, the usual baseline (K = 24, every player starting at 1500, a tie worth half);
- a coin (always 0.5).

It prints each forecaster's Brier score (lower is sharper; the coin's is the score of knowing
nothing) and the simulation's calibration table: games by tenth of predicted chance, the mean
prediction against what happened. The aim: at least as sharp as Elo, calibrated within 5 points
in every tenth with enough games. Real games after 2017 are kept apart for the same check later.

Run: ``python bench/backtest.py [--games-per-cell N] [--workers 2]``; ends with a ``RESULT`` line.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

DATA = ROOT.parent / "shared" / "data" / "competitive-singles-2009-2017.csv"
#: The 20s-per-game levels the simulation is played at; a player between two is interpolated.
LEVELS = (2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0)
#: Prior for a player's 20s per game: the competitive field's average, worth this many games.
PRIOR_TWENTIES, PRIOR_GAMES = 5.5, 3.0
ELO_K, ELO_START = 24.0, 1500.0
#: A tenth of the calibration table counts once it holds this many games.
ENOUGH = 30


@dataclass(frozen=True)
class RealGame:
    date: str
    a: str
    b: str
    #: 1 when A won on points, 0.5 for a tie, 0 when B won.
    score_a: float
    twenties: tuple[int, int]
    rounds: int


def read_games(path: Path = DATA) -> list[RealGame]:
    """The record, in the order played (date, then the file's order within a day)."""
    games = []
    with path.open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            pa = [int(x) for x in row["points_a"].split()]
            pb = [int(x) for x in row["points_b"].split()]
            ta = sum(int(x) for x in row["twenties_a"].split())
            tb = sum(int(x) for x in row["twenties_b"].split())
            if not pa:
                continue  # a game with no round recorded (a forfeit): nothing to predict
            total_a, total_b = sum(pa), sum(pb)
            score = 1.0 if total_a > total_b else 0.0 if total_a < total_b else 0.5
            games.append(
                RealGame(
                    row["date"],
                    row["player_a"].strip(),
                    row["player_b"].strip(),
                    score,
                    (ta, tb),
                    len(pa),
                )
            )
    return sorted(games, key=lambda g: g.date)


# --- the simulation's grid ----------------------------------------------------------------------


def _cell(task: tuple[float, float, int, int]) -> tuple[float, float, float]:
    """P(A wins) + P(tie)/2 over ``games`` simulated games of A (x_a 20s per game) against B,
    seats alternated so that neither side always shoots first."""
    from simulation.game import play_game
    from simulation.players.estimate import profile_from_twenties

    x_a, x_b, games, seed = task
    a, b = profile_from_twenties(x_a), profile_from_twenties(x_b)
    score = 0.0
    for n in range(games):
        flip = n % 2 == 1
        record = play_game([b, a] if flip else [a, b], seed=seed + n)
        points = record["points"][::-1] if flip else record["points"]
        score += 1.0 if points[0] > points[1] else 0.0 if points[0] < points[1] else 0.5
    return x_a, x_b, score / games


def simulate_grid(games_per_cell: int, workers: int) -> dict[tuple[float, float], float]:
    """The simulated chance of A against B at every pair of levels (A's side; B's is 1 - it)."""
    tasks = [
        (x_a, x_b, games_per_cell, 1000 * i + 100 * j)
        for i, x_a in enumerate(LEVELS)
        for j, x_b in enumerate(LEVELS)
        if i <= j
    ]
    grid: dict[tuple[float, float], float] = {}
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for x_a, x_b, p in pool.map(_cell, tasks):
            grid[(x_a, x_b)] = p
            grid[(x_b, x_a)] = 1.0 - p
    return grid


def interpolate(grid: dict[tuple[float, float], float], x_a: float, x_b: float) -> float:
    """Bilinear between the grid's levels, clamped at its ends."""
    levels = np.array(LEVELS)
    x_a, x_b = (float(np.clip(x, levels[0], levels[-1])) for x in (x_a, x_b))
    i = min(int(np.searchsorted(levels, x_a, side="right")) - 1, len(levels) - 2)
    j = min(int(np.searchsorted(levels, x_b, side="right")) - 1, len(levels) - 2)
    fa = (x_a - levels[i]) / (levels[i + 1] - levels[i])
    fb = (x_b - levels[j]) / (levels[j + 1] - levels[j])
    lo = grid[(levels[i], levels[j])] * (1 - fb) + grid[(levels[i], levels[j + 1])] * fb
    hi = grid[(levels[i + 1], levels[j])] * (1 - fb) + grid[(levels[i + 1], levels[j + 1])] * fb
    return lo * (1 - fa) + hi * fa


# --- the forecasts ------------------------------------------------------------------------------


def forecasts(games: Sequence[RealGame], grid) -> dict[str, list[float]]:
    """Each forecaster's prediction of each game, from the games before it only."""
    twenties: dict[str, list[float]] = defaultdict(list)
    elo: dict[str, float] = defaultdict(lambda: ELO_START)
    out: dict[str, list[float]] = {"simulation": [], "elo": [], "coin": []}
    for g in games:
        level = {}
        for name in (g.a, g.b):
            seen = twenties[name]
            level[name] = (sum(seen) + PRIOR_TWENTIES * PRIOR_GAMES) / (len(seen) + PRIOR_GAMES)
        out["simulation"].append(interpolate(grid, level[g.a], level[g.b]))
        expected = 1.0 / (1.0 + 10 ** ((elo[g.b] - elo[g.a]) / 400.0))
        out["elo"].append(expected)
        out["coin"].append(0.5)
        # What the game teaches, for the games after it (per 4 rounds, as the levels are).
        per_four = 4.0 / g.rounds
        twenties[g.a].append(g.twenties[0] * per_four)
        twenties[g.b].append(g.twenties[1] * per_four)
        elo[g.a] += ELO_K * (g.score_a - expected)
        elo[g.b] -= ELO_K * (g.score_a - expected)
    return out


def brier(predicted: Sequence[float], observed: Sequence[float]) -> float:
    p, y = np.asarray(predicted), np.asarray(observed)
    return float(np.mean((p - y) ** 2))


def calibration(predicted: Sequence[float], observed: Sequence[float]) -> list[tuple]:
    """(tenth, games, mean predicted, mean observed) for each tenth of predicted chance."""
    rows = []
    p, y = np.asarray(predicted), np.asarray(observed)
    tenth = np.minimum((p * 10).astype(int), 9)
    for t in range(10):
        mask = tenth == t
        if mask.any():
            rows.append((t, int(mask.sum()), float(p[mask].mean()), float(y[mask].mean())))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games-per-cell", type=int, default=24)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--data", type=Path, default=DATA, help="the real games (CSV)")
    args = parser.parse_args()
    games = read_games(args.data)
    print(f"{len(games)} real games, {games[0].date} to {games[-1].date}")
    started = time.perf_counter()
    grid = simulate_grid(args.games_per_cell, args.workers)
    cells = len(LEVELS) * (len(LEVELS) + 1) // 2
    print(
        f"simulated {cells} pairs of levels x {args.games_per_cell} games in "
        f"{time.perf_counter() - started:.0f} s"
    )
    predicted = forecasts(games, grid)
    observed = [g.score_a for g in games]
    scores = {name: brier(p, observed) for name, p in predicted.items()}
    for name, score in scores.items():
        print(f"Brier {name:11} {score:.4f}")
    print("\nsimulation's calibration: tenth, games, predicted, observed")
    worst = 0.0
    for t, n, mean_p, mean_y in calibration(predicted["simulation"], observed):
        gap = abs(mean_p - mean_y) * 100
        counted = n >= ENOUGH
        if counted:
            worst = max(worst, gap)
        mark = "" if counted else "  (too few games to judge)"
        span = f"{t / 10:.1f}-{(t + 1) / 10:.1f}"
        print(f"  {span} {n:5} {mean_p:8.3f} {mean_y:9.3f}  {gap:4.1f} pts{mark}")
    print(
        "RESULT "
        f"games={len(games)} brier_simulation={scores['simulation']:.4f} "
        f"brier_elo={scores['elo']:.4f} brier_coin={scores['coin']:.4f} "
        f"sharper_than_elo={int(scores['simulation'] <= scores['elo'])} "
        f"worst_calibration_gap_pts={worst:.1f}"
    )


if __name__ == "__main__":
    main()
