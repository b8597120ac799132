"""Token authentication, and who may create a tournament."""

import pytest
from rest_framework.test import APIClient

from tournaments.models import Tournament, TournamentRole

pytestmark = pytest.mark.django_db


def test_token_from_username_and_password_authenticates_writes(world):
    client = APIClient()
    response = client.post(
        "/api/auth/token/", {"username": "cid", "password": "pw-cid"}, format="json"
    )
    assert response.status_code == 200
    token = response.json()["token"]
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    created = client.post("/api/tournaments/", {"name": "Cid Cup", "slug": "cid-cup"})
    assert created.status_code == 201, created.json()
    assert created.json()["slug"] == "cid-cup"
    roles = TournamentRole.objects.filter(tournament__slug="cid-cup")
    assert list(roles.values_list("user__username", "role")) == [("cid", "organizer")]


def test_wrong_password_gets_no_token(world):
    response = APIClient().post(
        "/api/auth/token/", {"username": "cid", "password": "nope"}, format="json"
    )
    assert response.status_code == 400
    assert "token" not in response.json()


def test_unknown_token_is_401(world):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token 0123456789abcdef")
    response = client.get("/api/tournaments/")
    assert response.status_code == 401
    assert "token" in response.json()["detail"].lower()


def test_anonymous_cannot_create_a_tournament(client_for):
    response = client_for().post("/api/tournaments/", {"name": "X", "slug": "x"})
    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Token")
    assert not Tournament.objects.filter(slug="x").exists()


def test_tournament_slug_taken_or_dates_reversed_is_400_naming_the_field(world, client_for):
    client = client_for("cid")
    taken = client.post("/api/tournaments/", {"name": "Again", "slug": "club-open"})
    assert taken.status_code == 400
    assert taken.json()["slug"] == ["The web address 'club-open' is taken; choose another."]
    reversed_dates = client.post(
        "/api/tournaments/",
        {"name": "Y", "slug": "y", "starts_on": "2025-06-02", "ends_on": "2025-06-01"},
    )
    assert reversed_dates.status_code == 400
    assert reversed_dates.json()["ends_on"] == ["The last day cannot be before the first."]
    assert not Tournament.objects.filter(slug="y").exists()
