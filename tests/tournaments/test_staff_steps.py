"""The organizer's steps that used to need /admin/ or the shell (``tournaments.staff_actions``):
a new set-password link for a staff account at any time, unlocking a staff login locked out
after failed sign-ins, and deleting a tournament. Each by its page (and the API where there is
one), each refusal in words, and the attacks: another tournament's organizer, a co-organizer or a
referee, and an account that this staff page did not create or that is used elsewhere."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from scoring.models import CardRow, ScoreCard, ShootOut, ShootOutScore
from tests.events import SmallEvent
from tests.factories import (
    DryRunFactory,
    PlayerFactory,
    TeamFactory,
    TournamentFactory,
    TournamentRoleFactory,
)
from tournaments.actions import Forbidden, Refused
from tournaments.models import Match, Player, RoleChange, Team, Tournament, TournamentRole
from tournaments.services import invitations, staff
from tournaments.staff_actions import delete_tournament, reissue_password_link, unlock_login
from tournaments.views.organizer.staff import LINK_KEY

pytestmark = pytest.mark.django_db
Role = TournamentRole.Role
Action = RoleChange.Action
ADDRESS = "198.51.100.77"
NOT_MADE_HERE = "was not created on this staff page"
USED_ELSEWHERE = "is also used outside this tournament"


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def event(small_event: SmallEvent) -> SmallEvent:
    return small_event


@pytest.fixture
def organizer(event) -> User:
    return event.users["organizer"]


@pytest.fixture
def org(client, organizer) -> Client:
    client.force_login(organizer)
    return client


@pytest.fixture
def other_organizer() -> User:
    """The organizer of another event on the same site."""
    other = TournamentFactory(name="Other Open", slug="other-open")
    return TournamentRoleFactory(tournament=other, role=Role.ORGANIZER, user__username="oscar").user


@pytest.fixture
def co_organizer(event) -> User:
    return TournamentRoleFactory(
        tournament=event.tournament, role=Role.CO_ORGANIZER, user__username="cora"
    ).user


def staff_url(tournament: Tournament) -> str:
    return reverse("tournaments:manage-staff", args=[tournament.slug])


def made_here(event: SmallEvent, username: str = "vol2", *, password: str = "") -> User:
    """A referee's account created on the event's staff page; with ``password``, one its owner
    has used (password chosen, signed in once)."""
    user, _path = staff.create_account(
        tournament=event.tournament,
        username=username,
        first_name="Val",
        last_name="Volunteer",
        role=Role.REFEREE,
        actor=event.users["organizer"],
    )
    if password:
        user.set_password(password)
        user.save()
        assert signs_in(username, password)  # sets last_login
        user.refresh_from_db()
        assert user.last_login is not None
    return user


def signs_in(username: str, password: str) -> bool:
    """Signing in on the login page (django-axes counts it there, with the request)."""
    answer = Client().post(reverse("login"), {"username": username, "password": password})
    return answer.status_code == 302


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def lock_out(username: str, address: str = ADDRESS) -> Client:
    """Ten wrong passwords from one address (``LOGIN_FAILURE_LIMIT``): that pair is locked out."""
    client = Client(REMOTE_ADDR=address)
    for n in range(10):
        client.post(reverse("login"), {"username": username, "password": f"wrong-{n}"})
    return client


# A new set-password link at any time --------------------------------------------------------


def test_a_used_account_made_here_gets_a_new_link_shown_once_with_a_copy_button_and_a_qr(
    event, org
):
    """Rule: the staff page makes a new link for an account it created, also once its owner has
    chosen a password (a password forgotten); the link is shown once, with a copy button (a
    script file: no inline script) and its QR code."""
    vol = made_here(event, password="first-choice-20s")
    page = org.get(staff_url(event.tournament)).content.decode()
    assert f'aria-label="New set-password link for {vol.username}"' in page
    assert "No password yet" not in page.split(vol.username, 1)[1].split("</td>", 1)[0]

    response = org.post(staff_url(event.tournament), {"action": "link", "user": vol.pk})

    assert response.status_code == 302
    shown = org.get(staff_url(event.tournament)).content.decode()
    url = re.search(r'value="(http://testserver/accounts/reset/[^"]+)"', shown).group(1)
    assert 'data-copy-target="set-password-link"' in shown and "js/copy-link.js" in shown
    assert "<svg" in shown and "<script>" not in shown
    assert "keeps working until the link is used" in shown
    assert "/accounts/reset/" not in org.get(staff_url(event.tournament)).content.decode()
    log = RoleChange.objects.filter(user=vol, action=Action.LINK_ISSUED)
    assert log.count() == 2 and log.first().actor == event.users["organizer"]

    # The link replaces the password, once.
    owner = Client()
    form = owner.get(url, follow=True)
    assert "Choose your password" in form.content.decode()
    owner.post(
        form.redirect_chain[-1][0],
        {"new_password1": "second-choice-20s", "new_password2": "second-choice-20s"},
    )
    vol.refresh_from_db()
    assert vol.check_password("second-choice-20s") and not vol.check_password("first-choice-20s")
    assert "This link no longer works" in Client().get(url, follow=True).content.decode()
    assert signs_in("vol2", "second-choice-20s") and not signs_in("vol2", "first-choice-20s")


def _fresh_link(event: SmallEvent, user: User) -> str:
    path = reissue_password_link(
        event.users["organizer"], staff.StaffAccount(event.tournament, user)
    )
    return f"http://testserver{path}"


def test_signing_in_with_the_old_password_voids_a_link_the_owner_did_not_ask_for(event):
    """Rule: issuing a link changes nothing until it is used (the old password still signs
    in); the owner's next sign-in voids it (Django's reset token holds the last login), so
    nobody else can use it later."""
    vol = made_here(event, password="first-choice-20s")
    # Last signed in an hour ago (the token holds the last login to the second).
    User.objects.filter(pk=vol.pk).update(last_login=timezone.now() - timedelta(hours=1))
    vol.refresh_from_db()
    url = _fresh_link(event, vol)
    assert signs_in("vol2", "first-choice-20s")
    assert "This link no longer works" in Client().get(url, follow=True).content.decode()
    vol.refresh_from_db()
    assert vol.check_password("first-choice-20s")


def test_an_account_not_made_on_this_staff_page_gets_no_link(event, org, organizer):
    """Attack: an account invited to a role (a person who signs in with their own password) is
    theirs: no button, the reason in words, and a forged post is refused with the same words."""
    rita = User.objects.create_user("rita", password="her-own")
    invitation = invitations.invite_to_role(
        tournament=event.tournament, username="rita", role=Role.REFEREE, actor=organizer
    )
    invitations.accept(invitation_id=invitation.pk, user=rita)
    page = org.get(staff_url(event.tournament)).content.decode()
    line = page.split("<strong>rita</strong>", 1)[1].split("</td>", 1)[0]
    assert "New set-password link" not in line and NOT_MADE_HERE in line

    response = org.post(
        staff_url(event.tournament), {"action": "link", "user": rita.pk}, follow=True
    )

    assert messages_of(response) == [
        f"rita {NOT_MADE_HERE}; only its owner (or a superuser) can change its password."
    ]
    assert LINK_KEY not in org.session
    assert not RoleChange.objects.filter(user=rita, action=Action.LINK_ISSUED).exists()
    rita.refresh_from_db()
    assert rita.check_password("her-own")


@pytest.mark.parametrize("where", ["role", "player", "invitation", "superuser"])
def test_an_account_made_here_but_used_elsewhere_gets_no_link(event, org, other_organizer, where):
    """Attack: an account this page created that its owner now also uses at another event (a
    role or a player there, an invitation waiting there) or that became a site administrator's
    would hand that to whoever holds the link: refused, in words that do not say which."""
    vol = made_here(event, password="first-choice-20s")
    other = Tournament.objects.get(slug="other-open")
    if where == "role":
        TournamentRole.objects.create(tournament=other, user=vol, role=Role.CO_ORGANIZER)
    elif where == "player":
        PlayerFactory(tournament=other, user=vol)
    elif where == "invitation":
        invitations.invite_to_role(
            tournament=other, username="vol2", role=Role.HEAD_REFEREE, actor=other_organizer
        )
    else:
        vol.is_superuser = True
        vol.save()
    account = staff.StaffAccount(event.tournament, vol)
    refused = reissue_password_link.refusal(event.users["organizer"], account)
    assert refused is not None and USED_ELSEWHERE in refused.text

    response = org.post(
        staff_url(event.tournament), {"action": "link", "user": vol.pk}, follow=True
    )

    assert messages_of(response) == [
        f"vol2 {USED_ELSEWHERE}, so only its owner (or a superuser) can change its password."
    ]
    assert LINK_KEY not in org.session
    assert RoleChange.objects.filter(user=vol, action=Action.LINK_ISSUED).count() == 1


def test_a_dry_runs_copy_is_not_elsewhere(event):
    """The organizer role of a dry run's copy (whoever started the run) is no other event."""
    vol = made_here(event, password="first-choice-20s")
    copy = TournamentFactory(name="Dry run copy")
    DryRunFactory(copy=copy)
    TournamentRole.objects.create(tournament=copy, user=vol, role=Role.ORGANIZER)
    assert _fresh_link(event, vol).startswith("http://testserver/accounts/reset/")


