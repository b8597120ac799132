"""Safe defaults: what a bare production start does, the Content-Security-Policy every page
carries, the lockout after guessed passwords, and the API's throttling.

The settings are read in a fresh process where the environment matters (DEBUG, SECRET_KEY,
ALLOWED_HOSTS are read once, at import); everything else goes through the test client.
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import uuid
from collections import deque
from datetime import timedelta
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urldefrag, urlsplit

import pytest
from django.core.cache.backends.locmem import LocMemCache
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient
from rest_framework.throttling import AnonRateThrottle

from config.security import lockout_message
from tests.events import PLAYER
from tournaments.services import clock as clocks
from tournaments.views.organizer.staff import LINK_KEY

BASE_DIR = Path(__file__).resolve().parent.parent
LOCKED_OUT_TEXT = (
    "Too many failed sign-ins for this account from this address: ask an organizer of your "
    "tournament to unlock it from the staff page, or wait 15 minutes."
)


# Settings in a fresh process -------------------------------------------------------------------


def run_fresh(args: list[str], **variables: str) -> subprocess.CompletedProcess[str]:
    """``python <args>`` from the repository with no environment but ``variables``, as a bare
    start on a server would be."""
    environment = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), **variables}
    return subprocess.run(
        [sys.executable, *args],
        cwd=BASE_DIR,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


DUMP = """
import json
import config.settings as s
print(json.dumps({
    name: getattr(s, name, None)
    for name in (
        "DEBUG", "ALLOWED_HOSTS", "SECURE_SSL_REDIRECT", "SECURE_PROXY_SSL_HEADER",
        "SECURE_HSTS_SECONDS", "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_HSTS_PRELOAD",
        "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "X_FRAME_OPTIONS", "REST_FRAMEWORK",
        "AXES_FAILURE_LIMIT",
    )
}, default=str))
"""


def settings_with(**variables: str) -> dict:
    done = run_fresh(["-c", DUMP], **variables)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def production_key() -> str:
    return secrets.token_urlsafe(48)  # 64 characters of many kinds: what check --deploy wants


def test_production_defaults_are_the_secure_ones():
    production = settings_with(DEBUG="0", SECRET_KEY=production_key())
    assert production["DEBUG"] is False
    assert production["ALLOWED_HOSTS"] == ["127.0.0.1", "localhost", "[::1]"]
    assert production["SECURE_SSL_REDIRECT"] is True
    assert production["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert production["SECURE_HSTS_SECONDS"] >= 31_536_000
    assert production["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is True
    assert production["SESSION_COOKIE_SECURE"] is True
    assert production["CSRF_COOKIE_SECURE"] is True
    assert production["X_FRAME_OPTIONS"] == "DENY"
    rates = production["REST_FRAMEWORK"]["DEFAULT_THROTTLE_RATES"]
    assert rates == {"anon": "120/min", "user": "1000/min"}
    assert production["AXES_FAILURE_LIMIT"] == 10


def test_nothing_at_all_set_means_debug_off_and_no_wildcard_host():
    bare = run_fresh(["-c", DUMP])
    assert bare.returncode != 0  # refuses: see the next test
    development = settings_with(DEBUG="1")
    assert development["DEBUG"] is True
    assert "*" not in development["ALLOWED_HOSTS"]
    assert development["SECURE_SSL_REDIRECT"] is False  # runserver speaks plain HTTP
    assert development["SESSION_COOKIE_SECURE"] is False


def test_debug_off_without_a_secret_key_refuses_to_start_and_says_what_to_set():
    for variables in ({}, {"DEBUG": "0"}, {"DEBUG": "0", "SECRET_KEY": ""}):
        done = run_fresh(["manage.py", "check"], **variables)
        assert done.returncode != 0
        assert "SECRET_KEY is not set" in done.stderr
        assert "Set the SECRET_KEY environment variable" in done.stderr


@pytest.mark.slow
def test_check_deploy_finds_nothing_with_just_debug_key_and_hosts():
    done = run_fresh(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        DEBUG="0",
        SECRET_KEY=production_key(),
        ALLOWED_HOSTS="example.org",
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "WARNINGS" not in done.stdout + done.stderr
    assert "no issues" in done.stdout


@pytest.mark.slow
@pytest.mark.parametrize(
    ("variables", "error"),
    [
        ({"SECRET_KEY": "change-me"}, "crokinole.E001"),
        ({"SECRET_KEY": "django-insecure-" + secrets.token_urlsafe(48)}, "crokinole.E001"),
        ({"SECRET_KEY": "ab" * 40}, "crokinole.E001"),
        ({"ALLOWED_HOSTS": "*"}, "crokinole.E002"),
        ({"ALLOWED_HOSTS": "example.org,*"}, "crokinole.E002"),
    ],
)
def test_check_deploy_stops_on_a_weak_key_or_a_wildcard_host(variables, error):
    """An error, not a warning: compose's `check --deploy && migrate` must not go on."""
    done = run_fresh(
        ["manage.py", "check", "--deploy"],
        **{"DEBUG": "0", "SECRET_KEY": production_key(), "ALLOWED_HOSTS": "example.org"}
        | variables,
    )
    said = done.stdout + done.stderr
    assert done.returncode != 0, said
    assert error in said and "ERRORS:" in said, said


