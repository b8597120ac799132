"""Dry-run benchmark: the 88-player WCC singles event, played by two worker processes.

The whole event (10-game preliminary, top 16 in two round-robin pools of 8, best-of-3
semifinals, final and 3rd place; about 500 games) is dry-run the way the web app does it: a real
Celery worker subprocess with ``--concurrency=2`` against Redis (database 1, the benchmark's
own, emptied afterwards) and a throwaway PostgreSQL database, the games fanned out as tasks and
written back through the scorecard services. Without PostgreSQL or Redis (or with ``--local``)
it falls back to a multiprocessing pool of two playing the games while this process writes them
(SQLite), and says so.

The baseline, run in the same process, is one worker process doing everything (a small
preliminary round played and written serially), scaled to the event's games.

Prints the machine's yardstick (``preview._machine_loop_s``, before and after: its speed has
varied by a factor of two from one day to the next) beside the wall time, games played, physics
shots simulated per second, and the size of a stored game record; ends with one ``RESULT`` line
(``dry_run_<players>_s=... yardstick_s=...``). Targets, with two workers: the 88-player event in
under 45 s; the real championship's size, ``--players 400`` (about 2,100 games), in under 60 s.

With ``--split`` it measures the parts apart instead, in this process: the same state machine
driven batch by batch, each batch's games played by a process pool of two (``play_s``, the time
waiting for the pool) and written here (``write_s``, the time in ``autoplay.apply_results``; the
rest, ``other_s``, is planning, drawing, advancing and the summary). Then, in the same run:

- the same results written again one game at a time through the scorecard workflow, into a
  second copy with the same seed (the games are not played again: each is found by its seed),
  with ``write_workflow_s``, and whether both copies end with the same standings;
- the play alone of the event's first batches, replayed in a pool of one process and of two:
  the speed-up of the second worker process on the play.

Run: ``python bench/dryrun_event.py [--players 88|400] [--seed 7] [--local] [--split]``;
``run_dry_run_benchmark()`` (``run_split_benchmark()``) runs it in a fresh process and returns
the figures as a dict.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for _path in (ROOT, ROOT / "bench"):  # the project, and the other benchmarks (the yardstick)
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

PG_ADMIN_DSN = "postgresql://postgres@127.0.0.1:5432/postgres"
REDIS_URL = "redis://127.0.0.1:6379/1"
TARGET_S = 45.0
#: Targets by field size: the 88-player default, and the real championship's size.
TARGETS_S = {88: TARGET_S, 400: 60.0}
WORKERS = 2
TIMEOUT_S = 1800


def _services_up() -> bool:
    try:
        import psycopg
        import redis

        psycopg.connect(PG_ADMIN_DSN, connect_timeout=3).close()
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=3).ping()
        return True
    except Exception:
        return False


def _create_database() -> str:
    import psycopg

    name = f"crokinole_bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(PG_ADMIN_DSN, autocommit=True) as c:
        c.execute(f'CREATE DATABASE "{name}"')
    return name


def _drop_database(name: str) -> None:
    import psycopg

    with psycopg.connect(PG_ADMIN_DSN, autocommit=True) as c:
        c.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _empty_redis() -> None:
    """Redis database 1 is the benchmark's own: drop the task results it left there."""
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()


def _setup_django(database_url: str, redis_url: str | None) -> None:
    os.environ["DATABASE_URL"] = database_url
    if redis_url:
        os.environ["REDIS_URL"] = redis_url
        os.environ["CELERY_TASK_ALWAYS_EAGER"] = "false"
        # A queue of its own: no other worker on this Redis takes the benchmark's tasks.
        os.environ["CELERY_QUEUE"] = f"bench-{uuid.uuid4().hex[:8]}"
    else:
        os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _start_worker(env: dict[str, str], logfile: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [
            sys.executable,  # the interpreter of this benchmark, with its packages
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            f"--concurrency={WORKERS}",
            "--pool=prefork",
            "--loglevel=warning",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            f"--hostname=bench-{uuid.uuid4().hex[:6]}@%h",
        ],
        cwd=ROOT,
        env=env,
        stdout=logfile.open("w"),
        stderr=subprocess.STDOUT,
    )


