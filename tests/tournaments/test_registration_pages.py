"""The public entry form's pages and API: the form and its refusals (never a 500), the
applicant's and the partner's secret pages, the organizer's list and decisions, who may, the
same words on the pages and in the API, and the story of a tournament whose players come in
through the form and are matched to the registry."""

from __future__ import annotations

import html
from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from tests.factories import (
    CategoryFactory,
    TournamentRoleFactory,
    UserFactory,
    allow_creating_tournaments,
)
from tournaments.models import Category, EntryRequest, Person, Player, Tournament
from tournaments.registration_actions import WHO
from tournaments.services import entry_requests as svc

pytestmark = pytest.mark.django_db
Status = EntryRequest.Status


@pytest.fixture
def organizer():
    return UserFactory(email="boss@example.org")


@pytest.fixture
def category(organizer) -> Category:
    category = CategoryFactory(name="Open Singles", registration_open=True)
    TournamentRoleFactory(tournament=category.tournament, user=organizer)
    return category


@pytest.fixture
def stranger():
    """The organizer of another tournament."""
    user = UserFactory()
    TournamentRoleFactory(user=user)
    return user


@pytest.fixture
def mails(django_capture_on_commit_callbacks):
    """Run the e-mails a request sends once its transaction commits."""

    def sent(step, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return step(*args, **kwargs)

    return sent


def form_url(category: Category) -> str:
    return reverse("registration:register", args=[category.tournament.slug])


def list_url(category: Category) -> str:
    return reverse("registration:registrations", args=[category.tournament.slug])


def entry(of: Category, /, **fields) -> dict:
    return {
        "category": of.pk,
        "first_name": "Anna",
        "last_name": "Weber",
        "email": "anna@example.org",
        **fields,
    }


def ask(category: Category, first: str, last: str, **fields) -> EntryRequest:
    return svc.submit(
        category=category,
        first_name=first,
        last_name=last,
        email=f"{first.lower()}@example.org",
        **fields,
    )


# The public form --------------------------------------------------------------------------------


def test_the_public_page_offers_the_form_only_while_it_is_open(client, category):
    detail = category.tournament.get_absolute_url()
    assert "Enter this tournament" in client.get(detail).content.decode()
    category.registration_deadline = timezone.now() - timedelta(hours=1)
    category.save()
    assert "Enter this tournament" not in client.get(detail).content.decode()
    page = client.get(form_url(category)).content.decode()
    assert "No category of this tournament takes requests now." in page
    assert "closed on" in page


def test_a_request_through_the_form_leads_to_its_own_page(client, category, mails):
    response = mails(client.post, form_url(category), entry(category))
    made = EntryRequest.objects.get()
    assert response.status_code == 302
    assert response.url == reverse(
        "registration:registration-status", args=[category.tournament.slug, made.token]
    )
    page = client.get(response.url).content.decode()
    assert "Thank you" in page and "Waiting for the organizer" in page
    assert {tuple(m.to) for m in mail.outbox} == {("anna@example.org",), ("boss@example.org",)}
    assert f"http://testserver{response.url}" in mail.outbox[0].body + mail.outbox[1].body


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"first_name": ""}, "Give your first name."),
        ({"email": "nope"}, "is not an e-mail address"),
        ({"category": "999999"}, "Choose one of the categories listed."),
        ({"category": "x"}, "Choose one of the categories listed."),
        ({"partner_last_name": "Frei"}, "leave the partner"),
    ],
)
def test_bad_input_comes_back_with_its_words_never_a_500(client, category, change, words):
    response = client.post(form_url(category), entry(category, **change))
    assert response.status_code == 400
    assert words in response.content.decode()
    assert not EntryRequest.objects.exists()


def test_past_the_deadline_and_twice_are_refused_in_words(client, category):
    assert client.post(form_url(category), entry(category)).status_code == 302
    again = client.post(form_url(category), entry(category))
    assert again.status_code == 400
    assert "has asked to enter Open Singles already" in again.content.decode()
    category.registration_deadline = timezone.now() - timedelta(minutes=5)
    category.save()
    late = client.post(form_url(category), entry(category, email="late@example.org"))
    assert late.status_code == 400 and "closed on" in late.content.decode()
    assert EntryRequest.objects.count() == 1


def test_the_applicants_page_shows_their_own_request_only_and_withdraws_it(client, category):
    category.capacity = 1
    category.save()
    anna, ben = ask(category, "Anna", "Weber"), ask(category, "Ben", "Stone")
    url = reverse("registration:registration-status", args=[category.tournament.slug, ben.token])
    page = client.get(url).content.decode()
    assert "Ben Stone" in page and "number 1 on the waitlist" in page
    assert "Anna" not in page and "anna@example.org" not in page
    client.post(
        reverse("registration:registration-status", args=[category.tournament.slug, anna.token])
    )
    ben.refresh_from_db()
    assert ben.status == Status.PENDING
    wrong = client.get(
        reverse("registration:registration-status", args=[category.tournament.slug, "nope"])
    )
    assert wrong.status_code == 404


