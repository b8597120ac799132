"""Invitations: an existing account gets a role, or acts for a player, only when its owner
accepts, signed in; the organizer's answer is the same whether the username exists, so no page
or endpoint tells which usernames exist (the audit's M4 probe); the staff page acts only on
the tournament's own staff.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import PlayerFactory, allow_creating_tournaments
from tournaments.models import Invitation, RoleChange, Tournament, TournamentRole
from tournaments.services.setup import create_tournament

pytestmark = pytest.mark.django_db
Role = TournamentRole.Role


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def club() -> Tournament:
    olga = User.objects.create_user("olga")
    allow_creating_tournaments(olga)
    User.objects.create_user("ann", first_name="Ann", email="ann@example.org")
    return create_tournament(name="Club Open", slug="club-open", user=olga)


def api(username: str) -> APIClient:
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=User.objects.get(username=username))
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def without(body: dict, *names: str) -> dict:
    return {k: v for k, v in body.items() if k not in names}


def test_the_roles_endpoint_answers_a_known_and_an_unknown_username_alike(club):
    """M4 through ``POST /api/roles/``: the same status, the same body but for the id, the
    same number of queries; only the known one can ever be accepted."""
    olga = api("olga")
    answers, queries = [], []
    for username in ("ann", "nosuchuser"):
        with CaptureQueriesContext(connection) as run:
            answers.append(
                olga.post(
                    "/api/roles/",
                    {"tournament": "club-open", "username": username, "role": "referee"},
                    format="json",
                )
            )
        queries.append(len(run.captured_queries))
    known, unknown = answers
    assert known.status_code == unknown.status_code == 201
    assert without(known.json(), "id", "username", "detail") == without(
        unknown.json(), "id", "username", "detail"
    )
    assert known.json()["detail"].replace("ann", "?") == unknown.json()["detail"].replace(
        "nosuchuser", "?"
    )
    assert known.json()["detail"] == (
        "Invitation sent to “ann”: the account's owner accepts it when they sign in."
    )
    assert queries[0] == queries[1]
    assert not TournamentRole.objects.filter(user__username="ann").exists()
    assert Invitation.objects.get(username="nosuchuser").user is None


def test_the_players_endpoint_answers_a_known_and_an_unknown_username_alike(club):
    """M4 through ``POST /api/players/``: both 201 with the same words; no account linked."""
    olga = api("olga")
    answers = [
        olga.post(
            "/api/players/",
            {
                "tournament": "club-open",
                "first_name": "Dee",
                "last_name": "Ng",
                "number": number,
                "username": username,
                # Two players of the same name: the registry would otherwise ask who they are.
                "new_person": True,
            },
            format="json",
        )
        for number, username in ((1, "ann"), (2, "nosuchuser"))
    ]
    assert [a.status_code for a in answers] == [201, 201]
    known, unknown = (without(a.json(), "id", "number", "person") for a in answers)
    assert known["invitation"].replace("ann", "?") == unknown["invitation"].replace(
        "nosuchuser", "?"
    )
    assert without(known, "invitation") == without(unknown, "invitation")
    assert "username" not in known and "email" not in str(known)
    assert not club.players.exclude(user=None).exists()


def test_the_staff_page_answers_a_known_and_an_unknown_username_alike(club, client):
    client.force_login(User.objects.get(username="olga"))
    url = reverse("tournaments:manage-staff", args=["club-open"])
    words = []
    for username in ("ann", "nosuchuser"):
        page = client.post(
            url,
            {"action": "grant", "grant-username": username, "grant-role": "scoring-table"},
            follow=True,
        )
        assert page.status_code == 200
        words.append([str(m).replace(username, "?") for m in page.context["messages"]])
    assert (
        words[0]
        == words[1]
        == ["Invitation sent to “?”: the account's owner accepts it when they sign in."]
    )
    # The organizer sees both by what was typed, and may withdraw them.
    listed = page.content.decode()
    assert "nosuchuser" in listed and "ann@example.org" not in listed and "Ann" not in listed


def test_the_invitee_accepts_while_signed_in_and_gets_the_role_with_history(club, client):
    olga, ann = User.objects.get(username="olga"), User.objects.get(username="ann")
    api("olga").post(
        "/api/roles/",
        {"tournament": "club-open", "username": "ANN", "role": "referee"},
        format="json",
    )
    invitation = Invitation.objects.get()
    # Someone else cannot accept it, even knowing its id.
    client.force_login(olga)
    refused = client.post(
        reverse("invitations"), {"action": "accept", "invitation": invitation.pk}, follow=True
    )
    assert [str(m) for m in refused.context["messages"]] == [
        "There is no such invitation; nothing was done."
    ]
    assert not TournamentRole.objects.filter(tournament=club, role=Role.REFEREE).exists()
    client.force_login(ann)
    front = client.get(reverse("home")).content.decode()
    assert reverse("invitations") in front and "1 invitation" in front
    page = client.get(reverse("invitations")).content.decode()
    assert "Club Open" in page and "Referee" in page

    client.post(reverse("invitations"), {"action": "accept", "invitation": invitation.pk})

    assert TournamentRole.objects.filter(tournament=club, user=ann, role=Role.REFEREE).exists()
    role = TournamentRole.objects.get(tournament=club, user=ann, role=Role.REFEREE)
    assert role.history.get().history_user == ann
    log = RoleChange.objects.filter(tournament=club).order_by("id")
    assert [(c.actor_username, c.action, c.username) for c in log] == [
        ("olga", "invited", "ANN"),
        ("ann", "accepted", "ann"),
    ]
    assert reverse("invitations") not in client.get(reverse("home")).content.decode()


def test_a_player_invitation_links_the_account_only_when_accepted(club, client):
    ann = User.objects.get(username="ann")
    player = PlayerFactory(tournament=club, number=7)
    api("olga").patch(f"/api/players/{player.pk}/", {"username": "ann"}, format="json")
    player.refresh_from_db()
    assert player.user is None
    client.force_login(ann)
    invitation = Invitation.objects.get(player=player)
    client.post(reverse("invitations"), {"action": "accept", "invitation": invitation.pk})
    player.refresh_from_db()
    assert player.user == ann
    assert player.history.first().history_user == ann


def test_declined_and_withdrawn_invitations_grant_nothing(club, client):
    ann = User.objects.get(username="ann")
    olga = api("olga")
    for role in ("referee", "scoring-table"):
        olga.post(
            "/api/roles/",
            {"tournament": "club-open", "username": "ann", "role": role},
            format="json",
        )
    referee, table = Invitation.objects.order_by("id")
    pending = olga.get("/api/roles/invitations/", {"tournament": "club-open"}).json()["results"]
    assert {(i["username"], i["role"]) for i in pending} == {
        ("ann", "referee"),
        ("ann", "scoring-table"),
    }
    withdrawn = olga.post(f"/api/roles/invitations/{table.pk}/withdraw/")
    assert withdrawn.status_code == 200 and withdrawn.json()["status"] == "withdrawn"
    client.force_login(ann)
    client.post(
        reverse("invitations"), {"action": "decline", "invitation": referee.pk}, follow=True
    )
    late = client.post(
        reverse("invitations"), {"action": "accept", "invitation": table.pk}, follow=True
    )
    assert [str(m) for m in late.context["messages"]] == [
        "This invitation was withdrawn already; nothing was done."
    ]
    assert not TournamentRole.objects.filter(user=ann).exists()


@pytest.mark.parametrize("action", ["revoke", "link", "may-not-create"])
def test_the_staff_page_refuses_a_user_id_that_is_not_its_staff(club, client, action):
    """The row buttons posted with another tournament's staff member's id, or any account's:
    refused in words, nothing done, the account's name not shown."""
    boris = User.objects.create_user("boris")
    allow_creating_tournaments(boris)
    elsewhere = create_tournament(name="Elsewhere", slug="elsewhere", user=boris)
    TournamentRole.objects.create(tournament=elsewhere, user=boris, role=Role.CO_ORGANIZER)
    client.force_login(User.objects.get(username="olga"))
    for someone in (boris, User.objects.get(username="ann")):
        page = client.post(
            reverse("tournaments:manage-staff", args=["club-open"]),
            {"action": action, "user": someone.pk, "role": "co-organizer"},
            follow=True,
        )
        assert page.status_code == 200
        assert [str(m) for m in page.context["messages"]] == [
            "That account holds no role at Club Open; nothing was done."
        ]
    assert TournamentRole.objects.filter(user=boris).count() == 2
    assert User.objects.get(username="boris").has_perm("tournaments.add_tournament")
    assert not RoleChange.objects.filter(tournament=club).exclude(action="granted").exists()
