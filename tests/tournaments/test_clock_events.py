"""The round clock's event stream (``tournaments.views.clock_events``): the clock at once, each
change within a second, a bounded life, nothing private.

WCC: "A buzzer will be used to begin and end play." The hall screen and the phones hear Start
from this stream. The watcher thread reads the database like any request: on the test's
database it goes through the test's own connection, one reading at a time with the test's
writes (``shared_watcher``), as two requests of a real server would through their own.
"""

from __future__ import annotations

import json
import runpy
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.db import DatabaseError, connections
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.events import build_small_event
from tournaments.models import RoundClock
from tournaments.services import clock as clocks
from tournaments.views import clock_events

pytestmark = pytest.mark.django_db(transaction=True)

GUNICORN_CONF = Path(__file__).resolve().parents[2] / "config" / "gunicorn.conf.py"

#: What every event may say, and nothing else (no user, no time of a button press but the run's).
PUBLIC_KEYS = {
    "state",
    "remaining_ms",
    "duration",
    "label",
    "face",
    "version",
    "started_ms",
    "server_ms",
}


@pytest.fixture
def shared_watcher() -> Iterator[threading.Lock]:
    """The watcher reads through the test's connection, under a lock the test's writes take."""
    lock = threading.Lock()
    shared = connections["default"]
    shared.inc_thread_sharing()

    @contextmanager
    def around_fetch() -> Iterator[None]:
        with lock:
            connections["default"] = shared
            yield

    clock_events.WATCHER.around_fetch = around_fetch
    try:
        yield lock
    finally:
        assert clock_events.WATCHER.join(timeout=5), "the watcher outlived its last stream"
        clock_events.WATCHER.around_fetch = clock_events.nullcontext
        shared.dec_thread_sharing()


@pytest.fixture
def event():
    return build_small_event()


def stream(slug: str):
    return Client().get(reverse("tournaments:clock-events", args=[slug]))


def events_of(chunks: Iterator[bytes], count: int, within: float) -> list[dict]:
    """The next ``count`` events (comments and ``retry`` skipped); fails after ``within`` s."""
    found: list[dict] = []
    deadline = time.monotonic() + within
    while len(found) < count:
        assert time.monotonic() < deadline, f"only {found} within {within} s"
        text = next(chunks).decode()
        found += [
            json.loads(line.removeprefix("data: "))
            for line in text.splitlines()
            if line.startswith("data: ")
        ]
    return found


def test_the_stream_says_the_clock_at_once_and_how_soon_to_come_back(event, shared_watcher):
    t, referee = event.tournament, event.users["referee"]
    clocks.set_up(tournament=t, user=referee, duration_s=600, label="Round 2", now=timezone.now())
    response = stream(t.slug)
    try:
        assert response.status_code == 200
        assert response["Content-Type"].startswith("text/event-stream")
        assert response["Cache-Control"].startswith("max-age=0")
        assert response["X-Accel-Buffering"] == "no"
        chunks = iter(response.streaming_content)
        assert next(chunks).decode().startswith("retry: ")
        [first] = events_of(chunks, 1, within=1)
        assert first["state"] == "ready"
        assert first["remaining_ms"] == 600_000
        assert first["label"] == "Round 2"
        assert abs(first["server_ms"] - time.time() * 1000) < 2000
        assert set(first) == PUBLIC_KEYS
    finally:
        response.close()


def test_a_start_and_a_pause_reach_an_open_stream_within_a_second(event, shared_watcher):
    t, referee = event.tournament, event.users["referee"]
    clocks.set_up(tournament=t, user=referee, duration_s=600, label="", now=timezone.now())
    response = stream(t.slug)
    try:
        chunks = iter(response.streaming_content)
        [ready] = events_of(chunks, 1, within=1)
        assert ready["state"] == "ready"

        with shared_watcher:
            started = clocks.start(tournament=t, user=referee, now=timezone.now())
        pressed = time.monotonic()
        [running] = events_of(chunks, 1, within=1)
        assert time.monotonic() - pressed < 1.0
        assert running["state"] == "running"
        assert running["version"] == started.version > ready["version"]
        assert running["started_ms"] == int(started.started_at.timestamp() * 1000)
        assert 590_000 < running["remaining_ms"] <= 600_000

        with shared_watcher:
            clocks.pause(tournament=t, user=referee, now=timezone.now())
        pressed = time.monotonic()
        [paused] = events_of(chunks, 1, within=1)
        assert time.monotonic() - pressed < 1.0
        assert paused["state"] == "paused"
        assert paused["started_ms"] == 0
    finally:
        response.close()
    assert clock_events.WATCHER.open_streams == 0


