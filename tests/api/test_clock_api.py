"""The round clock through the API: public state like the hall screen's JSON; start, pause,
resume, reset and the time limit for the officials, through the clock page's services, with its
words. WCC: "A buzzer will be used to begin and end play."; players only watch the clock."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from tests.events import ANONYMOUS, ROLES
from tournaments.models import RoundClock
from tournaments.services import clock as clocks

pytestmark = pytest.mark.django_db

RUNNERS = {"organizer", "head-referee", "referee", "scoring-table"}


def api_as(event, role: str) -> APIClient:
    client = APIClient()
    if role != ANONYMOUS:
        client.force_authenticate(event.users[role])
    return client


def url(event, what: str = "") -> str:
    return f"/api/tournaments/{event.tournament.slug}/clock/" + (f"{what}/" if what else "")


def test_the_state_is_public_and_off_until_set_up(small_event, client):
    state = api_as(small_event, ANONYMOUS).get(url(small_event))
    assert state.status_code == 200
    assert state.json()["state"] == "off" and "server_time" in state.json()
    assert state["Cache-Control"] == "no-store"
    assert api_as(small_event, ANONYMOUS).get("/api/tournaments/nowhere/clock/").status_code == 404


def test_the_buttons_run_the_clock(small_event, client):
    referee = api_as(small_event, "referee")
    started = referee.post(url(small_event, "start"))
    assert started.status_code == 200, started.json()
    assert started.json()["state"] == "running"
    assert started.json()["duration"] == small_event.tournament.game_minutes * 60
    assert referee.post(url(small_event, "pause")).json()["state"] == "paused"
    assert referee.post(url(small_event, "resume")).json()["state"] == "running"
    reset = referee.post(url(small_event, "reset")).json()
    assert reset["state"] == "ready" and reset["remaining"] == reset["duration"]
    clock = RoundClock.objects.get(tournament=small_event.tournament)
    # Made at version 1 by the first press, then one more for each of the four presses.
    assert clock.version == 5 and clock.updated_by == small_event.users["referee"]
    # The JSON of the clock pages says the same.
    page = client.get(reverse("tournaments:clock-state", args=[small_event.tournament.slug]))
    assert page.json()["state"] == reset["state"] and page.json()["version"] == reset["version"]


def test_a_press_that_does_not_apply_is_refused_in_the_page_words(small_event, client):
    small_event.login(client, "referee")
    on_page = client.post(
        reverse("tournaments:clock-act", args=[small_event.tournament.slug, "pause"]), follow=True
    )
    refused = api_as(small_event, "referee").post(url(small_event, "pause"))
    assert refused.status_code == 409
    assert [refused.json()["detail"]] == [str(m) for m in on_page.context["messages"]]
    assert "not running" in refused.json()["detail"]
    # Two presses of Start at once: the second is refused, the count is not restarted.
    assert api_as(small_event, "referee").post(url(small_event, "start")).status_code == 200
    again = api_as(small_event, "head-referee").post(url(small_event, "start"))
    assert again.status_code == 409 and "already running" in again.json()["detail"]


def test_the_time_limit_and_label(small_event):
    table = api_as(small_event, "scoring-table")
    response = table.patch(url(small_event), {"duration_s": 90, "label": "Round 3"}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["duration"] == 90 and response.json()["label"] == "Round 3"
    too_long = table.patch(url(small_event), {"duration_s": 10 * 3600}, format="json")
    assert too_long.status_code == 400 and "duration_s" in too_long.json()
    assert RoundClock.objects.get(tournament=small_event.tournament).duration_s == 90


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("button", ["start", "pause", "resume", "reset", "set"])
def test_only_officials_run_the_clock(small_event, role, button):
    client = api_as(small_event, role)
    if button == "set":
        before = version_of(small_event)
        response = client.patch(url(small_event), {"duration_s": 60}, format="json")
    else:
        if button in ("pause", "resume", "reset"):  # a state where the button applies
            clocks.start(
                tournament=small_event.tournament,
                user=small_event.users["referee"],
                now=timezone.now(),
            )
        if button == "resume":
            clocks.pause(
                tournament=small_event.tournament,
                user=small_event.users["referee"],
                now=timezone.now(),
            )
        before = version_of(small_event)
        response = client.post(url(small_event, button))
    if role in RUNNERS:
        assert response.status_code == 200, response.json()
    elif role == ANONYMOUS:
        assert response.status_code == 401
    else:
        assert response.status_code == 403
        assert response.json()["detail"] == clocks.REFUSAL
    assert (version_of(small_event) != before) is (role in RUNNERS)


def version_of(event) -> int | None:
    """The clock's version (it grows with every change), None before anyone set it up."""
    clock = RoundClock.objects.filter(tournament=event.tournament).first()
    return clock.version if clock else None
