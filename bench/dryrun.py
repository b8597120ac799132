"""Benchmark of the AI players: how fast they decide, and what a WCC dry run would cost.

Measurements, each a function (the tournament dry run through Django is to be added beside them):

- decisions per second of CPU at each skill level, in seeded self-play games (the search, the
  chosen shot re-simulated with its events, the game bookkeeping: everything ``play_game`` does);
- physics shots per second during play (the noisy executions the searches simulate, per second of
  play);
- games per second for best v novice;
- the old search, in the same run: the numpy search of ``simulation.players.reference`` (what the
  players ran before their decisions were compiled) playing the same seeded competitive games,
  game by game in turn with the current one, and the ratio of the rates of decision, counting the
  CPU time spent deciding (``AIPlayer.decide``: the search and what it needs) and, beside it, the
  time of the whole play;
- the naive baseline, in the same run: a player that gives every candidate the same number of
  samples (as many as the halving search gives its finalists) without halving; the ratio of the
  decision rates;
- the estimated wall time of an 88-player WCC singles dry run (about 500 games x 4 rounds x 16
  shots = 32,000 decisions) on 2 worker processes, from the measured mixed-level decision rate.

With ``--wcc``, the 88-player WCC singles dry run itself, end to end, its play and its writes
timed apart (``bench/dryrun_event.py --split``: a pool of two processes plays each batch, this
process writes it), the per-game scorecard workflow's writes of the same games beside the bulk
writes, and the play on one process against two.

Run: ``python bench/dryrun.py [--games N] [--wcc] [--no-event]``. Prints readable figures and
ends with one ``RESULT`` line (``ratio_vs_old``: the rate of decision against the old search's,
competitive level, CPU time deciding; ``ratio_vs_old_play``: the same over the whole play).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

LEVELS = ("novice", "recreational", "competitive", "top", "best")
WCC_DECISIONS = 500 * 4 * 16
WORKERS = 2
TARGET_DRYRUN_S = 45.0


def _play(players: Sequence[Any], seed: int, make_player: Callable[..., Any] | None = None):
    """One game; ``make_player`` replaces how a seat's player is built (for the baseline)."""
    from simulation import game as game_module
    from simulation.players import player as player_module

    if make_player is None:
        return game_module.play_game(players, seed=seed)
    original = player_module.AIPlayer.of
    player_module.AIPlayer.of = make_player  # type: ignore[method-assign]
    try:
        return game_module.play_game(players, seed=seed)
    finally:
        player_module.AIPlayer.of = original  # type: ignore[method-assign]


def _decisions(game: dict[str, Any]) -> int:
    return sum(len(r["shots"]) for r in game["rounds"])


@contextlib.contextmanager
def deciding() -> Iterator[list[float]]:
    """Counts the CPU time spent in ``AIPlayer.decide`` (the search alone, without the game's
    bookkeeping: the ruling, the chosen shot re-simulated with its events) while in the block."""
    from simulation.players.player import AIPlayer

    spent = [0.0]
    original = AIPlayer.decide

    def decide(self: Any, sit: Any, rng: Any) -> Any:
        start = time.process_time()
        try:
            return original(self, sit, rng)
        finally:
            spent[0] += time.process_time() - start

    AIPlayer.decide = decide  # type: ignore[method-assign]
    try:
        yield spent
    finally:
        AIPlayer.decide = original  # type: ignore[method-assign]


def measure_level(level: str, games: int, seed: int = 1000) -> dict[str, float]:
    """Decisions per CPU second and physics shots per second in ``level`` v ``level`` games."""
    from simulation.players.player import AIPlayer

    made: list[AIPlayer] = []
    original = AIPlayer.of

    def tracked(spec: Any, **options: Any) -> AIPlayer:
        player = original(spec, **options)
        made.append(player)
        return player

    decisions = 0
    with deciding() as spent:
        wall, cpu = time.perf_counter(), time.process_time()
        for k in range(games):
            decisions += _decisions(_play([level, level], seed + k, tracked))
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    shots = sum(p.shots_simulated for p in made)
    return {
        "decisions": decisions,
        "decisions_per_s": decisions / cpu,
        "decide_per_s": decisions / spent[0],
        "ms_per_decision": 1000.0 * cpu / decisions,
        "decide_ms": 1000.0 * spent[0] / decisions,
        "shots_per_decision": shots / decisions,
        "shots_per_s": shots / wall,
    }