def test_another_tournaments_organizer_makes_no_link_for_this_staff(event, client, other_organizer):
    """Attack: the organizer of another event posts this event's staff account to their own
    staff page, to this one, and calls the step: refused each time, no link."""
    vol = made_here(event)
    client.force_login(other_organizer)
    other = Tournament.objects.get(slug="other-open")

    theirs = client.post(staff_url(other), {"action": "link", "user": vol.pk}, follow=True)
    ours = client.post(staff_url(event.tournament), {"action": "link", "user": vol.pk})

    assert messages_of(theirs) == ["That account holds no role at Other Open; nothing was done."]
    assert ours.status_code == 403 and b"Not allowed" in ours.content
    with pytest.raises(Forbidden, match="organizers and co-organizers make set-password links"):
        reissue_password_link(other_organizer, staff.StaffAccount(event.tournament, vol))
    assert LINK_KEY not in client.session
    assert RoleChange.objects.filter(user=vol, action=Action.LINK_ISSUED).count() == 1


# Unlocking a login locked out after failed sign-ins -----------------------------------------


def test_the_lockout_says_who_can_unlock_and_the_organizer_unlocks_it(event, org):
    """Rule: ten wrong passwords lock the login out, and the message says an organizer unlocks
    it from the staff page; the staff page shows the lockout, unlocks it, and logs it; the
    owner then signs in from the same address at once."""
    vol = made_here(event, password="right-one-20s")
    hall = lock_out("vol2")
    refused = hall.post(reverse("login"), {"username": "vol2", "password": "right-one-20s"})
    assert refused.status_code == 429
    assert (
        "ask an organizer of your tournament to unlock it from the staff page, or wait 15 "
        "minutes" in refused.content.decode()
    )
    assert staff.locked_out(vol)
    page = org.get(staff_url(event.tournament)).content.decode()
    assert "Locked out after too many failed sign-ins" in page
    assert f'aria-label="Unlock the login of {vol.username}"' in page

    response = org.post(staff_url(event.tournament), {"action": "unlock", "user": vol.pk})

    assert response.status_code == 302
    after = org.get(staff_url(event.tournament)).content.decode()
    assert "vol2 is unlocked: they can sign in again now." in after
    assert "unlocked the login: <strong>vol2</strong>" in after
    assert "Locked out after too many failed sign-ins" not in after
    assert not staff.locked_out(vol)
    signed_in = hall.post(reverse("login"), {"username": "vol2", "password": "right-one-20s"})
    assert signed_in.status_code == 302
    unlocked = RoleChange.objects.get(user=vol, action=Action.LOGIN_UNLOCKED)
    assert unlocked.actor == event.users["organizer"] and unlocked.username == "vol2"


