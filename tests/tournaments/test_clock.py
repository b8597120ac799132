"""The round clock: its arithmetic at fixed instants, who may run it, what it says as JSON, and
where it shows (the hall screen, the players' cards).

WCC: "A buzzer will be used to begin and end play." Every time is passed in (``now``), so no
test waits: the seconds left are what the server computes from when the clock was started.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import timezone

from tests.events import ANONYMOUS, OPPONENT, PLAYER, ROLES
from tournaments.actions import Kind, Refused
from tournaments.clock_actions import CLOCK_BUTTONS, pause_clock, reset_clock, start_clock
from tournaments.formats.clock import (
    TIME_UP_NOTICE,
    clock_face,
    elapsed_seconds,
    remaining_seconds,
)
from tournaments.models import RoundClock
from tournaments.services import clock as clocks

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 6, 6, 9, 0, tzinfo=UTC)
RUNNERS = {"organizer", "head-referee", "referee", "scoring-table"}


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


# The pure arithmetic -------------------------------------------------------------------------


def test_remaining_counts_the_current_run_and_the_runs_before_it():
    assert elapsed_seconds(0, T0, at(90)) == 90
    assert elapsed_seconds(100, T0, at(20)) == 120
    assert elapsed_seconds(100, None, at(500)) == 100  # paused: the time stands still
    assert remaining_seconds(1800, 100, T0, at(20)) == 1680
    assert remaining_seconds(60, 50, T0, at(30)) == 0  # never below zero
    assert elapsed_seconds(0, T0, at(-2)) == 0  # a server a little behind counts no time


def test_bad_clock_values_are_refused():
    with pytest.raises(ValueError):
        elapsed_seconds(-1, None, T0)
    with pytest.raises(ValueError):
        remaining_seconds(-5, 0, None, T0)


def test_the_face_rounds_up_so_zero_means_time_is_up():
    assert clock_face(1800) == "30:00"
    assert clock_face(59.2) == "1:00"
    assert clock_face(0.3) == "0:01"
    assert clock_face(0) == "0:00"
    assert clock_face(3725) == "1:02:05"


# The service -------------------------------------------------------------------------------


def test_start_pause_resume_add_up_the_time_run(small_event):
    t, ref = small_event.tournament, small_event.users["referee"]
    clock = clocks.start(tournament=t, user=ref, now=T0)
    assert clock.duration_s == t.game_minutes * 60  # the tournament's time per game
    assert clock.read(at(600)).remaining == clock.duration_s - 600

    clocks.pause(tournament=t, user=ref, now=at(600))
    clock.refresh_from_db()
    assert clock.state == RoundClock.State.PAUSED
    assert clock.read(at(5000)).remaining == clock.duration_s - 600  # a pause stops the count

    clocks.resume(tournament=t, user=ref, now=at(900))
    clock.refresh_from_db()
    assert clock.read(at(1000)).remaining == clock.duration_s - 700
    assert clock.read(at(1000)).state == "running"

    reading = clock.read(at(900 + clock.duration_s))
    assert reading.state == RoundClock.EXPIRED and reading.remaining == 0 and reading.expired


def test_reset_and_start_again_give_the_full_time(small_event):
    t, table = small_event.tournament, small_event.users["scoring-table"]
    clocks.set_up(tournament=t, user=table, duration_s=1500, label="Round of play 3", now=T0)
    clocks.start(tournament=t, user=table, now=T0)
    clock = clocks.reset(tournament=t, user=table, now=at(200))
    assert clock.state == RoundClock.State.READY
    assert clock.read(at(999)).remaining == 1500
    clocks.start(tournament=t, user=table, now=at(1000))
    clock = clocks.start(tournament=t, user=table, now=at(2600))  # time was up: a new count
    assert clock.read(at(2650)).remaining == 1450
    assert clock.label == "Round of play 3"


def test_each_change_moves_the_version_so_pages_buzz_once_per_run(small_event):
    t, ref = small_event.tournament, small_event.users["head-referee"]
    versions = [
        clocks.start(tournament=t, user=ref, now=T0).version,
        clocks.pause(tournament=t, user=ref, now=at(5)).version,
        clocks.resume(tournament=t, user=ref, now=at(9)).version,
    ]
    assert versions == sorted(set(versions))


def test_a_press_that_does_not_apply_is_refused_and_changes_nothing(small_event):
    t, ref = small_event.tournament, small_event.users["referee"]
    clocks.set_up(tournament=t, user=ref, duration_s=60, now=T0)
    with pytest.raises(Refused, match="not running") as refused:
        clocks.pause(tournament=t, user=ref, now=T0)
    assert refused.value.kind == Kind.CONFLICT
    with pytest.raises(Refused, match="not paused"):
        clocks.resume(tournament=t, user=ref, now=T0)
    with pytest.raises(Refused, match="already at its full time"):
        clocks.reset(tournament=t, user=ref, now=T0)
    clocks.start(tournament=t, user=ref, now=T0)
    # Two referees pressing Start at once: the second press does not restart the count.
    with pytest.raises(Refused, match="already running"):
        clocks.start(tournament=t, user=ref, now=at(5))
    with pytest.raises(Refused, match="Time is already up"):
        clocks.pause(tournament=t, user=ref, now=at(61))
    clock = clocks.clock_of(t)
    assert clock.state == RoundClock.State.RUNNING and clock.started_at == T0
    clocks.pause(tournament=t, user=ref, now=at(50))  # from a pause: resume or reset first
    with pytest.raises(Refused, match="paused: resume it"):
        clocks.start(tournament=t, user=ref, now=at(51))


def test_each_button_is_a_step_that_says_why_it_does_not_apply(small_event):
    """The page and the API ask the steps (``tournaments.clock_actions``); their words are the
    services' own, and a player is refused by the role before the state."""
    t, ref = small_event.tournament, small_event.users["referee"]
    offered = {name for name, step in CLOCK_BUTTONS.items() if step.refusal(ref, t) is None}
    assert offered == {"start"}  # no clock yet: it starts at the tournament's time per game
    assert "ready to start, not running" in pause_clock.refusal(ref, t).text
    assert pause_clock.refusal(ref, t).kind == Kind.CONFLICT
    start_clock(ref, t)
    offered = {name for name, step in CLOCK_BUTTONS.items() if step.refusal(ref, t) is None}
    assert offered == {"pause", "reset"}
    with pytest.raises(Refused, match="already running"):
        start_clock(ref, t)
    player = small_event.users[PLAYER]
    refused = reset_clock.refusal(player, t)
    assert refused.kind == Kind.FORBIDDEN and refused.text == clocks.REFUSAL
    with pytest.raises(PermissionDenied):
        reset_clock(player, t)
    assert clocks.clock_of(t).state == RoundClock.State.RUNNING


