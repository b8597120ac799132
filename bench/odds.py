"""Benchmark of the live cut odds: a 400-player preliminary's odds worked out again after a
result, in under 2 s of one core, and their agreement with the full physics.

The field is synthetic but shaped like a real one: true levels spread about the field's 20s per
game as the record's players are (``simulation.players.belief.RECORD_SPREAD.field``), each game
of the rounds already played drawn from the stored table at those levels, and each player then
described as the app describes them, by the belief their games give
(:func:`simulation.players.belief.belief`: mean and spread). Random pairings each round, 8
games each; two moments are timed: the last round left (200 games) and three rounds left (600).

Timed: :func:`simulation.outcomes.cut.cut_odds` with enough finishes for a standard error under
1 point at 50 % (2,500 by default), pinned to one core, several repeats, the median of the CPU
seconds the process spent (the wall time beside it: on a busy machine it counts others' work).
Baseline in the same process: a plain per-finish Python version (each game drawn on its own, the
totals in dicts, each finish sorted on its own), timed on a few finishes and scaled up to as
many, for the ratio (it leaves out what an entry needs; the timed version does not). Beside
them, the machine's yardstick (``bench/preview.py``'s plain Python loop), to compare runs of
different days.

Agreement: the small event of :mod:`simulation.outcomes.physics_check` (8 players, the last
round left, cut 4), each game left played ``--physics-games`` times by the physics (by two
processes), its finishes' cut chances beside the table's: the largest gap in points.

Ends with one ``RESULT`` line. Run: ``python bench/odds.py [--physics-games N] [--repeats N]``.
"""

from __future__ import annotations

import os

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")  # one core: numpy's libraries must not spread out

