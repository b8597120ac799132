"""The OpenAPI schema generates without a warning, validates, and documents the endpoints."""

import pytest
import yaml
from django.core.management import call_command
from drf_spectacular.drainage import reset_generator_stats

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


def test_schema_validates_with_no_warning(tmp_path):
    reset_generator_stats()  # warnings from earlier generations in this process do not count
    target = tmp_path / "schema.yaml"
    call_command("spectacular", validate=True, fail_on_warn=True, file=str(target))
    schema = yaml.safe_load(target.read_text())
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
