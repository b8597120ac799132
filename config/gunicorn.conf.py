"""Gunicorn settings of the web container, read from the environment.

``gunicorn -c config/gunicorn.conf.py config.wsgi:application`` (the image's command).

- ``WEB_CONCURRENCY``: worker processes. Pages are CPU-bound Python (the 400-player standings page
  takes about half a second of one core), so each worker serves one request at a time and the
  default is two per core this process may run on, enough to keep the cores busy while some
  workers wait on PostgreSQL. Set it from the machine's memory as much as from its cores:
  docs/deploy.md has the measured memory per worker.
- ``PORT``: where to listen (8000).
- ``GUNICORN_TIMEOUT``: seconds a request may take before its worker is replaced (30). Long work
  (dry runs, PDF batches) goes to the Celery workers, never into a request.

A bad value stops gunicorn at start with a message naming the variable, rather than starting
with a guess.
"""

import gc
import os


def _positive_int(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise SystemExit(
            f"{name} must be a whole number, got {raw!r}"  # untranslated: no Django here yet
        ) from None
    if value < 1:
        raise SystemExit(
            f"{name} must be at least 1, got {value}"  # untranslated: no Django here yet
        )
    return value


def default_workers() -> int:
    """Two per core that this process may run on (its CPU affinity, which a container's
    ``cpuset`` limits; a CPU quota is not seen here, so set ``WEB_CONCURRENCY`` with one)."""
    return 2 * len(os.sched_getaffinity(0))


bind = f"0.0.0.0:{_positive_int('PORT', 8000)}"
workers = _positive_int("WEB_CONCURRENCY", default_workers())
worker_class = "sync"
timeout = _positive_int("GUNICORN_TIMEOUT", 30)
graceful_timeout = 30
# The reverse proxy keeps connections to the app open between requests.
keepalive = 5
# Replace each worker after a while, so that a slow leak in a long tournament day cannot grow
# without bound; the jitter keeps the workers from all restarting at once.
max_requests = 1000
max_requests_jitter = 100
# Workers' heartbeat files on tmpfs: on a container's overlay file system a slow disk can make
# the arbiter think a worker is stuck.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None
accesslog = "-"
errorlog = "-"
# Gunicorn's control socket is not used (the container is stopped and scaled by Docker), and its
# default place, the home directory, is not writable for the app's user.
control_socket_disable = True

# Load the app, and every view module behind the URLconf, once in the master before forking:
# the views pull in WeasyPrint and the compiled physics, some 170 MB and several seconds per
# process, which the workers then share copy-on-write and never wait for on a first request
# (a restarted worker is ready at once, too). Nothing here opens a connection; any that did is
# closed before the fork, so no two workers ever share one.
preload_app = True


def when_ready(server) -> None:
    """Import the URLconf in the master, after the app and before the first worker."""
    from django.db import connections
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 (the import is the point)
    connections.close_all()
    # Everything loaded so far lives as long as the process: move it out of the garbage
    # collector's sight. Otherwise each worker's full collection walks these 280,000 objects
    # (about 130 ms on one core) in the middle of whichever request triggers it, and the pages
    # stay shared with the master instead of being copied as the collector touches them.
    gc.collect()
    gc.freeze()
