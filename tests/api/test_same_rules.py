"""One rule, one message, on every path: what the organizer pages refuse, the API refuses too,
with the same words on the same field, because both call the same service."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils.html import escape

from tests.factories import CategoryFactory, PlayerFactory
from tournaments.models import Category, Entry, Player, Stage, Team, Tournament
from tournaments.services import registration

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def page(client, world):
    """A browser session of Olga, the organizer, on the organizer pages."""
    client.force_login(world.users["olga"])
    return client


def manage(name: str, world, *args) -> str:
    return reverse(f"tournaments:{name}", args=[world.tournament.slug, *args])


def test_a_withdrawn_entry_is_not_checked_in_on_either_path(world, page, client_for):
    registration.set_withdrawn(entry=world.c, withdrawn=True)
    words = f"{world.c} has withdrawn; reinstate the entry to check it in."

    on_page = page.post(
        manage("manage-entry-checkin", world, world.c.pk), {"checked_in": "1"}, **HTMX
    )
    assert escape(words) in on_page.content.decode()

    through_api = client_for("olga").patch(
        f"/api/entries/{world.c.id}/", {"checked_in": True}, format="json"
    )
    # the stored state refuses it (the step's precondition): 409, in the page's words
    assert through_api.status_code == 409
    assert through_api.json() == {"detail": words}
    world.c.refresh_from_db()
    assert world.c.withdrawn and not world.c.checked_in

    # Withdrawing and checking in at once is the same refusal, and nothing of it is saved.
    registration.set_withdrawn(entry=world.b, withdrawn=False)
    both = client_for("olga").patch(
        f"/api/entries/{world.b.id}/", {"withdrawn": True, "checked_in": True}, format="json"
    )
    assert both.status_code == 409 and "has withdrawn" in both.json()["detail"]
    world.b.refresh_from_db()
    assert not world.b.withdrawn
    # A new entry is entered and checked in by the same services: refused as a whole.
    dee = PlayerFactory(tournament=world.tournament)
    new = client_for("olga").post(
        "/api/entries/",
        {"category": world.c.category_id, "player": dee.pk, "withdrawn": True, "checked_in": True},
        format="json",
    )
    assert new.status_code == 409 and "has withdrawn" in new.json()["detail"]
    assert not Entry.objects.filter(player=dee).exists()


def test_the_api_checks_in_and_withdraws_through_the_desk_rules(world, client_for):
    olga = client_for("olga")
    checked = olga.patch(f"/api/entries/{world.a.id}/", {"checked_in": True}, format="json")
    assert checked.status_code == 200 and checked.json()["checked_in"] is True
    withdrawn = olga.patch(f"/api/entries/{world.a.id}/", {"withdrawn": True}, format="json")
    # As at the desk: a withdrawal also undoes the check-in.
    assert withdrawn.json()["withdrawn"] is True and withdrawn.json()["checked_in"] is False


def test_a_clash_of_player_numbers_reads_the_same_on_the_page_and_in_the_api(
    world, page, client_for
):
    taken = world.a.player
    on_page = page.post(
        manage("manage-players", world),
        {"first_name": "Twin", "last_name": "Page", "number": taken.number},
    )
    assert on_page.status_code == 400
    page_words = on_page.context["form"].errors["number"]

    through_api = client_for("olga").post(
        "/api/players/",
        {
            "tournament": "club-open",
            "first_name": "Twin",
            "last_name": "Api",
            "number": taken.number,
        },
        format="json",
    )
    assert through_api.status_code == 400
    assert through_api.json()["number"] == page_words
    assert page_words[0].startswith(f"ID {taken.number} is already registered to {taken.full_name}")

    # Changing a player's number to a taken one is the same refusal.
    renumber = client_for("olga").patch(
        f"/api/players/{world.b.player_id}/", {"number": taken.number}, format="json"
    )
    assert renumber.status_code == 400 and renumber.json()["number"] == page_words
    assert not Player.objects.filter(first_name="Twin").exists()


def test_a_player_left_without_a_number_gets_the_next_free_one_on_both_paths(world, client_for):
    made = client_for("olga").post(
        "/api/players/", {"tournament": "club-open", "first_name": "Nu", "last_name": "Mber"}
    )
    assert made.status_code == 201
    assert (
        made.json()["number"]
        == max(Player.objects.exclude(pk=made.json()["id"]).values_list("number", flat=True)) + 1
    )


def test_a_taken_web_address_and_reversed_dates_read_the_same(world, client, client_for):
    client.force_login(world.users["cid"])
    api = client_for("cid")
    for body, field in (
        ({"name": "Again", "slug": "club-open", "game_minutes": 30}, "slug"),
        (
            {
                "name": "Late",
                "slug": "late",
                "starts_on": "2027-05-02",
                "ends_on": "2027-05-01",
                "game_minutes": 30,
            },
            "ends_on",
        ),
    ):
        on_page = client.post(reverse("tournament-create"), body)
        page_words = on_page.context["form"].errors[field]
        through_api = api.post("/api/tournaments/", body, format="json")
        assert through_api.status_code == 400
        assert through_api.json()[field] == page_words, field
    assert not Tournament.objects.filter(slug="late").exists()


def test_category_names_and_settings_read_the_same(world, page, client_for):
    api = client_for("olga")
    for body, field in (
        ({"name": "ADULT singles"}, "name"),
        ({"name": "Big hands", "discs_per_player": 13}, "discs_per_player"),
        ({"name": "Race", "scoring_system": "first-to-N"}, "target_points"),
    ):
        form = {
            "form": "manual",
            "kind": "singles",
            "discipline": "fingers",
            "discs_per_player": 8,
            "rounds_per_game": 4,
            "scoring_system": "nca",
            **body,
        }
        on_page = page.post(manage("manage-category-create", world), form)
        page_words = on_page.context["manual_form"].errors[field]
        through_api = api.post(
            "/api/categories/", {"tournament": "club-open", **form}, format="json"
        )
        assert through_api.status_code == 400
        assert through_api.json()[field] == page_words, field
    assert page_words  # the last one too said something
    assert Category.objects.filter(tournament=world.tournament).count() == 1


def test_team_rules_read_the_same(world, page, client_for):
    doubles = CategoryFactory(tournament=world.tournament, name="Doubles", doubles=True)
    ann, bob, cid = (e.player for e in (world.a, world.b, world.c))
    api = client_for("olga")

    same = {"category": doubles.pk, "player_one": ann.pk, "player_two": ann.pk}
    page_words = page.post(manage("manage-teams", world), same).context["form"].errors["player_two"]
    through_api = api.post(
        "/api/teams/", {"tournament": "club-open", "player_one": ann.pk, "player_two": ann.pk}
    )
    assert through_api.status_code == 400 and through_api.json()["player_two"] == page_words

    # Ann plays in Doubles with Bob; she cannot play there in a second team on either path.
    registration.pair_team(category=doubles, player_one=ann, player_two=bob)
    second = {"category": doubles.pk, "player_one": ann.pk, "player_two": cid.pk}
    page_words = (
        page.post(manage("manage-teams", world), second).context["form"].errors["player_one"]
    )
    team = api.post(
        "/api/teams/", {"tournament": "club-open", "player_one": ann.pk, "player_two": cid.pk}
    )
    assert team.status_code == 201
    entry = api.post("/api/entries/", {"category": doubles.pk, "team": team.json()["id"]})
    assert entry.status_code == 400 and entry.json()["player_one"] == page_words
    assert page_words[0].startswith(f"{ann} already plays in Doubles in the team")
    assert doubles.entries.count() == 1

    # The same two players are one team: pairing them again through the API is refused.
    again = api.post(
        "/api/teams/", {"tournament": "club-open", "player_one": bob.pk, "player_two": ann.pk}
    )
    assert again.status_code == 400 and "already form the team" in again.json()["player_two"][0]
    assert Team.objects.count() == 2


def test_stage_rules_read_the_same(world, page, client_for):
    taken = world.stage.order
    form = {
        "name": "Second",
        "kind": "round-robin",
        "order": taken,
        "best_of": 1,
        "bye_points": 8,
        "seed": 1,
        "tiebreak": "default",
    }
    on_page = page.post(manage("manage-stage-create", world, world.stage.category_id), form)
    page_words = on_page.context["stage_form"].errors["order"]
    through_api = client_for("olga").post(
        "/api/stages/",
        {
            "category": world.stage.category_id,
            "name": "Second",
            "kind": "round-robin",
            "order": taken,
        },
        format="json",
    )
    assert through_api.status_code == 400 and through_api.json()["order"] == page_words
    assert page_words == [f"Adult singles already has a stage number {taken}."]
    assert Stage.objects.count() == 1


def test_entering_a_player_reads_the_same(world, page, client_for):
    doubles = CategoryFactory(tournament=world.tournament, name="Doubles", doubles=True)
    dee = PlayerFactory(tournament=world.tournament)
    through_api = client_for("olga").post(
        "/api/entries/", {"category": doubles.pk, "player": dee.pk}, format="json"
    )
    assert through_api.status_code == 400
    words = (
        "Doubles is a doubles category: players enter it as a team (pair them on the Teams page)."
    )
    assert through_api.json() == {"category": [words]}
    # The page offers no singles form on a doubles category; the service it would call says so.
    with pytest.raises(ValidationError) as refused:
        registration.enter_player(player=dee, category=doubles)
    assert (refused.value.field, refused.value.text) == ("category", words)
    entered = page.post(
        manage("manage-category-enter", world, world.stage.category_id), {"player": dee.pk}
    )
    assert entered.status_code == 302
    assert Entry.objects.filter(player=dee).count() == 1


def test_player_number_zero_is_refused_in_the_same_words_on_both_paths(world, page, client_for):
    words = ["A player ID number must be between 1 and 2147483647."]
    on_page = page.post(
        manage("manage-players", world), {"first_name": "Zed", "last_name": "Zero", "number": 0}
    )
    assert on_page.status_code == 400
    assert on_page.context["form"].errors["number"] == words

    api = client_for("olga")
    body = {"tournament": "club-open", "first_name": "Zed", "last_name": "Zero", "number": 0}
    through_api = api.post("/api/players/", body, format="json")
    assert through_api.status_code == 400 and through_api.json() == {"number": words}
    # Renumbering to 0 is the same refusal.
    renumber = api.patch(f"/api/players/{world.a.player_id}/", {"number": 0}, format="json")
    assert renumber.status_code == 400 and renumber.json() == {"number": words}
    assert not Player.objects.filter(last_name="Zero").exists()


def test_a_category_of_a_thousand_rounds_is_refused_in_the_same_words(world, page, client_for):
    form = {
        "form": "manual",
        "name": "Marathon",
        "kind": "singles",
        "discipline": "fingers",
        "discs_per_player": 8,
        "rounds_per_game": 1000,
        "scoring_system": "nca",
    }
    on_page = page.post(manage("manage-category-create", world), form)
    page_words = on_page.context["manual_form"].errors["rounds_per_game"]
    assert page_words == ["A game has from 1 to 20 rounds."]
    through_api = client_for("olga").post(
        "/api/categories/", {"tournament": "club-open", **form}, format="json"
    )
    assert through_api.status_code == 400
    assert through_api.json() == {"rounds_per_game": page_words}
    assert not Category.objects.filter(name="Marathon").exists()
