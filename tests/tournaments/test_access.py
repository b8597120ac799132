"""Every app's pages load their tournament and refuse the same way: a 404 page naming an unknown
tournament, the login page for a visitor, one 403 page saying who may for anyone else; and one
``safe_next`` that never redirects off the site."""

import pytest
from django.contrib.auth.models import User
from django.test import RequestFactory
from django.urls import reverse

from tests.factories import TournamentFactory
from tournaments.views.access import safe_next

pytestmark = pytest.mark.django_db

#: A page of each app that needs a role: organizer, printing, scoring table, simulation.
GUARDED = [
    ("tournaments:manage", "get", "Organizers only"),
    ("scoring:print-blank", None, None),  # public: anyone prints blank cards
    ("scoring:cards:table", "get", "The scoring table"),
    ("scoring:cards:disputes", "get", "for referees and the scoring table"),
    ("simulation:dry_run_start", "post", "Organizers only"),
    ("simulation:autoplay_start", "post", "Organizers only"),
]


@pytest.mark.parametrize(("name", "method", "says"), [g for g in GUARDED if g[1]])
def test_each_app_refuses_with_the_one_page(client, name, method, says):
    tournament = TournamentFactory(slug="club-open")
    target = reverse(name, args=[tournament.slug])
    anonymous = getattr(client, method)(target)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/accounts/login/")
    client.force_login(User.objects.create_user("stranger"))
    refused = getattr(client, method)(target)
    assert refused.status_code == 403
    assert next(t.name for t in refused.templates) == "forbidden.html"
    page = refused.content.decode()
    assert "Not allowed" in page and says in page and "club-open" in page


@pytest.mark.parametrize(("name", "method"), [(g[0], g[1] or "get") for g in GUARDED])
def test_an_unknown_tournament_is_a_404_page_naming_it(client, name, method):
    client.force_login(User.objects.create_user("someone"))
    response = getattr(client, method)(reverse(name, args=["no-such-event"]))
    assert response.status_code == 404
    assert "There is no tournament “no-such-event”." in response.content.decode()


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("/t/club-open/manage/check-in/?q=ann", "/t/club-open/manage/check-in/?q=ann"),
        ("https://evil.example/", "/fallback/"),
        ("//evil.example/t/", "/fallback/"),
        ("", "/fallback/"),
    ],
)
def test_safe_next_stays_on_the_site(given, expected):
    request = RequestFactory().post("/", {"next": given})
    assert safe_next(request, "/fallback/") == expected


def test_safe_next_within_a_path():
    request = RequestFactory().get("/", {"next": "/t/x/manage/"})
    assert safe_next(request, "/t/x/cards/table/", within="/t/x/cards/table/") == (
        "/t/x/cards/table/"
    )
