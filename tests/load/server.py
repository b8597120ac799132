"""The app served for real, as in production: gunicorn, its own worker processes, a database that
other processes share. The load tests and ``bench/load.py`` send their bursts to it."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = Path(sys.executable).with_name("gunicorn")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_env(database_url: str, **extra: str) -> dict[str, str]:
    """Production settings on plain HTTP at 127.0.0.1, with the API's throttling off (a burst
    of 50 clients from one address is the point here, not an attack)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env.update(
        DATABASE_URL=database_url,
        DEBUG="0",
        SECRET_KEY="load-test-secret-key-not-for-any-deployment-0123456789",
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_SSL_REDIRECT="0",
        API_ANON_RATE="",
        API_USER_RATE="",
        SQLITE_TRANSACTION_MODE="IMMEDIATE",
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    env.pop("REDIS_URL", None)  # the burst writes cards; no background work is started
    env.update(extra)
    return env


@contextmanager
def runserver(env: Mapping[str, str], *, log: Path) -> Iterator[str]:
    """Django's development server as ``make run`` starts it (threaded, without the reloader);
    yields its address once ``/healthz/`` answers."""
    port = free_port()
    command = [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"]
    with _serving(command, env, log, port) as base:
        yield base


@contextmanager
def gunicorn(env: Mapping[str, str], *, workers: int = 4, log: Path) -> Iterator[str]:
    """Gunicorn with the image's settings (``config/gunicorn.conf.py``) on a free port; yields
    its address once ``/healthz/`` answers, and stops it afterwards."""
    port = free_port()
    command = [
        str(GUNICORN),
        "-c",
        "config/gunicorn.conf.py",
        "config.wsgi:application",
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        str(workers),
        "--access-logfile",
        "/dev/null",
        "--backlog",
        "256",
    ]
    # Stopped with SIGINT, gunicorn's quick shutdown: the bursts are over, and the graceful one
    # (SIGTERM) waits for idle keep-alive connections, seconds that every test paid.
    with _serving(command, env, log, port, stop=signal.SIGINT) as base:
        yield base


@contextmanager
def _serving(
    command: list[str],
    env: Mapping[str, str],
    log: Path,
    port: int,
    stop: signal.Signals = signal.SIGTERM,
) -> Iterator[str]:
    with open(log, "wb") as out:
        process = subprocess.Popen(command, cwd=ROOT, env=dict(env), stdout=out, stderr=out)
        base = f"http://127.0.0.1:{port}"
        try:
            _wait_healthy(base, process, log)
            yield base
        finally:
            process.send_signal(stop)
            # Its workers are gone at once, but gunicorn's master lingers a couple of seconds
            # before it exits: reaped in the background, the test does not wait for that.
            threading.Thread(target=_reap, args=(process,), daemon=True).start()


def _reap(process: subprocess.Popen) -> None:
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def _wait_healthy(base: str, process: subprocess.Popen, log: Path, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(
                f"{command_name(process)} stopped at start:\n{log.read_text(errors='replace')}"
            )
        try:
            with urllib.request.urlopen(f"{base}/healthz/", timeout=2) as answer:
                if answer.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{command_name(process)} did not answer /healthz/ in {timeout:.0f} s")


def command_name(process: subprocess.Popen) -> str:
    return " ".join(str(a) for a in process.args[:3])
