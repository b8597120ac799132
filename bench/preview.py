"""Benchmark of a match preview: how long 1,000 simulated games take, and how soon the
probabilities settle.

The preview's games are played as the app plays them (``simulation.services.playing``: the
same spec, seeds and parts: ``playing.preview_parts``), by a pool of two worker
processes, the parts handed out as the Celery workers take them; this process sums each part up
as it comes back, as the preview's page does. The baseline, in the same run: the first parts
played by one process, for the speed-up of two workers over one. Each part also reports the time
its players spent deciding (their search): that time shared between the workers is the floor no
change outside the search can go below. Last, a plain Python loop, to compare runs of different
days on a machine whose speed varies.

Prints the machine's yardstick (:func:`_machine_loop_s`, before and after the run) beside the wall
time, the games per second, entry A's chance of winning as the parts arrive (and how far it still
is from the final figure), and ends with one ``RESULT`` line (``preview_1000_s=...
yardstick_s=...``). Target: 1,000 games in under 10 s with two workers on a day when the
yardstick reads 0.2 s or less (the machine's speed has varied by a factor of two from one day
to the next: a figure without its yardstick cannot be compared), the chances within about 1.5
points.

Run: ``python bench/preview.py [--games N] [--profile competitive]``.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing as mp
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for _path in (ROOT, ROOT / "bench"):  # the project, and the other benchmarks (dryrun)
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

WORKERS = 2
TARGET_S = 10.0
#: The yardstick's reading (seconds) on the day the target is set for: a slower day scales it.
YARDSTICK_DAY_S = 0.2
BASELINE_PARTS = 2


def _spec(profile: str) -> dict:
    return {
        "players": [profile, profile],
        "rounds": 4,
        "discs_per_player": 12,
        "scoring": "nca",
        "target": None,
        "playoff": False,
        "time_limit": 30,
        "rules": "nca",
    }


def _play(args: tuple[dict, list[int], int]) -> list[list[int]]:
    from simulation.services.playing import play_summaries

    spec, seeds, first = args
    return play_summaries(spec, seeds, first)


def _play_timed(args: tuple[dict, list[int], int]) -> tuple[list[list[int]], float, float]:
    """As :func:`_play`, with the CPU seconds the part took in its process and those its players
    spent deciding (``dryrun.deciding``: the search and what it needs), the part of a game that
    no change outside the search can take away."""
    from dryrun import deciding

    with deciding() as spent:
        start = time.process_time()
        rows = _play(args)
        part_s = time.process_time() - start
    return rows, part_s, spent[0]


def _machine_loop_s(runs: int = 3) -> float:
    """Seconds for 10**7 additions in a plain Python loop, the best of ``runs``: a yardstick of
    this machine's speed on the day, to compare runs of different days (it has varied by a
    factor of two; a single loop moves by a third from one second to the next)."""
    best = math.inf
    for _ in range(runs):
        start = time.perf_counter()
        total = 0
        for k in range(10**7):
            total += k
        best = min(best, time.perf_counter() - start)
    return best


def _parts(spec: dict, games: int) -> list[tuple[dict, list[int], int]]:
    """The preview's parts as the app sends them: the spec, the seeds, the first game's place."""
    from simulation.services.playing import derive_seed, preview_parts

    seeds = [derive_seed("bench-preview", n) for n in range(games)]
    return [(spec, part, first) for first, part in preview_parts(seeds)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--profile", default="competitive")
    args = parser.parse_args()

    from simulation.services.playing import warm_up

    yardstick_before = _machine_loop_s()
    spec = _spec(args.profile)
    parts = _parts(spec, args.games)
    context = mp.get_context("spawn")

    with context.Pool(1, initializer=warm_up) as one:
        one.map(_play, [(spec, [1], 0)])  # started and warmed before the clock runs
        start = time.perf_counter()
        one.map(_play, parts[:BASELINE_PARTS])
        one_s = time.perf_counter() - start
    baseline_games = sum(len(seeds) for _, seeds, _ in parts[:BASELINE_PARTS])

    with context.Pool(WORKERS, initializer=warm_up) as pool:
        pool.map(_play, [(spec, [1], 0)] * WORKERS)
        start = time.perf_counter()
        arrivals = []
        played = wins = 0
        busy_s = search_s = 0.0
        for rows, part_s, part_search_s in pool.imap(_play_timed, parts):
            busy_s += part_s
            search_s += part_search_s
            played += len(rows)
            wins += sum(1 for r in rows if r[0] > r[1])
            arrivals.append((time.perf_counter() - start, played, wins / played))
        wall = time.perf_counter() - start

    final = arrivals[-1][2]
    print(
        f"Preview of {args.games} games, {args.profile} v {args.profile} (4 rounds, 12 discs, "
        f"30-minute games), {len(parts)} parts on {WORKERS} worker processes"
    )
    print(
        f"  wall time            {wall:8.1f} s   (target under {TARGET_S:.0f} s on a day when the "
        f"yardstick reads {YARDSTICK_DAY_S} s or less)"
    )
    print(f"  games per second     {args.games / wall:8.1f}")
    print(
        f"  workers' CPU time    {busy_s:8.1f} s   ({100 * busy_s / (WORKERS * wall):.0f} % of "
        f"{WORKERS} cores over the wall time: the rest waited, or the cores did other work)"
    )
    per_game_one = one_s / baseline_games
    speed_up = per_game_one / (wall / args.games)
    print(
        f"  one process          {per_game_one:8.3f} s per game -> "
        f"{per_game_one * args.games:.0f} s; two workers are {speed_up:.2f}x faster"
    )
    search_share = search_s / busy_s
    floor = search_s / WORKERS
    print(
        f"  the search           {100 * search_share:8.0f} % of the workers' CPU time: alone, "
        f"shared perfectly between {WORKERS} workers, it would take {floor:.1f} s"
    )
    loop_s = (yardstick_before + _machine_loop_s()) / 2
    scaled = wall * min(1.0, YARDSTICK_DAY_S / loop_s)
    print(
        f"  yardstick            {loop_s:8.2f} s for 10**7 additions in a Python loop (before "
        f"{yardstick_before:.2f} s); at {YARDSTICK_DAY_S} s the wall time would be {scaled:.1f} s"
    )
    print("  entry A wins, as the parts arrive (points from the final figure; 1.5 = the aim):")
    for seconds, games, p in arrivals:
        gap = 100 * abs(p - final)
        margin = 100 * 1.96 * math.sqrt(max(p * (1 - p), 1e-9) / games)
        print(
            f"    {seconds:6.1f} s {games:5d} games  {100 * p:5.1f} %  "
            f"(off by {gap:4.1f}, 95 % margin ±{margin:4.1f})"
        )
    print(
        "RESULT "
        f"preview_{args.games}_s={wall:.1f} yardstick_s={loop_s:.2f} "
        f"at_yardstick_{YARDSTICK_DAY_S}_s={scaled:.1f} games={args.games} "
        f"games_per_s={args.games / wall:.1f} worker_cpu_s={busy_s:.1f} "
        f"one_process_s_per_game={per_game_one:.3f} speedup_2v1={speed_up:.2f} "
        f"search_share={search_share:.2f} search_floor_s={floor:.1f} "
        f"final_win_pct={100 * final:.1f} under_target={int(scaled < TARGET_S)}"
    )


if __name__ == "__main__":
    main()
