"""The staff page and its service: roles given and taken back, staff accounts with a one-time
set-password link, the site permission to create tournaments, and the log of every change."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import timezone

from tests.factories import TournamentFactory, allow_creating_tournaments
from tournaments.models import Invitation, RoleChange, Tournament, TournamentRole
from tournaments.services import staff
from tournaments.services.invitations import accept
from tournaments.services.setup import create_tournament

pytestmark = pytest.mark.django_db
Role = TournamentRole.Role
Action = RoleChange.Action


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def tournament() -> Tournament:
    return TournamentFactory(name="Club Open", slug="club-open")


@pytest.fixture
def organizer(tournament) -> User:
    user = User.objects.create_user("olga")
    TournamentRole.objects.create(tournament=tournament, user=user, role=Role.ORGANIZER)
    return user


@pytest.fixture
def org(client, organizer):
    client.force_login(organizer)
    return client


def staff_url(tournament: Tournament) -> str:
    return reverse("tournaments:manage-staff", args=[tournament.slug])


# The service -----------------------------------------------------------------------------------


def test_a_role_given_and_taken_back_is_logged_with_who_and_what(tournament, organizer):
    """Rule: every change of a role is recorded (who, when, what)."""
    rita = User.objects.create_user("rita")
    staff.grant_role(tournament=tournament, user=rita, role=Role.REFEREE, actor=organizer)
    assert rita.has_perm("scoring.correct_row", tournament)
    staff.revoke_role(tournament=tournament, user=rita, role=Role.REFEREE, actor=organizer)
    assert not TournamentRole.objects.filter(user=rita).exists()
    log = list(RoleChange.objects.filter(tournament=tournament).order_by("id"))
    assert [(c.actor_username, c.action, c.role, c.username) for c in log] == [
        ("olga", Action.GRANTED, Role.REFEREE, "rita"),
        ("olga", Action.REVOKED, Role.REFEREE, "rita"),
    ]
    assert all(c.at is not None for c in log)


def test_a_role_held_twice_or_not_held_or_the_organizer_role_is_refused(tournament, organizer):
    """Rule: a role is given once, taken back only if held; the organizer role stays with the
    creator (a co-organizer has the same permissions)."""
    rita = User.objects.create_user("rita")
    staff.grant_role(tournament=tournament, user=rita, role=Role.REFEREE, actor=organizer)
    with pytest.raises(ValidationError, match="already Referee"):
        staff.grant_role(tournament=tournament, user=rita, role=Role.REFEREE, actor=organizer)
    with pytest.raises(ValidationError, match="is not Scoring table"):
        staff.revoke_role(tournament=tournament, user=rita, role=Role.SCORING_TABLE, actor=rita)
    for change in (staff.grant_role, staff.revoke_role):
        with pytest.raises(ValidationError, match="stays with the tournament's creator"):
            change(tournament=tournament, user=organizer, role=Role.ORGANIZER, actor=organizer)
    assert TournamentRole.objects.filter(user=organizer, role=Role.ORGANIZER).exists()
    assert RoleChange.objects.count() == 1


def test_a_co_organizer_has_the_organizers_permissions(tournament, organizer):
    """Rule: a co-organizer has every permission of the organizer, including the staff page."""
    cora = User.objects.create_user("cora")
    staff.grant_role(tournament=tournament, user=cora, role=Role.CO_ORGANIZER, actor=organizer)
    for perm in (
        "tournaments.manage_tournament",
        "tournaments.manage_staff",
        "scoring.view_disputes",
        "scoring.print_cards",
        "tournaments.view_official_pages",
    ):
        assert cora.has_perm(perm, tournament), perm
        assert not cora.has_perm(perm, TournamentFactory()), perm


def test_a_new_account_has_no_password_until_its_owner_sets_one_through_the_link(
    client, tournament, organizer
):
    """Rule: a staff account is created with a set-password link (Django's reset tokens); the
    person chooses their own password, and the link works only once."""
    user, path = staff.create_account(
        tournament=tournament,
        username="hank",
        first_name="Hank",
        last_name="Head",
        role=Role.HEAD_REFEREE,
        actor=organizer,
    )
    assert not user.has_usable_password()
    assert user.get_full_name() == "Hank Head"
    assert user.has_perm("scoring.resolve_dispute", tournament)
    form = client.get(path, follow=True)
    assert "Choose your password" in form.content.decode()
    done = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": "hall-of-20s", "new_password2": "hall-of-20s"},
        follow=True,
    )
    assert "Your password is set" in done.content.decode()
    user.refresh_from_db()
    assert user.check_password("hall-of-20s")
    again = client.get(path, follow=True)
    assert "This link no longer works" in again.content.decode()
    actions = list(RoleChange.objects.order_by("id").values_list("action", flat=True))
    assert actions == [Action.ACCOUNT_CREATED, Action.GRANTED, Action.LINK_ISSUED]


def test_a_taken_username_or_a_bad_one_is_refused_and_nothing_is_created(tournament, organizer):
    """Rule: account creation refuses a taken username (in any case) or an invalid one, saying
    what to do, and writes nothing."""
    User.objects.create_user("Rita")
    with pytest.raises(ValidationError) as taken:
        staff.create_account(
            tournament=tournament,
            username="rita",
            first_name="R",
            last_name="R",
            role=Role.REFEREE,
            actor=organizer,
        )
    assert "cannot be used: choose another" in taken.value.message_dict["username"][0]
    with pytest.raises(ValidationError) as bad:
        staff.create_account(
            tournament=tournament,
            username="no spaces!",
            first_name="R",
            last_name="R",
            role=Role.REFEREE,
            actor=organizer,
        )
    assert "username" in bad.value.message_dict
    assert User.objects.count() == 2 and not RoleChange.objects.exists()


def test_a_new_link_is_made_only_for_an_account_made_here(tournament, organizer):
    """Rule: a new set-password link at any time (lost, run out, or a password forgotten) for
    an account created on this staff page, used or not; nobody else's password can be reset
    from here (the attacks are in tests/tournaments/test_staff_steps.py)."""
    user, _ = staff.create_account(
        tournament=tournament,
        username="tess",
        first_name="Tess",
        last_name="Table",
        role=Role.SCORING_TABLE,
        actor=organizer,
    )
    assert staff.renew_set_password_link(tournament=tournament, user=user, actor=organizer)
    user.set_password("chosen-one")
    user.last_login = timezone.now()
    user.save()
    assert staff.renew_set_password_link(tournament=tournament, user=user, actor=organizer)
    with pytest.raises(ValidationError, match="was not created on this staff page"):
        staff.renew_set_password_link(tournament=tournament, user=organizer, actor=organizer)
    # Made here, but no longer holding a role here: not this page's to reset.
    made, _ = staff.create_account(
        tournament=tournament,
        username="gone",
        first_name="Gone",
        last_name="Ref",
        role=Role.REFEREE,
        actor=organizer,
    )
    staff.revoke_role(tournament=tournament, user=made, role=Role.REFEREE, actor=organizer)
    with pytest.raises(ValidationError, match="was not created on this staff page"):
        staff.renew_set_password_link(tournament=tournament, user=made, actor=organizer)
    issued = RoleChange.objects.filter(user=user, action=Action.LINK_ISSUED).count()
    assert issued == 3  # the first link, and the two made again


def test_may_create_tournaments_is_given_and_taken_back_with_a_log(tournament, organizer):
    """Rule: who may create tournaments is a site permission, given by an organizer of any
    tournament from their staff page to their own staff only, and taken back only from them."""
    pia = User.objects.create_user("pia")
    with pytest.raises(PermissionDenied, match="ask a superuser"):
        create_tournament(name="Pia Cup", slug="pia-cup", user=pia)
    with pytest.raises(ValidationError, match="holds no role at Club Open"):
        staff.set_may_create_tournaments(
            tournament=tournament, user=pia, allowed=True, actor=organizer
        )
    staff.grant_role(tournament=tournament, user=pia, role=Role.REFEREE, actor=organizer)
    staff.set_may_create_tournaments(tournament=tournament, user=pia, allowed=True, actor=organizer)
    pia = User.objects.get(pk=pia.pk)  # a fresh permission cache
    made = create_tournament(name="Pia Cup", slug="pia-cup", user=pia)
    assert pia.has_perm("tournaments.manage_tournament", made)  # the creator is its organizer
    with pytest.raises(ValidationError, match="may already"):
        staff.set_may_create_tournaments(
            tournament=tournament, user=pia, allowed=True, actor=organizer
        )
    staff.set_may_create_tournaments(
        tournament=tournament, user=pia, allowed=False, actor=organizer
    )
    assert not User.objects.get(pk=pia.pk).has_perm("tournaments.add_tournament")
    assert list(
        RoleChange.objects.filter(action__startswith="may").values_list("action", flat=True)
    ) == [Action.MAY_CREATE_REVOKED, Action.MAY_CREATE_GRANTED]


# The pages -------------------------------------------------------------------------------------


def test_the_dashboard_links_to_the_staff_page(org, tournament):
    """Rule: the staff page is reachable from the organizer dashboard."""
    page = org.get(reverse("tournaments:manage", args=[tournament.slug])).content.decode()
    assert f'href="{staff_url(tournament)}"' in page


def test_the_staff_page_gives_and_takes_back_roles_and_shows_the_log(org, tournament, client):
    """Rule: the organizer invites to roles by username (granted when the account's owner
    accepts), takes them back, and sees every change."""
    rita = User.objects.create_user("rita")
    response = org.post(
        staff_url(tournament),
        {"action": "grant", "grant-username": "RITA", "grant-role": "referee"},
    )
    assert response.status_code == 302
    assert not TournamentRole.objects.filter(user=rita).exists()
    page = org.get(staff_url(tournament)).content.decode()
    assert "Invitation sent to “RITA”" in page
    assert re.search(r"olga</td>\s*<td>invited Referee: <strong>RITA</strong>", page)
    accept(invitation_id=Invitation.objects.get().pk, user=rita)
    assert TournamentRole.objects.filter(user=rita, role=Role.REFEREE).exists()
    org.post(staff_url(tournament), {"action": "revoke", "user": rita.pk, "role": "referee"})
    assert not TournamentRole.objects.filter(user=rita).exists()
    page = org.get(staff_url(tournament)).content.decode()
    assert "took back the role Referee: <strong>rita</strong>" in page


def test_bad_input_is_shown_next_to_the_field_with_a_400(org, tournament):
    """Rule: bad input gives a clear error on the page, never a 500, and changes nothing."""
    response = org.post(
        staff_url(tournament),
        {"action": "grant", "grant-username": "  ", "grant-role": "referee"},
    )
    assert response.status_code == 400
    assert not RoleChange.objects.exists()
    response = org.post(
        staff_url(tournament),
        {"action": "may-create", "may-username": "nobody"},
    )
    assert response.status_code == 400
    assert "“nobody” holds no role at Club Open" in response.content.decode()
    junk = org.post(staff_url(tournament), {"action": "revoke", "user": "x", "role": "referee"})
    assert junk.status_code == 302
    assert "holds no role at Club Open" in org.get(staff_url(tournament)).content.decode()
    assert not RoleChange.objects.exists()


def test_the_set_password_link_is_shown_once(org, tournament):
    """Rule: a new account's set-password link is shown once, then never again."""
    response = org.post(
        staff_url(tournament),
        {
            "action": "create",
            "account-username": "tess",
            "account-first_name": "Tess",
            "account-last_name": "Table",
            "account-role": "scoring-table",
        },
    )
    assert response.status_code == 302
    first = org.get(staff_url(tournament))
    assert "no-store" in first["Cache-Control"] or "max-age=0" in first["Cache-Control"]
    link = re.search(r'value="(http://testserver/accounts/reset/[^"]+)"', first.content.decode())
    assert link, "the link is on the page after the account is created"
    assert "/accounts/reset/" not in org.get(staff_url(tournament)).content.decode()
    user = User.objects.get(username="tess")
    assert user.has_perm("scoring.verify_card", tournament)
    # The lost link is renewed from the staff line, and shown once again.
    org.post(staff_url(tournament), {"action": "link", "user": user.pk})
    assert "/accounts/reset/" in org.get(staff_url(tournament)).content.decode()


def test_may_create_tournaments_from_the_staff_page(org, tournament, client):
    """Rule: an organizer gives the permission to create tournaments from the staff page; the
    user can then open /new/."""
    pia = User.objects.create_user("pia")
    TournamentRole.objects.create(tournament=tournament, user=pia, role=Role.REFEREE)
    org.post(staff_url(tournament), {"action": "may-create", "may-username": "pia"})
    assert User.objects.get(pk=pia.pk).has_perm("tournaments.add_tournament")
    client.force_login(pia)
    assert client.get(reverse("tournament-create")).status_code == 200


@pytest.mark.parametrize("role", [Role.HEAD_REFEREE, Role.REFEREE, Role.SCORING_TABLE, None])
def test_only_the_organizers_open_the_staff_page(client, tournament, role):
    """Rule: the staff page is for the organizers and co-organizers; other staff and players
    get the one refusal page and change nothing."""
    user = User.objects.create_user("someone")
    if role:
        TournamentRole.objects.create(tournament=tournament, user=user, role=role)
    client.force_login(user)
    assert client.get(staff_url(tournament)).status_code == 403
    refused = client.post(
        staff_url(tournament),
        {"action": "grant", "grant-username": "someone", "grant-role": "co-organizer"},
    )
    assert refused.status_code == 403 and b"Not allowed" in refused.content
    assert not TournamentRole.objects.filter(role=Role.CO_ORGANIZER).exists()


def test_a_co_organizer_opens_the_staff_page(client, tournament):
    """Rule: a co-organizer has the organizer's permissions, the staff page included."""
    cora = User.objects.create_user("cora")
    TournamentRole.objects.create(tournament=tournament, user=cora, role=Role.CO_ORGANIZER)
    client.force_login(cora)
    assert client.get(staff_url(tournament)).status_code == 200


# Creating tournaments --------------------------------------------------------------------------


def test_a_player_cannot_create_a_tournament_and_is_told_whom_to_ask(client):
    """Rule: who may create tournaments is a site permission; a player gets the one refusal page
    that says whom to ask, on the form and on its POST."""
    pia = User.objects.create_user("pia")
    client.force_login(pia)
    for response in (
        client.get(reverse("tournament-create")),
        client.post(reverse("tournament-create"), {"name": "Pia Cup", "game_minutes": 30}),
    ):
        assert response.status_code == 403
        assert "ask a superuser, or the organizer of any tournament" in response.content.decode()
    assert not Tournament.objects.exists()


def test_a_user_with_the_permission_creates_one_and_becomes_its_organizer(client):
    """Rule: the creator of a tournament becomes its organizer."""
    carl = User.objects.create_user("carl")
    allow_creating_tournaments(carl)
    client.force_login(carl)
    client.post(reverse("tournament-create"), {"name": "Carl Cup", "game_minutes": 30})
    made = Tournament.objects.get(slug="carl-cup")
    assert TournamentRole.objects.filter(tournament=made, user=carl, role=Role.ORGANIZER).exists()


def test_the_demo_organizer_may_create_tournaments():
    """Rule: the demo's organizer holds the site permission, as a real organizer would."""
    from tournaments.demo import load_demo

    load_demo()
    assert User.objects.get(username="organizer").has_perm("tournaments.add_tournament")
    assert not User.objects.get(username="anna").has_perm("tournaments.add_tournament")


@pytest.mark.parametrize("role", [Role.ORGANIZER, Role.CO_ORGANIZER])
def test_the_organizers_open_the_dispute_queue_and_the_scoring_table(client, tournament, role):
    """Rule: the organizer (and a co-organizer) of an event opens every staff page of it: the
    dispute queue and the scoring table's queue, not a 403."""
    user = User.objects.create_user("boss")
    TournamentRole.objects.create(tournament=tournament, user=user, role=role)
    client.force_login(user)
    for name in ("scoring:cards:disputes", "scoring:cards:table"):
        response = client.get(reverse(name, args=[tournament.slug]))
        assert response.status_code == 200, name
