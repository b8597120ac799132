"""Closed stages through the API: the same services, messages and permissions as the pages.

The world of ``tests.scoring.test_closed_stages``: four players, one game each, two advance to a
final; the player beat the opponent, the other player won the other game.
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from scoring.models import CardRow, ClosedStageChange
from scoring.progression.closed import official_rounds
from scoring.progression.locks import stage_closed
from scoring.results.services import record_game
from scoring.scorecards.services import card_for
from tests.scoring.test_closed_stages import CLOSED, Closed, build_closed_event, rounds_of
from tournaments.models import Match

pytestmark = pytest.mark.django_db


@pytest.fixture
def closed() -> Closed:
    return build_closed_event()


def api(closed: Closed, role: str | None = None) -> APIClient:
    client = APIClient()
    if role is not None:
        client.force_authenticate(closed.users[role])
    return client


def change_body(**extra) -> dict:
    rounds = [{"points": r["points"], "twenties": r["twenties"]} for r in rounds_of("b", (1, 5))]
    return {"rounds": rounds, **extra}


def test_a_stage_says_whether_it_is_closed_into_which_stage_and_since_when(closed):
    body = api(closed).get(f"/api/stages/{closed.stage.id}/closed/").json()
    assert body["closed"] is True
    assert body["advanced_into"] == {"id": closed.final.id, "name": "Final"}
    assert body["advanced_at"] and body["message"].startswith(CLOSED)
    assert body["changes"] is None  # the changes are for the officials
    final = api(closed, "organizer").get(f"/api/stages/{closed.final.id}/closed/").json()
    assert final["closed"] is False and final["advanced_into"] is None
    assert final["changes"] == []


def test_players_and_officials_are_refused_with_the_pages_words(closed):
    e = closed.event
    card = card_for(e.stage, e.player)
    row = CardRow.objects.get(card=card, game=e.game)
    fill = api(closed, "player").post(
        f"/api/scorecards/{card.id}/fill/",
        {"game": e.game.id, "rounds": change_body()["rounds"], "version": row.version},
        format="json",
    )
    assert fill.status_code == 409 and fill.json()["detail"].startswith(CLOSED)
    validate = api(closed, "opponent").post(
        f"/api/card-rows/{row.id}/validate/",
        {"opponent_number": str(e.opponent.player.number), "initials": "OP", "version": 1},
        format="json",
    )
    assert validate.status_code == 409 and validate.json()["detail"].startswith(CLOSED)
    verify = api(closed, "scoring-table").post(
        f"/api/scorecards/{card.id}/verify/", {"versions": []}, format="json"
    )
    assert verify.status_code == 409 and verify.json()["detail"].startswith(CLOSED)
    ruling = api(closed, "head-referee").post(
        f"/api/games/{e.game.id}/resolve-dispute/",
        {**change_body(initials="HR"), "versions": []},
        format="json",
    )
    # This game has no dispute: the step says so first (a closed stage's dispute would be
    # refused by the service in the closure's words).
    assert (
        ruling.status_code == 409 and "there is no dispute on this game" in ruling.json()["detail"]
    )
    assert CardRow.objects.get(pk=row.pk).status == CardRow.Status.FILLED
    assert official_rounds(e.game) == rounds_of("a", (5, 1))


def test_the_head_referee_previews_then_writes_a_change(closed):
    e = closed.event
    url = f"/api/games/{e.game.id}/closed-change/"
    head = api(closed, "head-referee")
    preview = head.post(url, change_body(preview=True), format="json")
    assert preview.status_code == 200, preview.content
    body = preview.json()
    assert body["preview"] is True and body["change"] is None
    assert body["impact"].startswith(
        f"{e.player.name} would no longer advance to Final; {e.opponent.name} would."
    )
    assert body["crosses_cut"] is True
    assert [x["id"] for x in body["leaving"]] == [e.player.id]
    assert [x["id"] for x in body["joining"]] == [e.opponent.id]
    assert not ClosedStageChange.objects.exists()

    missing = head.post(url, change_body(initials="HR"), format="json")
    assert missing.status_code == 400 and "say why" in missing.json()["detail"]

    done = head.post(url, change_body(initials="HR", reason="Wrong winner"), format="json")
    assert done.status_code == 201, done.content
    record = done.json()["change"]
    assert record["reason"] == "Wrong winner" and record["changed_by"] == "head-referee-" + (
        closed.slug
    )
    assert record["impact"] == body["impact"]
    assert ClosedStageChange.objects.count() == 1
    assert official_rounds(e.game) == rounds_of("b", (1, 5))
    listed = api(closed, "organizer").get(f"/api/stages/{closed.stage.id}/closed/").json()
    assert [c["reason"] for c in listed["changes"]] == ["Wrong winner"]


@pytest.mark.parametrize("role", ["referee", "scoring-table", "organizer", "player"])
def test_only_the_head_referee_changes_a_closed_result(closed, role):
    response = api(closed, role).post(
        f"/api/games/{closed.event.game.id}/closed-change/",
        change_body(preview=True),
        format="json",
    )
    assert response.status_code == 403
    assert "Only the head referee changes a result of a closed stage" in response.json()["detail"]


def test_the_organizer_undoes_an_advance_unless_the_next_stage_has_a_result(closed):
    url = f"/api/stages/{closed.stage.id}/undo-advance/"
    refused = api(closed, "head-referee").post(url)
    assert refused.status_code == 403 and "Only the organizers" in refused.json()["detail"]
    final_game = Match.objects.get(stage=closed.final).games.get()
    record_game(final_game, rounds_of("a", (5, 1)))
    has_result = api(closed, "organizer").post(url)
    assert has_result.status_code == 409
    assert "cannot be undone: Final has results" in has_result.json()["detail"]
    assert stage_closed(closed.stage)

    final_game.rounds.all().delete()
    done = api(closed, "organizer").post(url)
    assert done.status_code == 200, done.content
    assert done.json()["detail"].startswith("The advance of Preliminary to Final is undone")
    assert done.json()["stage"]["closed"] is False
    assert not stage_closed(closed.stage)
    again = api(closed, "organizer").post(url)
    assert again.status_code == 409 and "Not advanced" in again.json()["detail"]


def test_the_schema_describes_the_closed_stage_endpoints(api_schema):
    paths = api_schema["paths"]
    assert "get" in paths["/api/stages/{id}/closed/"]
    assert "post" in paths["/api/stages/{id}/undo-advance/"]
    change = paths["/api/games/{id}/closed-change/"]["post"]
    assert {"200", "201", "400", "403", "404"} <= set(change["responses"])
