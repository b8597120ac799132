"""Benchmark of the players' calibration: simulated 20s against the real competitive figures.

Seeded 4-round singles games, played with the public ``play_game``:

- competitive against competitive (``--games``, 1,000 by default): the 20s per player per round
  (mean and distribution) and by both players per round, against the real tables;
- each level against itself (``--ladder-games``): 20s per player per game against the ladder;
- players described by their record, ``{"twenties_per_game": x}`` for x = 2..9 against a like
  opponent (``--record-games`` each): the 20s they make against x.

The baseline is real play: every figure is printed beside its real value, and the ratio of the
simulated to the real mean 20s per player per round is in the ``RESULT`` line.

Run: ``python bench/calibration.py [--games N] [--jobs J]``. Prints readable figures and ends with
one ``RESULT`` line (shares and gaps in points of %, 20s per game, relative errors in %).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from simulation.players.calibrate import (  # noqa: E402 - after the path is set
    BOTH_ROUNDS_SHARES,
    GAME_SEED,
    LADDER,
    PLAYER_ROUND_MEAN,
    PLAYER_ROUND_SHARES,
    compare,
    format_table,
    open_20_rate,
    play_games,
    round_correlation,
)
from simulation.players.profiles import LEVELS, PROFILES  # noqa: E402

RECORDS = (2, 3, 4, 5, 6, 7, 8, 9)
"""The 20s per game of the players described by their record."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="competitive v competitive")
    parser.add_argument("--ladder-games", type=int, default=300, help="each other level")
    parser.add_argument(
        "--record-games",
        type=int,
        default=500,
        help="each twenties_per_game (at 500 the 10 %% band at x = 2 is about 3 standard errors; "
        "at 150 it was 1.5, and one run read 1.76 where 500 games read 1.95)",
    )
    parser.add_argument("--jobs", type=int, default=2, help="processes")
    parser.add_argument("--seed", type=int, default=GAME_SEED + 100_000)
    args = parser.parse_args()

    start = time.perf_counter()
    ladder = {}
    for level in LEVELS:
        games = args.games if level == "competitive" else args.ladder_games
        ladder[level] = play_games(level, games=games, seed=args.seed, jobs=args.jobs)
        print(f"{level:13s} {games:5d} games: {ladder[level].per_game:.2f} 20s per game")
    competitive = ladder["competitive"]
    rates = {level: open_20_rate(PROFILES[level]) for level in LEVELS}
    print()
    print(f"competitive v competitive, {args.games} games; other levels {args.ladder_games} games")
    print(format_table(compare(competitive, ladder, rates)))
    real_corr = round_correlation(PLAYER_ROUND_SHARES, BOTH_ROUNDS_SHARES)
    corr = round_correlation(competitive.player_shares(), competitive.both_shares())
    print(
        f"correlation of the two players' 20s in a round, implied by the tables: real "
        f"{real_corr:.2f}, simulated {corr:.2f}"
    )

    print("\nplayers described by their record, against a like opponent:")
    print(
        f"{'twenties_per_game':>18s} {'games':>6s} {'simulated':>10s} {'std. error':>10s} "
        f"{'error %':>8s}"
    )
    record_errors = {}
    for x in RECORDS:
        spec = {"twenties_per_game": x}
        stats = play_games(spec, games=args.record_games, seed=args.seed, jobs=args.jobs)
        made = stats.per_game
        spread = statistics.stdev(stats.player_games) / math.sqrt(len(stats.player_games))
        record_errors[x] = 100 * (made - x) / x
        print(
            f"{x:18d} {args.record_games:6d} {made:10.2f} {spread:10.2f} {record_errors[x]:+8.1f}"
        )

    rows = compare(competitive)
    player_gap = max(abs(r.difference) for r in rows if r.target.startswith("player-rounds"))
    both_gap = max(abs(r.difference) for r in rows if r.target.startswith("rounds with"))
    elapsed = time.perf_counter() - start
    print(f"\n{elapsed:.0f} s")
    ladder_figures = " ".join(
        f"per_game_{level}={ladder[level].per_game:.2f} target_{level}={LADDER[level]}"
        for level in LEVELS
    )
    print(
        f"RESULT games={args.games} per_round={competitive.per_round:.3f} "
        f"ratio_vs_real={competitive.per_round / PLAYER_ROUND_MEAN:.3f} "
        f"worst_player_share_gap={player_gap:.2f} worst_both_share_gap={both_gap:.2f} "
        f"round_correlation={corr:.2f} real_round_correlation={real_corr:.2f} {ladder_figures} "
        f"worst_record_error={max(abs(e) for e in record_errors.values()):.1f} "
        f"seconds={elapsed:.0f}"
    )


if __name__ == "__main__":
    main()
