"""``make run`` (scripts/run.sh) loads the demo unless ``DEMO=0``, which prints the first account's
setup link instead; the deployment's migrate step prints it too.

The script runs for real, with stand-ins for the virtualenv's ``python`` and ``celery`` (BIN) that
write down how they were called and start nothing, so the test sees exactly the commands the
script gives, in order, without a server, a worker or a database.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def _environment_without_demo() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("DEMO", "REDIS_URL", "BROKER_URL")}


def _run_script(tmp_path: Path, **env: str) -> list[str]:
    """The ``python`` commands scripts/run.sh gives with ``env``, one line each."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    calls = tmp_path / "calls.log"
    (bin_dir / "python").write_text('#!/bin/sh\nprintf "%s\\n" "$*" >> "$CALLS"\n')
    # The worker stand-in waits to be stopped, as a worker would; the script stops it on exit.
    (bin_dir / "celery").write_text("#!/bin/sh\nexec sleep 5\n")
    for stub in bin_dir.iterdir():
        stub.chmod(0o755)
    stand_ins = {"BIN": str(bin_dir), "HOST": "127.0.0.1", "PORT": "8765", "CALLS": str(calls)}
    result = subprocess.run(
        ["bash", str(ROOT / "scripts" / "run.sh")],
        env={**_environment_without_demo(), **stand_ins, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return calls.read_text().splitlines()


def test_run_loads_the_demo_by_default(tmp_path: Path) -> None:
    assert _run_script(tmp_path) == [
        "manage.py migrate --noinput",
        "manage.py load_demo --if-empty",
        "manage.py runserver 127.0.0.1:8765",
    ]


def test_run_with_the_demo_off_prints_the_setup_link_instead(tmp_path: Path) -> None:
    calls = _run_script(tmp_path, DEMO="0")
    assert calls == [
        "manage.py migrate --noinput",
        "manage.py setup_link --if-empty --url http://127.0.0.1:8765",
        "manage.py runserver 127.0.0.1:8765",
    ]
    assert not any("load_demo" in call for call in calls)


def _make_dry_run(*args: str) -> str:
    """What ``make -n run ARGS`` would run (it runs nothing)."""
    dry = subprocess.run(
        ["make", "-n", "run", *args],
        cwd=ROOT,
        env=_environment_without_demo(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert dry.returncode == 0, dry.stderr
    return dry.stdout


def test_make_run_passes_demo_to_the_script() -> None:
    assert "DEMO=0 bash scripts/run.sh" in _make_dry_run("DEMO=0")
    assert "DEMO=1 bash scripts/run.sh" in _make_dry_run()


def test_the_deployments_migrate_step_prints_the_setup_link_after_migrating() -> None:
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    command = " ".join(compose["services"]["migrate"]["command"])
    assert "migrate --noinput && python manage.py setup_link --if-empty" in command
    guide = (ROOT / "docs" / "deploy.md").read_text()
    assert "docker compose logs migrate" in guide and "setup_link" in guide