def measure_games(games: int, seed: int = 2000) -> dict[str, float]:
    """Best v novice: games per second and the best player's share of wins."""
    wins = 0
    wall = time.perf_counter()
    for k in range(games):
        players = ["best", "novice"] if k % 2 == 0 else ["novice", "best"]
        game = _play(players, seed + k)
        best = 0 if k % 2 == 0 else 1
        wins += game["points"][best] > game["points"][1 - best]
    wall = time.perf_counter() - wall
    return {"games_per_s": games / wall, "best_win_rate": wins / games}


def measure_naive(level: str, games: int, seed: int = 1000) -> dict[str, float]:
    """The baseline: the same games with every seat's search sampling all candidates alike."""
    from simulation.players.player import AIPlayer

    original = AIPlayer.of

    def naive(spec: Any, **options: Any) -> AIPlayer:
        return original(spec, uniform=True, **options)

    decisions = 0
    cpu = time.process_time()
    for k in range(games):
        decisions += _decisions(_play([level, level], seed + k, naive))
    cpu = time.process_time() - cpu
    return {"decisions_per_s": decisions / cpu}


def measure_old(level: str, games: int, seed: int = 1000) -> dict[str, float]:
    """The old search against the current one: the same seeded games played by both, game by game
    in turn (so that a change in the machine's load falls on both alike), every seat of the old
    ones deciding by the numpy search of ``simulation.players.reference``. Decisions per second
    of CPU spent deciding, and of the whole play, for each."""
    from simulation.players.player import AIPlayer

    original = AIPlayer.of

    def old(spec: Any, **options: Any) -> AIPlayer:
        return original(spec, reference=True, **options)

    decisions = {"new": 0, "old": 0}
    decide_s = {"new": 0.0, "old": 0.0}
    playing = {"new": 0.0, "old": 0.0}
    for k in range(games):
        for name, make in (("new", None), ("old", old)):
            with deciding() as spent:
                cpu = time.process_time()
                decisions[name] += _decisions(_play([level, level], seed + k, make))
                playing[name] += time.process_time() - cpu
            decide_s[name] += spent[0]
    return {
        f"{name}_{field}": value
        for name in ("new", "old")
        for field, value in (
            ("decisions_per_s", decisions[name] / playing[name]),
            ("decide_per_s", decisions[name] / decide_s[name]),
            ("decide_ms", 1000.0 * decide_s[name] / decisions[name]),
        )
    }