def test_a_token_opens_nothing_at_another_tournament(client, category):
    made = ask(category, "Anna", "Weber")
    other = CategoryFactory().tournament
    url = reverse("registration:registration-status", args=[other.slug, made.token])
    assert client.get(url).status_code == 404


def test_the_partner_accepts_on_the_invitation_page(client, category):
    doubles = CategoryFactory(
        tournament=category.tournament, name="Open Doubles", doubles=True, registration_open=True
    )
    response = client.post(
        form_url(doubles),
        entry(
            doubles,
            partner_first_name="Bea",
            partner_last_name="Frei",
            partner_email="bea@example.org",
        ),
    )
    assert response.status_code == 302
    made = EntryRequest.objects.get()
    assert made.status == Status.AWAITING_PARTNER
    url = reverse(
        "registration:registration-partner", args=[category.tournament.slug, made.partner_token]
    )
    page = client.get(url).content.decode()
    assert "Anna Weber asks to enter Open Doubles with you." in page
    assert "anna@example.org" not in page
    bad = client.post(url, {"answer": "accept", "first_name": "", "last_name": "Frei"})
    assert bad.status_code == 400 and "Give your first name." in bad.content.decode()
    client.post(url, {"answer": "accept", "first_name": "Bea", "last_name": "Frei"})
    made.refresh_from_db()
    assert made.status == Status.PENDING


# The organizer's list ---------------------------------------------------------------------------


def test_only_this_tournaments_organizers_open_the_list_and_decide(
    client, category, organizer, stranger
):
    made = ask(category, "Anna", "Weber")
    accept = reverse("registration:registration-accept", args=[category.tournament.slug, made.pk])
    assert client.get(list_url(category)).status_code == 302  # to the login page
    client.force_login(stranger)
    refused = client.get(list_url(category))
    assert refused.status_code == 403 and str(WHO) in html.unescape(refused.content.decode())
    assert client.post(accept).status_code == 403
    made.refresh_from_db()
    assert made.status == Status.PENDING
    # nor through their own tournament's address
    own = TournamentRoleFactory._meta.model.objects.get(user=stranger).tournament
    assert (
        client.post(
            reverse("registration:registration-accept", args=[own.slug, made.pk])
        ).status_code
        == 404
    )

    client.force_login(organizer)
    page = client.get(list_url(category)).content.decode()
    assert "Anna Weber" in page and "anna@example.org" in page
    response = client.post(accept, {"person": "new"})
    assert response.status_code == 302
    made.refresh_from_db()
    assert made.status == Status.ACCEPTED and made.entry.player.person is not None


def test_the_organizer_refuses_with_a_reason_and_sets_the_form(client, category, organizer):
    made = ask(category, "Anna", "Weber")
    client.force_login(organizer)
    slug = category.tournament.slug
    refuse = reverse("registration:registration-refuse", args=[slug, made.pk])
    no_reason = client.post(refuse, {"reason": ""}, follow=True)
    assert "Say why the request is refused" in no_reason.content.decode()
    client.post(refuse, {"reason": "Full house"})
    made.refresh_from_db()
    assert (made.status, made.refusal_reason) == (Status.REFUSED, "Full house")

    settings_url = reverse("registration:registration-settings", args=[slug, category.pk])
    prefix = f"c{category.pk}-"
    bad = client.post(settings_url, {prefix + "capacity": "0", prefix + "registration_open": "on"})
    assert bad.status_code == 400
    client.post(
        settings_url,
        {
            prefix + "registration_open": "on",
            prefix + "registration_deadline": "2099-05-01T18:00",
            prefix + "capacity": "16",
        },
    )
    category.refresh_from_db()
    assert category.capacity == 16 and category.registration_deadline.year == 2099
    assert timezone.is_aware(category.registration_deadline)


def test_the_dashboard_counts_the_requests_waiting(client, category, organizer):
    ask(category, "Anna", "Weber")
    ask(category, "Ben", "Stone")
    client.force_login(organizer)
    page = client.get(reverse("tournaments:manage", args=[category.tournament.slug]))
    assert "2 requests to enter wait for your decision" in page.content.decode()


# The API ----------------------------------------------------------------------------------------


def api_list(category: Category) -> str:
    return reverse("api:entry-requests", args=[category.tournament.slug])


