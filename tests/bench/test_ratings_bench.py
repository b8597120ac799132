"""The ratings benchmark (``bench/ratings.py``) runs end to end on a small record and prints its
figures and its ``RESULT`` line."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "ratings.py"


@pytest.mark.slow
def test_the_ratings_bench_runs_small_and_ends_with_its_result_line(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}  # its own SQLite file
    env["TMPDIR"] = str(tmp_path)
    done = subprocess.run(
        [sys.executable, str(BENCH), "--people", "60", "--games", "600", "--updates", "5"],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    last = done.stdout.strip().splitlines()[-1]
    found = re.fullmatch(
        r"RESULT recompute_s=([\d.]+) update_ms=([\d.]+) ratio_full_vs_update=(\d+) "
        r"yardstick_s=([\d.]+)",
        last,
    )
    assert found, last
    recompute_s, update_ms, ratio, _yardstick = (float(x) for x in found.groups())
    assert recompute_s > 0 and update_ms > 0
    assert ratio == pytest.approx(recompute_s * 1000 / update_ms, rel=0.01, abs=1)
    assert "600 games, 60 ratings, 1,200 rating points" in done.stdout
