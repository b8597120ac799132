"""The round clock pushed to every screen: a server-sent event stream per tournament.

WCC: "A buzzer will be used to begin and end play." The hall screen and every player's card page
must see Start, Pause and Reset within a second, not at their next poll: each page opens
``/t/<slug>/clock/events/`` (``EventSource``), which sends the clock as it stands at once, then
every change as it happens, and the clock again after ``HEARTBEAT_S`` seconds of silence, so
that proxies and phones keep the connection and the page knows the stream still speaks (a page
that hears nothing for longer goes back to polling). Each event carries the server's time
(``server_ms``), from which the page measures how far its own clock is from the server's and
counts down on the server's time.

How a change is seen: one thread per process (``ClockWatcher``) reads the versions of the
clocks that somebody is watching, every ``CHECK_S`` seconds, in one query on its one database
connection, whatever the number of open streams; the streams wait on it and never touch the
database after their first reading. That works the same on SQLite under ``make run`` and on
PostgreSQL behind gunicorn, with no broker: a clock changes a few times an hour, and one indexed
query four times a second per process costs nothing beside a page.

What a stream holds: a thread of its worker (gunicorn's ``gthread`` workers, see
``config/gunicorn.conf.py``) for at most ``CLOCK_STREAM_SECONDS``; then it ends, and the browser
opens the next one after ``retry`` milliseconds. A process serves at most
``CLOCK_STREAMS_PER_PROCESS`` streams at once, so that pages always find a free thread; beyond
that the stream is refused with a 503, and the page polls the clock's partial instead
(``static/js/clock.js``), as it does wherever ``EventSource`` fails.

Nothing here is private: the clock's state, time, label and version, as the hall screen shows
them; not who pressed the button.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, nullcontext, suppress
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection, connections, transaction
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tournaments.models import RoundClock, Tournament
from tournaments.views.clock_display import started_ms

logger = logging.getLogger(__name__)

#: Seconds between two readings of the watched clocks' versions (well inside the 1 s promise).
CHECK_S = 0.25
#: Seconds of silence after which a stream says the clock again, so that nothing on the way
#: closes it and the page knows it is alive (static/js/clock.js polls after 2.5 times this).
HEARTBEAT_S = 15.0
#: Milliseconds the browser waits before opening the next stream when one ends.
RETRY_MS = 1000
#: How long one stream lasts by default (``CLOCK_STREAM_SECONDS``): long enough that reconnecting
#: costs little, short enough that a worker's threads turn over and a restart drains quickly.
DEFAULT_STREAM_SECONDS = 90
#: Streams one process serves at once by default (``CLOCK_STREAMS_PER_PROCESS``).
DEFAULT_STREAMS_PER_PROCESS = 24


def stream_seconds() -> float:
    return float(getattr(settings, "CLOCK_STREAM_SECONDS", DEFAULT_STREAM_SECONDS))


def streams_per_process() -> int:
    return int(getattr(settings, "CLOCK_STREAMS_PER_PROCESS", DEFAULT_STREAMS_PER_PROCESS))


def _version(clock: RoundClock | None) -> int:
    """No clock is version 0; a clock's versions start at 1."""
    return clock.version if clock is not None else 0


