"""A real Celery worker for tests: against Redis when REDIS_URL is set (CI), otherwise against
Celery's in-memory broker, so the same tests run everywhere and none is skipped."""

import contextlib
import uuid
from collections.abc import Iterator

from celery.contrib.testing.worker import start_worker

from config.celery import app

#: This test session's own queue: two sessions sharing one Redis (two checkouts, a developer and
#: CI) must never run each other's tasks against the wrong test database.
QUEUE = f"tests-{uuid.uuid4().hex[:12]}"


@contextlib.contextmanager
def running_worker() -> Iterator[None]:
    """Run a worker thread consuming the broker of the settings for the duration of the block.

    Tasks sent inside the block go through the broker (eager mode is switched off), so the test
    exercises serialisation, routing and result storage like production does.
    """
    eager, queue = app.conf.task_always_eager, app.conf.task_default_queue
    app.conf.task_always_eager = False
    app.conf.task_default_queue = QUEUE
    app.loader.import_module("celery.contrib.testing.tasks")
    try:
        with start_worker(
            app, pool="solo", perform_ping_check=True, shutdown_timeout=10, queues=[QUEUE]
        ):
            yield
    finally:
        app.conf.task_always_eager, app.conf.task_default_queue = eager, queue
