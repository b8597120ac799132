"""The setup, entry and role steps (``tournaments.setup_actions``, ``entry_actions``,
``role_actions``) on every path: the page and the API take the same declaration, refuse in its
words, and the page shows those words where it offers no button."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.urls import reverse
from django.utils.html import escape

from tests.factories import CategoryFactory, allow_creating_tournaments
from tournaments import entry_actions, role_actions, setup_actions
from tournaments.actions import Kind
from tournaments.models import Entry, Invitation, Tournament, TournamentRole
from tournaments.permissions import ADD_TOURNAMENT_REFUSAL
from tournaments.services import invitations, registration
from tournaments.services.setup import TOURNAMENT_FIELDS

pytestmark = pytest.mark.django_db
Role = TournamentRole.Role
NEW = {"name": "Spring Open", "slug": "spring-open"}


def staff_page(world) -> str:
    return reverse("tournaments:manage-staff", args=[world.tournament.slug])


def test_creating_a_tournament_is_refused_in_the_same_words_on_the_page_and_in_the_api(
    world, client, client_for
):
    """Rule: the site permission, not a role, lets an account create a tournament; without it
    the page and the API say whom to ask, and a visitor is told to sign in."""
    words = str(ADD_TOURNAMENT_REFUSAL)
    refused = setup_actions.create_tournament.refusal(world.users["ref"], setup_actions.NOTHING_YET)
    assert refused.kind == Kind.FORBIDDEN and refused.text == words
    client.force_login(world.users["ref"])
    page = client.get(reverse("tournament-create"))
    assert page.status_code == 403 and escape(words) in page.content.decode()
    api = client_for("ref").post("/api/tournaments/", NEW, format="json")
    assert api.status_code == 403 and api.json()["detail"] == words
    visitor = setup_actions.create_tournament.refusal(AnonymousUser(), None)
    assert visitor.text.startswith("Sign in to create a tournament")
    assert not Tournament.objects.filter(slug="spring-open").exists()

    allow_creating_tournaments(world.users["ref"])
    made = client_for("ref").post("/api/tournaments/", NEW, format="json")
    assert made.status_code == 201
    assert list(made.json())[: len(TOURNAMENT_FIELDS)] == list(TOURNAMENT_FIELDS)
    created = Tournament.objects.get(slug="spring-open")
    assert created.roles.get().user == world.users["ref"]


def test_changing_a_tournament_takes_the_step_on_both_paths(world, client, client_for):
    """Rule: the organizers change the details, the web address stays; anyone else is refused
    in the step's words."""
    changed = client_for("olga").patch(
        "/api/tournaments/club-open/", {"venue": "Hall B"}, format="json"
    )
    assert changed.status_code == 200 and changed.json()["venue"] == "Hall B"
    refused = client_for("ref").patch(
        "/api/tournaments/club-open/", {"venue": "Hall C"}, format="json"
    )
    assert refused.status_code == 403
    client.force_login(world.users["olga"])
    edit = reverse("tournaments:manage-edit", args=["club-open"])
    form = client.get(edit).context["form"]
    data = {name: form[name].value() or "" for name in TOURNAMENT_FIELDS} | {"name": "Club Cup"}
    for box in ("count_validated_cards", "paper_rows_need_confirmation", "cards_in_order"):
        if not data[box]:
            data.pop(box)
    assert client.post(edit, data).status_code == 302
    world.tournament.refresh_from_db()
    assert (world.tournament.name, world.tournament.slug) == ("Club Cup", "club-open")


def test_the_teams_page_says_why_it_pairs_no_team_before_a_doubles_category(world, client):
    client.force_login(world.users["olga"])
    teams = reverse("tournaments:manage-teams", args=["club-open"])
    refused = entry_actions.pair_team.refusal(world.users["olga"], world.tournament)
    assert refused.kind == Kind.CONFLICT
    page = client.get(teams).content.decode()
    assert escape(refused.text) in page and "Enter the team" not in page
    CategoryFactory(tournament=world.tournament, name="Doubles", doubles=True)
    assert entry_actions.pair_team.refusal(world.users["olga"], world.tournament) is None
    assert "Enter the team" in client.get(teams).content.decode()


def test_bulk_check_in_is_one_step_for_the_page_and_the_api(world, client, client_for):
    """Rule: the check-in desk's bulk form and the API check in through the same step; a
    withdrawn entry is left out and the row says why it offers no check-in."""
    registration.set_withdrawn(entry=world.c, withdrawn=True)
    category = world.a.category
    done = client_for("olga").post(
        f"/api/categories/{category.pk}/check-in/", {"all": True}, format="json"
    )
    assert done.status_code == 200
    answer = done.json()
    assert {e["id"] for e in answer["checked_in"] + answer["already"]} == {world.a.pk, world.b.pk}
    assert [e["id"] for e in answer["withdrawn"]] == [world.c.pk]
    client.force_login(world.users["olga"])
    page = client.get(reverse("tournaments:manage-checkin", args=["club-open"])).content.decode()
    row = re.search(rf'<tr id="entry-{world.c.pk}".*?</tr>', page, re.S).group(0)
    assert "has withdrawn; reinstate the entry to check it in." in row
    assert not Entry.objects.get(pk=world.c.pk).checked_in


def test_the_staff_lines_offer_only_the_steps_that_apply_and_say_why_not(world, client):
    """Rule: the organizer role is never taken back, a superuser's permission never changed,
    and an account that may create tournaments is not offered "Allow" again: the line shows the
    step's words instead, and a forged post is refused in the same words."""
    client.force_login(world.users["olga"])
    olga_role = TournamentRole.objects.get(user=world.users["olga"], role=Role.ORGANIZER)
    kept = role_actions.revoke_role.refusal(world.users["olga"], olga_role)
    assert kept.kind == Kind.CONFLICT
    root = User.objects.create_superuser("root")
    TournamentRole.objects.create(tournament=world.tournament, user=root, role=Role.REFEREE)
    page = client.get(staff_page(world)).content.decode()
    assert escape(kept.text) in page
    assert "is a superuser and may create tournaments in any case." in page
    forged = client.post(
        staff_page(world),
        {"action": "revoke", "user": world.users["olga"].pk, "role": Role.ORGANIZER},
        follow=True,
    )
    assert [str(m) for m in forged.context["messages"]] == [kept.text]
    assert TournamentRole.objects.filter(pk=olga_role.pk).exists()


def test_an_answered_invitation_is_not_withdrawn_on_either_path(world, client, client_for):
    invitation = invitations.invite_to_role(
        tournament=world.tournament, username="ann", role=Role.REFEREE, actor=world.users["olga"]
    )
    invitations.decline(invitation_id=invitation.pk, user=world.users["ann"])
    invitation.refresh_from_db()
    refused = role_actions.withdraw_invitation.refusal(world.users["olga"], invitation)
    assert refused.kind == Kind.CONFLICT and "declined already" in refused.text
    api = client_for("olga").post(f"/api/roles/invitations/{invitation.pk}/withdraw/")
    assert api.status_code == 409 and api.json()["detail"] == refused.text
    client.force_login(world.users["olga"])
    page = client.post(
        staff_page(world), {"action": "withdraw", "invitation": invitation.pk}, follow=True
    )
    assert [str(m) for m in page.context["messages"]] == [refused.text]
    assert Invitation.objects.get(pk=invitation.pk).status == Invitation.Status.DECLINED
