"""Fixtures of the simulation app's tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from config.celery import app


@pytest.fixture
def eager() -> Iterator[None]:
    """Celery tasks run in the test's process, whatever REDIS_URL says."""
    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = before
