"""The site keeps serving when Redis is down or hangs, and says at once what cannot run.

A Redis of the test's own (``redis-server`` on a free port, never the shared one) holds the cache
and the API's throttling counts while the pages and the API are read once; it is then killed
(``kill -9``) or frozen (``SIGSTOP``: it accepts connections and never answers, the worse case),
and the same reads must answer without a 5xx, each well within two seconds. The liveness check
(``/healthz/``) stays 200 while ``/healthz/background/`` says 503; starting long work says at
once that the queue cannot be reached; a server without any broker refuses long work at once
instead of running it inside the request.
"""

from __future__ import annotations

import logging
import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
import redis
from django.core.cache import caches
from django.test import Client, override_settings
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

import config.cache
from config.celery import app
from simulation.models import DryRun
from tests.events import OFFICIALS, PLAYER, SmallEvent

INSTALL = "apt-get install -y redis-server"
#: Every read here must answer within this, Redis frozen or not (a page used to wait 5 s).
BOUND_S = 2.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class PrivateRedis:
    process: subprocess.Popen
    url: str

    def client(self) -> redis.Redis:
        return redis.Redis.from_url(self.url, socket_timeout=2)

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def freeze(self) -> None:
        self.process.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        self.process.send_signal(signal.SIGCONT)


@pytest.fixture
def private_redis() -> Iterator[PrivateRedis]:
    """A ``redis-server`` of this test's own on a free port, stopped afterwards whatever state
    it was left in."""
    exe = shutil.which("redis-server")
    if exe is None:
        pytest.fail(f"redis-server is not installed; install it with: {INSTALL}")
    port = _free_port()
    process = subprocess.Popen(
        [exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    server = PrivateRedis(process, f"redis://127.0.0.1:{port}/0")
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                server.client().ping()
                break
            except redis.exceptions.ConnectionError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"redis-server did not start on port {port}") from None
                time.sleep(0.05)
        yield server
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGCONT)
            process.kill()
            process.wait(timeout=10)


@pytest.fixture
def redis_cache(private_redis: PrivateRedis, monkeypatch: pytest.MonkeyPatch):
    """The cache and the API's throttles on the private Redis, as production has them: the
    standings cached per live version, both throttles on (with rates no test reaches)."""
    monkeypatch.setattr(config.cache, "_outage", config.cache._Outage())
    monkeypatch.setattr(
        SimpleRateThrottle, "THROTTLE_RATES", {"anon": "10000/min", "user": "10000/min"}
    )
    backend = {"BACKEND": "config.cache.FailSoftRedisCache", "LOCATION": private_redis.url}
    # Changing CACHES closes and forgets the cache connections (Django's setting_changed
    # receiver), so the next request's cache is the one named here.
    with override_settings(CACHES={"default": backend}, LIVE_CACHE_SECONDS=60):
        yield private_redis
    caches.close_all()


@dataclass
class Reads:
    """The reads of the test: public pages, an anonymous and a signed-in API list."""

    urls: list[str]
    api_urls: list[str]
    #: Read with the token only (the scorecards' rows are not public).
    token_urls: list[str]
    token: str

    def all(self) -> list[tuple[str, int, float]]:
        """Each read once: (what, status, seconds)."""
        answers = []
        for url in self.urls:
            answers.append(_timed(url, lambda u: Client().get(u)))
        signed_in = APIClient()
        signed_in.credentials(HTTP_AUTHORIZATION=f"Token {self.token}")
        for url in self.api_urls:
            answers.append(_timed(url, lambda u: APIClient().get(u)))
        for url in self.api_urls + self.token_urls:
            answers.append(_timed(url, signed_in.get))
        return answers


def _timed(what: str, read) -> tuple[str, int, float]:
    began = time.monotonic()
    response = read(what)
    return what, response.status_code, time.monotonic() - began


@pytest.fixture
def reads(small_event: SmallEvent) -> Reads:
    small_event.play_and_verify()
    slug, stage = small_event.tournament.slug, small_event.stage
    player = small_event.by_role[PLAYER].player
    token = Token.objects.create(user=small_event.users[str(OFFICIALS[0])])
    return Reads(
        urls=[
            reverse("scoring:standings", args=[slug, stage.id]),
            reverse("scoring:embed-standings", args=[slug, stage.id]),
            reverse("tournaments:player", args=[slug, player.number]),
        ],
        api_urls=[f"/api/stages/{stage.id}/standings/", "/api/matches/"],
        token_urls=["/api/card-rows/"],
        token=token.key,
    )


def _assert_served(answers: list[tuple[str, int, float]]) -> None:
    failed = [(what, status) for what, status, _ in answers if status >= 500 or status == 429]
    assert not failed, failed
    slow = [(what, round(seconds, 2)) for what, _, seconds in answers if seconds > BOUND_S]
    assert not slow, f"slower than {BOUND_S} s: {slow}"


@pytest.mark.django_db
def test_pages_and_api_are_read_with_redis_killed(redis_cache, reads, caplog) -> None:
    warm = reads.all()
    assert {status for _, status, _ in warm} == {200}, warm
    keys = [key.decode() for key in redis_cache.client().keys("*")]
    assert any("standings:" in key for key in keys), keys  # the standings were cached there
    assert any("throttle_" in key for key in keys), keys  # and the throttles counted there

    redis_cache.kill()
    with caplog.at_level(logging.WARNING, logger="config.cache"):
        down = reads.all()
    _assert_served(down)
    assert {status for _, status, _ in down} == {200}, down
    said = caplog.text
    assert "does not answer" in said and "API throttling not counted" in said, said


