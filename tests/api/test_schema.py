"""The OpenAPI schema generates without a warning, validates, and documents the endpoints (the
schema ``manage.py spectacular`` writes is generated once per test process: ``api_schema``)."""

import pytest

MAIN_PATHS = {
    "/api/auth/token/": {"post"},
    "/api/tournaments/": {"get", "post"},
    "/api/tournaments/{slug}/": {"get", "put", "patch"},
    "/api/categories/": {"get", "post"},
    "/api/players/{id}/": {"get", "put", "patch", "delete"},
    "/api/entries/": {"get", "post"},
    "/api/stages/": {"get", "post"},
    "/api/stages/{id}/standings/": {"get"},
    "/api/matches/": {"get"},
    "/api/scorecards/": {"get", "post"},
    "/api/scorecards/{id}/fill/": {"post"},
    "/api/scorecards/{id}/verify/": {"post"},
    "/api/scorecards/{id}/void/": {"post"},
    "/api/card-rows/{id}/validate/": {"post"},
    "/api/games/{id}/resolve-dispute/": {"post"},
}


def test_schema_validates_with_no_warning(api_schema):
    schema = api_schema  # generated with validate and fail_on_warn (tests/api/conftest.py)
    assert schema["openapi"].startswith("3.")
    for path, methods in MAIN_PATHS.items():
        assert path in schema["paths"], path
        assert methods <= set(schema["paths"][path]), (path, set(schema["paths"][path]))
    fill = schema["paths"]["/api/scorecards/{id}/fill/"]["post"]
    assert {"200", "201", "400", "403", "409"} <= set(fill["responses"])
    matches = schema["paths"]["/api/matches/"]["get"]
    assert {"stage", "round_of_play", "board", "limit", "offset"} <= {
        p["name"] for p in matches["parameters"]
    }
    player = schema["components"]["schemas"]["Player"]["properties"]
    assert player["username"].get("writeOnly") is True and "email" not in player
    assert "tokenAuth" in schema["components"]["securitySchemes"]


@pytest.mark.django_db
def test_schema_and_docs_are_served_without_a_cdn(client):
    schema = client.get("/api/schema/")
    assert schema.status_code == 200 and b"/api/scorecards/{id}/fill/" in schema.content
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    page = docs.content.decode()
    assert "swagger-ui" in page and "cdn" not in page.lower()


def test_a_row_not_yet_validated_is_within_the_schema(api_schema):
    """``validated_how`` is "" until the row is validated: the schema allows it."""
    schemas = api_schema["components"]["schemas"]
    how = schemas["CardRow"]["properties"]["validated_how"]
    choices = [schemas[ref["$ref"].rsplit("/", 1)[1]].get("enum") for ref in how["oneOf"]]
    assert [""] in choices and ["phone", "paper", "simulated", "agreement"] in choices
    row = schemas["CardRow"]["properties"]
    assert row["validated_entry"]["nullable"] is True and row["validated_entry"]["readOnly"]
    assert row["validated_by"]["nullable"] is True and row["validated_by"]["readOnly"]
    assert row["validated_device"]["type"] == "string" and row["validated_device"]["readOnly"]


def test_a_round_input_needs_its_points_its_scores_or_time_expired(api_schema):
    round_input = api_schema["components"]["schemas"]["RoundInput"]
    required = [option["required"] for option in round_input["anyOf"]]
    assert required == [["points"], ["score"], ["time_expired"]]


@pytest.mark.django_db
def test_void_refuses_a_row_id_no_database_can_hold(small_event):
    """2**63 is one more than the largest id: a 400 naming the field, on SQLite too."""
    from rest_framework.test import APIClient

    from scoring.scorecards.services import card_for

    small_event.play_and_verify()
    card = card_for(small_event.stage, small_event.player)
    api = APIClient()
    api.force_authenticate(small_event.users["scoring-table"])
    for body in (
        {"reason": "x", "rows": [2**63], "versions": []},
        {"reason": "x", "rows": [1], "versions": [{"row": 2**63, "version": 1}]},
        {"reason": "x", "versions": [{"row": 1, "version": 2**63}]},
    ):
        answer = api.post(f"/api/scorecards/{card.pk}/void/", body, format="json")
        assert answer.status_code == 400, (body, answer.content)
        said = str(answer.json())
        assert "less than or equal to" in said, said
