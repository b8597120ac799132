"""Staff roles through the API: the same service, the same words and the same permission as the
staff page. Giving a role to an existing account is an invitation its owner accepts."""

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from tournaments.models import Invitation, RoleChange, TournamentRole
from tournaments.services.invitations import accept

pytestmark = pytest.mark.django_db
Role = TournamentRole.Role


def test_the_organizer_lists_gives_and_takes_back_roles(world, client_for):
    """Rule: an organizer lists the roles of their tournament, invites an account to one (given
    when its owner accepts) and takes it back; each change is logged with who made it."""
    api = client_for("olga")
    listed = api.get("/api/roles/", {"tournament": "club-open"})
    assert listed.status_code == 200
    held = {(r["username"], r["role"]) for r in listed.json()["results"]}
    assert ("olga", "organizer") in held and ("ref", "referee") in held
    given = api.post(
        "/api/roles/",
        {"tournament": "club-open", "username": "cid", "role": "co-organizer"},
        format="json",
    )
    assert given.status_code == 201, given.json()
    assert given.json()["username"] == "cid" and given.json()["role"] == "co-organizer"
    assert given.json()["status"] == "pending"
    assert not world.users["cid"].has_perm("tournaments.manage_staff", world.tournament)
    accept(invitation_id=given.json()["id"], user=world.users["cid"])
    cid = User.objects.get(username="cid")  # a fresh permission cache
    assert cid.has_perm("tournaments.manage_staff", world.tournament)
    held = TournamentRole.objects.get(user=world.users["cid"], role=Role.CO_ORGANIZER)
    assert api.delete(f"/api/roles/{held.id}/").status_code == 204
    assert not TournamentRole.objects.filter(user=world.users["cid"]).exists()
    changes = api.get("/api/roles/changes/", {"tournament": "club-open"}).json()["results"]
    assert [(c["actor_username"], c["action"], c["username"]) for c in changes] == [
        ("olga", "revoked", "cid"),
        ("cid", "accepted", "cid"),
        ("olga", "invited", "cid"),
    ]


def test_answers_and_refusals_read_as_on_the_staff_page(world, client_for, client):
    """Rule: the API answers an invitation in the words of the staff page, the same for an
    unknown account as for a known one (201), and refuses a role held already and the
    organizer role in the page's words: a 400 for the role typed, a 409 for the organizer role,
    which the stored roles keep (``role_actions.revoke_role``)."""
    api = client_for("olga")
    client.force_login(world.users["olga"])
    page = client.post(
        reverse("tournaments:manage-staff", args=["club-open"]),
        {"action": "grant", "grant-username": "nobody", "grant-role": "referee"},
        follow=True,
    )
    unknown = api.post(
        "/api/roles/",
        {"tournament": "club-open", "username": "nobody", "role": "scoring-table"},
        format="json",
    )
    assert unknown.status_code == 201
    assert [unknown.json()["detail"]] == [str(m) for m in page.context["messages"]]
    assert Invitation.objects.filter(username="nobody", user=None).count() == 2
    twice = api.post(
        "/api/roles/",
        {"tournament": "club-open", "username": "ref", "role": "referee"},
        format="json",
    )
    assert twice.status_code == 400 and "already Referee" in twice.json()["role"][0]
    organizer_role = TournamentRole.objects.get(user=world.users["olga"], role=Role.ORGANIZER)
    kept = api.delete(f"/api/roles/{organizer_role.id}/")
    assert kept.status_code == 409 and "stays with the tournament's creator" in str(kept.json())
    assert TournamentRole.objects.filter(pk=organizer_role.pk).exists()


@pytest.mark.parametrize("name", ["ann", "ref", "head", "table", "outsider"])
def test_only_organizers_see_or_change_the_staff(world, client_for, name):
    """Rule: roles are listed and changed only by the tournament's organizers and
    co-organizers (``tournaments.manage_staff``), as on the page."""
    api = client_for(name)
    assert api.get("/api/roles/", {"tournament": "club-open"}).json()["results"] == []
    refused = api.post(
        "/api/roles/",
        {"tournament": "club-open", "username": name, "role": "co-organizer"},
        format="json",
    )
    assert refused.status_code == 403
    assert "organizers and co-organizers" in refused.json()["detail"]
    some_role = TournamentRole.objects.filter(tournament=world.tournament).first()
    assert api.delete(f"/api/roles/{some_role.id}/").status_code == 404
    assert not TournamentRole.objects.filter(role=Role.CO_ORGANIZER).exists()
    assert client_for().get("/api/roles/").status_code == 401


def test_a_staff_account_comes_with_its_set_password_link(world, client_for):
    """Rule: creating a staff account through the API answers with the one-time set-password
    link, and the account has no password until its owner sets one."""
    made = client_for("olga").post(
        "/api/roles/accounts/",
        {
            "tournament": "club-open",
            "username": "rita",
            "first_name": "Rita",
            "last_name": "Ref",
            "role": "referee",
        },
        format="json",
    )
    assert made.status_code == 201, made.json()
    assert made.json()["set_password_url"].startswith("http://testserver/accounts/reset/")
    assert made["Cache-Control"] == "no-store"
    rita = User.objects.get(username="rita")
    assert not rita.has_usable_password()
    assert rita.has_perm("scoring.correct_row", world.tournament)
    assert RoleChange.objects.filter(user=rita, action="account-created").exists()
    refused = client_for("ref").post(
        "/api/roles/accounts/",
        {
            "tournament": "club-open",
            "username": "sneaky",
            "first_name": "S",
            "last_name": "S",
            "role": "co-organizer",
        },
        format="json",
    )
    assert refused.status_code == 403 and not User.objects.filter(username="sneaky").exists()


def test_a_player_cannot_create_a_tournament_through_the_api(world, client_for):
    """Rule: creating a tournament needs the site permission, on the API as on the page."""
    refused = client_for("ann").post("/api/tournaments/", {"name": "Ann Cup", "slug": "ann-cup"})
    assert refused.status_code == 403
    assert "ask a superuser" in refused.json()["detail"]
