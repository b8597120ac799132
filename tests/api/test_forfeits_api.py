"""Walkovers and forfeits through the API: the same services, messages and permissions as the
ruling pages (``scoring.api.rulings``), and the forfeit fields on games, rounds and entries."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.html import escape

from scoring.progression.services import advance_knockout
from scoring.results.services import record_game
from tests.events import PLAYER, SmallEvent, build_small_event
from tests.factories import CategoryFactory, EntryFactory, StageFactory
from tournaments.models import Entry, Game, Match, Round, Stage, TournamentRole
from tournaments.services.draws import draw_knockout

pytestmark = pytest.mark.django_db

A_WINS = [{"points": [2, 0], "twenties": [3, 1]}] * 3 + [{"points": [0, 2], "twenties": [1, 2]}]
JSON = {"content_type": "application/json"}


def api_post(client, event: SmallEvent, role: str, url: str, body: dict | None = None):
    event.login(client, role)
    return client.post(url, body or {}, **JSON)


def page_text(client, event: SmallEvent, role: str, url: str, data: dict) -> str:
    """What a page says after the same action: its error, or its success message."""
    event.login(client, role)
    return client.post(url, data, follow=True).content.decode()


def test_withdraw_and_reinstate_give_the_pages_words(client):
    api_event, page_event = build_small_event(), build_small_event()
    response = api_post(
        client,
        api_event,
        "organizer",
        f"/api/entries/{api_event.opponent.id}/withdraw/",
        {"kind": "withdrawal", "reason": "injured"},
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["entry"]["withdrawn"] is True and body["entry"]["withdrawal_kind"] == "withdrawal"
    assert len(body["walkovers"]) == 2
    assert {g["forfeited_by"] for g in body["walkovers"]} <= {"a", "b"}
    assert {g["forfeit_kind"] for g in body["walkovers"]} == {"withdrawal"}
    page = page_text(
        client,
        page_event,
        "organizer",
        reverse(
            "scoring:rulings:withdraw", args=[page_event.tournament.slug, page_event.opponent.id]
        ),
        {"kind": "withdrawal", "reason": "injured"},
    )
    assert escape(body["detail"]) in page  # the same people, the same words

    game = body["walkovers"][0]["id"]
    shown = client.get(f"/api/games/{game}/").json()
    assert shown["forfeit_kind"] == "withdrawal" and shown["rounds"] == []
    response = api_post(
        client, api_event, "organizer", f"/api/entries/{api_event.opponent.id}/reinstate/"
    )
    assert response.status_code == 200, response.content
    assert response.json()["detail"] == (
        f"{api_event.opponent.name} is reinstated: 2 walkovers are games to play again."
    )
    assert not Game.objects.filter(match__stage=api_event.stage).exclude(forfeited_by="").exists()


def test_a_refusal_reads_as_on_the_page(client):
    event = build_small_event()
    player = event.player
    response = api_post(
        client,
        event,
        "head-referee",
        f"/api/entries/{player.id}/withdraw/",
        {"kind": "disqualification", "reason": ""},
    )
    assert response.status_code == 400
    (message,) = response.json()["reason"]
    page = page_text(
        client,
        event,
        "head-referee",
        reverse("scoring:rulings:withdraw", args=[event.tournament.slug, player.id]),
        {"kind": "disqualification", "reason": ""},
    )
    assert escape(message) in page


def test_only_the_organizers_withdraw_and_only_the_head_referee_forfeits(client):
    event = build_small_event()
    response = api_post(
        client, event, "head-referee", f"/api/entries/{event.opponent.id}/withdraw/", {}
    )
    assert response.status_code == 403
    assert response.json()["detail"] == (
        "Only the tournament's organizers may withdraw an entry or reinstate it."
    )
    record_game(event.game, A_WINS)
    response = api_post(
        client,
        event,
        "organizer",
        f"/api/games/{event.game.id}/forfeit/",
        {"side": "a", "reason": "coaching"},
    )
    assert response.status_code == 403
    assert response.json()["detail"] == "Only the head referee forfeits a round or a game."
    client.logout()
    anonymous = client.post(f"/api/games/{event.game.id}/forfeit/", {}, **JSON)
    assert anonymous.status_code in (401, 403)
    assert not Entry.objects.get(pk=event.opponent.pk).withdrawn
    assert Game.objects.get(pk=event.game.pk).forfeited_by == ""


def test_the_head_referee_forfeits_a_round_and_a_game(client):
    api_event, page_event = build_small_event(), build_small_event()
    for event in (api_event, page_event):
        record_game(event.game, A_WINS)
    response = api_post(
        client,
        api_event,
        "head-referee",
        f"/api/games/{api_event.game.id}/forfeit-round/",
        {"round": 2, "side": "a", "reason": "slow play"},
    )
    assert response.status_code == 200, response.content
    body = response.json()
    second = body["game"]["rounds"][1]
    assert (second["points_a"], second["points_b"], second["forfeited_by"]) == (0, 2, "a")
    assert second["forfeit_reason"] == "slow play"
    page = page_text(
        client,
        page_event,
        "head-referee",
        reverse(
            "scoring:rulings:forfeit_round",
            args=[page_event.tournament.slug, page_event.game.id],
        ),
        {"round-round": "2", "round-side": "a", "round-reason": "slow play"},
    )
    assert escape(body["detail"]) in page

    response = api_post(
        client,
        api_event,
        "head-referee",
        f"/api/games/{api_event.game.id}/forfeit/",
        {"side": "b", "reason": "coaching"},
    )
    assert response.status_code == 200, response.content
    game = response.json()["game"]
    assert (game["forfeited_by"], game["forfeit_kind"], game["rounds"]) == ("b", "ruling", [])
    assert not Round.objects.filter(game=api_event.game).exists()
    # Nothing more to rule on that game: the page's words again.
    again = api_post(
        client,
        api_event,
        "head-referee",
        f"/api/games/{api_event.game.id}/forfeit-round/",
        {"round": 1, "side": "a", "reason": "late"},
    )
    assert again.status_code == 409  # the game's state, not the request, is what refuses
    assert "was forfeited by" in again.json()["detail"]


def test_a_round_forfeit_outside_2_1_0_is_refused(client):
    event = build_small_event()
    category = event.category
    category.scoring_system = category.ScoringSystem.DIFFERENCE_TO_100
    category.save(update_fields=["scoring_system"])
    record_game(event.game, [{"score": [100, 0], "twenties": [5, 0]}])
    response = api_post(
        client,
        event,
        "head-referee",
        f"/api/games/{event.game.id}/forfeit-round/",
        {"round": 1, "side": "b", "reason": "late"},
    )
    assert response.status_code == 400
    assert response.json()["detail"].endswith("forfeit the game instead.")


def test_a_plain_entry_edit_withdraws_through_the_same_service(client):
    event = build_small_event()
    event.login(client, "organizer")
    response = client.patch(f"/api/entries/{event.opponent.id}/", {"withdrawn": True}, **JSON)
    assert response.status_code == 200, response.content
    assert response.json()["withdrawal_kind"] == "withdrawal"
    assert Game.objects.filter(match__stage=event.stage, forfeit_kind="withdrawal").count() == 2


def test_the_schema_documents_the_endpoints(api_schema):
    schema = api_schema
    for path, codes in (
        ("/api/entries/{id}/withdraw/", {"200", "400", "403", "409"}),
        ("/api/entries/{id}/reinstate/", {"200", "403", "409"}),
        ("/api/games/{id}/forfeit/", {"200", "400", "403", "409"}),
        ("/api/games/{id}/forfeit-round/", {"200", "400", "403", "409"}),
    ):
        assert codes <= set(schema["paths"][path]["post"]["responses"]), path
    game = schema["components"]["schemas"]["Game"]["properties"]
    assert {"forfeited_by", "forfeit_kind", "forfeit_reason"} <= set(game)


def test_a_plain_entry_edit_is_the_withdrawal_step_with_its_permission(client):
    """``PATCH withdrawn`` takes the step ``scoring.withdraw_entry``: an organizer who plays the
    entry is another official's case, in the step's words, and nothing is changed."""
    event = build_small_event()
    TournamentRole.objects.create(
        tournament=event.tournament, user=event.users[PLAYER], role=TournamentRole.Role.ORGANIZER
    )
    event.login(client, PLAYER)
    response = client.patch(f"/api/entries/{event.opponent.id}/", {"withdrawn": True}, **JSON)
    assert response.status_code == 403
    assert "another official must do it." in response.json()["detail"]
    assert not Entry.objects.get(pk=event.opponent.pk).withdrawn


def test_a_plain_entry_edit_opens_the_knockout_matches_its_walkovers_decide(client):
    event = build_small_event()
    category = CategoryFactory(tournament=event.tournament, name="Knockout")
    for n in range(4):
        EntryFactory(category=category, checked_in=True, seed=n + 1, player__number=500 + n)
    stage = StageFactory(category=category, name="Bracket", kind=Stage.Kind.KNOCKOUT, order=1)
    draw_knockout(stage)
    top, bottom = Match.objects.filter(stage=stage).order_by("bracket_slot")
    record_game(bottom.games.get(), A_WINS)
    advance_knockout(stage)
    quitter = top.entry_b
    event.login(client, "organizer")
    response = client.patch(f"/api/entries/{quitter.id}/", {"withdrawn": True}, **JSON)
    assert response.status_code == 200, response.content
    final = Match.objects.filter(stage=stage).exclude(pk__in=[top.pk, bottom.pk]).get()
    assert {final.entry_a_id, final.entry_b_id} == {top.entry_a_id, bottom.entry_a_id}


def test_reinstating_what_was_never_withdrawn_is_a_conflict(client):
    event = build_small_event()
    response = api_post(client, event, "organizer", f"/api/entries/{event.opponent.id}/reinstate/")
    assert response.status_code == 409
    assert response.json()["detail"] == (
        f"{event.opponent.name} has not withdrawn; there is nothing to reinstate."
    )
