"""A real Celery worker for tests: against Redis when REDIS_URL is set (CI), otherwise against
Celery's in-memory broker, so the same tests run everywhere and none is skipped."""

import contextlib
import os
import threading
import uuid
from collections import Counter
from collections.abc import Iterator

from celery import signals
from celery.contrib.testing.worker import start_worker

from config.celery import app

#: This test process's own queue: two test runs sharing one Redis (two checkouts, a developer and
#: CI), or two pytest-xdist workers of one run, must never run each other's tasks against the
#: wrong test database. The xdist worker's name is in it for whoever reads the broker.
QUEUE = f"tests-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}-{uuid.uuid4().hex[:12]}"


class TaskCounter:
    """Follows the tasks this process sends until its worker has finished running them.

    A task that sends others (a chord's header, the next batch, a retry of itself) sends them
    before it finishes, so when every task sent has finished, nothing is left to run: the work
    the test started is over and its transactions are committed. Waiting for that, instead of
    polling the database, keeps the test's thread off the database while the worker writes: on
    SQLite the test database is one in-memory database shared by both threads, where a reader
    and a writer of the same table lock each other out instead of waiting.

    Tasks are followed by id, counted (a retry is sent again under the same id), so a task
    finishing that the test did not send (the worker's start-up ping) changes nothing.
    """

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._pending: Counter[str] = Counter()
        self.sent = 0
        self.finished = 0

    def on_sent(self, headers: dict | None = None, **_: object) -> None:
        with self._changed:
            self._pending[(headers or {}).get("id", "")] += 1
            self.sent += 1

    def on_finished(self, task_id: str = "", **_: object) -> None:
        with self._changed:
            if self._pending[task_id] > 0:
                self._pending[task_id] -= 1
                self.finished += 1
            self._changed.notify_all()

    def wait_until_idle(self, timeout: float = 300) -> None:
        """Block until at least one task was sent and every task sent has finished."""
        with self._changed:
            idle = self._changed.wait_for(
                lambda: self.sent > 0 and self.finished == self.sent, timeout=timeout
            )
            if not idle:
                raise AssertionError(
                    f"the worker was still busy after {timeout} s: "
                    f"{self.finished} of {self.sent} tasks finished"
                )


@contextlib.contextmanager
def running_worker() -> Iterator[TaskCounter]:
    """Run a worker thread consuming the broker of the settings for the duration of the block.

    Tasks sent inside the block go through the broker (eager mode is switched off), so the test
    exercises serialisation, routing and result storage like production does. The block gets a
    ``TaskCounter`` counting from after the worker's start-up check: ``wait_until_idle()`` returns
    once the tasks the test started, and every task they sent, have run.
    """
    eager, queue = app.conf.task_always_eager, app.conf.task_default_queue
    app.conf.task_always_eager = False
    app.conf.task_default_queue = QUEUE
    app.loader.import_module("celery.contrib.testing.tasks")
    counter = TaskCounter()
    try:
        with start_worker(
            app, pool="solo", perform_ping_check=True, shutdown_timeout=10, queues=[QUEUE]
        ):
            signals.before_task_publish.connect(counter.on_sent, weak=False)
            signals.task_postrun.connect(counter.on_finished, weak=False)
            try:
                yield counter
            finally:
                signals.before_task_publish.disconnect(counter.on_sent)
                signals.task_postrun.disconnect(counter.on_finished)
    finally:
        app.conf.task_always_eager, app.conf.task_default_queue = eager, queue