def test_every_spelling_and_address_of_the_username_is_unlocked(event):
    """axes counts the username as typed: a lockout of "VOL2" from a second address is the same
    login's, and unlocking lifts both."""
    vol = made_here(event, password="right-one-20s")
    lock_out("vol2")
    lock_out("VOL2", "198.51.100.78")
    removed = unlock_login(event.users["organizer"], staff.StaffAccount(event.tournament, vol))
    assert removed == 2 and not staff.locked_out(vol)


def test_a_login_that_is_not_locked_out_has_nothing_to_unlock(event, org):
    """Rule: no button for a login that is not locked out; a forged post says so and logs
    nothing. Nine wrong passwords are not a lockout."""
    vol = made_here(event, password="right-one-20s")
    lock_out("other-name")
    client = Client(REMOTE_ADDR=ADDRESS)
    for n in range(9):
        client.post(reverse("login"), {"username": "vol2", "password": f"wrong-{n}"})
    assert not staff.locked_out(vol)
    assert "Unlock the login of vol2" not in org.get(staff_url(event.tournament)).content.decode()

    response = org.post(
        staff_url(event.tournament), {"action": "unlock", "user": vol.pk}, follow=True
    )

    assert messages_of(response) == ["vol2 is not locked out: nothing to unlock."]
    assert not RoleChange.objects.filter(action=Action.LOGIN_UNLOCKED).exists()