def test_the_api_takes_a_request_with_the_pages_words(category):
    api = APIClient()
    made = api.post(api_list(category), entry(category), format="json")
    assert made.status_code == 201
    assert made.json()["status"] == "pending"
    assert made.json()["page"].endswith(f"/register/{EntryRequest.objects.get().token}/")
    again = api.post(api_list(category), entry(category), format="json")
    assert again.status_code == 409
    assert "has asked to enter Open Singles already" in again.json()["detail"]
    bad = api.post(api_list(category), entry(category, email="x", first_name="B"), format="json")
    assert bad.status_code == 400 and "is not an e-mail address" in bad.json()["email"][0]
    missing = api.post(api_list(category), {"first_name": "Anna"}, format="json")
    assert missing.status_code == 400 and "category" in missing.json()
    category.registration_open = False
    category.save()
    closed = api.post(api_list(category), entry(category, email="c@example.org"), format="json")
    assert closed.status_code == 409 and "closed" in closed.json()["detail"]


def test_the_api_decisions_are_the_organizers_with_the_same_words(
    category, organizer, stranger, mails
):
    category.capacity = 1
    category.save()
    anna, ben = ask(category, "Anna", "Weber"), ask(category, "Ben", "Stone")
    api = APIClient()
    assert api.get(api_list(category)).status_code in (401, 403)
    api.force_authenticate(stranger)
    listed = api.get(api_list(category))
    assert listed.status_code == 403 and listed.json()["detail"] == str(WHO)
    accept = reverse("api:entry-request-accept", args=[anna.pk])
    refused = api.post(accept, {}, format="json")
    assert refused.status_code == 403 and refused.json()["detail"] == str(WHO)

    api.force_authenticate(organizer)
    rows = api.get(api_list(category)).json()
    assert [(r["last_name"], r["status"], r["waitlist_position"]) for r in rows] == [
        ("Weber", "pending", None),
        ("Stone", "waitlisted", 1),
    ]
    assert api.post(accept, {"person": "nobody"}, format="json").status_code == 400
    assert api.post(accept, {"person": "new"}, format="json").json()["status"] == "accepted"
    full = api.post(reverse("api:entry-request-accept", args=[ben.pk]), {}, format="json")
    assert full.status_code == 409 and "waitlist" in full.json()["detail"]
    no_reason = api.post(
        reverse("api:entry-request-refuse", args=[ben.pk]), {"reason": ""}, format="json"
    )
    assert no_reason.status_code == 400
    assert no_reason.json()["reason"] == ["Say why the request is refused: the applicant reads it."]

    # the applicant withdraws with their token; Ben, first on the waitlist, comes up
    mail.outbox.clear()
    mine = reverse("api:entry-request-mine-withdraw", args=[anna.token])
    withdrawn = mails(APIClient().post, mine)
    assert withdrawn.status_code == 200 and withdrawn.json()["status"] == "withdrawn"
    ben.refresh_from_db()
    assert ben.status == Status.PENDING
    assert any(m.to == ["boss@example.org"] for m in mail.outbox)
    own = APIClient().get(reverse("api:entry-request-mine", args=[ben.token])).json()
    assert own["last_name"] == "Stone" and "email" not in own
    assert APIClient().get(reverse("api:entry-request-mine", args=["nope"])).status_code == 404


def test_the_schema_documents_the_entry_form(client):
    schema = client.get("/api/schema/").content.decode()
    for path in (
        "/api/tournaments/{slug}/entry-requests/",
        "/api/entry-requests/{id}/accept/",
        "/api/entry-requests/mine/{token}/withdraw/",
    ):
        assert path in schema


# The story --------------------------------------------------------------------------------------


def test_a_tournament_whose_players_come_in_through_the_form_matched_to_their_people(
    client, organizer, mails
):
    """An organizer creates a tournament, opens its form; players ask through it (one known to
    the registry by their ID number, one not); the organizer accepts them and each player is
    linked to their person."""
    allow_creating_tournaments(organizer)
    client.force_login(organizer)
    created = client.post(
        reverse("tournament-create"), {"name": "Spring Open", "slug": "", "game_minutes": 30}
    )
    assert created.status_code == 302
    tournament = Tournament.objects.get(slug="spring-open")
    category = CategoryFactory(tournament=tournament, name="Singles")
    slug = category.tournament.slug
    prefix = f"c{category.pk}-"
    client.post(
        reverse("registration:registration-settings", args=[slug, category.pk]),
        {prefix + "registration_open": "on", prefix + "capacity": "8"},
    )
    known = Person.objects.create(first_name="Anna", last_name="Weber", id_number="NCA-1")

    visitor = type(client)()
    mails(
        visitor.post,
        form_url(category),
        entry(category, first_name="Anna", last_name="Weber", id_number="NCA-1"),
    )
    mails(
        visitor.post,
        form_url(category),
        entry(category, first_name="Ben", last_name="Stone", email="ben@example.org"),
    )
    assert sum(m.to == ["boss@example.org"] for m in mail.outbox) == 2

    page = client.get(list_url(category)).content.decode()
    assert "same ID number" in page
    for made in EntryRequest.objects.order_by("id"):
        choice = {"person": str(made.person_id)} if made.person_id else {"person": "new"}
        client.post(reverse("registration:registration-accept", args=[slug, made.pk]), choice)
    anna = Player.objects.get(tournament__slug=slug, last_name="Weber")
    ben = Player.objects.get(tournament__slug=slug, last_name="Stone")
    assert anna.person == known
    assert ben.person is not None and ben.person != known
    assert category.entries.count() == 2
    assert set(EntryRequest.objects.values_list("status", flat=True)) == {Status.ACCEPTED}


