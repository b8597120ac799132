"""How the simulation's tasks travel: the only place where eager mode differs.

Work goes out as a chord: header tasks that play games (no database) and a body that hands
their results to a service transition, with an errback for a header that fails.

- With a broker (Redis in production, the filesystem queue of ``make run``), the chord goes
  to the workers; the result store hands the header's results to the body (Redis and the
  database store of django-celery-results count the header's parts themselves, no polling
  task), or a failure to the errback.
- Eager (``CELERY_TASK_ALWAYS_EAGER``, the default of tests that start no worker), the same
  chord runs in this process. A chord sent while a task of this thread runs
  waits in this thread's queue until that task has returned, as it would wait at a broker: each
  task then starts from committed state, and a run of many batches does not nest task within
  task. A failure is handed to the errback, as a worker hands it.

Either way the same tasks run the same service code, in the same order for one worker.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Sequence

from celery import chord, group
from celery.canvas import Signature

from config.celery import app

_local = threading.local()


def _eager() -> bool:
    return bool(app.conf.task_always_eager)


def send_chord(header: Sequence[Signature], body: Signature, errback: Signature) -> None:
    """Play ``header`` in parallel, then call ``body`` with the list of their results; if a
    header task fails, call ``errback(request, exc, traceback)`` instead."""
    if not _eager():
        chord(group(header), body.on_error(errback)).apply_async()
        return
    pending: deque[tuple[Sequence[Signature], Signature, Signature]] | None = getattr(
        _local, "pending", None
    )
    if pending is not None:  # a task of this thread is running: this chord waits its turn
        pending.append((header, body, errback))
        return
    _local.pending = pending = deque([(header, body, errback)])
    try:
        while pending:
            _run_in_this_process(*pending.popleft())
    finally:
        _local.pending = None


def _run_in_this_process(header: Sequence[Signature], body: Signature, errback: Signature) -> None:
    try:
        chord(group(header), body).apply_async()
    except Exception as exc:  # handed over as a worker hands it
        errback(None, exc, None)
