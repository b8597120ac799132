"""The front page lists the tournaments, live now, upcoming and past, searchable; signing in
leads each person to their own page."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from tests.factories import (
    DryRunFactory,
    PlayerFactory,
    TournamentFactory,
    TournamentRoleFactory,
    UserFactory,
)
from tournaments.models import TournamentRole
from tournaments.selectors import tournament_index

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()
DAY = timedelta(days=1)


@pytest.fixture
def season():
    """A live, an upcoming, a past and an undated tournament; a draft; a dry run's copy."""
    return {
        "live": TournamentFactory(
            name="Tavistock Open", venue="Tavistock", starts_on=TODAY - DAY, ends_on=TODAY + DAY
        ),
        "next": TournamentFactory(name="Ottawa Cup", venue="Ottawa", starts_on=TODAY + 30 * DAY),
        "later": TournamentFactory(name="Paris Classic", venue="Paris", starts_on=TODAY + 90 * DAY),
        "past": TournamentFactory(
            name="WCC 2025",
            venue="Tavistock",
            starts_on=TODAY - 200 * DAY,
            ends_on=TODAY - 199 * DAY,
        ),
        "undated": TournamentFactory(name="Club night", venue="Guelph"),
        "draft": TournamentFactory(name="Secret Open", starts_on=TODAY + 10 * DAY, published=False),
        "copy": DryRunFactory(copy=TournamentFactory(name="Dry run of Tavistock Open")).copy,
    }


def names(tournaments) -> list[str]:
    return [t.name for t in tournaments]


def test_the_index_sorts_tournaments_by_when_they_are_played(season):
    index = tournament_index(UserFactory())
    assert names(index.live) == ["Tavistock Open"]
    assert names(index.upcoming) == ["Ottawa Cup", "Paris Classic"]  # the next one first
    assert names(index.past) == ["WCC 2025"]
    assert names(index.undated) == ["Club night"]


def test_a_draft_is_listed_to_its_staff_only_and_a_dry_run_copy_never(season):
    organizer = UserFactory()
    TournamentRoleFactory(
        tournament=season["draft"], user=organizer, role=TournamentRole.Role.ORGANIZER
    )
    TournamentRoleFactory(
        tournament=season["copy"], user=organizer, role=TournamentRole.Role.ORGANIZER
    )
    assert "Secret Open" not in names(tournament_index(UserFactory()).upcoming)
    staff = tournament_index(organizer)
    assert names(staff.upcoming) == ["Secret Open", "Ottawa Cup", "Paris Classic"]
    everything = staff.live + staff.upcoming + staff.past + staff.undated
    assert "Dry run of Tavistock Open" not in names(everything)


def test_the_front_page_and_t_list_them_with_links_and_search_by_name_or_place(client, season):
    for address in (reverse("home"), reverse("tournaments:index")):
        page = client.get(address).content.decode()
        for key in ("live", "next", "later", "past", "undated"):
            t = season[key]
            assert f'href="{t.get_absolute_url()}"><strong>{t.name}</strong></a>' in page
        assert "Secret Open" not in page and "Dry run of" not in page
        assert page.index("Live now") < page.index("Upcoming") < page.index("Past")
    found = client.get(reverse("home"), {"q": "tavistock"}).content.decode()
    assert "Tavistock Open" in found and "WCC 2025" in found  # by name and by place
    assert "Ottawa Cup" not in found and "Club night" not in found
    nothing = client.get(reverse("home"), {"q": "Moncton"}).content.decode()
    assert "No tournament has “Moncton” in its name or place." in nothing


def test_the_api_lists_what_the_front_page_lists(season):
    public = APIClient().get("/api/tournaments/", {"limit": 100}).json()["results"]
    assert sorted(t["name"] for t in public) == sorted(
        ["Tavistock Open", "Ottawa Cup", "Paris Classic", "WCC 2025", "Club night"]
    )
    # A draft and a copy are still read by their address, as their pages are.
    assert APIClient().get(f"/api/tournaments/{season['draft'].slug}/").status_code == 200


def test_signing_in_leads_a_player_to_their_page_and_staff_to_their_dashboard(client, season):
    player = UserFactory()
    PlayerFactory(tournament=season["past"], user=player, number=7)
    PlayerFactory(tournament=season["live"], user=player, number=12)
    client.force_login(player)
    landed = client.get(reverse("landing"))
    assert landed["Location"] == reverse("tournaments:player", args=[season["live"].slug, 12])

    referee = UserFactory()
    TournamentRoleFactory(tournament=season["next"], user=referee, role=TournamentRole.Role.REFEREE)
    client.force_login(referee)
    disputes = reverse("scoring:cards:disputes", args=[season["next"].slug])
    assert client.get(reverse("landing"))["Location"] == disputes
    assert client.get(disputes).status_code == 200  # a page the referee may open
    organizer = UserFactory()
    TournamentRoleFactory(
        tournament=season["live"], user=organizer, role=TournamentRole.Role.ORGANIZER
    )
    client.force_login(organizer)
    dashboard = reverse("tournaments:manage", args=[season["live"].slug])
    assert client.get(reverse("landing"))["Location"] == dashboard
    assert client.get(dashboard).status_code == 200
    client.force_login(UserFactory())  # nobody's player, nobody's staff
    assert client.get(reverse("landing"))["Location"] == reverse("home")


def test_the_sign_in_form_leads_to_the_landing_page(client):
    user = UserFactory(username="ann")
    user.set_password("a-long-enough-password")
    user.save()
    signed = client.post(
        reverse("login"), {"username": "ann", "password": "a-long-enough-password"}
    )
    assert signed.status_code == 302 and signed["Location"] == reverse("landing")
