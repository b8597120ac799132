"""The registry's pages: the public search, registering a player who may already be in the
registry (the page asks before making anyone new), claiming one's own person by login or by
private link, who may change a person, merging two people and the CSV import's links."""

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.factories import EntryFactory, PlayerFactory, TournamentFactory
from tournaments.models import Player, TournamentRole
from tournaments.models.registry import Person
from tournaments.services import registry
from tournaments.services.links import link_of

pytestmark = pytest.mark.django_db


def organizer_of(tournament, username: str = "olga") -> User:
    user = User.objects.create_user(username)
    TournamentRole.objects.create(
        tournament=tournament, user=user, role=TournamentRole.Role.ORGANIZER
    )
    return user


def anna(**fields) -> Person:
    fields = {"first_name": "Anna", "last_name": "Müller", "club": "Club X", **fields}
    return registry.create_person(**fields)


# The public list ------------------------------------------------------------------------------


def test_search_ignores_accents_and_hides_name_only_details(client):
    emile = registry.create_person(
        first_name="Émile", last_name="O'Brien", club="Tavistock", id_number="77"
    )
    hidden = anna(country="Germany")
    registry.set_visibility(person=hidden, visibility=Person.Visibility.NAME_ONLY)
    page = client.get(reverse("registry"), {"q": "emile obrien"}).content.decode()
    assert "Émile O&#x27;Brien" in page and "Tavistock" in page and "77" in page
    assert "Anna" not in page
    page = client.get(reverse("registry"), {"q": "MULLER"}).content.decode()
    assert "Anna Müller" in page
    assert "Club X" not in page and "Germany" not in page
    assert client.get(reverse("registry-person", args=[emile.pk])).status_code == 200


# Registering a player asks before making a new person -----------------------------------------


def test_registering_a_known_name_asks_then_links_the_chosen_person(client):
    known = anna(id_number="123")
    tournament = TournamentFactory()
    client.force_login(organizer_of(tournament))
    url = reverse("tournaments:manage-players", args=[tournament.slug])
    form = {"first_name": "anna", "last_name": "MULLER", "club": "Club X"}
    asked = client.post(url, form)
    assert asked.status_code == 400
    text = asked.content.decode()
    assert "Is this Anna Müller of Club X (ID 123)?" in text
    assert "A new person: none of these" in text
    assert not Player.objects.filter(tournament=tournament).exists()

    assert client.post(url, {**form, "person": str(known.pk)}).status_code == 302
    player = Player.objects.get(tournament=tournament)
    assert player.person == known


def test_choosing_a_new_person_makes_one(client):
    known = anna()
    tournament = TournamentFactory()
    client.force_login(organizer_of(tournament))
    url = reverse("tournaments:manage-players", args=[tournament.slug])
    response = client.post(
        url, {"first_name": "Anna", "last_name": "Müller", "person": "new", "federation_id": "9"}
    )
    assert response.status_code == 302
    player = Player.objects.get(tournament=tournament)
    assert player.person != known and player.person.id_number == "9"


def test_a_name_the_registry_does_not_know_makes_a_person_without_asking(client):
    tournament = TournamentFactory()
    client.force_login(organizer_of(tournament))
    url = reverse("tournaments:manage-players", args=[tournament.slug])
    assert client.post(url, {"first_name": "Zoë", "last_name": "Nguyen"}).status_code == 302
    person = Player.objects.get(tournament=tournament).person
    assert (person.first_name, person.last_name) == ("Zoë", "Nguyen")


def test_the_organizer_links_an_unlinked_player_from_the_registry_page(client):
    known = anna()
    player = PlayerFactory(first_name="Anna", last_name="Muller", club="Club X")
    client.force_login(organizer_of(player.tournament))
    url = reverse("registry-link-player", args=[player.pk])
    assert "Anna Müller of Club X" in client.get(url).content.decode()
    assert client.post(url, {"person": str(known.pk)}).status_code == 302
    player.refresh_from_db()
    assert player.person == known


# Claiming ----------------------------------------------------------------------------------------


def test_claim_by_login_then_choose_name_only(client):
    user = User.objects.create_user("ann")
    person = anna()
    PlayerFactory(user=user, person=person)
    client.force_login(user)
    claim = reverse("registry-claim", args=[person.pk])
    assert "This is me" in client.get(claim).content.decode()
    assert client.post(claim).status_code == 302
    person.refresh_from_db()
    assert person.user == user
    page = reverse("registry-person", args=[person.pk])
    response = client.post(page, {"what": "visibility", "visibility": "name-only"})
    assert response.status_code == 302
    person.refresh_from_db()
    assert person.visibility == Person.Visibility.NAME_ONLY


def test_claim_with_the_private_link_while_logged_in(client):
    person = anna()
    entry = EntryFactory(player=PlayerFactory(person=person))
    token = link_of(entry).token
    page = client.get(reverse("scoring:private_link", args=[entry.category.tournament.slug, token]))
    claim = reverse("registry-claim", args=[person.pk])
    # the private-link page leads to the claim
    assert f'href="{claim}"' in page.content.decode()
    # the link alone is no account: the page says to log in first
    assert "Log in (or create an account) first" in client.get(claim).content.decode()
    user = User.objects.create_user("anna-at-home")
    client.force_login(user)
    session = client.session
    session["entry_links"] = [[entry.pk, token]]
    session.save()
    assert client.post(claim).status_code == 302
    person.refresh_from_db()
    assert person.user == user


