"""Gunicorn settings of the web container, read from the environment.

``gunicorn -c config/gunicorn.conf.py config.wsgi:application`` (the image's command).

- ``WEB_CONCURRENCY``: worker processes. Pages are CPU-bound Python (the 400-player standings page
  takes about half a second of one core), so the default is two per core this process may run
  on, enough to keep the cores busy while some workers wait on PostgreSQL. Set it from the
  machine's memory as much as from its cores: docs/deploy.md has the measured memory per worker.
- ``GUNICORN_THREADS``: threads per worker (16). The workers are ``gthread`` workers because of
  the round clock's event stream (``tournaments.views.clock_events``): each open hall screen and
  card page holds one request open for up to ``CLOCK_STREAM_SECONDS`` (90), waiting, without CPU
  or a database connection. A sync worker would be taken whole by one such page (and killed by
  ``GUNICORN_TIMEOUT``); a thread costs some tens of kB. Pages still run on the same threads: a
  worker serves up to ``GUNICORN_THREADS`` requests at once, the GIL letting one compute at a
  time, so the pages' throughput per core is what it was.
- ``CLOCK_STREAMS_PER_PROCESS``: streams one worker holds at once; by default the threads less
  four, so that four threads are always left for pages. Beyond it a page is told to poll
  instead (503), never left waiting behind the streams. The figures (a 4-core machine: 8
  workers x 12 = 96 screens and phones following the clock at once; raise ``GUNICORN_THREADS``
  for more) and what they cost in PostgreSQL connections are in docs/deploy.md.
- ``PORT``: where to listen (8000).
- ``GUNICORN_TIMEOUT``: seconds a worker may stay silent before it is replaced (30); a ``gthread``
  worker's main loop answers while its threads serve, so a clock stream that lasts is no
  silence. Long work (dry runs, PDF batches) goes to the Celery workers, never into a request.

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


#: Threads of a worker kept for pages however many clock streams are open.
PAGE_THREADS = 4

bind = f"0.0.0.0:{_positive_int('PORT', 8000)}"
workers = _positive_int("WEB_CONCURRENCY", default_workers())
worker_class = "gthread"
threads = _positive_int("GUNICORN_THREADS", 16)
if threads <= PAGE_THREADS:
    raise SystemExit(
        f"GUNICORN_THREADS must be more than {PAGE_THREADS} (the threads kept for pages), "
        f"got {threads}"  # untranslated: no Django here yet
    )
# Set in the environment before the app loads (below, before the fork), where the settings read
# it: the clock's streams may take the threads the pages do not keep. A value set outside wins.
raw_env = (
    []
    if os.environ.get("CLOCK_STREAMS_PER_PROCESS", "").strip()
    else [f"CLOCK_STREAMS_PER_PROCESS={threads - PAGE_THREADS}"]
)
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