def warm_up() -> None:
    """Load (or compile) the physics, the evaluator and both searches before anything is
    timed."""
    from simulation.players.player import AIPlayer

    original = AIPlayer.of

    def old(spec: Any, **options: Any) -> AIPlayer:
        return original(spec, reference=True, **options)

    _play(["best", "novice"], 0)
    _play(["best", "novice"], 0, old)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="games per measurement")
    parser.add_argument(
        "--no-event",
        action="store_true",
        help="skip the 88-player WCC singles dry run (a Celery worker on Redis and PostgreSQL)",
    )
    parser.add_argument(
        "--wcc",
        action="store_true",
        help="the 88-player WCC singles dry run with its play and write times apart (in-process)",
    )
    parser.add_argument(
        "--ratio-batches",
        type=int,
        default=4,
        help="with --wcc: batches whose play is timed on 1 and 2 processes (0: all)",
    )
    args = parser.parse_args(argv)
    games = max(1, args.games)
    warm_up()

    print(f"AI decisions, {games} self-play games per level (CPU time, one process):")
    rates: dict[str, float] = {}
    shots_per_s: list[float] = []
    for level in LEVELS:
        m = measure_level(level, games)
        rates[level] = m["decisions_per_s"]
        shots_per_s.append(m["shots_per_s"])
        print(
            f"  {level:13s} {m['decisions_per_s']:7.0f} decisions/s  "
            f"{m['ms_per_decision']:5.2f} ms/decision "
            f"(deciding {m['decide_ms']:5.2f} ms)  "
            f"{m['shots_per_decision']:5.0f} physics shots/decision  "
            f"{m['shots_per_s']:7.0f} physics shots simulated per s of play"
        )
    mixed = len(rates) / sum(1.0 / r for r in rates.values())
    physics = sum(shots_per_s) / len(shots_per_s)

    old = measure_old("competitive", games)
    ratio_old = old["new_decide_per_s"] / old["old_decide_per_s"]
    ratio_old_play = old["new_decisions_per_s"] / old["old_decisions_per_s"]
    print(
        f"old search (numpy, simulation.players.reference), competitive, the same games in turn: "
        f"deciding {old['old_decide_ms']:.2f} ms against {old['new_decide_ms']:.2f} ms, "
        f"{old['old_decisions_per_s']:.0f} decisions/s of play against "
        f"{old['new_decisions_per_s']:.0f}; decisions are {ratio_old:.2f}x faster, the whole play "
        f"{ratio_old_play:.2f}x"
    )

    naive = measure_naive("competitive", games)["decisions_per_s"]
    ratio = rates["competitive"] / naive
    print(
        f"baseline (naive: all candidates sampled alike, no halving), competitive: "
        f"{naive:.0f} decisions/s; halving is {ratio:.2f}x faster"
    )

    g = measure_games(max(games, 10))
    print(
        f"best v novice: {g['games_per_s']:.2f} games/s, best wins {100 * g['best_win_rate']:.0f} %"
    )
    estimate = WCC_DECISIONS / (WORKERS * mixed)
    verdict = "within" if estimate < TARGET_DRYRUN_S else "OVER"
    print(
        f"WCC singles dry run ({WCC_DECISIONS} decisions) on {WORKERS} workers: about "
        f"{estimate:.0f} s of AI time ({verdict} the {TARGET_DRYRUN_S:.0f} s budget)"
    )
    event = ""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    if args.wcc:
        from dryrun_event import run_split_benchmark

        s = run_split_benchmark(ratio_batches=args.ratio_batches, result_line=False)
        event += (
            f" dryrun_s={s['dryrun_s']} play_s={s['play_s']} write_s={s['write_s']}"
            f" other_s={s['other_s']} write_workflow_s={s['write_workflow_s']}"
            f" play_1_s={s['play_1_s']} play_2_s={s['play_2_s']}"
            f" play_ratio_2v1={s['play_ratio_2v1']} same_standings={int(s['same_standings'])}"
        )
    if not args.no_event:
        from dryrun_event import run_dry_run_benchmark

        f = run_dry_run_benchmark(result_line=False)
        event += (
            f" wcc_dryrun_wall_s={f['wall_s']:.1f} wcc_dryrun_games={f['games']}"
            f" wcc_dryrun_shots_per_s={f['shots_per_s']}"
        )
    fields = " ".join(f"decisions_per_s_{level}={rates[level]:.0f}" for level in LEVELS)
    print(
        f"RESULT {fields} decisions_per_s_mixed={mixed:.0f} shots_per_s={physics:.0f} "
        f"games_per_s={g['games_per_s']:.2f} best_win_rate={g['best_win_rate']:.3f} "
        f"naive_decisions_per_s={naive:.0f} ratio_vs_naive={ratio:.2f} "
        f"decide_per_s_competitive={old['new_decide_per_s']:.0f} "
        f"old_decide_per_s={old['old_decide_per_s']:.0f} "
        f"old_decisions_per_s={old['old_decisions_per_s']:.0f} ratio_vs_old={ratio_old:.2f} "
        f"ratio_vs_old_play={ratio_old_play:.2f} "
        f"wcc_dryrun_est_s={estimate:.0f}{event}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