def test_the_control_page_shows_the_buttons_that_do_not_apply_disabled_with_why(
    small_event, client
):
    small_event.login(client, "referee")
    url = reverse("tournaments:clock", args=[small_event.tournament.slug])
    page = client.get(url).content.decode()
    act = reverse("tournaments:clock-act", args=[small_event.tournament.slug, "start"])
    assert f'action="{act}"' in page
    assert 'disabled aria-describedby="clock-why-pause">Pause</button>' in page
    assert "Pause: The clock is ready to start, not running." in page
    client.post(act)
    page = client.get(url).content.decode()
    assert "Start: The clock is already running: pause or reset it first." in page
    assert 'clock-why-pause"' not in page


def test_a_new_limit_keeps_the_time_already_run(small_event):
    t, ref = small_event.tournament, small_event.users["referee"]
    clocks.start(tournament=t, user=ref, now=T0)
    clocks.pause(tournament=t, user=ref, now=at(300))
    clock = clocks.set_up(tournament=t, user=ref, duration_s=1200, now=at(301))
    assert clock.read(at(400)).remaining == 900
    with pytest.raises(ValidationError):
        clocks.set_up(tournament=t, user=ref, duration_s=0, now=at(302))
    with pytest.raises(ValidationError):
        clocks.set_up(tournament=t, user=ref, duration_s=10**6, now=at(302))
    clock.refresh_from_db()
    assert clock.duration_s == 1200


@pytest.mark.parametrize("role", ROLES)
def test_only_officials_run_the_clock(small_event, role):
    user = small_event.users[role]
    assert user.has_perm(clocks.RUN_CLOCK, small_event.tournament) is (role in RUNNERS)
    if role in RUNNERS:
        clocks.start(tournament=small_event.tournament, user=user, now=T0)
        assert clocks.clock_of(small_event.tournament).state == RoundClock.State.RUNNING
    else:
        with pytest.raises(PermissionDenied):
            clocks.start(tournament=small_event.tournament, user=user, now=T0)
        assert clocks.clock_of(small_event.tournament) is None


# The pages ---------------------------------------------------------------------------------


@pytest.mark.parametrize("role", ROLES)
def test_the_control_page_and_its_buttons_by_role(small_event, client, role):
    small_event.login(client, role)
    slug = small_event.tournament.slug
    page = client.get(reverse("tournaments:clock", args=[slug]))
    press = client.post(reverse("tournaments:clock-act", args=[slug, "start"]))
    clock = clocks.clock_of(small_event.tournament)
    if role in RUNNERS:
        assert page.status_code == 200 and b"Round clock" in page.content
        assert press.status_code == 302
        assert clock is not None and clock.state == RoundClock.State.RUNNING
    elif role == ANONYMOUS:
        assert page.status_code == 302 and "/accounts/login/" in page["Location"]
        assert clock is None
    else:
        assert page.status_code == 403 and press.status_code == 403
        assert b"Not allowed" in page.content
        assert clock is None


