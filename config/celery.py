"""The Celery application; tasks are discovered in each Django app's ``tasks`` module.

Also the one place that says whether the task queue can be reached: a page that starts long
work (a dry run, auto-play, a preview, a PDF batch) asks ``check_queue`` first and answers at
once with ``QueueUnreachable``'s message instead of hanging on a broker that is not there, and
sends through ``publish``, which turns a broker that fails at that moment into the same message.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable
from time import monotonic
from typing import Any, TypeVar

import redis
from celery import Celery
from django.conf import settings
from django.utils.translation import gettext as _
from kombu.exceptions import OperationalError
from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps
from kombu.utils.url import maybe_sanitize_url
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from redis.retry import Retry

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("crokinole")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

T = TypeVar("T")

#: What a broker that cannot be reached raises: kombu's own error, or the Redis client's when
#: the result store (also Redis) is asked first.
UNREACHABLE = (OperationalError, RedisConnectionError, RedisTimeoutError, OSError)
#: Seconds a page waits for the broker before saying it cannot be reached.
CHECK_TIMEOUT_S = 1.5


class QueueUnreachable(Exception):
    """The task queue cannot be reached, so nothing was queued; the message says what to start."""


def queue_label() -> str:
    """The broker as the organizer may read it: its URL without a password."""
    url = str(app.conf.broker_write_url or app.conf.broker_url or "")
    if url.startswith("filesystem"):
        folder = (app.conf.broker_transport_options or {}).get("data_folder_in", "")
        return f"filesystem:// ({folder})" if folder else url
    return str(maybe_sanitize_url(url))


def _unreachable(exc: BaseException) -> QueueUnreachable:
    server = "Redis" if queue_label().startswith(("redis", "rediss")) else _("the broker")
    return QueueUnreachable(
        _(
            "The task queue at %(queue)s cannot be reached (%(error)s): start %(server)s or the "
            "worker; nothing was queued."
        )
        % {"queue": queue_label(), "error": exc or type(exc).__name__, "server": server}
    )


def background_configured() -> bool:
    """Whether long work has somewhere to run: a broker (``REDIS_URL`` or ``BROKER_URL``), or
    ``LONG_WORK_IN_REQUEST`` allowing eager tasks inside the request (the tests)."""
    return bool(settings.REDIS_URL or settings.BROKER_URL or settings.LONG_WORK_IN_REQUEST)


def _not_configured() -> QueueUnreachable:
    return QueueUnreachable(
        _(
            "Background work is not configured on this server, so dry runs, previews and PDF "
            "batches cannot start: set REDIS_URL (or BROKER_URL) and start a worker "
            "(celery -A config worker), as docs/deploy.md describes; `make run` does both."
        )
    )


def _ping_redis(url: str, timeout: float) -> None:
    """``PING`` with ``timeout`` for connecting and for the answer, without retries: kombu's
    own connection check would wait its socket timeout (10 s) on a Redis that hangs."""
    client = redis.Redis.from_url(
        url, socket_connect_timeout=timeout, socket_timeout=timeout, retry=Retry(NoBackoff(), 0)
    )
    try:
        client.ping()
    finally:
        client.close()


def check_queue(timeout: float = CHECK_TIMEOUT_S) -> None:
    """Raise ``QueueUnreachable`` within about ``timeout`` seconds when the broker does not
    answer, or at once when there is none: long work never runs inside a request unless
    ``LONG_WORK_IN_REQUEST`` says so. Eager tasks so allowed (tests) need no broker. A fresh
    connection each time: a pooled one would hide a broker that went away."""
    if app.conf.task_always_eager:
        if not background_configured():
            raise _not_configured()
        return
    url = str(app.conf.broker_write_url or app.conf.broker_url or "")
    try:
        if url.startswith(("redis://", "rediss://")):
            _ping_redis(url, timeout)
        with app.connection_for_write() as connection:
            connection.ensure_connection(max_retries=1, interval_start=0, timeout=timeout)
    except UNREACHABLE as exc:
        raise _unreachable(exc) from exc


def publish(send: Callable[[], T]) -> T:
    """Call ``send`` (an ``apply_async`` or ``delay``); a broker that fails meanwhile is a
    ``QueueUnreachable`` with the same message as ``check_queue``'s. Eager, ``send`` runs the
    task here, and what it raises is the task's own."""
    if app.conf.task_always_eager:
        return send()
    try:
        return send()
    except (*UNREACHABLE, RuntimeError) as exc:  # RuntimeError: Redis results gave up reconnecting
        raise _unreachable(exc) from exc


class _FilesChannel(filesystem.Channel):
    """kombu's filesystem channel, with messages that appear whole.

    kombu writes a message in place, so a worker polling the folder can take the file while it
    is still empty and stop on the JSON it cannot read. Here the message is written under a name
    no reader takes (``….msg.part``) and renamed into the queue, which is atomic."""

    def _put(self, queue: str, payload: Any, **kwargs: Any) -> None:
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        with open(final + ".part", "wb") as part:
            part.write(str_to_bytes(dumps(payload)))
        os.replace(final + ".part", final)


class FilesystemTransport(filesystem.Transport):
    """The broker of ``make run`` (``BROKER_URL=filesystem://``): a queue kept in a folder."""

    Channel = _FilesChannel
