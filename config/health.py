"""Health endpoints: whether this process can serve, and whether background work can run.

Two questions, two addresses, because they call for different actions:

- ``/healthz/`` (liveness, for the container healthcheck and the load balancer): "the web can
  serve". 200 when the database answers a ``SELECT 1``; 503 otherwise. The cache (Redis, where
  ``REDIS_URL`` is set) is reported but never fails it: every page and API read is served without
  the cache (``config.cache``), so a load balancer must not take web nodes out when Redis is down.
- ``/healthz/background/`` (readiness of background work: dry runs, previews, PDF batches): 200
  when the task queue answers (``config.celery.check_queue``), 503 when it does not or when none
  is configured. For monitoring and alerts, never for taking web nodes out of a load balancer:
  while it fails, pages that start long work say at once that they cannot.

Both answer ``{"status": ..., "checks": {...}}``, naming the check that failed
(``"unavailable: <error class>"``; the details go to the log, not to the public). Each check runs
with a deadline of its own (``CHECK_TIMEOUT_S``) in a helper thread, so a database or Redis that
hangs instead of refusing still gets an answer in time: the Docker healthcheck and a load
balancer both give up after a few seconds, and a probe that hangs would look the same as one that
fails, without saying why.

Run as ``python -m config.health`` it is the probe itself (the image's ``HEALTHCHECK``): it asks
the gunicorn of its own container for ``/healthz/`` and exits 0 or 1. It sends a ``Host`` the app
accepts (the first of ``ALLOWED_HOSTS``) and ``X-Forwarded-Proto: https``, as the reverse proxy
does, so that the HTTPS redirect of production settings does not answer instead of the view.
"""

from __future__ import annotations

import logging
import os
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout

from django.conf import settings
from django.db import connections, transaction
from django.http import HttpRequest, JsonResponse
from django.urls import path
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

logger = logging.getLogger(__name__)

CHECK_TIMEOUT_S = 3.0
OK = "ok"
#: Untranslated, like every status here: read by healthchecks and monitoring, not by people.
NOT_CONFIGURED = "not configured"  # untranslated: a status read by healthchecks


def _database() -> None:
    """``SELECT 1`` on a connection of the helper thread's own, closed afterwards (Django's
    connections belong to one thread each, so this never touches the request's)."""
    try:
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    finally:
        connections.close_all()


def _cache() -> None:
    """``PING`` to the Redis of ``REDIS_URL`` (the shared cache, and the Celery broker)."""
    import redis  # only where Redis is configured

    client = redis.Redis.from_url(
        settings.REDIS_URL,
        socket_connect_timeout=CHECK_TIMEOUT_S,
        socket_timeout=CHECK_TIMEOUT_S,
    )
    try:
        client.ping()
    finally:
        client.close()


def _queue() -> None:
    """The task queue answers, as a page that starts long work asks it."""
    from config.celery import check_queue  # the Celery app loads only when asked

    check_queue(timeout=CHECK_TIMEOUT_S)


def _run(checks: dict[str, Callable[[], None]]) -> dict[str, str]:
    """Each check by name: ``"ok"`` or ``"unavailable: <error class>"``, side by side, within one
    ``CHECK_TIMEOUT_S``."""
    results: dict[str, str] = {}
    pool = ThreadPoolExecutor(max_workers=len(checks), thread_name_prefix="healthz")
    try:
        futures = {name: pool.submit(check) for name, check in checks.items()}
        # One deadline for all: the checks run side by side, so the answer takes one timeout.
        deadline = time.monotonic() + CHECK_TIMEOUT_S
        for name, future in futures.items():
            try:
                future.result(timeout=max(0.0, deadline - time.monotonic()))
            except FutureTimeout:
                results[name] = (
                    f"unavailable: no answer within {CHECK_TIMEOUT_S:g} s"  # untranslated: status
                )
                logger.warning("health check %s: no answer within %g s", name, CHECK_TIMEOUT_S)
            except Exception as exc:
                results[name] = f"unavailable: {type(exc).__name__}"
                logger.warning("health check %s failed: %r", name, exc)
            else:
                results[name] = OK
    finally:
        # A check that hangs is left to finish on its own; the answer does not wait for it.
        pool.shutdown(wait=False, cancel_futures=True)
    return results


def run_checks() -> dict[str, str]:
    """Liveness: the database, and the cache (reported, never required), by name: ``"ok"``,
    ``"not configured"`` or ``"unavailable: <error class>"``."""
    checks: dict[str, Callable[[], None]] = {"database": _database}
    results: dict[str, str] = {}
    if settings.REDIS_URL:
        checks["cache"] = _cache
    else:
        results["cache"] = NOT_CONFIGURED
    results.update(_run(checks))
    return dict(sorted(results.items()))


def run_background_checks() -> dict[str, str]:
    """Background work: the task queue, ``"ok"``, ``"not configured"`` (neither ``REDIS_URL``
    nor ``BROKER_URL``: long work is refused) or ``"unavailable: <error class>"``."""
    from config.celery import background_configured

    if not background_configured():
        return {"queue": NOT_CONFIGURED}
    return _run({"queue": _queue})


def _answer(checks: dict[str, str], healthy: bool) -> JsonResponse:
    return JsonResponse(
        {"status": OK if healthy else "unavailable", "checks": checks},
        status=200 if healthy else 503,
    )


@never_cache
@require_safe
@transaction.non_atomic_requests
def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness: 200 when the database answers (whatever the cache says), else 503."""
    checks = run_checks()
    return _answer(checks, checks["database"] == OK)


@never_cache
@require_safe
@transaction.non_atomic_requests
def background(request: HttpRequest) -> JsonResponse:
    """Background work: 200 when the task queue answers, else 503 saying why."""
    checks = run_background_checks()
    return _answer(checks, checks["queue"] == OK)


urlpatterns = [
    path("", healthz, name="healthz"),
    path("background/", background, name="healthz-background"),
]


def probe_host(allowed_hosts: str) -> str:
    """A ``Host`` header that ``ALLOWED_HOSTS`` (comma-separated, as in the environment) accepts:
    its first entry, ``example.org`` for ``.example.org``, ``localhost`` for ``*`` or nothing."""
    first = next((h.strip() for h in allowed_hosts.split(",") if h.strip()), "*")
    if first == "*":
        return "localhost"
    return first.removeprefix(".")


def probe(port: int, allowed_hosts: str, timeout: float = 2 * CHECK_TIMEOUT_S) -> tuple[bool, str]:
    """Ask the server on 127.0.0.1:``port`` for ``/healthz/``: (healthy, what it said)."""
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/healthz/",
        headers={"Host": probe_host(allowed_hosts), "X-Forwarded-Proto": "https"},
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status == 200, response.read().decode(errors="replace")
    except urllib.error.HTTPError as exc:
        return False, f"HTTP {exc.code}: {exc.read().decode(errors='replace')}"
    except OSError as exc:  # refused, timed out, reset (URLError is one too)
        return False, f"no answer from 127.0.0.1:{port}: {exc}"  # untranslated: container log


def main() -> int:
    """The container healthcheck: exit 0 when ``/healthz/`` says 200, else print why and exit 1."""
    port = int(os.environ.get("PORT", "8000"))
    healthy, said = probe(port, os.environ.get("ALLOWED_HOSTS", ""))
    print(said)
    return 0 if healthy else 1


if __name__ == "__main__":
    sys.exit(main())
