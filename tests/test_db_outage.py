"""A database that does not answer gets "try again in a moment" (503, Retry-After), not a 500.

The outage is real: the request's connection is replaced by one to a PostgreSQL port where
nothing listens, so connecting is refused exactly as when the server is down or restarting. The
page, the API and the liveness check answer while it is so; a bug that happens to raise a
database error (a missing table) stays a 500.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest
from django.db import OperationalError, connections
from django.db.utils import load_backend
from django.test import Client

from config.errors import DATABASE_RETRY_AFTER_S, is_database_outage

TRY_AGAIN = "The database is not answering at the moment: try again in a moment."


def _refusing_port() -> int:
    """A port on the loopback address where nothing listens (connections are refused)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def database_down(db) -> Iterator[None]:
    """This thread's connection, and any a helper thread opens, go to a PostgreSQL that is not
    there, whatever the test database is; the real one is back afterwards."""
    original = connections["default"]
    saved_settings = connections.settings["default"]
    broken = {
        **saved_settings,
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "crokinole_outage",
        "USER": "nobody",
        "PASSWORD": "",
        "HOST": "127.0.0.1",
        "PORT": str(_refusing_port()),
        "OPTIONS": {"connect_timeout": 2},
        "CONN_MAX_AGE": 0,
        "CONN_HEALTH_CHECKS": False,
    }
    connections.settings["default"] = broken
    connections["default"] = load_backend(broken["ENGINE"]).DatabaseWrapper(broken, "default")
    try:
        yield
    finally:
        connections["default"].close()
        connections.settings["default"] = saved_settings
        connections["default"] = original


def _client() -> Client:
    # Errors are answered as a server answers them, not raised into the test.
    return Client(raise_request_exception=False)


def test_a_page_says_try_again_in_a_moment(database_down) -> None:
    response = _client().get("/", HTTP_ACCEPT="text/html")
    assert response.status_code == 503
    assert response["Retry-After"] == str(DATABASE_RETRY_AFTER_S)
    page = response.content.decode()
    assert "Try again in a moment" in page and TRY_AGAIN in page
    assert "Server Error (500)" not in page


def test_a_page_says_it_in_french_for_a_french_browser(database_down) -> None:
    response = _client().get("/", HTTP_ACCEPT="text/html", HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 503
    assert 'lang="fr"' in response.content.decode()


def test_the_api_answers_json(database_down) -> None:
    response = _client().get("/api/tournaments/")
    assert response.status_code == 503
    assert response.json() == {"detail": TRY_AGAIN}
    assert response["Retry-After"] == str(DATABASE_RETRY_AFTER_S)


def test_a_write_says_it_too(database_down) -> None:
    response = _client().post(
        "/api/auth/token/", {"username": "x", "password": "y"}, content_type="application/json"
    )
    assert response.status_code == 503
    assert response.json() == {"detail": TRY_AGAIN}


def test_liveness_says_the_web_cannot_serve(database_down) -> None:
    response = _client().get("/healthz/")
    assert response.status_code == 503
    assert response.json()["checks"]["database"].startswith("unavailable: ")


def test_a_bug_raising_a_database_error_stays_a_server_error() -> None:
    assert is_database_outage(OperationalError("connection refused"))
    assert is_database_outage(OperationalError("database is locked"))
    assert not is_database_outage(OperationalError("no such table: scoring_cardrow"))
    assert not is_database_outage(ValueError("not a database error"))
