"""The registry through the API: the same steps, permissions and words as the pages; registering
a player the registry may know answers 400 with the question and its candidates."""

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import PlayerFactory, TournamentFactory
from tournaments.models import Player, TournamentRole
from tournaments.models.registry import Person
from tournaments.services import registry

pytestmark = pytest.mark.django_db


def client_as(user: User | None = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def organizer_of(tournament, username: str = "olga") -> User:
    user = User.objects.create_user(username)
    TournamentRole.objects.create(
        tournament=tournament, user=user, role=TournamentRole.Role.ORGANIZER
    )
    return user


@pytest.fixture
def known() -> Person:
    return registry.create_person(
        first_name="Anna", last_name="Müller", club="Club X", id_number="123"
    )


def test_registering_a_known_name_answers_400_with_the_candidates(known):
    tournament = TournamentFactory()
    client = client_as(organizer_of(tournament))
    body = {"tournament": tournament.slug, "first_name": "ANNA", "last_name": "Muller"}
    asked = client.post(reverse("api:player-list"), body, format="json")
    assert asked.status_code == 400
    data = asked.json()
    assert data["person"] == [
        "Is this Anna Müller of Club X (ID 123)? Choose who it is, or register a new person."
    ]
    assert data["candidates"][0]["id"] == known.pk
    assert data["candidates"][0]["how"] == "name"
    assert not Player.objects.filter(tournament=tournament).exists()

    chosen = client.post(reverse("api:player-list"), {**body, "person": known.pk}, format="json")
    assert chosen.status_code == 201, chosen.json()
    assert chosen.json()["person"] == known.pk

    other = TournamentFactory()
    client = client_as(organizer_of(other, "otto"))
    body = {"tournament": other.slug, "first_name": "Anna", "last_name": "Müller"}
    fresh = client.post(reverse("api:player-list"), {**body, "new_person": True}, format="json")
    assert fresh.status_code == 201
    assert fresh.json()["person"] not in (None, known.pk)


def test_the_federation_id_finds_the_person_first(known):
    tournament = TournamentFactory()
    client = client_as(organizer_of(tournament))
    body = {
        "tournament": tournament.slug,
        "first_name": "Hanna",
        "last_name": "Schmidt",
        "federation_id": "123",
    }
    asked = client.post(reverse("api:player-list"), body, format="json")
    assert asked.status_code == 400
    assert asked.json()["candidates"][0]["how"] == "id-number"


def test_people_search_hides_a_name_only_persons_details(known):
    registry.set_visibility(person=known, visibility=Person.Visibility.NAME_ONLY)
    found = client_as().get(reverse("api:person-list"), {"q": "muller"}).json()
    rows = found["results"] if isinstance(found, dict) else found
    assert [r["full_name"] for r in rows] == ["Anna Müller"]
    assert rows[0]["club"] == "" and rows[0]["id_number"] == ""
    keeper = client_as(User.objects.create_user("keeper", is_staff=True))
    assert keeper.get(reverse("api:person-detail", args=[known.pk])).json()["club"] == "Club X"


def test_another_tournaments_organizer_is_refused_with_the_pages_words(known):
    home, away = TournamentFactory(name="Home Open"), TournamentFactory(name="Away Cup")
    PlayerFactory(tournament=home, person=known)
    PlayerFactory(tournament=away, person=known)
    client = client_as(organizer_of(away, "otto"))
    response = client.patch(
        reverse("api:person-detail", args=[known.pk]), {"first_name": "Annette"}, format="json"
    )
    assert response.status_code == 403
    assert "also plays at Home Open" in response.json()["detail"]
    known.refresh_from_db()
    assert known.first_name == "Anna"


def test_only_record_keepers_add_and_merge(known):
    duplicate = registry.create_person(first_name="Ana", last_name="Muller")
    player = PlayerFactory(person=duplicate)
    organizer = client_as(organizer_of(player.tournament))
    refused = organizer.post(
        reverse("api:person-merge", args=[known.pk]), {"duplicate": duplicate.pk}, format="json"
    )
    assert refused.status_code == 403
    assert "record keepers" in refused.json()["detail"]
    added = organizer.post(
        reverse("api:person-list"), {"first_name": "A", "last_name": "B"}, format="json"
    )
    assert added.status_code == 403

    keeper = client_as(User.objects.create_user("keeper", is_staff=True))
    merged = keeper.post(
        reverse("api:person-merge", args=[known.pk]), {"duplicate": duplicate.pk}, format="json"
    )
    assert merged.status_code == 200
    player.refresh_from_db()
    assert player.person == known
    held = keeper.post(
        reverse("api:person-list"),
        {"first_name": "Ben", "last_name": "Bell", "id_number": "123"},
        format="json",
    )
    assert held.status_code == 400
    assert "already held by Anna Müller of Club X" in held.json()["id_number"][0]


def test_claim_through_the_api_then_choose_name_only(known):
    user = User.objects.create_user("ann")
    PlayerFactory(user=user, person=known)
    client = client_as(user)
    claimed = client.post(reverse("api:person-claim", args=[known.pk]))
    assert claimed.status_code == 200 and claimed.json()["claimed"] is True
    chosen = client.patch(
        reverse("api:person-detail", args=[known.pk]), {"visibility": "name-only"}, format="json"
    )
    assert chosen.status_code == 200 and chosen.json()["visibility"] == "name-only"
    stranger = client_as(User.objects.create_user("ben"))
    refused = stranger.post(reverse("api:person-claim", args=[known.pk]))
    assert refused.status_code == 403
    assert "Only the player themselves" in refused.json()["detail"]
