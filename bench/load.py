"""Load benchmark: 50 clients writing one round's scorecard rows at once, against gunicorn.

The bursts of ``tests/load/burst.py`` (fifty fills of one row, both validations of 25 games at
once, 25 corrections racing 25 verifies) are played several times on a fresh event each, on a
SQLite file (the default setup: WAL mode, IMMEDIATE transactions) and on PostgreSQL when
DATABASE_URL names one. The baseline, in the same run, is the same requests sent one at a time:
the ratio says what the burst costs over a quiet server. Every burst is also checked: a 5xx or a
lost write stops the benchmark. Target: p99 under 250 ms on PostgreSQL on a 2-core machine.

Run: .venv/bin/python bench/load.py [--bursts N]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def one_database(database_url: str, bursts: int, workers: int, work: Path) -> dict:
    """In this process (started for one database): migrate, then play the bursts, each on a
    fresh event, and the same requests one at a time."""
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DEBUG", "1")  # this process only migrates and builds the events
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from tests.load import burst
    from tests.load.event import build_plan
    from tests.load.server import gunicorn, server_env

    call_command("migrate", verbosity=0)
    crowd, alone = burst.Report(), burst.Report()
    with gunicorn(server_env(database_url), workers=workers, log=work / "gunicorn.log") as base:
        for _ in range(bursts):
            report = burst.run(base, build_plan(pairs=25))
            if report.server_errors or report.problems:
                raise SystemExit(f"burst failed: {report.problems} {report.server_errors[:3]}")
            crowd.answers += report.answers
        # The baseline: the same moments on a fresh event, the requests one at a time.
        report = burst.run(base, build_plan(pairs=25), release=burst.one_at_a_time)
        alone.answers += report.answers
    return {
        "requests": len(crowd.answers),
        "p50_ms": crowd.p50_ms,
        "p99_ms": crowd.p99_ms,
        "max_ms": 1000 * max(a.seconds for a in crowd.answers),
        "alone_p50_ms": alone.p50_ms,
        "alone_p99_ms": alone.p99_ms,
        "errors_5xx": len(crowd.server_errors),
        "p99_by_action": {
            what: 1000 * _percentile([a.seconds for a in crowd.answers if a.what == what], 0.99)
            for what in sorted({a.what for a in crowd.answers})
        },
    }


def _percentile(times: list[float], q: float) -> float:
    times = sorted(times)
    return times[min(len(times) - 1, round(q * (len(times) - 1)))]


def _postgres(url: str, name: str, action: str) -> str:
    """Create or drop the benchmark's own database beside the one DATABASE_URL names."""
    import psycopg

    base, _, _ = url.rpartition("/")
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if action == "create":
            conn.execute(f'CREATE DATABASE "{name}"')
    return f"{base}/{name}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bursts", type=int, default=3)
    parser.add_argument("--workers", type=int, default=4, help="gunicorn worker processes")
    parser.add_argument(
        "--only", choices=("sqlite", "postgres"), help="measure one database, not both"
    )
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-load-"))
    if args.one:
        print(json.dumps(one_database(args.one, args.bursts, args.workers, work)))
        return

    targets = {"sqlite": f"sqlite:///{work}/load.sqlite3"}
    postgres = os.environ.get("DATABASE_URL", "")
    if postgres.startswith("postgres") and args.only != "sqlite":
        targets["postgres"] = _postgres(postgres, "crokinole_bench_load", "create")
    if args.only:
        if args.only not in targets:
            raise SystemExit(f"--only {args.only}: DATABASE_URL names no PostgreSQL database")
        targets = {args.only: targets[args.only]}
    figures = {}
    try:
        for name, url in targets.items():
            env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
            out = subprocess.run(
                [
                    *(sys.executable, __file__, "--one", url),
                    *("--bursts", str(args.bursts), "--workers", str(args.workers)),
                ],
                env=env,
                capture_output=True,
                text=True,
                check=False,
            )
            if out.returncode != 0:
                raise SystemExit(f"{name}: {out.stderr[-3000:]}{out.stdout[-2000:]}")
            figures[name] = json.loads(out.stdout.strip().splitlines()[-1])
    finally:
        if "postgres" in targets:
            _postgres(postgres, "crokinole_bench_load", "drop")

    print(
        f"{args.bursts} bursts of 150 requests from 50 clients, "
        f"gunicorn with {args.workers} workers"
    )
    print(
        f"{'database':10} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'alone p50':>10} "
        f"{'alone p99':>10} {'p99/alone':>10} {'5xx':>4}"
    )
    result = []
    for name, f in figures.items():
        ratio = f["p99_ms"] / f["alone_p99_ms"] if f["alone_p99_ms"] else float("nan")
        print(
            f"{name:10} {f['p50_ms']:8.1f} {f['p99_ms']:8.1f} {f['max_ms']:8.1f} "
            f"{f['alone_p50_ms']:10.1f} {f['alone_p99_ms']:10.1f} {ratio:10.1f} {f['errors_5xx']:4}"
        )
        result += [
            f"{name}_p50_ms={f['p50_ms']:.1f}",
            f"{name}_p99_ms={f['p99_ms']:.1f}",
            f"{name}_alone_p99_ms={f['alone_p99_ms']:.1f}",
            f"{name}_p99_vs_alone={ratio:.1f}",
            f"{name}_5xx={f['errors_5xx']}",
        ]
    for name, f in figures.items():
        actions = ", ".join(f"{what} {ms:.0f}" for what, ms in f["p99_by_action"].items())
        print(f"{name}: p99 ms by action: {actions}")
    print("RESULT " + " ".join(result))


if __name__ == "__main__":
    main()