@pytest.mark.parametrize("who", ["other-organizer", "referee", "head-referee"])
def test_only_this_tournaments_organizers_unlock_its_staff(event, client, other_organizer, who):
    """Attack: the organizer of another event (through their own staff page, this one, or the
    step) and this event's referees cannot unlock a login of this event's staff."""
    vol = made_here(event, password="right-one-20s")
    lock_out("vol2")
    user = other_organizer if who == "other-organizer" else event.users[who]
    client.force_login(user)
    if who == "other-organizer":
        other = Tournament.objects.get(slug="other-open")
        theirs = client.post(staff_url(other), {"action": "unlock", "user": vol.pk}, follow=True)
        assert messages_of(theirs) == [
            "That account holds no role at Other Open; nothing was done."
        ]

    ours = client.post(staff_url(event.tournament), {"action": "unlock", "user": vol.pk})

    assert ours.status_code == 403 and b"Not allowed" in ours.content
    with pytest.raises(Forbidden, match="organizers and co-organizers unlock its staff"):
        unlock_login(user, staff.StaffAccount(event.tournament, vol))
    assert staff.locked_out(vol)
    assert not RoleChange.objects.filter(action=Action.LOGIN_UNLOCKED).exists()


# Deleting a tournament ----------------------------------------------------------------------


def delete_url(tournament: Tournament) -> str:
    return reverse("tournaments:manage-delete", args=[tournament.slug])


@pytest.fixture
def played(event) -> SmallEvent:
    """The small event with a game played and verified, a shoot-out recorded and a team: what a
    deletion must take with it although matches, teams and shoot-out scores protect their
    entries and players."""
    event.play_and_verify()
    shootout = ShootOut.objects.create(stage=event.stage)
    ShootOutScore.objects.create(shootout=shootout, entry=event.player, twenties=5)
    TeamFactory(tournament=event.tournament, player_one__number=901, player_two__number=902)
    return event


def test_the_delete_page_names_what_goes_and_offers_the_export_first(played, org):
    """Rule: the confirmation page counts the players, matches and scorecards, leads to the
    export file, and asks for the web address or the name typed again."""
    tournament = played.tournament
    edit = org.get(reverse("tournaments:manage-edit", args=[tournament.slug])).content.decode()
    assert f'href="{delete_url(tournament)}"' in edit
    page = org.get(delete_url(tournament))
    body = page.content.decode()
    assert page.status_code == 200
    players = Player.objects.filter(tournament=tournament).count()
    matches = Match.objects.filter(stage__category__tournament=tournament).count()
    cards = ScoreCard.objects.filter(stage__category__tournament=tournament).count()
    assert cards > 0
    for line in (f"{players} players", f"{matches} matches", f"{cards} scorecard", "1 team"):
        assert line in body, line
    export = reverse("scoring:export", args=[tournament.slug])
    assert f'href="{export}"' in body
    assert org.get(export).status_code == 200
    assert 'name="confirm"' in body and tournament.slug in body