@pytest.mark.django_db
def test_pages_and_api_are_read_in_time_with_redis_frozen(redis_cache, reads) -> None:
    assert {status for _, status, _ in reads.all()} == {200}
    redis_cache.freeze()
    frozen = reads.all()
    _assert_served(frozen)
    assert {status for _, status, _ in frozen} == {200}, frozen

    # Once Redis answers again, the cache is used again after the pause.
    redis_cache.thaw()
    redis_cache.client().flushdb()
    time.sleep(config.cache.RETRY_AFTER_S + 0.2)
    assert {status for _, status, _ in reads.all()} == {200}
    assert redis_cache.client().dbsize() > 0


# --- health -------------------------------------------------------------------------------------


@pytest.fixture
def queue_on(private_redis: PrivateRedis) -> Iterator[PrivateRedis]:
    """Celery's broker and REDIS_URL on the private Redis, tasks not eager: what a server with
    REDIS_URL has."""
    conf = app.conf
    saved = conf.broker_url, conf.broker_transport, conf.task_always_eager
    app._after_fork()  # drop pooled connections to the broker of the settings
    conf.broker_url, conf.broker_transport, conf.task_always_eager = private_redis.url, None, False
    try:
        with override_settings(REDIS_URL=private_redis.url):
            yield private_redis
    finally:
        conf.broker_url, conf.broker_transport, conf.task_always_eager = saved
        app._after_fork()


@pytest.mark.django_db
def test_liveness_stays_200_and_background_says_503_when_redis_is_down(queue_on) -> None:
    client = Client()
    up = client.get("/healthz/")
    assert up.status_code == 200, up.content
    assert up.json() == {"status": "ok", "checks": {"cache": "ok", "database": "ok"}}
    background = client.get("/healthz/background/")
    assert background.status_code == 200, background.content
    assert background.json() == {"status": "ok", "checks": {"queue": "ok"}}

    queue_on.kill()
    live = client.get("/healthz/")
    assert live.status_code == 200, live.content  # the web still serves: keep it in the pool
    assert live.json()["checks"]["database"] == "ok"
    assert live.json()["checks"]["cache"].startswith("unavailable: ")
    background = client.get("/healthz/background/")
    assert background.status_code == 503
    assert background.json()["checks"]["queue"].startswith("unavailable: ")


@pytest.mark.django_db
def test_with_redis_frozen_health_answers_in_time(queue_on, monkeypatch) -> None:
    from config import health

    monkeypatch.setattr(health, "CHECK_TIMEOUT_S", 0.5)
    queue_on.freeze()
    client = Client()
    for url, status in (("/healthz/", 200), ("/healthz/background/", 503)):
        began = time.monotonic()
        answer = client.get(url)
        assert answer.status_code == status, (url, answer.content)
        assert time.monotonic() - began < BOUND_S, url


# --- long work ----------------------------------------------------------------------------------


def _start_dry_run(client: Client, small_event: SmallEvent) -> tuple[str, float]:
    client.force_login(small_event.users[str(OFFICIALS[0])])
    slug = small_event.tournament.slug
    began = time.monotonic()
    response = client.post(reverse("simulation:dry_run_start", args=[slug]), {"seed": 1})
    seconds = time.monotonic() - began
    assert response.status_code == 302
    return client.get(response["Location"]).content.decode(), seconds


@pytest.mark.django_db
def test_starting_long_work_with_redis_frozen_says_so_at_once(queue_on, small_event) -> None:
    queue_on.freeze()
    page, seconds = _start_dry_run(Client(), small_event)
    assert seconds < 3, f"took {seconds:.1f} s"
    assert "The dry run was not started: The task queue at" in page
    assert "cannot be reached" in page
    assert not DryRun.objects.exists()


@pytest.fixture
def no_broker() -> Iterator[None]:
    """A server started with neither REDIS_URL nor BROKER_URL (gunicorn outside `make run`):
    Celery eager by default, long work not allowed inside the request."""
    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        with override_settings(REDIS_URL="", BROKER_URL="", LONG_WORK_IN_REQUEST=False):
            yield
    finally:
        app.conf.task_always_eager = before


@pytest.mark.django_db
def test_without_a_broker_long_work_is_refused_at_once_saying_how_to_configure_it(
    no_broker, small_event
) -> None:
    page, seconds = _start_dry_run(Client(), small_event)
    assert seconds < 1, f"took {seconds:.1f} s: the dry run ran inside the request"
    assert "Background work is not configured on this server" in page
    assert "set REDIS_URL (or BROKER_URL) and start a worker" in page
    assert not DryRun.objects.exists()
    background = Client().get("/healthz/background/")
    assert background.status_code == 503
    assert background.json()["checks"] == {"queue": "not configured"}


def test_the_private_redis_is_never_the_shared_one(private_redis: PrivateRedis) -> None:
    """The shared Redis (port 6379, CI's) is never the one these tests kill."""
    assert not private_redis.url.startswith("redis://127.0.0.1:6379/")
    assert os.environ.get("REDIS_URL", "") != private_redis.url