def _cpu_seconds(pid: int) -> float | None:
    """CPU seconds (user and system) spent so far by process ``pid`` and its children, read
    from ``/proc``; None where there is no ``/proc``. The worker's CPU time beside the wall
    time says how much of the two cores the event had: on a machine shared with other work
    the wall time grows while the CPU time stays."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    pending = [pid]
    try:
        while pending:
            current = pending.pop()
            stat = Path(f"/proc/{current}/stat").read_text()
            fields = stat[stat.rindex(")") + 2 :].split()
            total += (int(fields[11]) + int(fields[12])) / tick
            for task in Path(f"/proc/{current}/task").iterdir():
                pending.extend(int(c) for c in (task / "children").read_text().split())
    except (OSError, ValueError):
        return None
    return total


def _wait_for_worker(timeout: float = 90.0) -> None:
    from config.celery import app

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if app.control.ping(timeout=1.0):
            return
    raise RuntimeError("the Celery worker did not answer within 90 s")


def _baseline_seconds_per_game(seed: int) -> tuple[float, int]:
    """One process playing and writing a few games serially: seconds per game."""
    from simulation.models import AutoPlay
    from simulation.services import dryrun, playing, runs

    d = dryrun.create_dry_run(preset="wcc-singles", entries=16, boards=8, seed=seed + 1)
    step = runs.start_dry_run(d.pk)
    batch = step.batches[0]
    start = time.perf_counter()
    results = [playing.play_match_job(job) for job in batch.jobs]
    runs.apply_batch(step.run_id, batch.id, results)
    written = sum(len(result["games"]) for result in results)
    seconds = (time.perf_counter() - start) / written
    assert AutoPlay.objects.get(pk=step.run_id).games_played == written
    return seconds, written


def _play_with_celery(players: int, seed: int) -> Any:
    from simulation.models import DryRun, Status
    from simulation.services import dryrun
    from simulation.tasks import run_dry_run

    d = dryrun.create_dry_run(preset="wcc-singles", entries=players, seed=seed)
    start = time.perf_counter()
    run_dry_run.delay(d.pk)
    while True:
        d = DryRun.objects.select_related("run").get(pk=d.pk)
        if d.status in (Status.DONE, Status.FAILED):
            break
        if time.perf_counter() - start > TIMEOUT_S:
            raise RuntimeError(f"the dry run did not finish within {TIMEOUT_S} s")
        time.sleep(0.25)
    return d, time.perf_counter() - start


def _play_with_pool(players: int, seed: int) -> Any:
    """Fallback: a pool of two processes plays each batch; this process writes it."""
    import multiprocessing as mp
    from collections import deque

    from simulation.models import DryRun
    from simulation.services import dryrun, playing, runs

    d = dryrun.create_dry_run(preset="wcc-singles", entries=players, seed=seed)
    start = time.perf_counter()
    # The same state machine the Celery tasks drive; only the games travel through the pool.
    step = runs.start_dry_run(d.pk)
    waiting = deque(step.batches)
    with mp.get_context("spawn").Pool(WORKERS, initializer=playing.warm_up) as pool:
        while waiting:
            batch = waiting.popleft()
            played = pool.map(playing.play_match_job, batch.jobs, chunksize=1)
            waiting.extend(runs.apply_batch(step.run_id, batch.id, played).batches)
    return DryRun.objects.select_related("run").get(pk=d.pk), time.perf_counter() - start


Played = dict[str, Any]


def _drive(
    players: int, seed: int, play: Callable[[list[dict[str, Any]]], list[Played]]
) -> tuple[Any, dict[str, float], list[list[dict[str, Any]]]]:
    """A WCC dry run driven batch by batch through ``simulation.services.runs``, each batch's
    jobs handed to ``play``: the dry run, the seconds spent (``dryrun``, ``play``, ``write``),
    and every batch's jobs."""
    from simulation.models import DryRun
    from simulation.services import autoplay, dryrun, runs

    writes: list[float] = []
    original = autoplay.apply_results

    def timed(*args: Any, **kwargs: Any) -> int:
        start = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            writes.append(time.perf_counter() - start)

    d = dryrun.create_dry_run(preset="wcc-singles", entries=players, seed=seed)
    batches: list[list[dict[str, Any]]] = []
    played_s = 0.0
    autoplay.apply_results = timed  # type: ignore[assignment]
    try:
        start = time.perf_counter()
        step = runs.start_dry_run(d.pk)
        waiting = deque(step.batches)
        while waiting:
            batch = waiting.popleft()
            batches.append(batch.jobs)
            began = time.perf_counter()
            results = play(batch.jobs)
            played_s += time.perf_counter() - began
            waiting.extend(runs.apply_batch(step.run_id, batch.id, results).batches)
        wall = time.perf_counter() - start
    finally:
        autoplay.apply_results = original  # type: ignore[assignment]
    d = DryRun.objects.select_related("run", "copy").get(pk=d.pk)
    if d.status != "done":
        raise RuntimeError(f"the dry run failed: {d.error}")
    return d, {"dryrun": wall, "play": played_s, "write": sum(writes)}, batches


