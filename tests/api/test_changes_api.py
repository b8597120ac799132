"""Changes and deletions through the API go through the services: what saved matches and results
rest on is refused (400 for a change, 409 for a deletion) in the services' words, and kept."""

import pytest

from tests.factories import CategoryFactory, PlayerFactory
from tournaments.models import Category, Entry, Player, Stage, Team, Tournament
from tournaments.services import registration

pytestmark = pytest.mark.django_db


def test_changes_refused_by_the_services_are_400_on_the_field(world, client_for):
    olga = client_for("olga")
    category = world.stage.category
    kind = olga.patch(f"/api/categories/{category.id}/", {"kind": "doubles"}, format="json")
    assert kind.status_code == 400 and "has entries already" in kind.json()["kind"][0]
    rounds = olga.patch(f"/api/categories/{category.id}/", {"rounds_per_game": 5}, format="json")
    assert rounds.json() == {
        "rounds_per_game": [
            "Adult singles has drawn stages: its rounds per game cannot change now."
        ]
    }
    best_of = olga.patch(f"/api/stages/{world.stage.id}/", {"best_of": 3}, format="json")
    assert best_of.status_code == 400 and "is drawn already" in best_of.json()["best_of"][0]
    swap = olga.patch(f"/api/entries/{world.a.id}/", {"player": world.c.player_id}, format="json")
    assert swap.status_code == 400 and "cannot change" in swap.json()["player"][0]
    dates = olga.patch(
        "/api/tournaments/club-open/",
        {"starts_on": "2027-05-02", "ends_on": "2027-05-01"},
        format="json",
    )
    assert dates.json() == {"ends_on": ["The last day cannot be before the first."]}

    category.refresh_from_db()
    world.stage.refresh_from_db()
    world.a.refresh_from_db()
    assert (category.kind, category.rounds_per_game, world.stage.best_of) == ("singles", 4, 1)
    assert world.a.player.user == world.users["ann"]
    assert Tournament.objects.get().ends_on is None


def test_what_is_still_used_is_not_deleted(world, client_for):
    olga = client_for("olga")
    doubles = CategoryFactory(tournament=world.tournament, name="Doubles", doubles=True)
    entry = registration.pair_team(
        category=doubles, player_one=world.a.player, player_two=world.b.player
    )
    for url, words in (
        (f"/api/categories/{world.stage.category_id}/", "has drawn stages"),
        (f"/api/stages/{world.stage.id}/", "is drawn already"),
        (f"/api/players/{world.c.player_id}/", "is entered in Adult singles"),
        (f"/api/teams/{entry.team_id}/", "is entered in Doubles"),
        (f"/api/entries/{world.a.id}/", "withdraw the entry instead"),
    ):
        refused = olga.delete(url)
        assert refused.status_code == 409, url
        assert words in refused.json()["detail"], url
    assert Category.objects.count() == 2 and Stage.objects.count() == 1
    assert Player.objects.count() == 3 and Team.objects.count() == 1 and Entry.objects.count() == 4

    assert olga.delete(f"/api/entries/{entry.id}/").status_code == 204
    assert olga.delete(f"/api/teams/{entry.team_id}/").status_code == 204
    loose = PlayerFactory(tournament=world.tournament)
    assert olga.delete(f"/api/players/{loose.id}/").status_code == 204
    assert olga.delete(f"/api/categories/{doubles.id}/").status_code == 204
    assert not Team.objects.exists() and Player.objects.count() == 3


def test_allowed_changes_go_through(world, client_for):
    olga = client_for("olga")
    renamed = olga.patch(f"/api/stages/{world.stage.id}/", {"name": "Heats"}, format="json")
    assert renamed.status_code == 200 and renamed.json()["name"] == "Heats"
    player = olga.put(
        f"/api/players/{world.c.player_id}/",
        {
            "tournament": "club-open",
            "first_name": " Cid ",
            "last_name": "Corr",
            "number": 900,
            "club": "",
            "country": "CA",
        },
        format="json",
    )
    assert player.status_code == 200, player.json()
    assert (player.json()["first_name"], player.json()["number"]) == ("Cid", 900)
    seeded = olga.patch(f"/api/entries/{world.c.id}/", {"seed": 2}, format="json")
    assert seeded.status_code == 200 and seeded.json()["seed"] == 2