class ClockWatcher:
    """Reads the watched clocks in one thread and wakes the streams waiting on a change.

    The thread runs while at least one stream watches, and ends with the last one.
    ``around_fetch`` wraps each reading; it is where a test server that answers one request at
    a time puts its lock."""

    def __init__(self, every: float = CHECK_S) -> None:
        self.every = every
        self.around_fetch: Callable[[], AbstractContextManager[Any]] = nullcontext
        self._changed = threading.Condition()
        self._clocks: dict[int, RoundClock | None] = {}
        self._watchers: Counter[int] = Counter()
        self._thread: threading.Thread | None = None
        #: Moves on when every open stream is to end now (``end_streams``).
        self.generation = 0

    @property
    def open_streams(self) -> int:
        with self._changed:
            return sum(self._watchers.values())

    def watch(self, tournament_id: int, first: RoundClock | None) -> bool:
        """Count one more stream on the tournament's clock, unless the process has its fill
        (False). ``first`` is the clock as the stream read it, until the thread reads again."""
        with self._changed:
            if sum(self._watchers.values()) >= streams_per_process():
                return False
            self._watchers[tournament_id] += 1
            if tournament_id not in self._clocks or _version(first) > _version(
                self._clocks[tournament_id]
            ):
                # Newer than the thread's last reading: the other streams hear it now, not at
                # the thread's next reading, which would find nothing new.
                self._clocks[tournament_id] = first
                self._changed.notify_all()
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="round-clock-watcher", daemon=True
                )
                self._thread.start()
            return True

    def unwatch(self, tournament_id: int) -> None:
        with self._changed:
            self._watchers[tournament_id] -= 1
            if self._watchers[tournament_id] <= 0:
                del self._watchers[tournament_id]
                self._clocks.pop(tournament_id, None)

    def wait(self, tournament_id: int, seen: int, timeout: float) -> RoundClock | None:
        """The clock once its version is other than ``seen``, or as it is after ``timeout``
        (sooner if the streams are told to end)."""
        with self._changed:
            generation = self.generation
            self._changed.wait_for(
                lambda: (
                    _version(self._clocks.get(tournament_id)) != seen
                    or self.generation != generation
                ),
                timeout=timeout,
            )
            return self._clocks.get(tournament_id)

    def end_streams(self) -> None:
        """End every open stream at its next step (a server stopping: the browsers reconnect
        elsewhere rather than wait for the streams' lifetime)."""
        with self._changed:
            self.generation += 1
            self._changed.notify_all()

    def _fetch(self, ids: list[int]) -> dict[int, RoundClock]:
        with self.around_fetch():
            return {
                clock.tournament_id: clock
                for clock in RoundClock.objects.filter(tournament_id__in=ids).only(
                    "tournament_id",
                    "label",
                    "duration_s",
                    "state",
                    "started_at",
                    "elapsed_before_s",
                    "version",
                )
            }

    def _run(self) -> None:
        failures = 0
        try:
            while True:
                with self._changed:
                    ids = list(self._watchers)
                    if not ids:
                        self._thread = None
                        return
                try:
                    found = self._fetch(ids)
                except DatabaseError:
                    # The database is away for a moment (or, on SQLite, locked): the streams
                    # keep what they have and the next reading tries again.
                    failures += 1
                    if failures == 1:
                        logger.warning("The round clock's watcher could not read the clocks.")
                    # It was not usable anyway; the next reading opens another.
                    with suppress(DatabaseError):
                        connection.close()
                else:
                    failures = 0
                    with self._changed:
                        changed = False
                        for tournament_id in ids:
                            if tournament_id not in self._watchers:
                                continue
                            clock = found.get(tournament_id)
                            if _version(clock) != _version(self._clocks.get(tournament_id)):
                                self._clocks[tournament_id] = clock
                                changed = True
                        if changed:
                            self._changed.notify_all()
                time.sleep(self.every)
        finally:
            with self._changed:
                if self._thread is threading.current_thread():
                    self._thread = None
            for conn in connections.all(initialized_only=True):
                if conn.allow_thread_sharing:
                    continue  # a test server's connection, lent to this thread: not ours to close
                with suppress(DatabaseError):
                    conn.close()  # unless it is gone already

    def join(self, timeout: float) -> bool:
        """Wait until the thread has ended (no stream watches any more); False if it has not
        within ``timeout`` seconds."""
        with self._changed:
            thread = self._thread
        if thread is not None:
            thread.join(timeout)
            return not thread.is_alive()
        return True


#: The one watcher of this process.
WATCHER = ClockWatcher()


