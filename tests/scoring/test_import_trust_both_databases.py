"""The import takeover is refused on both databases in one run of the suite.

The suite runs on SQLite by default and on PostgreSQL under ``.ci/run``; this test runs the
takeover attacks of ``test_import_trust.py`` again on SQLite in a process of their own, so that
the gate that CI runs on PostgreSQL has also seen them refused on SQLite (a file's values reach
the two databases differently: SQLite keeps a name longer than its column allows).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ATTACKS = "takeover or forgery or edited or never_grants or five_thousand"

pytestmark = pytest.mark.slow


def test_the_import_attacks_are_refused_on_sqlite_as_well(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env.pop("DATABASE_URL", None)  # the default: SQLite
    env["LONG_WORK_IN_REQUEST"] = "1"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "tests/scoring/test_import_trust.py",
            "-k",
            ATTACKS,
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:xdist",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    summary = run.stdout.strip().splitlines()[-1]
    assert "5 passed" in summary and "skipped" not in summary, summary