def _ordered(jobs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A batch's matches in the order its tasks go out (``playing.share_out``, heaviest first),
    which is the order a chord hands their results to the writer."""
    from simulation.services import playing

    return [job for chunk in playing.share_out(jobs, len(jobs)) for job in chunk]


def _play_in(pool: Any, jobs: list[dict[str, Any]]) -> list[Played]:
    """A batch's matches played in ``pool``, one match a task."""
    from simulation.services import playing

    return pool.map(playing.play_match_job, _ordered(jobs), chunksize=1)


def _replayed(recorded: dict[int, dict[str, Any]], jobs: list[dict[str, Any]]) -> list[Played]:
    """The games of ``jobs`` as played before, found by their seed (the same seeded dry run
    gives its games the same seeds), with this copy's game ids."""
    return [
        {
            "match_id": job["match_id"],
            "games": [
                {**recorded[game["seed"]], "game_id": game["game_id"]}
                for game in job["games"]
                if game["seed"] in recorded
            ],
        }
        for job in _ordered(jobs)
    ]


def _standings(copy: Any) -> list[list[tuple[int, str, int]]]:
    """Every block of standings by entry numbers. Entries still level share a rank, listed in
    the order of their row ids, which differ from one copy to the next: sorted here."""
    from scoring.standings.selectors import standings_blocks

    stages = copy.categories.get().stages.order_by("order")
    return [
        sorted((line.rank, line.entry.number, line.points) for line in block.lines)
        for stage in stages
        for block in standings_blocks(stage)
    ]


def _play_seconds(batches: list[list[dict[str, Any]]]) -> tuple[float, float]:
    """The play alone of ``batches``, one after the other, in a pool of one process and in a
    pool of two: each batch on both in turn (who goes first alternating), so that both see the
    same load of a shared machine."""
    import multiprocessing as mp

    from simulation.services import playing

    spent = {1: 0.0, 2: 0.0}
    context = mp.get_context("spawn")
    with (
        context.Pool(1, initializer=playing.warm_up) as one,
        context.Pool(2, initializer=playing.warm_up) as two,
    ):
        pools = {1: one, 2: two}
        for size, pool in pools.items():
            pool.map(abs, range(size))  # every process started and warmed up before timing
        for k, jobs in enumerate(batches):
            for size in (1, 2) if k % 2 == 0 else (2, 1):
                start = time.perf_counter()
                _play_in(pools[size], jobs)
                spent[size] += time.perf_counter() - start
    return spent[1], spent[2]


def _measure_split(players: int, seed: int, ratio_batches: int, local: bool) -> dict[str, Any]:
    """The dry run's parts timed apart, the workflow's writes beside the bulk writes, and the
    play in one process and in two (see the module docstring)."""
    import multiprocessing as mp

    use_pg = not local and _services_up()
    database = _create_database() if use_pg else None
    try:
        if database:
            _setup_django(f"postgres://postgres@127.0.0.1:5432/{database}", None)
        else:
            _setup_django(f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3", None)
        from simulation.services import autoplay, playing

        playing.warm_up()
        recorded: dict[int, dict[str, Any]] = {}

        def play_and_keep(pool: Any, jobs: list[dict[str, Any]]) -> list[Played]:
            results = _play_in(pool, jobs)
            recorded.update((g["seed"], g) for result in results for g in result["games"])
            return results

        with mp.get_context("spawn").Pool(WORKERS, initializer=playing.warm_up) as pool:
            pool.map(abs, range(WORKERS))
            autoplay.BULK_WRITES = True
            bulk, t, batches = _drive(players, seed, lambda jobs: play_and_keep(pool, jobs))
        autoplay.BULK_WRITES = False
        try:
            workflow, w, _ = _drive(players, seed, lambda jobs: _replayed(recorded, jobs))
        finally:
            autoplay.BULK_WRITES = True
        sample = batches if ratio_batches <= 0 else batches[:ratio_batches]
        one, two = _play_seconds(sample)
        differ = [
            (a, b)
            for a, b in zip(_standings(bulk.copy), _standings(workflow.copy), strict=False)
            if a != b
        ]
        figures = {
            "mode": "pool-postgres" if database else "pool-sqlite",
            "workers": WORKERS,
            "players": players,
            "games": bulk.run.games_played,
            "batches": len(batches),
            "dryrun_s": round(t["dryrun"], 1),
            "play_s": round(t["play"], 1),
            "write_s": round(t["write"], 2),
            "other_s": round(t["dryrun"] - t["play"] - t["write"], 1),
            "write_workflow_s": round(w["write"], 2),
            "write_speedup": round(w["write"] / t["write"], 1) if t["write"] else 0.0,
            "same_standings": not differ,
            "standings_differ": differ[:1],
            "same_games": workflow.run.games_played == bulk.run.games_played,
            "ratio_batches": len(sample),
            "ratio_games": sum(len(job["games"]) for jobs in sample for job in jobs),
            "play_1_s": round(one, 1),
            "play_2_s": round(two, 1),
            "play_ratio_2v1": round(one / two, 2),
        }
    finally:
        if database is not None:
            from django.db import connections

            connections.close_all()
            _drop_database(database)
    return figures


def _measure(players: int, seed: int, local: bool = False) -> dict[str, Any]:
    """The benchmark itself; needs a process whose Django is not set up yet."""
    from preview import _machine_loop_s

    yardstick_before = _machine_loop_s()
    use_celery = not local and _services_up()
    database = None
    worker = None
    log = Path(tempfile.mkdtemp()) / "worker.log"
    try:
        if use_celery:
            database = _create_database()
            url = f"postgres://postgres@127.0.0.1:5432/{database}"
            _setup_django(url, REDIS_URL)
            env = {**os.environ, "DATABASE_URL": url, "REDIS_URL": REDIS_URL}
            env["CELERY_TASK_ALWAYS_EAGER"] = "false"
            worker = _start_worker(env, log)
            _wait_for_worker()
        else:
            _setup_django(f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3", None)
        from simulation.services import playing

        playing.warm_up()
        per_game, baseline_games = _baseline_seconds_per_game(seed)
        worker_cpu = None
        if use_celery:
            cpu_before = _cpu_seconds(worker.pid) if worker else None
            d, wall = _play_with_celery(players, seed)
            cpu_after = _cpu_seconds(worker.pid) if worker else None
            if cpu_before is not None and cpu_after is not None:
                worker_cpu = cpu_after - cpu_before
        else:
            d, wall = _play_with_pool(players, seed)
        from simulation.models import SimulatedGame

        if d.status != "done":
            raise RuntimeError(f"the dry run failed: {d.error}")
        run = d.run
        stored = SimulatedGame.objects.filter(game__match__stage__category__tournament=d.copy)
        sizes = [(g.raw_size, len(bytes(g.record))) for g in stored.only("raw_size", "record")]
        game_shots = sum(g.shots for g in stored.only("shots"))
        target = TARGETS_S.get(players, TARGET_S)
        figures = {
            "mode": "celery-redis-postgres" if use_celery else "multiprocessing-sqlite",
            "workers": WORKERS,
            "players": players,
            "wall_s": round(wall, 1),
            "games": run.games_played,
            "game_shots": game_shots,
            "physics_shots": run.shots,
            "shots_per_s": round(run.shots / wall),
            "games_per_s": round(run.games_played / wall, 2),
            "record_json_bytes": round(sum(s[0] for s in sizes) / len(sizes)),
            "record_stored_bytes": round(sum(s[1] for s in sizes) / len(sizes)),
            "baseline_s_per_game": round(per_game, 3),
            "baseline_games": baseline_games,
            "baseline_event_s": round(per_game * run.games_played, 1),
            "speedup_vs_one_process": round(per_game * run.games_played / wall, 2),
            "target_s": target,
            "under_target": wall < target,
            "yardstick_before_s": round(yardstick_before, 3),
            "worker_cpu_s": None if worker_cpu is None else round(worker_cpu, 1),
            "event_minutes_on_boards": d.summary["time"]["minutes"],
            "boards": d.boards,
        }
    finally:
        if worker is not None:
            worker.terminate()
            try:
                worker.wait(timeout=30)
            except subprocess.TimeoutExpired:
                worker.kill()
        if database is not None:
            from django.db import connections

            connections.close_all()
            _drop_database(database)
            _empty_redis()
    after = _machine_loop_s()
    figures["yardstick_s"] = round((yardstick_before + after) / 2, 3)
    return figures


def _run_fresh(options: list[str], what: str) -> dict[str, Any]:
    """This benchmark with ``options`` in a fresh process (it sets up its own database and
    settings); returns the figures it printed as its last JSON line."""
    out = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--json", *options],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S + 300,
    )
    lines = [line for line in out.stdout.splitlines() if line.startswith("{")]
    if out.returncode != 0 or not lines:
        raise RuntimeError(f"the {what} failed:\n{out.stdout[-3000:]}{out.stderr[-3000:]}")
    return json.loads(lines[-1])


def run_dry_run_benchmark(
    players: int = 88, seed: int = 7, *, result_line: bool = True
) -> dict[str, Any]:
    """Run the benchmark in a fresh process and return its figures, also printed."""
    figures = _run_fresh([f"--players={players}", f"--seed={seed}"], "dry-run benchmark")
    _print(figures, result_line=result_line)
    return figures


def run_split_benchmark(
    players: int = 88, seed: int = 7, ratio_batches: int = 4, *, result_line: bool = True
) -> dict[str, Any]:
    """Run ``--split`` in a fresh process and return its figures, also printed."""
    options = ["--split", f"--players={players}", f"--seed={seed}"]
    figures = _run_fresh([*options, f"--ratio-batches={ratio_batches}"], "split dry-run benchmark")
    _print_split(figures, result_line=result_line)
    return figures


def _print_split(f: dict[str, Any], *, result_line: bool = True) -> None:
    print(
        f"Dry run of the WCC singles format, {f['players']} players, its parts apart "
        f"({f['mode']}: a pool of {f['workers']} processes plays, this process writes)"
    )
    print(
        f"  dry run, end to end {f['dryrun_s']:8.1f} s   "
        f"({f['games']} games, {f['batches']} batches)"
    )
    print(f"  playing             {f['play_s']:8.1f} s   (waiting for the pool)")
    print(f"  writing, in bulk    {f['write_s']:8.2f} s")
    print(f"  the rest            {f['other_s']:8.1f} s   (planning, draws, advancing, summary)")
    print(
        f"  writing, per game   {f['write_workflow_s']:8.2f} s   (the scorecard workflow, same "
        f"games: bulk is {f['write_speedup']}x faster; same games and standings: "
        f"{'yes' if f['same_standings'] and f['same_games'] else 'NO'})"
    )
    print(
        f"  play of the first {f['ratio_batches']} batches ({f['ratio_games']} games): "
        f"{f['play_1_s']:.1f} s on 1 process, {f['play_2_s']:.1f} s on 2: "
        f"{f['play_ratio_2v1']:.2f}x"
    )
    for bulk, workflow in f["standings_differ"]:
        print(f"  standings differ: bulk {bulk}\n                    per game {workflow}")
    if not result_line:
        return
    print(
        "RESULT "
        f"dryrun_s={f['dryrun_s']} play_s={f['play_s']} write_s={f['write_s']} "
        f"write_workflow_s={f['write_workflow_s']} play_ratio_2v1={f['play_ratio_2v1']} "
        f"same_standings={int(f['same_standings'])}"
    )


def _print(f: dict[str, Any], *, result_line: bool = True) -> None:
    print(
        f"Dry run of the WCC singles format, {f['players']} players ({f['mode']}, "
        f"{f['workers']} worker processes)"
    )
    print(
        f"  yardstick           {f['yardstick_s']:8.2f} s   (10**7 additions in a Python loop, "
        f"the mean of before and after the run; before {f['yardstick_before_s']:.2f} s)"
    )
    print(f"  wall time           {f['wall_s']:8.1f} s   (target under {f['target_s']:.0f} s)")
    if f.get("worker_cpu_s") is not None:
        share = f["worker_cpu_s"] / (f["workers"] * f["wall_s"])
        print(
            f"  workers' CPU time   {f['worker_cpu_s']:8.1f} s   ({100 * share:.0f} % of "
            f"{f['workers']} cores over the wall time: the rest waited, or the cores were "
            "busy with other work)"
        )
    print(f"  games played        {f['games']:8d}")
    print(f"  shots in the games  {f['game_shots']:8d}")
    searched = f["physics_shots"] - f["game_shots"]
    note = (
        f"incl. {searched} shots of the players' search"
        if searched
        else "the shots played; the records do not count the players' search"
    )
    print(f"  physics shots / s   {f['shots_per_s']:8d}   ({f['physics_shots']} in all: {note})")
    print(
        f"  stored game record  {f['record_stored_bytes']:8d} B  "
        f"(JSON {f['record_json_bytes']} B, zlib)"
    )
    print(
        f"  one process         {f['baseline_s_per_game']:8.3f} s per game played and written "
        f"-> {f['baseline_event_s']:.0f} s for the event; speed-up {f['speedup_vs_one_process']}"
    )
    print(f"  the event on {f['boards']} boards: about {f['event_minutes_on_boards'] / 60:.1f} h")
    if not result_line:  # the caller ends its own output with one RESULT line
        return
    print(
        "RESULT "
        f"dry_run_{f['players']}_s={f['wall_s']} yardstick_s={f['yardstick_s']} "
        f"worker_cpu_s={f.get('worker_cpu_s')} games={f['games']} shots_per_s={f['shots_per_s']} "
        f"record_bytes={f['record_stored_bytes']} speedup={f['speedup_vs_one_process']} "
        f"under_target={int(f['under_target'])}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=88)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON line")
    parser.add_argument(
        "--local", action="store_true", help="a process pool and SQLite instead of Celery"
    )
    parser.add_argument(
        "--split", action="store_true", help="play and write timed apart, in this process"
    )
    parser.add_argument(
        "--ratio-batches",
        type=int,
        default=4,
        help="with --split: batches replayed on 1 and 2 processes (0: all)",
    )
    args = parser.parse_args()
    if args.split:
        figures = _measure_split(args.players, args.seed, args.ratio_batches, args.local)
        show = _print_split
    else:
        figures = _measure(args.players, args.seed, local=args.local)
        show = _print
    if args.json:
        print(json.dumps(figures))
    else:
        show(figures)


if __name__ == "__main__":
    main()