import argparse  # noqa: E402
import multiprocessing as mp  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
for _path in (ROOT, ROOT / "bench"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from preview import _machine_loop_s  # noqa: E402

from simulation.outcomes.cut import Standing, cut_odds  # noqa: E402
from simulation.outcomes.table import (  # noqa: E402
    REGULAR_ROUNDS,
    OutcomeTable,
    load_table,
    sample_games,
)
from simulation.players.belief import RECORD_SPREAD, belief  # noqa: E402

FIELD_MEAN = 5.0
"""The field's 20s per game (a WCC open field: between the recreational and competitive levels
of :data:`simulation.players.estimate.TWENTIES_PER_GAME`)."""
GAMES_EACH = 8
TARGET_S = 2.0


def _pairings(rng: np.random.Generator, size: int) -> list[tuple[int, int]]:
    order = rng.permutation(size)
    return [(int(order[k]), int(order[k + 1])) for k in range(0, size - 1, 2)]


def synthetic_preliminary(
    table: OutcomeTable, size: int, rounds_left: int, seed: int = 0
) -> tuple[list[Standing], list[tuple[int, int]], dict[int, tuple[float, float]]]:
    """A preliminary of ``size`` players, ``GAMES_EACH`` random rounds, all but ``rounds_left``
    played (drawn from the table at the players' true levels): standings, games left, levels."""
    rng = np.random.default_rng(seed)
    true = np.clip(rng.normal(FIELD_MEAN, RECORD_SPREAD.field, size), 0.5, None)
    points = np.zeros(size, dtype=int)
    twenties = np.zeros(size, dtype=int)
    for _ in range(GAMES_EACH - rounds_left):
        pairs = np.array(_pairings(rng, size))
        day = true[pairs] + RECORD_SPREAD.form * rng.standard_normal(pairs.shape)
        games = sample_games(table, day[:, 0], day[:, 1], rng)
        result = games[:, :REGULAR_ROUNDS].astype(int).sum(axis=1)
        np.add.at(points, pairs[:, 0], result[:, 0])
        np.add.at(points, pairs[:, 1], result[:, 1])
        np.add.at(twenties, pairs[:, 0], result[:, 2])
        np.add.at(twenties, pairs[:, 1], result[:, 3])
    played = GAMES_EACH - rounds_left
    standings = [
        Standing(entry, int(points[entry]), int(twenties[entry]), played) for entry in range(size)
    ]
    levels = {
        entry: belief(twenties[entry] / max(played, 1), played, FIELD_MEAN) for entry in range(size)
    }
    remaining = [pair for _ in range(rounds_left) for pair in _pairings(rng, size)]
    return standings, remaining, levels


def naive_cut_chances(
    table: OutcomeTable,
    standings: list[Standing],
    remaining: list[tuple[int, int]],
    levels: dict[int, tuple[float, float]],
    cut: int,
    finishes: int,
    seed: int = 0,
) -> dict[int, float]:
    """The baseline: one finish at a time, one game at a time, sorted in Python."""
    rng = np.random.default_rng(seed)
    made = dict.fromkeys((s.entry for s in standings), 0.0)
    for _ in range(finishes):
        points = {s.entry: s.points for s in standings}
        twenties = {s.entry: s.twenties for s in standings}
        for a, b in remaining:
            day_a = levels[a][0] + levels[a][1] * rng.standard_normal()
            day_b = levels[b][0] + levels[b][1] * rng.standard_normal()
            game = sample_games(table, np.array([day_a]), np.array([day_b]), rng)[0, :4]
            points[a] += int(game[:, 0].sum())
            points[b] += int(game[:, 1].sum())
            twenties[a] += int(game[:, 2].sum())
            twenties[b] += int(game[:, 3].sum())
        ranked = sorted(made, key=lambda e: (-points[e], -twenties[e]))
        line = (points[ranked[cut - 1]], twenties[ranked[cut - 1]])
        above = sum(1 for e in ranked if (points[e], twenties[e]) > line)
        level = [e for e in ranked if (points[e], twenties[e]) == line]
        for entry in ranked[:above]:
            made[entry] += 1
        for entry in level:
            made[entry] += (cut - above) / len(level)
    return {entry: count / finishes for entry, count in made.items()}


def _physics_part(args: tuple[int, int]) -> np.ndarray:
    from simulation.game import play_game
    from simulation.outcomes.physics_check import physics_games, small_event

    games, seed = args
    return physics_games(small_event(), games, play_game, seed=seed)


def agreement(physics_games_each: int, workers: int = 2) -> tuple[float, list[str], float]:
    """The physics check: max gap (points), its table of lines, and the wall seconds."""
    from simulation.outcomes.physics_check import compare, describe, small_event

    start = time.perf_counter()
    share = -(-physics_games_each // workers)
    parts = [(share, seed) for seed in range(1, workers + 1)]
    with mp.get_context("spawn").Pool(workers) as pool:
        games = np.concatenate(pool.map(_physics_part, parts), axis=1)[:, :physics_games_each]
    result = compare(small_event(), games, load_table("singles"), finishes=20_000, seed=0)
    return result.max_gap_points, list(describe(result)), time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--cut", type=int, default=16)
    parser.add_argument("--finishes", type=int, default=2500)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--naive-finishes", type=int, default=10)
    parser.add_argument("--physics-games", type=int, default=1000)
    args = parser.parse_args(argv)
    cores = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    if cores:
        os.sched_setaffinity(0, {min(cores)})

    table = load_table("singles")
    print(
        f"cut odds of a {args.players}-player preliminary, cut {args.cut}, "
        f"{args.finishes} finishes (one core; table of {table.games_per_cell} games a cell)"
    )
    timings: dict[int, float] = {}
    cases = {}
    for rounds_left in (1, 3):
        standings, remaining, levels = synthetic_preliminary(table, args.players, rounds_left)
        cases[rounds_left] = (standings, remaining, levels)
        seconds, walls = [], []
        for repeat in range(args.repeats):
            start, wall_start = time.process_time(), time.perf_counter()
            result = cut_odds(
                standings,
                remaining,
                levels,
                args.cut,
                table=table,
                finishes=args.finishes,
                seed=repeat,
            )
            seconds.append(time.process_time() - start)
            walls.append(time.perf_counter() - wall_start)
        timings[rounds_left] = statistics.median(seconds)
        open_entries = sum(1 for e in result.entries if 0.0 < e.cut < 1.0)
        with_needs = sum(1 for e in result.entries if e.needs is not None)
        print(
            f"  {rounds_left} round(s) left ({len(remaining)} games): median "
            f"{timings[rounds_left]:.3f} s of one core of {args.repeats} (min {min(seconds):.3f}; "
            f"wall {statistics.median(walls):.3f}); "
            f"{open_entries} entries neither in nor out, {with_needs} with what they need"
        )

    standings, remaining, levels = cases[1]
    start = time.process_time()
    naive = naive_cut_chances(table, standings, remaining, levels, args.cut, args.naive_finishes)
    naive_s = (time.process_time() - start) * args.finishes / args.naive_finishes
    assert abs(sum(naive.values()) - args.cut) < 1e-6
    ratio = naive_s / timings[1]
    print(
        f"  baseline: per-finish Python, {args.naive_finishes} finishes scaled to "
        f"{args.finishes}: {naive_s:.1f} s ({ratio:.0f} times slower)"
    )
    loop_s = _machine_loop_s()
    print(f"  this machine: {loop_s:.2f} s for 10**7 additions in a Python loop")
    print(f"  target: under {TARGET_S:.0f} s: {'met' if timings[1] < TARGET_S else 'NOT met'}")

    if cores:
        os.sched_setaffinity(0, cores)  # the physics' two processes may use two cores
    gap, lines, wall = agreement(args.physics_games)
    print(
        f"agreement with the physics: {args.physics_games} games a pairing, "
        f"{wall:.0f} s; cut chances in points:"
    )
    print("\n".join(lines))
    print(
        "RESULT "
        f"odds_400_s={timings[1]:.3f} odds_400_3_rounds_s={timings[3]:.3f} "
        f"finishes={args.finishes} ratio_vs_naive={ratio:.0f} yardstick_s={loop_s:.2f} "
        f"agreement_max_gap_points={gap:.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
