"""Bursts of 50 simultaneous writes against gunicorn, on the database the tests run on:
SQLite by default (a file, as ``make run`` uses it, in WAL mode with IMMEDIATE transactions) and
PostgreSQL when ``DATABASE_URL`` names one (``.ci/run``). ``tests.load.burst`` says what must
hold; ``bench/load.py`` runs the same bursts for the latency figures."""

from __future__ import annotations

import sqlite3

import pytest
from django.db import connection

from tests.load import burst
from tests.load.event import build_plan
from tests.load.server import gunicorn, runserver, server_env

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def _database_url(tmp_path) -> str:
    """A URL the server's processes can open onto the test's data."""
    settings = connection.settings_dict
    if connection.vendor == "sqlite":
        # The test database lives in this process's memory: copy it, data and all, to a file.
        path = tmp_path / "burst.sqlite3"
        target = sqlite3.connect(path)
        connection.ensure_connection()
        connection.connection.backup(target)
        target.close()
        return f"sqlite:///{path}"
    user, host, port = settings["USER"], settings["HOST"] or "127.0.0.1", settings["PORT"] or 5432
    password = f":{settings['PASSWORD']}" if settings["PASSWORD"] else ""
    return f"postgres://{user}{password}@{host}:{port}/{settings['NAME']}"


def test_fifty_clients_write_one_rounds_rows_with_no_server_error_and_no_lost_write(tmp_path):
    plan = build_plan(pairs=25)
    env = server_env(_database_url(tmp_path))
    with gunicorn(env, workers=4, log=tmp_path / "gunicorn.log") as base:
        report = burst.run(base, plan)
    log = (tmp_path / "gunicorn.log").read_text(errors="replace")
    assert not report.server_errors, [(a.what, a.status, a.body) for a in report.server_errors]
    assert "Traceback" not in log, log[-3000:]
    assert not report.problems, report.problems
    # Every moment was played in full: 50 fills, 50 validations, 25 verifies and 25 corrections.
    assert len(report.answers) == 150
    assert report.codes("fill") == {200: 1, 409: 49}
    assert report.codes("validate") == {200: 50}
    verify, correct = report.codes("verify"), report.codes("correct")
    assert verify[200] + correct[200] == 25 and verify[409] + correct[409] == 25


def test_the_development_server_of_make_run_serves_both_validations_at_once(tmp_path):
    """``make run`` (runserver, SQLite in WAL mode): the moment that failed there, both players
    of 25 games validating at once, answered in full, none with a 5xx, none refused at the door
    (its backlog holds the burst)."""
    plan = build_plan(pairs=25)
    env = server_env(_database_url(tmp_path), DEBUG="1")
    report = burst.Report()
    with runserver(env, log=tmp_path / "runserver.log") as base:
        burst.both_validations_at_once(burst.Api(base), plan, report, burst.at_once)
    assert not report.server_errors, [(a.what, a.status, a.body) for a in report.server_errors]
    assert not report.problems, report.problems
    assert report.codes("validate") == {200: 50}
