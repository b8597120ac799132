"""Tournament resources by role: the organizer writes, players and the public only read."""

import pytest
from django.core.exceptions import ValidationError

from tests.factories import CategoryFactory, PlayerFactory, TournamentFactory
from tournaments.models import (
    Board,
    Category,
    Entry,
    Match,
    Player,
    Stage,
    Tournament,
    TournamentRole,
)
from tournaments.services.setup import create_tournament

pytestmark = pytest.mark.django_db


def test_anonymous_reads_public_data_without_accounts(world, client_for):
    client = client_for()
    assert client.get("/api/tournaments/club-open/").json()["name"] == "Club Open"
    categories = client.get("/api/categories/", {"tournament": "club-open"}).json()
    assert [c["name"] for c in categories["results"]] == ["Adult singles"]
    players = client.get("/api/players/", {"tournament": "club-open"}).json()
    assert players["count"] == 3
    first = players["results"][0]
    assert {"first_name", "last_name", "club", "number"} <= set(first)
    assert "user" not in first and "username" not in first and "email" not in first
    assert "example.org" not in client.get("/api/players/").content.decode()
    match = client.get(f"/api/matches/{world.match.id}/").json()
    assert match["entry_a"]["name"] == world.a.name and match["games"][0]["number"] == 1


@pytest.mark.parametrize(
    ("url", "body"),
    [
        ("/api/categories/", {"tournament": "club-open", "name": "Doubles"}),
        ("/api/players/", {"tournament": "club-open", "first_name": "A", "last_name": "B"}),
        ("/api/stages/", {"category": None, "name": "Final", "kind": "knockout", "order": 9}),
    ],
)
def test_anonymous_writes_nothing(world, client_for, url, body):
    response = client_for().post(url, body, format="json")
    assert response.status_code == 401


def test_organizer_creates_updates_and_deletes(world, client_for):
    client = client_for("olga")
    category = client.post(
        "/api/categories/",
        {"tournament": "club-open", "name": "Cue singles", "discipline": "cue"},
        format="json",
    )
    assert category.status_code == 201, category.json()
    category_id = category.json()["id"]
    player = client.post(
        "/api/players/",
        {
            "tournament": "club-open",
            "first_name": "Dee",
            "last_name": "Ng",
            "number": 501,
            "club": "Tavistock",
            "username": "outsider",
        },
        format="json",
    )
    assert player.status_code == 201, player.json()
    # An invitation, not a link: the account's owner accepts it, signed in.
    assert Player.objects.get(number=501).user is None
    assert "Invitation sent to “outsider”" in player.json()["invitation"]
    entry = client.post(
        "/api/entries/",
        {"category": category_id, "player": player.json()["id"], "seed": 1},
        format="json",
    )
    assert entry.status_code == 201, entry.json()
    assert entry.json()["name"] == "Dee Ng" and entry.json()["number"] == "501"
    stage = client.post(
        "/api/stages/",
        {
            "category": category_id,
            "name": "Round robin",
            "kind": "round-robin",
            "order": 1,
            "advance_count": 4,
        },
        format="json",
    )
    assert stage.status_code == 201, stage.json()
    assert stage.json()["chain"][0] == "head-to-head"
    second = client.post(
        "/api/stages/",
        {"category": category_id, "name": "Final", "kind": "knockout", "best_of": 3},
        format="json",
    )
    assert second.status_code == 201 and second.json()["order"] == 2
    no_games = client.post(
        "/api/stages/",
        {"category": category_id, "name": "Prelims", "kind": "preliminary"},
        format="json",
    )
    assert no_games.status_code == 400
    assert "games each entry plays" in no_games.json()["games_per_entry"][0]

    patched = client.patch(
        f"/api/stages/{stage.json()['id']}/",
        {"best_of": 3, "tiebreak_chain": ["twenties"]},
        format="json",
    )
    assert patched.status_code == 200, patched.json()
    assert Stage.objects.get(pk=stage.json()["id"]).chain == ["twenties"]
    renamed = client.patch("/api/tournaments/club-open/", {"venue": "Tavistock Arena"})
    assert renamed.status_code == 200 and renamed.json()["venue"] == "Tavistock Arena"

    assert client.delete(f"/api/entries/{entry.json()['id']}/").status_code == 204
    assert not Entry.objects.filter(pk=entry.json()["id"]).exists()


def test_a_player_cannot_change_the_tournament(world, client_for):
    client = client_for("ann")
    refused = client.post(
        "/api/categories/", {"tournament": "club-open", "name": "Mine"}, format="json"
    )
    assert refused.status_code == 403
    assert "organizer" in refused.json()["detail"]
    assert not Category.objects.filter(name="Mine").exists()
    rename = client.patch(f"/api/players/{world.a.player_id}/", {"first_name": "Queen"})
    assert rename.status_code == 403
    assert client.patch("/api/tournaments/club-open/", {"venue": "x"}).status_code == 403
    assert client.delete(f"/api/stages/{world.stage.id}/").status_code == 403
    assert Stage.objects.filter(pk=world.stage.id).exists()


def test_an_organizer_of_another_tournament_cannot_write_here(world, client_for):
    client = client_for("cid")
    assert (
        client.post("/api/tournaments/", {"name": "Cid Cup", "slug": "cid-cup"}).status_code == 201
    )
    refused = client.post(
        "/api/players/",
        {"tournament": "club-open", "first_name": "X", "last_name": "Y", "number": 7},
        format="json",
    )
    assert refused.status_code == 403
    allowed = client.post(
        "/api/players/",
        {"tournament": "cid-cup", "first_name": "X", "last_name": "Y", "number": 7},
        format="json",
    )
    assert allowed.status_code == 201


