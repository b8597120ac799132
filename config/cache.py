"""The shared cache (Redis), failing soft: a Redis that is down or hangs never fails a page.

Everything this app keeps in the cache can be done without it: the standings are ranked again
(``scoring.standings.selectors.live_standings``), a QR drawing is encoded again, and the API's
throttling counts (DRF keeps them in the cache) start from nothing, so throttling fails open.
:class:`FailSoftRedisCache` is Django's own Redis backend with that said once, for every user of
the cache alike:

- every call that Redis refuses or leaves unanswered returns what a miss returns (``get`` the
  default, ``add`` False, ``incr`` a ``ValueError`` like a missing key), with a warning in the log
  saying what the site does meanwhile;
- the client waits at most ``SOCKET_TIMEOUT_S`` for an answer and never retries (redis-py would
  otherwise retry three times with back-off, five seconds for a Redis that hangs);
- after a failure the process stops asking Redis for ``RETRY_AFTER_S`` seconds, so a request that
  reads the cache several times (standings, then the throttles) pays one timeout at most, and a
  Redis that hangs costs each process one short wait every few seconds, not each request.

The state is per process (shared by its threads) and per Redis location. It needs no setting
beyond ``CACHES``; ``config.settings`` chooses it whenever ``REDIS_URL`` is set.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from redis.retry import Retry

logger = logging.getLogger(__name__)

T = TypeVar("T")

#: Seconds to wait for Redis to connect or to answer one command: a healthy Redis on the same
#: network answers in a millisecond, so this only bounds what a hanging one costs.
SOCKET_TIMEOUT_S = 0.3
#: Seconds without asking Redis again after it failed.
RETRY_AFTER_S = 5.0

#: What a Redis that is down, unreachable or hanging raises (``TimeoutError`` and
#: ``ConnectionError`` of redis-py, and the socket's own errors where they slip through).
UNAVAILABLE = (RedisConnectionError, RedisTimeoutError, OSError)

_MISSING = object()


class _Outage:
    """When this process may ask a Redis location again, shared by the process's threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._until: dict[str, float] = {}

    def skipping(self, location: str) -> bool:
        return time.monotonic() < self._until.get(location, 0.0)

    def failed(self, location: str, exc: BaseException) -> None:
        with self._lock:
            first = location not in self._until
            self._until[location] = time.monotonic() + RETRY_AFTER_S
        logger.warning(
            "The cache (Redis at %s) %s (%r): pages are served without it (standings ranked "
            "for each request, API throttling not counted) until it answers; asking again "
            "in %g s.",
            location,
            "does not answer" if first else "still does not answer",
            exc,
            RETRY_AFTER_S,
        )

    def answered(self, location: str) -> None:
        if location in self._until:
            with self._lock:
                if self._until.pop(location, None) is not None:
                    logger.warning("The cache (Redis at %s) answers again.", location)


_outage = _Outage()


class FailSoftRedisCache(RedisCache):
    """Django's ``RedisCache`` with short timeouts, no retries, and a miss instead of an error
    while Redis is unavailable (see the module's docstring)."""

    def __init__(self, server: str | list[str], params: dict[str, Any]) -> None:
        options = dict(params.get("OPTIONS") or {})
        options.setdefault("socket_connect_timeout", SOCKET_TIMEOUT_S)
        options.setdefault("socket_timeout", SOCKET_TIMEOUT_S)
        options.setdefault("retry", Retry(NoBackoff(), 0))
        super().__init__(server, {**params, "OPTIONS": options})
        # The location as the log may show it: without a password.
        self._label = ",".join(_without_password(s) for s in self._servers)

    def _soft(self, call: Callable[[], T], fallback: T) -> T:
        if _outage.skipping(self._label):
            return fallback
        try:
            answer = call()
        except UNAVAILABLE as exc:
            _outage.failed(self._label, exc)
            return fallback
        _outage.answered(self._label)
        return answer

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None):
        return self._soft(
            lambda: super(FailSoftRedisCache, self).add(key, value, timeout, version), False
        )

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        return self._soft(
            lambda: super(FailSoftRedisCache, self).get(key, default, version), default
        )

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None):
        self._soft(lambda: super(FailSoftRedisCache, self).set(key, value, timeout, version), None)

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> bool:
        return self._soft(
            lambda: super(FailSoftRedisCache, self).touch(key, timeout, version), False
        )

    def delete(self, key: Any, version: Any = None) -> bool:
        return self._soft(lambda: super(FailSoftRedisCache, self).delete(key, version), False)

    def get_many(self, keys: Any, version: Any = None) -> dict[Any, Any]:
        return self._soft(lambda: super(FailSoftRedisCache, self).get_many(keys, version), {})

    def has_key(self, key: Any, version: Any = None) -> bool:
        return self._soft(lambda: super(FailSoftRedisCache, self).has_key(key, version), False)

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> int:
        answer = self._soft(
            lambda: super(FailSoftRedisCache, self).incr(key, delta, version), _MISSING
        )
        if answer is _MISSING:
            # What a missing key gives: callers of incr() already handle it.
            unavailable = f"Key {key!r} not found (the cache is unavailable)."  # untranslated: code
            raise ValueError(unavailable)
        return answer

    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None):
        return self._soft(
            lambda: super(FailSoftRedisCache, self).set_many(data, timeout, version), list(data)
        )

    def delete_many(self, keys: Any, version: Any = None) -> None:
        self._soft(lambda: super(FailSoftRedisCache, self).delete_many(keys, version), None)

    def clear(self) -> bool:
        return self._soft(lambda: super(FailSoftRedisCache, self).clear(), False)


def _without_password(url: str) -> str:
    """``redis://:secret@host:6379/0`` as ``redis://host:6379/0``."""
    scheme, sep, rest = url.partition("://")
    if not sep or "@" not in rest:
        return url
    return f"{scheme}://{rest.rsplit('@', 1)[1]}"