def test_the_stream_ends_after_its_lifetime_and_keeps_the_line_alive(
    event, shared_watcher, settings, monkeypatch
):
    settings.CLOCK_STREAM_SECONDS = 1
    monkeypatch.setattr(clock_events, "HEARTBEAT_S", 0.3)
    begun = time.monotonic()
    response = stream(event.tournament.slug)
    try:
        body = b"".join(response.streaming_content).decode()
    finally:
        response.close()
    took = time.monotonic() - begun
    assert 0.9 < took < 3, took
    assert '"state": "off"' in body  # no clock set up yet
    assert body.count("data: ") >= 3  # the clock at once, then again at each silence
    assert clock_events.WATCHER.open_streams == 0


def test_an_unknown_tournament_is_a_404():
    response = stream("no-such-open")
    assert response.status_code == 404
    assert not response.streaming


def test_a_process_with_its_fill_of_streams_sends_the_page_to_its_polls(event, settings):
    settings.CLOCK_STREAMS_PER_PROCESS = 0
    response = stream(event.tournament.slug)
    assert response.status_code == 503
    assert response["Retry-After"] == "60"
    assert "ask again" in response.content.decode()


def test_the_stream_says_nothing_of_who_ran_the_clock(event, shared_watcher):
    t, referee = event.tournament, event.users["referee"]
    referee.email = "head.ref@example.org"
    referee.save()
    clocks.set_up(tournament=t, user=referee, duration_s=60, label="Final", now=timezone.now())
    clocks.start(tournament=t, user=referee, now=timezone.now())
    response = stream(t.slug)
    try:
        chunks = iter(response.streaming_content)
        text = b"".join(next(chunks) for _ in range(2)).decode()
    finally:
        response.close()
    [data] = [json.loads(line[6:]) for line in text.splitlines() if line.startswith("data: ")]
    assert set(data) == PUBLIC_KEYS
    assert data["state"] == "running"
    for private in (referee.username, referee.email, str(referee.pk) + ","):
        assert private not in text


def test_a_change_a_new_stream_read_first_reaches_the_streams_already_open(event):
    """A page that opens its stream just after a press reads the new clock itself; the streams
    already open must hear it then, not wait for a reading of the watcher that finds nothing
    new (here the watcher cannot read at all)."""
    t, referee = event.tournament, event.users["referee"]
    clocks.set_up(tournament=t, user=referee, duration_s=60, label="", now=timezone.now())

    @contextmanager
    def database_away() -> Iterator[None]:
        raise DatabaseError("the database is away")
        yield

    watcher = clock_events.ClockWatcher(every=0.05)
    watcher.around_fetch = database_away
    ready = RoundClock.objects.get(tournament=t)
    assert watcher.watch(t.id, ready)
    heard: list[RoundClock | None] = []
    waiting = threading.Thread(target=lambda: heard.append(watcher.wait(t.id, ready.version, 5)))
    waiting.start()
    started = clocks.start(tournament=t, user=referee, now=timezone.now())
    pressed = time.monotonic()
    assert watcher.watch(t.id, RoundClock.objects.get(tournament=t))  # the new page's stream
    waiting.join(timeout=5)
    assert time.monotonic() - pressed < 1.0
    assert heard and heard[0].version == started.version
    watcher.unwatch(t.id)
    watcher.unwatch(t.id)
    assert watcher.join(timeout=5)


def test_the_web_workers_keep_threads_for_pages_beside_the_streams(monkeypatch):
    """A stream holds a request for its lifetime: the workers are threaded, and the streams a
    worker may hold leave it threads for pages (config/gunicorn.conf.py)."""
    monkeypatch.delenv("CLOCK_STREAMS_PER_PROCESS", raising=False)
    monkeypatch.setenv("GUNICORN_THREADS", "20")
    conf = runpy.run_path(str(GUNICORN_CONF))
    assert conf["worker_class"] == "gthread"
    assert conf["threads"] == 20
    assert conf["raw_env"] == ["CLOCK_STREAMS_PER_PROCESS=16"]
    monkeypatch.setenv("CLOCK_STREAMS_PER_PROCESS", "5")
    assert runpy.run_path(str(GUNICORN_CONF))["raw_env"] == []  # a value set outside wins
    monkeypatch.setenv("GUNICORN_THREADS", "4")
    with pytest.raises(SystemExit, match="GUNICORN_THREADS must be more than 4"):
        runpy.run_path(str(GUNICORN_CONF))