@pytest.mark.parametrize("typed", ["", "Small", "another-open"])
def test_a_wrong_confirmation_deletes_nothing_and_says_why_by_the_box(played, org, typed):
    response = org.post(delete_url(played.tournament), {"confirm": typed})
    assert response.status_code == 400
    words = response.context["form"].errors["confirm"][0]
    slug = played.tournament.slug
    if typed:
        expected = f"“{typed}” is neither the web address ({slug}) nor the name of this tournament"
    else:
        expected = f"Type the tournament's web address ({slug}) or its name to confirm"
    assert words.startswith(expected) and words.endswith("nothing was deleted.")
    assert Tournament.objects.filter(pk=played.tournament.pk).exists()


def test_the_organizer_deletes_it_all_in_one_go_with_a_line_in_its_history(played, org):
    """Rule: typing the name (in any case) deletes the tournament and everything in it; its
    history keeps who deleted it and what went with it; another tournament stays."""
    tournament = played.tournament
    pk, slug = tournament.pk, tournament.slug
    other = TournamentFactory(name="Other Open", slug="other-open")
    PlayerFactory(tournament=other)
    players = Player.objects.filter(tournament=tournament).count()
    matches = Match.objects.filter(stage__category__tournament=tournament).count()
    cards = ScoreCard.objects.filter(stage__category__tournament=tournament).count()

    response = org.post(delete_url(tournament), {"confirm": "  small OPEN "})

    assert response.status_code == 302 and response["Location"] == reverse("home")
    assert "Small Open is deleted, with everything in it." in org.get("/").content.decode()
    assert not Tournament.objects.filter(pk=pk).exists()
    assert not Player.objects.filter(tournament_id=pk).exists()
    assert not Team.objects.filter(tournament_id=pk).exists()
    assert not Match.objects.filter(stage__category__tournament_id=pk).exists()
    assert not CardRow.objects.exists() and not ShootOutScore.objects.exists()
    assert not TournamentRole.objects.filter(tournament_id=pk).exists()
    assert Player.objects.filter(tournament=other).count() == 1
    line = Tournament.history.get(id=pk, history_type="-")
    assert line.history_user == played.users["organizer"] and line.slug == slug
    assert line.history_change_reason == (
        f"Deleted with its players ({players}), matches ({matches}) and cards ({cards})"
    )
    assert User.objects.filter(pk=played.users["referee"].pk).exists()  # accounts stay


@pytest.mark.parametrize("who", ["co-organizer", "head-referee", "referee", "other-organizer"])
def test_only_its_organizer_deletes_the_tournament(
    played, client, co_organizer, other_organizer, who
):
    """Attack: a co-organizer (who may edit it), its referees and another event's organizer
    get the step's refusal, on the page and its post, and nothing is deleted; the edit page
    tells a co-organizer why it offers no delete."""
    tournament = played.tournament
    user = {"co-organizer": co_organizer, "other-organizer": other_organizer}.get(who)
    client.force_login(user or played.users[who])
    words = "Only the tournament's organizer, who created it, deletes it; a co-organizer cannot."
    for response in (
        client.get(delete_url(tournament)),
        client.post(delete_url(tournament), {"confirm": tournament.slug}),
    ):
        assert response.status_code == 403
        assert words.replace("'", "&#x27;") in response.content.decode()
    with pytest.raises(Forbidden, match="a co-organizer cannot"):
        delete_tournament(user or played.users[who], tournament, confirm=tournament.slug)
    assert Tournament.objects.filter(pk=tournament.pk).exists()
    if who == "co-organizer":
        edit = client.get(reverse("tournaments:manage-edit", args=[tournament.slug]))
        assert edit.status_code == 200
        assert delete_url(tournament) not in edit.content.decode()
        assert words.replace("'", "&#x27;") in edit.content.decode()