def test_weak_keys_are_named_with_the_reason():
    from config.checks import weak_key_reason

    assert weak_key_reason("change-me") == "it is a well-known example value"
    assert "fewer than 50" in weak_key_reason("k" * 49)
    assert "different characters" in weak_key_reason("abab" * 20)
    assert "django-insecure-" in weak_key_reason("django-insecure-" + "x1y2z3" * 10)
    assert weak_key_reason(production_key()) is None


@pytest.mark.django_db
def test_a_forged_host_is_refused_not_put_into_api_links(client):
    forged = client.get("/api/", HTTP_HOST="attacker.example")
    assert forged.status_code == 400
    assert b"attacker.example" not in forged.content  # a bare refusal, no debug page
    links = client.get("/api/", HTTP_HOST="localhost").json()
    assert links["tournaments"].startswith("http://localhost/api/")


# The Content-Security-Policy on every page ------------------------------------------------------


class ScriptFinder(HTMLParser):
    """Collects what a CSP without 'unsafe-inline' would refuse: inline scripts, on*= handler
    attributes, javascript: links (and htmx's hx-on, which would need eval)."""

    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        for name, value in attrs:
            if name.startswith("on") or name.startswith("hx-on"):
                self.problems.append(f"<{tag} {name}={value!r}>")
            script_url = (value or "").strip().lower().startswith("javascript:")
            if name in ("href", "src", "action") and script_url:
                self.problems.append(f"<{tag} {name}={value!r}>")
        if tag == "script" and not names.get("src"):
            kind = (names.get("type") or "").lower()
            if kind not in ("application/json", "application/ld+json"):
                self.problems.append("<script> without src")
        if tag == "a" and names.get("href"):
            self.links.append(names["href"])


def assert_page_is_csp_clean(response, url: str) -> list[str]:
    """The CSP header is there and strict for scripts; the HTML has nothing it would block."""
    policy = response.get("Content-Security-Policy", "")
    assert policy, f"{url}: no Content-Security-Policy header"
    directives = {part.split()[0]: part.split()[1:] for part in policy.split(";") if part.strip()}
    assert directives["default-src"] == ["'self'"], policy
    assert directives["script-src"] == ["'self'"], policy  # no 'unsafe-inline', no eval
    assert directives["frame-ancestors"] == ["'none'"], policy
    assert "data:" in directives["img-src"], policy
    finder = ScriptFinder()
    finder.feed(response.content.decode())
    assert not finder.problems, f"{url}: {finder.problems}"
    return finder.links


SKIPPED = (".pdf", ".svg", ".csv", ".json", ".png")


def crawl(client: Client, starts: list[str], limit: int = 70) -> set[str]:
    """Every page reachable by plain links from ``starts`` inside this site (up to ``limit``),
    each checked by ``assert_page_is_csp_clean``; returns the pages seen."""
    queue, seen, pages = deque(starts), set(starts), set()
    while queue and len(pages) < limit:
        url = queue.popleft()
        response = client.get(url)
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        pages.add(url)
        for href in assert_page_is_csp_clean(response, url):
            target = urldefrag(href).url
            parts = urlsplit(target)
            if parts.scheme or parts.netloc or not target.startswith("/"):
                continue
            if parts.path.endswith(SKIPPED) or parts.path.startswith(
                ("/admin/", "/api/", "/static/", "/media/", "/accounts/")
            ):
                continue
            if target not in seen:
                seen.add(target)
                queue.append(target)
    return pages


