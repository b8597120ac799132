"""Shared fixtures. Tests use the real database configured by DATABASE_URL (SQLite by
default, PostgreSQL in CI)."""

import os
import sys

import pytest
from django.test.utils import override_settings
from django.utils import translation
from hypothesis import HealthCheck, settings

from tests.events import SmallEvent, build_small_event

ARTIFACTS = os.path.join(os.path.dirname(__file__), "artifacts")

# Compiled modules are kept for the next run even where the environment switches that off
# (PYTHONDONTWRITEBYTECODE, as containers often set): without them every pytest-xdist worker
# compiles the project again and rewrites the asserts of every test module, some 10 s of CPU a
# worker at each run. Switched on here, before the workers and the processes tests start inherit
# the environment; the caches are the __pycache__ folders git ignores.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

# Property tests run on small shared machines: a slow example is not a failure.
settings.register_profile("project", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("project")


#: A hasher made to be fast: the configured one is slow on purpose (hundreds of milliseconds a
#: password on this kind of machine), which tests pay at each login and ``create_user``.
FAST_PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(scope="session", autouse=True)
def _fast_password_hashing():
    """Every test hashes and checks passwords with :data:`FAST_PASSWORD_HASHERS`. What is tested
    of a password is who may sign in with it, never how long the hash takes (a test of that would
    put the real hashers back with the ``settings`` fixture). Processes a test starts (a Celery
    worker, a served copy of the app) keep the real hashers; none of them checks a password made
    here (the load tests sign in with tokens)."""
    with override_settings(PASSWORD_HASHERS=FAST_PASSWORD_HASHERS):
        yield


@pytest.fixture(autouse=True)
def _default_language():
    """Each test starts in the default language (``LANGUAGE_CODE``): a page an earlier test asked
    for in French leaves French active in the thread (``LocaleMiddleware`` does not switch back),
    and the messages the next test reads would be worded in French."""
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture
def artifacts_dir() -> str:
    """Where tests save pictures (SVG boards, screenshots, rendered PDF pages) for people."""
    os.makedirs(ARTIFACTS, exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def small_event(db) -> SmallEvent:
    """A tournament with a singles category, its preliminary drawn (6 players, 2 games each, on
    3 boards) and a user for every role: ``small_event.users[role]`` for each of
    ``tests.events.ROLES``; ``small_event.game`` is the player's game against the opponent."""
    return build_small_event()


@pytest.fixture
def tasks_in_place():
    """Tasks run in the test's own process, as where no broker is configured: under CI the
    settings name Redis, where no worker listens to a test that did not start one
    (``tests.celery_support.running_worker`` switches to the broker itself)."""
    from config.celery import app

    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = eager
