"""Every operation of the OpenAPI schema, fuzzed: no 5xx and no answer the schema does not
describe, for an anonymous client and for the organizer's token (each request is sent as both).

Schemathesis reads ``/api/schema/`` from the app itself and sends what Hypothesis makes of each
operation (valid and malformed bodies, huge integers, odd strings) through the WSGI handler, on
whichever database the suite runs on (SQLite by default, PostgreSQL under ``.ci/run``). The
examples per operation are few, so the whole schema is covered in seconds; the property tests of
the engine are where depth goes.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, transaction
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from config.wsgi import application
from tests.events import SmallEvent, build_small_event

#: Examples per operation: enough for a valid and a malformed value of each kind of field.
#: Drawing them costs more than sending them, so each example is sent twice (anonymously, then
#: with the organizer's token) rather than drawn again per client. ``SCHEMA_FUZZ_EXAMPLES=200``
#: fuzzes deeper by hand (a few minutes); the suite runs the quick pass over every operation.
EXAMPLES = int(os.environ.get("SCHEMA_FUZZ_EXAMPLES") or 3)
CHECKS = (
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
)


def _load_schema():
    """The schema the app serves at /api/schema/, generated without a request (generating it
    reads no table, so it is made once, as the tests are collected); the cases go to the app."""
    document = SchemaGenerator().get_schema(request=None, public=True)
    loaded = schemathesis.openapi.from_dict(json.loads(OpenApiJsonRenderer().render(document)))
    loaded.app = application
    return loaded


schema = _load_schema()
#: Every operation of the schema, by its label ("GET /api/matches/"). Each is a pytest case of its
#: own, with its own node id: schemathesis' own ``parametrize`` gives all its items the test
#: function's node id, which pytest-xdist's ``--dist loadgroup`` then merged into one.
OPERATIONS = {result.ok().label: result.ok() for result in schema.get_all_operations()}


def _cases(operation) -> st.SearchStrategy:
    """Valid and malformed requests of one operation, as schemathesis' pytest plugin draws them."""
    return st.one_of(
        operation.as_strategy(GenerationMode.POSITIVE),
        operation.as_strategy(GenerationMode.NEGATIVE),
    )


@pytest.fixture(autouse=True)
def keep_the_test_connection():
    """The cases go through the real WSGI handler, which closes "old" database connections at
    the start and end of each request: on PostgreSQL that would close the test's own connection
    in the middle of its transaction. Django's test client unhooks the same handler."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture(scope="module")
def fuzzed_event(django_db_setup, django_db_blocker) -> Iterator[SmallEvent]:
    """One small event for every case of the module, built once in a transaction that is rolled
    back at the end: each case runs in a savepoint of its own inside it (``django_db``), so what
    a case writes is gone before the next, and the event is not built again per operation."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield build_small_event()
        transaction.set_rollback(True)


@pytest.fixture
def organizer_token(fuzzed_event) -> str:
    organizer = fuzzed_event.users["organizer"]
    return Token.objects.get_or_create(user=organizer)[0].key


def _check(case, headers: dict[str, str] | None = None) -> None:
    case.call_and_validate(headers=headers, checks=CHECKS)


FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)


def test_the_fuzz_covers_every_operation_of_the_schema():
    """The cases below are made from the schema itself: an operation added to the API is fuzzed
    without a change here, and none is left out (the schema has dozens)."""
    served = {
        f"{method.upper()} {path}"
        for path, methods in schema.raw_schema["paths"].items()
        for method in methods
        if method in {"get", "put", "post", "patch", "delete"}
    }
    assert served == set(OPERATIONS)
    assert len(OPERATIONS) > 50


@pytest.mark.django_db
@pytest.mark.parametrize("label", sorted(OPERATIONS))
def test_no_answer_is_a_server_error_or_off_the_schema(label, organizer_token) -> None:
    """Each drawn request of the operation, anonymously and then with the organizer's token."""

    @FUZZ
    @given(case=_cases(OPERATIONS[label]))
    def fuzz(case) -> None:
        _check(case)
        _check(case, {"Authorization": f"Token {organizer_token}"})

    fuzz()


#: Values the random half above rarely draws, each once, where they used to end as a 500.
BIG = str(2**70)
MALFORMED_QUERIES = (
    (f"/api/matches/?entry={BIG}", "entry", "between"),
    (f"/api/card-rows/?match={BIG}", "match", "between"),
    (f"/api/players/?number={BIG}", "number", "between"),
    (f"/api/matches/?limit={BIG}", "limit", "between 1 and 1000"),
    (f"/api/matches/?offset={BIG}", "offset", "between 0 and"),
    ("/api/matches/?limit=abc", "limit", "whole number"),
    ("/api/players/?club=a%00b", "detail", "NUL byte (\\0) is not allowed in the query parameter"),
    ("/api/tournaments/a%00b/", "detail", "NUL byte (\\0) is not allowed in the address"),
)


@pytest.mark.django_db
@pytest.mark.parametrize(("url", "key", "words"), MALFORMED_QUERIES)
def test_malformed_query_values_are_a_400_that_says_what_is_wrong(
    client, small_event, url, key, words
):
    client.force_login(small_event.users["organizer"])  # card rows are not public
    response = client.get(url)
    assert response.status_code == 400
    message = response.json()[key]
    assert words in (message if isinstance(message, str) else message[0])


@pytest.mark.django_db
def test_a_nul_byte_in_a_body_is_refused_before_any_view(client, small_event):
    organizer = small_event.users["organizer"]
    client.force_login(organizer)
    body = {"tournament": small_event.tournament.slug, "first_name": "A\x00", "last_name": "B"}
    as_json = client.post("/api/players/", json.dumps(body), content_type="application/json")
    assert as_json.status_code == 400
    assert "the JSON field 'first_name'" in as_json.json()["detail"]
    page = client.post("/accounts/login/", {"username": "x\x00", "password": "y"})
    assert page.status_code == 400
    assert "the form field &#x27;username&#x27;" in page.content.decode()
    assert not small_event.tournament.players.filter(last_name="B").exists()