def test_tournament_delete_asks_for_its_name_again(world, client_for):
    """The delete page's step (tests/tournaments/test_staff_steps.py has the rest of it)."""
    refused = client_for("olga").delete("/api/tournaments/club-open/")
    assert refused.status_code == 400
    assert refused.json() == {
        "confirm": [
            "Type the tournament's web address (club-open) or its name to confirm; nothing "
            "was deleted."
        ]
    }
    assert Tournament.objects.filter(slug="club-open").exists()


def test_bad_writes_say_what_is_wrong(world, client_for):
    client = client_for("olga")
    duplicate = client.post(
        "/api/players/",
        {
            "tournament": "club-open",
            "first_name": "Twin",
            "last_name": "Number",
            "number": world.a.player.number,
        },
        format="json",
    )
    assert duplicate.status_code == 400
    assert duplicate.json()["number"][0].startswith(
        f"ID {world.a.player.number} is already registered to {world.a.player.full_name}"
    )

    elsewhere = PlayerFactory(tournament=TournamentFactory())
    cross = client.post(
        "/api/entries/",
        {"category": world.stage.category_id, "player": elsewhere.id},
        format="json",
    )
    assert cross.status_code == 400
    assert cross.json()["player"] == [f"{elsewhere} is not registered at this tournament."]

    neither = client.post("/api/entries/", {"category": world.stage.category_id}, format="json")
    assert neither.status_code == 400 and "one player or one team" in str(neither.json())

    even = client.patch(f"/api/stages/{world.stage.id}/", {"best_of": 2}, format="json")
    assert even.status_code == 400 and "odd" in even.json()["best_of"][0]
    unknown = client.patch(
        f"/api/stages/{world.stage.id}/", {"tiebreak_chain": ["coin-toss"]}, format="json"
    )
    assert unknown.status_code == 400 and "tiebreak_chain" in unknown.json()

    other = TournamentFactory()
    TournamentRole.objects.create(tournament=other, user=world.users["olga"], role="organizer")
    moved = client.patch(
        f"/api/categories/{world.stage.category_id}/", {"tournament": other.slug}, format="json"
    )
    assert moved.status_code == 400 and "cannot change" in moved.json()["tournament"][0]
    slug = client.patch("/api/tournaments/club-open/", {"slug": "renamed"}, format="json")
    assert slug.status_code == 400 and "slug" in slug.json()
    first_to_n = client.post(
        "/api/categories/",
        {"tournament": "club-open", "name": "Race", "scoring_system": "first-to-N"},
        format="json",
    )
    assert first_to_n.status_code == 400 and "target" in first_to_n.json()["target_points"][0]


def test_deleting_what_matches_still_use_is_409(world, client_for):
    response = client_for("olga").delete(f"/api/entries/{world.a.id}/")
    assert response.status_code == 409
    assert "matches" in response.json()["detail"]
    assert Entry.objects.filter(pk=world.a.id).exists()


def test_filters(world, client_for):
    client = client_for()
    PlayerFactory(tournament=world.tournament, club="Waterloo")
    waterloo = client.get("/api/players/", {"club": "waterloo"}).json()
    assert [p["club"] for p in waterloo["results"]] == ["Waterloo"]
    other_category = CategoryFactory(tournament=world.tournament)
    entries = client.get("/api/entries/", {"category": world.stage.category_id}).json()
    assert {e["id"] for e in entries["results"]} == {world.a.id, world.b.id, world.c.id}
    assert client.get("/api/entries/", {"category": other_category.id}).json()["count"] == 0

    board = Board.objects.create(tournament=world.tournament, number=7)
    Match.objects.create(
        stage=world.stage, entry_a=world.c, entry_b=world.a, round_of_play=2, board=board
    )
    by_round = client.get("/api/matches/", {"stage": world.stage.id, "round_of_play": 2}).json()
    assert [m["board"] for m in by_round["results"]] == [7]
    by_board = client.get("/api/matches/", {"board": 7}).json()
    assert by_board["count"] == 1 and by_board["results"][0]["entry_a"]["id"] == world.c.id
    by_entry = client.get("/api/matches/", {"entry": world.a.id}).json()
    assert by_entry["count"] == 2
    assert client.get("/api/matches/", {"stage": "abc"}).status_code == 400


def test_browsable_api_lists_no_accounts(world, client_for):
    """The HTML forms of the browsable API must not turn the account field into a list of
    every username."""
    page = client_for("ann").get("/api/players/", HTTP_ACCEPT="text/html")
    assert page.status_code == 200 and "<form" in page.content.decode()
    assert "outsider" not in page.content.decode()
    for url in ("/api/stages/", "/api/entries/", f"/api/scorecards/?stage={world.stage.id}"):
        assert client_for("olga").get(url, HTTP_ACCEPT="text/html").status_code == 200


def test_create_tournament_service_is_all_or_nothing(world):
    with pytest.raises(ValidationError) as exc:
        create_tournament(name="Twice", slug="club-open", user=world.users["cid"])
    assert "slug" in exc.value.message_dict
    assert not TournamentRole.objects.filter(user=world.users["cid"]).exists()
    made = create_tournament(
        name="Cid Cup", slug="cid-cup", user=world.users["cid"], venue="Hall", game_minutes=25
    )
    assert Tournament.objects.get(slug="cid-cup").game_minutes == 25
    assert world.users["cid"].has_perm("tournaments.manage_tournament", made)