def test_an_anonymous_visitor_is_sent_to_sign_in(played):
    response = Client().post(delete_url(played.tournament), {"confirm": played.tournament.slug})
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert Tournament.objects.filter(pk=played.tournament.pk).exists()


# Deleting through the API: the same step, the same words ------------------------------------


def api_for(user: User | None) -> APIClient:
    api = APIClient()
    if user is not None:
        api.force_authenticate(user)
    return api


def test_the_api_deletes_with_the_same_step(played):
    tournament = played.tournament
    url = f"/api/tournaments/{tournament.slug}/"
    api = api_for(played.users["organizer"])
    wrong = api.delete(f"{url}?confirm=nope")
    assert wrong.status_code == 400
    assert wrong.json()["confirm"][0].startswith("“nope” is neither the web address")
    assert Tournament.objects.filter(pk=tournament.pk).exists()

    done = api.delete(f"{url}?confirm={tournament.slug}")

    assert done.status_code == 204
    assert not Tournament.objects.filter(pk=tournament.pk).exists()
    assert Tournament.history.filter(id=tournament.pk, history_type="-").exists()
    assert api.delete(f"{url}?confirm={tournament.slug}").status_code == 404


@pytest.mark.parametrize("who", ["co-organizer", "referee", "other-organizer", "anonymous"])
def test_the_api_refuses_in_the_pages_words(played, co_organizer, other_organizer, who):
    tournament = played.tournament
    user = {"co-organizer": co_organizer, "other-organizer": other_organizer}.get(who)
    user = None if who == "anonymous" else user or played.users[who]
    response = api_for(user).delete(
        f"/api/tournaments/{tournament.slug}/?confirm={tournament.slug}"
    )
    if user is None:
        assert response.status_code in (401, 403)
    else:
        assert response.status_code == 403
        assert response.json() == {"detail": str(delete_tournament.who)}
    assert Tournament.objects.filter(pk=tournament.pk).exists()


def test_a_refusal_is_a_refused_with_the_box_at_fault(played):
    """The service refuses an unconfirmed deletion with the field it is about, for the page's
    box and the API's ``confirm``."""
    with pytest.raises(Refused) as refused:
        delete_tournament(played.users["organizer"], played.tournament, confirm="")
    assert refused.value.field == "confirm"


def test_a_tournament_is_not_deleted_while_simulation_work_runs_on_it(played, org):
    """The simulation's workers would find their rows gone: the step says so on the page
    before anything is typed, refuses the post and the API (409), and deletes once the work
    has ended."""
    from simulation.models import AutoPlay, Status

    tournament = played.tournament
    run = AutoPlay.objects.create(
        tournament=tournament,
        category=played.category,
        scope=AutoPlay.Scope.STAGE,
        stage=played.stage,
        status=Status.RUNNING,
    )
    page = org.get(delete_url(tournament)).content.decode()
    assert "Simulation work (an auto-play, a dry run or a preview) is under way" in page
    posted = org.post(delete_url(tournament), {"confirm": tournament.slug})
    assert (
        posted.status_code == 400 and "is under way on this tournament" in posted.content.decode()
    )
    api = api_for(played.users["organizer"])
    refused = api.delete(f"/api/tournaments/{tournament.slug}/?confirm={tournament.slug}")
    assert refused.status_code == 409 and "under way" in refused.json()["detail"]
    assert Tournament.objects.filter(pk=tournament.pk).exists()

    AutoPlay.objects.filter(pk=run.pk).update(status=Status.DONE)
    done = api.delete(f"/api/tournaments/{tournament.slug}/?confirm={tournament.slug}")
    assert done.status_code == 204
    assert not Tournament.objects.filter(pk=tournament.pk).exists()
