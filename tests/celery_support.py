"""A real Celery worker for tests: against Redis when REDIS_URL is set (CI), otherwise against
Celery's in-memory broker, so the same tests run everywhere and none is skipped."""

import contextlib
from collections.abc import Iterator

from celery.contrib.testing.worker import start_worker

from config.celery import app


@contextlib.contextmanager
def running_worker() -> Iterator[None]:
    """Run a worker thread consuming the broker of the settings for the duration of the block.

    Tasks sent inside the block go through the broker (eager mode is switched off), so the test
    exercises serialisation, routing and result storage like production does.
    """
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = False
    app.loader.import_module("celery.contrib.testing.tasks")
    try:
        with start_worker(app, pool="solo", perform_ping_check=True, shutdown_timeout=10):
            yield
    finally:
        app.conf.task_always_eager = eager