@pytest.fixture
def clock_running(small_event):
    """The small event with its round clock running, so the pages that show it include it."""
    t, referee = small_event.tournament, small_event.users["referee"]
    clocks.set_up(tournament=t, user=referee, duration_s=1800, label="Round 1", now=timezone.now())
    clocks.start(tournament=t, user=referee, now=timezone.now() - timedelta(seconds=30))
    return small_event


def pages_by_visitor(event) -> dict[str, tuple[Client, list[str]]]:
    """The main pages, each with a client allowed to see it: the public pages and the hall
    screen, the organizer's pages and the clock controls, a player's scorecard on a phone."""
    t, stage = event.tournament, event.stage
    slug = t.slug
    anonymous = Client()
    organizer = Client()
    organizer.force_login(event.users["organizer"])
    phone = Client()
    phone.force_login(event.users[PLAYER])
    return {
        "anonymous": (
            anonymous,
            [
                "/",
                t.get_absolute_url(),
                reverse("tournaments:now", args=[slug]),
                reverse("scoring:standings", args=[slug, stage.id]),
                reverse("tournaments:round", args=[slug, stage.id, 1]),
                reverse("tournaments:player_lookup", args=[slug]),
                reverse("login"),
            ],
        ),
        "organizer": (
            organizer,
            [
                reverse("tournaments:manage", args=[slug]),
                reverse("tournaments:manage-staff", args=[slug]),
                reverse("tournaments:manage-checkin", args=[slug]),
                reverse("tournaments:clock", args=[slug]),
                reverse("scoring:cards:table", args=[slug]),
                reverse("scoring:print-index", args=[slug]),
            ],
        ),
        "phone": (phone, [reverse("scoring:cards:card", args=[slug, stage.id, event.player.id])]),
    }


@pytest.mark.django_db
def test_the_main_pages_have_the_policy_and_no_inline_script(clock_running):
    for who, (client, urls) in pages_by_visitor(clock_running).items():
        for url in urls:
            response = client.get(url)
            assert response.status_code == 200, f"{who}: {url}"
            assert_page_is_csp_clean(response, url)
    hall = Client().get(reverse("tournaments:now", args=[clock_running.tournament.slug]))
    assert b"js/clock.js" in hall.content  # the clock's script, from a file

    docs = Client().get(reverse("api-docs"))  # Swagger UI loads its script from a URL too
    assert docs.status_code == 200
    assert_page_is_csp_clean(docs, "/api/docs/")


@pytest.mark.django_db
def test_the_one_time_link_is_selected_by_a_script_file_not_an_attribute(small_event):
    organizer = Client()
    organizer.force_login(small_event.users["organizer"])
    session = organizer.session
    session[LINK_KEY] = {"username": "newref", "url": "https://example.org/accounts/reset/x/y/"}
    session.save()
    page = organizer.get(reverse("tournaments:manage-staff", args=[small_event.tournament.slug]))
    assert b"data-select-on-click" in page.content and b"js/select-on-click.js" in page.content
    assert_page_is_csp_clean(page, "staff page with a new link")


@pytest.mark.slow
@pytest.mark.django_db
def test_every_page_linked_from_them_has_the_policy_and_no_inline_script(clock_running):
    seen: set[str] = set()
    for client, urls in pages_by_visitor(clock_running).values():
        seen |= crawl(client, urls)
    assert len(seen) >= 30, sorted(seen)


# Guessing passwords ------------------------------------------------------------------------


@pytest.fixture
def victim(db, settings):
    from django.contrib.auth.models import User

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return User.objects.create_user("guessed", password="the-right-one")


def test_the_message_names_the_wait(settings):
    wait = settings.AXES_COOLOFF_TIME
    assert wait == timedelta(minutes=15)
    assert lockout_message() == LOCKED_OUT_TEXT


