"""The site permission to create tournaments through the API: given and taken back by a
tournament's organizers as on its staff page, with the same words and the same log."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from tests.factories import allow_creating_tournaments
from tournaments.api.staff import REFUSAL
from tournaments.models import RoleChange, Tournament, TournamentRole
from tournaments.services.setup import create_tournament

pytestmark = pytest.mark.django_db
ADD = "tournaments.add_tournament"
URL = "/api/tournament-creators/"


def fresh(user: User) -> User:
    """The user read again (permissions are cached on the object)."""
    return User.objects.get(pk=user.pk)


@pytest.fixture
def page(client, world):
    client.force_login(world.users["olga"])
    return client


def staff_page(world) -> str:
    return reverse("tournaments:manage-staff", args=[world.tournament.slug])


def test_an_organizer_gives_and_takes_back_the_permission(world, client_for):
    """Rule: an organizer lets one of their staff create tournaments, and takes it back; each
    change is logged on the tournament with who made it."""
    olga, ref = client_for("olga"), world.users["ref"]
    given = olga.post(URL, {"tournament": "club-open", "username": "ref"}, format="json")
    assert given.status_code == 201, given.json()
    assert given.json() == {"username": "ref", "may_create_tournaments": True}
    assert fresh(ref).has_perm(ADD)
    listed = {
        c["username"]: c["may_create_tournaments"]
        for c in olga.get(URL, {"tournament": "club-open"}).json()
    }
    assert listed == {"olga": True, "ref": True, "table": False, "head": False}
    # With it, the referee creates a tournament of their own through the API.
    made = client_for("ref").post(
        "/api/tournaments/", {"name": "Ref Cup", "slug": "ref-cup"}, format="json"
    )
    assert made.status_code == 201, made.json()

    taken = olga.delete(f"{URL}ref/?tournament=club-open")
    assert taken.status_code == 204
    assert not fresh(ref).has_perm(ADD)
    log = RoleChange.objects.filter(tournament=world.tournament, user=ref).order_by("id")
    assert [(c.actor_username, c.action) for c in log] == [
        ("olga", RoleChange.Action.MAY_CREATE_GRANTED),
        ("olga", RoleChange.Action.MAY_CREATE_REVOKED),
    ]


def test_refusals_read_as_on_the_staff_page(world, page, client_for):
    olga = client_for("olga")
    # Someone of the staff who may already.
    allow_creating_tournaments(world.users["ref"])
    on_page = page.post(staff_page(world), {"action": "may-create", "may-username": "ref"})
    twice = olga.post(URL, {"tournament": "club-open", "username": "ref"}, format="json")
    assert twice.status_code == 409  # the account's permission as it stands refuses it
    assert [twice.json()["detail"]] == on_page.context["may_create_form"].non_field_errors()
    assert twice.json()["detail"] == "ref may already create tournaments."
    # An unknown account, and an account of the site not on the staff: the same refusal.
    stranger = olga.post(URL, {"tournament": "club-open", "username": "cid"}, format="json")
    on_page = page.post(staff_page(world), {"action": "may-create", "may-username": "nobody"})
    unknown = olga.post(URL, {"tournament": "club-open", "username": "nobody"}, format="json")
    assert unknown.status_code == stranger.status_code == 400
    assert unknown.json()["username"] == on_page.context["may_create_form"].errors["username"]
    assert stranger.json()["username"][0] == unknown.json()["username"][0].replace("nobody", "cid")
    # Taking it back from someone who is not on this tournament's staff.
    on_page = page.post(
        staff_page(world), {"action": "may-not-create", "user": world.users["cid"].pk}, follow=True
    )
    strip = olga.delete(f"{URL}cid/?tournament=club-open")
    assert strip.status_code == 400
    assert "holds no role at Club Open" in strip.json()["username"][0]
    assert "holds no role at Club Open" in str(next(iter(on_page.context["messages"])))
    assert fresh(world.users["cid"]).has_perm(ADD)
    # A superuser's permission is not changed here.
    root = User.objects.create_superuser("root")
    TournamentRole.objects.create(tournament=world.tournament, user=root, role="referee")
    boss = olga.post(URL, {"tournament": "club-open", "username": "root"}, format="json")
    assert boss.status_code == 409 and "is a superuser" in boss.json()["detail"]


def test_the_tournament_must_be_named(world, client_for):
    listed = client_for("olga").get(URL)
    assert listed.status_code == 400 and "tournament" in listed.json()
    assert client_for("olga").get(URL, {"tournament": "nowhere"}).status_code == 404


@pytest.mark.parametrize(
    ("who", "status"),
    [(None, 401), ("ann", 403), ("ref", 403), ("table", 403), ("head", 403), ("cid", 403)],
)
def test_only_the_organizers_give_it(world, client_for, who, status):
    client = client_for(who)
    given = client.post(URL, {"tournament": "club-open", "username": "outsider"}, format="json")
    listed = client.get(URL, {"tournament": "club-open"})
    taken = client.delete(f"{URL}olga/?tournament=club-open")
    for response in (given, listed, taken):
        assert response.status_code == status
        if status == 403:
            assert response.json()["detail"] == REFUSAL
    assert not fresh(world.users["outsider"]).has_perm(ADD)
    assert fresh(world.users["olga"]).has_perm(ADD)


def test_an_organizer_of_another_tournament_has_no_say_here(world, client_for):
    """Cid organizes an event of his own: that gives him no say on Club Open's staff, and Olga
    none on his."""
    create_tournament(name="Cid Cup", slug="cid-cup", user=world.users["cid"])
    cid = client_for("cid")
    here = cid.delete(f"{URL}ref/?tournament=club-open")
    assert here.status_code == 403
    cup = Tournament.objects.get(slug="cid-cup")
    TournamentRole.objects.create(tournament=cup, user=world.users["outsider"], role="referee")
    mine = cid.post(URL, {"tournament": "cid-cup", "username": "outsider"}, format="json")
    assert mine.status_code == 201
    assert fresh(world.users["outsider"]).has_perm(ADD)
    theirs = client_for("olga").delete(f"{URL}outsider/?tournament=cid-cup")
    assert theirs.status_code == 403