def test_a_player_cannot_claim_someone_elses_person(client):
    person = anna()
    PlayerFactory(person=person)
    other = User.objects.create_user("ben")
    PlayerFactory(user=other)
    client.force_login(other)
    response = client.post(reverse("registry-claim", args=[person.pk]))
    assert response.status_code == 403
    assert "Only the player themselves claims their person" in response.content.decode()
    person.refresh_from_db()
    assert person.user is None


def test_only_the_claimer_chooses_what_the_public_sees(client):
    person = anna()
    registry.claim_person(person=person, user=User.objects.create_user("ann"))
    client.force_login(User.objects.create_user("nosy"))
    response = client.post(
        reverse("registry-person", args=[person.pk]),
        {"what": "visibility", "visibility": "name-only"},
    )
    assert response.status_code == 403
    person.refresh_from_db()
    assert person.visibility == Person.Visibility.PROFILE


# Who may change a person ------------------------------------------------------------------------


def test_another_tournaments_organizer_cannot_rename_a_person_who_plays_elsewhere(client):
    person = anna()
    home = TournamentFactory(name="Home Open")
    away = TournamentFactory(name="Away Cup")
    PlayerFactory(tournament=home, person=person)
    PlayerFactory(tournament=away, person=person)
    client.force_login(organizer_of(away, "otto"))
    page = reverse("registry-person", args=[person.pk])
    details = {
        "what": "details",
        "first_name": "Annette",
        "last_name": "Müller",
        "club": "Club X",
        "discipline": "fingers",
    }
    response = client.post(page, details)
    assert response.status_code == 400
    assert "also plays at Home Open" in response.content.decode()
    person.refresh_from_db()
    assert person.first_name == "Anna"
    # the club is not who they are: that they may correct
    assert client.post(page, {**details, "first_name": "Anna", "club": "Club Y"}).status_code == 302
    person.refresh_from_db()
    assert person.club == "Club Y"


def test_an_organizer_cannot_change_a_claimed_person(client):
    person = anna()
    tournament = TournamentFactory()
    PlayerFactory(tournament=tournament, person=person)
    registry.claim_person(person=person, user=User.objects.create_user("ann"))
    client.force_login(organizer_of(tournament))
    response = client.post(
        reverse("registry-person", args=[person.pk]),
        {"what": "details", "first_name": "X", "last_name": "Y", "discipline": "fingers"},
    )
    assert response.status_code == 403
    assert "Only the site&#x27;s record keepers" in response.content.decode()


# Merging ------------------------------------------------------------------------------------------


def test_the_record_keeper_merges_two_people_after_seeing_both(client):
    keep = anna()
    duplicate = registry.create_person(first_name="Ana", last_name="Muller", id_number="5")
    player = PlayerFactory(person=duplicate, tournament=TournamentFactory(name="Spring Cup"))
    client.force_login(User.objects.create_user("keeper", is_staff=True))
    url = reverse("registry-merge")
    compare = client.get(url, {"keep": keep.pk, "duplicate": duplicate.pk}).content.decode()
    assert "Spring Cup" in compare and "Merge Ana Muller into Anna Müller" in compare
    response = client.post(url, {"keep": keep.pk, "duplicate": duplicate.pk, "confirm": "1"})
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.person == keep
    # the duplicate's old page leads to the kept person
    old = client.get(reverse("registry-person", args=[duplicate.pk]))
    assert old.status_code == 302 and old["Location"].endswith(f"/people/{keep.pk}/")


def test_an_organizer_may_not_merge(client):
    tournament = TournamentFactory()
    client.force_login(organizer_of(tournament))
    response = client.get(reverse("registry-merge"))
    assert response.status_code == 403
    assert "Only the site&#x27;s record keepers" in response.content.decode()


# The CSV import ---------------------------------------------------------------------------------


def test_csv_import_links_on_the_federation_id_and_says_so(client):
    known = anna(id_number="NCA-42")
    tournament = TournamentFactory()
    client.force_login(organizer_of(tournament))
    data = b"first_name,last_name,club,federation_id\nAnnie,Mueller,,NCA-42\nBen,Bell,,\n"
    upload = SimpleUploadedFile("players.csv", data, content_type="text/csv")
    preview = client.post(
        reverse("tournaments:manage-import", args=[tournament.slug]), {"file": upload}
    )
    text = preview.content.decode()
    assert "Linked to Anna Müller of Club X (ID NCA-42) in the registry (same ID number)." in text
    assert "A new person in the registry." in text
    fingerprint = preview.context["confirm"].initial["fingerprint"]
    encoded = preview.context["confirm"].initial["data"]
    done = client.post(
        reverse("tournaments:manage-import-confirm", args=[tournament.slug]),
        {"data": encoded, "fingerprint": fingerprint},
        follow=True,
    )
    assert "1 linked to a person it knew, 1 new people" in done.content.decode()
    annie = Player.objects.get(tournament=tournament, first_name="Annie")
    assert annie.person == known
    assert Player.objects.get(tournament=tournament, first_name="Ben").person.key == "ben bell"