def test_the_control_page_sets_the_limit_and_says_what_is_wrong(small_event, client):
    small_event.login(client, "referee")
    slug = small_event.tournament.slug
    url = reverse("tournaments:clock-set", args=[slug])
    response = client.post(url, {"label": "Round of play 2", "minutes": 25, "seconds": 30})
    assert response.status_code == 302
    clock = clocks.clock_of(small_event.tournament)
    assert (clock.duration_s, clock.label) == (1530, "Round of play 2")
    bad = client.post(url, {"label": "x", "minutes": 0, "seconds": 0})
    assert bad.status_code == 400 and b"at least one second" in bad.content
    wrong = client.post(url, {"minutes": "half an hour"})
    assert wrong.status_code == 400
    clock.refresh_from_db()
    assert clock.duration_s == 1530  # nothing already saved is lost
    unknown = client.post(reverse("tournaments:clock-act", args=[slug, "explode"]), follow=True)
    assert unknown.status_code == 200 and "no “explode” button" in unknown.content.decode()
    refused = client.post(reverse("tournaments:clock-act", args=[slug, "pause"]), follow=True)
    assert "not running" in refused.content.decode()


def test_the_json_gives_the_server_count(small_event, client):
    t = small_event.tournament
    url = reverse("tournaments:clock-state", args=[t.slug])
    assert client.get(url).json()["state"] == "off"
    clocks.set_up(tournament=t, user=small_event.users["referee"], duration_s=600, now=T0)
    body = client.get(url).json()
    assert body["state"] == "ready" and body["remaining"] == 600 and body["face"] == "10:00"
    # Started 100 seconds ago: every phone that asks is told the same seconds left.
    clocks.start(
        tournament=t, user=small_event.users["referee"], now=timezone.now() - timedelta(seconds=100)
    )
    body = client.get(url).json()
    assert body["state"] == "running" and 498 <= body["remaining"] <= 500
    assert body["notice"] == ""
    clocks.reset(tournament=t, user=small_event.users["referee"], now=timezone.now())
    clocks.start(
        tournament=t, user=small_event.users["referee"], now=timezone.now() - timedelta(hours=1)
    )
    body = client.get(url).json()
    assert body["state"] == "expired" and body["remaining"] == 0
    assert "equalising shot" in body["notice"] and body["notice"] == TIME_UP_NOTICE
    assert "no-store" in client.get(url)["Cache-Control"]
    assert client.get(reverse("tournaments:clock-state", args=["nowhere"])).status_code == 404


def test_the_hall_screen_shows_the_clock_and_the_rule_when_time_is_up(small_event, client):
    t = small_event.tournament
    url = reverse("tournaments:now", args=[t.slug])
    page = client.get(url).content.decode()
    assert "data-round-clock" not in page and 'id="round-clock"' in page  # waits for a clock
    ref = small_event.users["referee"]
    clocks.set_up(tournament=t, user=ref, duration_s=1800, label="Round of play 1", now=T0)
    clocks.start(tournament=t, user=ref, now=timezone.now() - timedelta(seconds=60))
    page = client.get(url).content.decode()
    assert "data-round-clock" in page and "Round of play 1" in page
    assert "29:00" in page or "28:59" in page
    assert "js/clock.js" in page and "<noscript>" in page  # without JS: as of now, and a refresh
    assert 'class="clock-notice" data-clock-notice role="alert" hidden' in page
    clocks.reset(tournament=t, user=ref, now=timezone.now())
    clocks.start(tournament=t, user=ref, now=timezone.now() - timedelta(hours=1))
    page = client.get(url).content.decode()
    assert "time is up" in page and "equalising shot" in page and "0:00" in page
    assert 'data-clock-notice role="alert">' in page  # the rule shown, not hidden


def test_the_partial_polls_and_the_card_page_shows_the_clock(small_event, client):
    t = small_event.tournament
    clocks.set_up(tournament=t, user=small_event.users["referee"], duration_s=900, now=T0)
    partial = client.get(reverse("tournaments:clock-partial", args=[t.slug]))
    body = partial.content.decode()
    assert partial.status_code == 200 and 'hx-get="' in body and "15:00" in body
    assert "<script" not in body  # swapped every few seconds: no script loaded again
    for role in (PLAYER, OPPONENT):
        small_event.login(client, role)
        entry = small_event.player
        card = client.get(
            reverse("scoring:cards:card", args=[t.slug, small_event.stage.id, entry.id])
        )
        assert card.status_code == 200
        assert "data-round-clock" in card.content.decode()