def test_eleven_wrong_passwords_then_the_right_one_is_refused_on_the_login_page(victim, client):
    url = reverse("login")
    answers = [
        client.post(url, {"username": "guessed", "password": f"guess-{n}"}) for n in range(11)
    ]
    assert [a.status_code for a in answers[:9]] == [200] * 9
    assert b"didn't match" in answers[0].content
    assert {a.status_code for a in answers[9:]} == {429}
    right = client.post(url, {"username": "guessed", "password": "the-right-one"})
    assert right.status_code == 429
    page = right.content.decode()
    assert LOCKED_OUT_TEXT in page and 'role="alert"' in page
    assert "didn't match" not in page  # the lockout, not a wrong password, is what it says
    assert right["Retry-After"] == "900"
    assert right.get("Content-Security-Policy")
    assert "_auth_user_id" not in client.session

    # The lockout is for this account from this address: elsewhere the owner still signs in.
    elsewhere = Client(REMOTE_ADDR="192.0.2.7")
    signed_in = elsewhere.post(url, {"username": "guessed", "password": "the-right-one"})
    assert signed_in.status_code == 302
    assert elsewhere.session["_auth_user_id"] == str(victim.pk)


def test_eleven_wrong_passwords_then_the_right_one_is_refused_on_the_token_endpoint(victim):
    api = APIClient()
    url = reverse("api:token")
    answers = [
        api.post(url, {"username": "guessed", "password": f"guess-{n}"}, format="json")
        for n in range(11)
    ]
    assert [a.status_code for a in answers[:9]] == [400] * 9
    assert {a.status_code for a in answers[9:]} == {429}
    right = api.post(url, {"username": "guessed", "password": "the-right-one"}, format="json")
    assert right.status_code == 429
    assert right.json() == {"detail": LOCKED_OUT_TEXT}
    assert right["Retry-After"] == "900"


def test_a_right_password_before_the_limit_starts_the_count_again(victim, client):
    url = reverse("login")
    for n in range(9):
        client.post(url, {"username": "guessed", "password": f"guess-{n}"})
    assert client.post(url, {"username": "guessed", "password": "the-right-one"}).status_code == 302
    client.logout()
    again = [client.post(url, {"username": "guessed", "password": f"again-{n}"}) for n in range(9)]
    assert {a.status_code for a in again} == {200}


# The API's throttling ----------------------------------------------------------------------


@pytest.mark.django_db
def test_an_anonymous_client_over_the_rate_gets_429_with_a_json_detail(monkeypatch):
    # The rates are read when DRF is imported, and the tests run with throttling off: turn the
    # anonymous one on, low, with a cache of this test's own.
    monkeypatch.setattr(AnonRateThrottle, "THROTTLE_RATES", {"anon": "3/min"})
    monkeypatch.setattr(AnonRateThrottle, "cache", LocMemCache(f"throttle-{uuid.uuid4()}", {}))
    api = APIClient()
    assert [api.get("/api/tournaments/").status_code for _ in range(3)] == [200] * 3
    over = api.get("/api/tournaments/")
    assert over.status_code == 429
    assert "throttled" in over.json()["detail"].lower()
    assert int(over["Retry-After"]) > 0
    # Another address has its own allowance.
    assert APIClient(REMOTE_ADDR="192.0.2.9").get("/api/tournaments/").status_code == 200


def test_the_default_sqlite_database_queues_writers_instead_of_failing(tmp_path):
    """`make run`'s SQLite: WAL mode (readers never wait), every transaction takes the write lock
    when it begins and waits up to 20 s for it, so a burst of writes queues up (tests/load/)."""
    script = (
        "import django, json; django.setup()\n"
        "from django.db import connection\n"
        "options = connection.settings_dict['OPTIONS']\n"
        "with connection.cursor() as c:\n"
        "    c.execute('PRAGMA journal_mode'); mode = c.fetchone()[0]\n"
        "print(json.dumps({'mode': mode, 'options': options}))\n"
    )
    done = run_fresh(
        ["-c", script],
        DEBUG="1",
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["mode"] == "wal"
    assert seen["options"]["transaction_mode"] == "IMMEDIATE"
    assert seen["options"]["timeout"] == 20