def clock_data(clock: RoundClock | None) -> dict[str, Any]:
    """What one event says: the clock at the server's ``server_ms`` (milliseconds since the
    epoch), from which the page counts down on the server's time."""
    now = timezone.now()
    server_ms = int(now.timestamp() * 1000)
    if clock is None:
        return {"state": "off", "version": 0, "server_ms": server_ms}
    reading = clock.read(now)
    return {
        "state": reading.state,
        "remaining_ms": int(reading.remaining * 1000),
        "duration": reading.duration,
        "label": reading.label,
        "face": reading.face,
        "version": reading.version,
        "started_ms": started_ms(clock),
        "server_ms": server_ms,
    }


def _event(clock: RoundClock | None) -> str:
    data = clock_data(clock)
    payload = json.dumps(data, ensure_ascii=False)
    return f"id: {data['version']}\ndata: {payload}\n\n"  # untranslated: the stream's format


def clock_stream(
    tournament_id: int, first: RoundClock | None, lifetime: float, watcher: ClockWatcher
) -> Iterator[str]:
    """The stream's text: how soon to reconnect, the clock now, each change, heartbeats; it
    ends after ``lifetime`` seconds."""
    begun = last_sent = time.monotonic()
    generation = watcher.generation
    yield f"retry: {RETRY_MS}\n\n"
    yield _event(first)
    seen = _version(first)
    while True:
        now = time.monotonic()
        left = lifetime - (now - begun)
        if left <= 0 or watcher.generation != generation:
            return
        clock = watcher.wait(
            tournament_id, seen, timeout=min(left, max(0.0, HEARTBEAT_S - (now - last_sent)))
        )
        if watcher.generation != generation:
            return
        if _version(clock) != seen:
            seen = _version(clock)
            yield _event(clock)
            last_sent = time.monotonic()
        elif time.monotonic() - last_sent >= HEARTBEAT_S:
            yield _event(clock)
            last_sent = time.monotonic()


class CountedStream:
    """A stream counted in its watcher from the start until it is closed: by the server once
    the response is over (its end, or the browser gone), even if it was never read."""

    def __init__(self, tournament_id: int, body: Iterator[str], watcher: ClockWatcher) -> None:
        self.tournament_id = tournament_id
        self.body = body
        self.watcher = watcher
        self.closed = False

    def __iter__(self) -> Iterator[str]:
        return self.body

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        try:
            close = getattr(self.body, "close", None)
            if close is not None:
                close()
        finally:
            self.watcher.unwatch(self.tournament_id)


@never_cache
@require_GET
@transaction.non_atomic_requests
def events(request: HttpRequest, slug: str) -> HttpResponse:
    """The clock's event stream (``text/event-stream``): public, like the clock on the wall."""
    tournament = Tournament.objects.filter(slug=slug).only("id").first()
    if tournament is None:
        raise Http404(gettext("There is no tournament “%(slug)s”.") % {"slug": slug})
    first = RoundClock.objects.filter(tournament=tournament).first()
    if not WATCHER.watch(tournament.id, first):
        return busy_response(
            gettext("Too many screens follow the clock here: ask again in a minute.")
        )
    return stream_response(
        WATCHER, tournament.id, clock_stream(tournament.id, first, stream_seconds(), WATCHER)
    )


def busy_response(message: str) -> HttpResponse:
    """A process with its fill of streams: 503, and the page polls instead."""
    busy = HttpResponse(
        message,
        status=503,
        content_type="text/plain; charset=utf-8",  # untranslated: a media type
    )
    busy["Retry-After"] = "60"
    return busy


def stream_response(watcher: Any, key: int, stream: Iterator[str]) -> StreamingHttpResponse:
    """An event stream that waits on ``watcher`` from here on, counted as one of its open
    streams; the database connection is given back now rather than held for the stream's
    lifetime (SQLite's in-memory test database keeps it), and no proxy may buffer it."""
    if not connection.in_atomic_block:
        connection.close()
    response = StreamingHttpResponse(
        CountedStream(key, stream, watcher),
        content_type="text/event-stream; charset=utf-8",  # untranslated: a media type
    )
    # nginx reads this header; Caddy flushes event streams by itself.
    response["X-Accel-Buffering"] = "no"
    return response