def test_the_one_person_of_that_name_is_offered_chosen_already(client, category, organizer):
    """An organizer who just taps Accept must not make a duplicate of someone the registry
    knows: the one person of that name is chosen already; with two, the organizer picks."""
    known = Person.objects.create(first_name="Anna", last_name="Weber", club="Tavistock")
    visitor = type(client)()
    visitor.post(form_url(category), entry(category, first_name="Anna", last_name="Weber"))
    client.force_login(organizer)
    page = client.get(list_url(category)).content.decode()
    assert f'name="person" value="{known.pk}" checked' in page
    assert 'name="person" value="new" checked' not in page

    Person.objects.create(first_name="Anna", last_name="Weber", club="Ayr")
    page = client.get(list_url(category)).content.decode()
    assert f'name="person" value="{known.pk}" checked' not in page
    assert 'name="person" value="new" checked' in page


def test_the_api_sets_a_categorys_form_for_its_organizers_only(category, organizer, stranger):
    url = reverse("api:category-registration", args=[category.pk])
    body = {"registration_open": True, "registration_deadline": None, "capacity": 12}
    api = APIClient()
    api.force_authenticate(stranger)
    refused = api.put(url, body, format="json")
    assert refused.status_code == 403 and refused.json()["detail"] == str(WHO)
    api.force_authenticate(organizer)
    assert api.put(url, {**body, "capacity": 0}, format="json").status_code == 400
    done = api.put(url, {**body, "registration_deadline": "2099-01-01T10:00:00Z"}, format="json")
    assert done.status_code == 200 and done.json()["capacity"] == 12
    category.refresh_from_db()
    assert category.capacity == 12 and category.registration_deadline.year == 2099


def test_the_partner_answers_through_the_api_or_declines_on_the_page(client, category):
    doubles = CategoryFactory(
        tournament=category.tournament, name="Open Doubles", doubles=True, registration_open=True
    )
    partner = {
        "partner_first_name": "Bea",
        "partner_last_name": "Frei",
        "partner_email": "bea@example.org",
    }
    one = svc.submit(
        category=doubles, first_name="Anna", last_name="Weber", email="a@example.org", **partner
    )
    url = reverse("api:entry-request-partner-accept", args=[one.partner_token])
    bad = APIClient().post(url, {"first_name": "", "last_name": "Frei"}, format="json")
    assert bad.status_code == 400 and bad.json()["first_name"] == ["Give your first name."]
    done = APIClient().post(url, {"first_name": "Bea", "last_name": "Frei"}, format="json")
    assert done.status_code == 200 and done.json()["status"] == "pending"
    assert "page" not in done.json()  # the applicant's own page is not the partner's
    again = APIClient().post(url, {"first_name": "Bea", "last_name": "Frei"}, format="json")
    assert again.status_code == 409
    nobody = reverse("api:entry-request-partner-accept", args=["nope"])
    assert APIClient().post(nobody, {}, format="json").status_code == 404

    two = svc.submit(
        category=doubles,
        first_name="Carl",
        last_name="Marx",
        email="c@example.org",
        partner_first_name="Dora",
        partner_last_name="Lee",
        partner_email="dora@example.org",
    )
    page = reverse(
        "registration:registration-partner", args=[category.tournament.slug, two.partner_token]
    )
    assert client.post(page, {"answer": "decline"}).status_code == 302
    two.refresh_from_db()
    assert two.status == Status.WITHDRAWN


def test_the_organizer_withdraws_an_accepted_request_and_the_waitlist_moves_up(
    client, category, organizer
):
    category.capacity = 1
    category.save()
    anna = svc.accept(request=ask(category, "Anna", "Weber"))
    ben = ask(category, "Ben", "Stone")
    assert ben.status == Status.WAITLISTED
    client.force_login(organizer)
    url = reverse("registration:registration-withdraw", args=[category.tournament.slug, anna.pk])
    assert client.post(url).status_code == 302
    anna.refresh_from_db()
    ben.refresh_from_db()
    assert anna.status == Status.WITHDRAWN and not category.entries.exists()
    assert ben.status == Status.PENDING
