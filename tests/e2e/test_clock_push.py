"""The round clock reaches everyone at once: a referee presses Start on the clock page, and the
hall screen and a player's card page on a phone show it running within a second, with the start
signal ("Play!" and a short vibration); the same for Pause. A pause seconds before the end
stops every screen's countdown: no "Time!", no buzzer. A phone that loses the network keeps
counting from what it last heard and says it is offline; a copy of the card page from a cache
shows the clock as the phone last heard it (localStorage), not as the copy was drawn.

The times are the browsers' own (``Date.now()`` when the page's clock changed state, recorded
from its ``round-clock:change`` event), against the moment the clock's change was saved (its
``updated_at``) and the moment the test pressed the button, on one machine and one system clock.
"""

from __future__ import annotations

import json
import time

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from tests.e2e.browsing import HALL, LAPTOP, PHONE, Story, Visitor
from tests.e2e.conftest import SerialRequestHandler
from tests.events import PLAYER, build_small_event
from tournaments.models import RoundClock
from tournaments.services import clock as clocks
from tournaments.views.clock_display import POLL_IDLE_S

pytestmark = [
    pytest.mark.browser,
    pytest.mark.xdist_group("story-clock-push"),
    pytest.mark.django_db(transaction=True),
]

PASSWORD = "clock-push"
#: What "at once" means here, as the issue asks: under a second from the clock's change to every
#: screen (measured from the change saved: 50 to 350 ms here, the stream's own path).
WITHIN_MS = 1000
#: From the press: the press's own request comes first, and this test server answers one request
#: at a time, so it may queue behind a page's. Typically 200 to 550 ms; now and then over a
#: second on a loaded machine, the press waiting its turn.
PRESS_TO_SCREEN_MS = 2500
#: Records each state the page's clock shows, with the browser's time, and the vibrations.
RECORD = """
window.__states = [];
window.__buzzes = [];
navigator.vibrate = (p) => { window.__buzzes.push(p); return true; };
document.addEventListener("round-clock:change",
  (e) => window.__states.push([e.detail.state, Date.now()]));
"""
BUZZER = [400, 150, 400]
START_SIGNAL = [200]


def shown_after(visitor: Visitor, state: str, pressed_ms: float) -> float:
    """Milliseconds from the press until the page showed ``state`` (it must show it)."""
    clock = visitor.page.locator("[data-round-clock]")
    expect(clock).to_have_attribute("data-state", state, timeout=5000)
    states = visitor.page.evaluate("window.__states")
    times = [at for name, at in states if name == state and at >= pressed_ms - 50]
    assert times, f"{visitor.who}: {state} not recorded after the press: {states}"
    return times[0] - pressed_ms


def press_and_time(referee: Visitor, button: str, state: str, screens: list[Visitor]) -> None:
    """Press ``button``; every screen shows ``state`` within a second of the clock's change
    being saved, and within PRESS_TO_SCREEN_MS of the press."""
    pressed_ms = time.time() * 1000
    referee.press(button)
    took = {screen.who: shown_after(screen, state, pressed_ms) for screen in screens}
    saved_ms = RoundClock.objects.get().updated_at.timestamp() * 1000 - pressed_ms
    print(f"{button}: saved after {saved_ms:.0f} ms, shown after {took} ms")
    assert all(ms - saved_ms < WITHIN_MS for ms in took.values()), (button, saved_ms, took)
    assert all(ms < PRESS_TO_SCREEN_MS for ms in took.values()), (button, took)


def test_start_and_pause_reach_the_hall_and_the_phones_within_a_second(
    chromium, server, screenshots, fast_passwords
):
    event = build_small_event()
    for role in ("referee", PLAYER):
        event.users[role].set_password(PASSWORD)
        event.users[role].save()
    t, slug = event.tournament, event.tournament.slug
    card = reverse("scoring:cards:card", args=[slug, event.stage.id, event.player.id])
    story = Story(chromium, server, screenshots)

    # The hall screen is up before anyone has set up a clock: the clock shows when it is set.
    hall = story.visitor("hall screen", HALL)
    hall.context.add_init_script(RECORD)
    hall.go(reverse("tournaments:screen", args=[slug]) + "?show=clock,now")
    expect(hall.page.locator("#round-clock")).to_be_hidden()
    hall.page.wait_for_timeout(500)  # its stream open
    with SerialRequestHandler.lock:  # as one more request of the test server
        clocks.set_up(
            tournament=t,
            user=event.users["referee"],
            duration_s=30,
            label="Round of play 2",
            now=timezone.now(),
        )
    expect(hall.page.locator("[data-round-clock]")).to_contain_text("Round of play 2", timeout=2000)
    player = story.visitor("player", PHONE)
    player.context.add_init_script(RECORD)
    player.log_in(event.users[PLAYER].username, PASSWORD, then=card)
    # What a cache would keep of the card page, drawn while the clock is ready.
    cached_card = player.context.request.get(server + card).text()
    assert 'data-state="ready"' in cached_card
    screens = [hall, player]
    for screen in screens:
        clock = screen.page.locator("[data-round-clock]")
        expect(clock).to_have_attribute("data-state", "ready")
        expect(clock).to_have_attribute("data-clock-stream", "live")

    # A browser without EventSource polls the clock's block instead (every POLL_IDLE_S).
    old = story.visitor("browser without EventSource", PHONE)
    old.context.add_init_script("delete window.EventSource;")
    old.go(reverse("tournaments:now", args=[slug]))
    expect(old.page.locator("[data-round-clock]")).to_have_attribute("data-clock-stream", "polling")

    referee = story.visitor("referee", LAPTOP)
    referee.log_in(event.users["referee"].username, PASSWORD, then=t.get_absolute_url())
    referee.follow(reverse("tournaments:clock", args=[slug]), text="Round clock")

    # Start: on every screen within a second, with the start signal.
    press_and_time(referee, "Start", "running", screens)
    for screen in screens:
        cue = screen.page.locator("[data-clock-cue]")
        expect(cue).to_be_visible()
        expect(cue).to_have_text("Play!")
        assert screen.page.evaluate("window.__buzzes") == [START_SIGNAL]
        # Carried by the stream, not by a poll.
        expect(screen.page.locator("[data-round-clock]")).to_have_attribute(
            "data-clock-stream", "live"
        )
    expect(old.page.locator("[data-round-clock]")).to_have_attribute(
        "data-state", "running", timeout=(POLL_IDLE_S + 3) * 1000
    )
    old.close()
    hall.shot("clock-push-started")
    player.shot("clock-push-started")

    # The screens count on the server's time: they agree with each other to the second.
    faces = [s.page.locator("[data-clock-face]").inner_text() for s in screens]
    assert abs(int(faces[0].split(":")[1]) - int(faces[1].split(":")[1])) <= 1, faces

    # Pause: within a second, and the faces stand still.
    press_and_time(referee, "Pause", "paused", screens)
    stood = {s.who: s.page.locator("[data-clock-face]").inner_text() for s in screens}
    player.page.wait_for_timeout(1500)
    assert {s.who: s.page.locator("[data-clock-face]").inner_text() for s in screens} == stood

    # Resume, then the phone loses the network: it keeps counting and says it is offline.
    press_and_time(referee, "Resume", "running", screens)
    player.context.set_offline(True)
    offline = player.page.locator("[data-clock-offline]")
    expect(offline).to_be_visible()
    expect(offline).to_contain_text("Offline")
    face = player.page.locator("[data-clock-face]")
    before = face.inner_text()
    expect(face).not_to_have_text(before, timeout=3000)  # still counting down
    player.shot("clock-push-offline")
    player.context.set_offline(False)
    expect(offline).to_be_hidden()

    # The last state heard is kept on the phone; a cached copy of the page drawn while the
    # clock was ready shows it running, counting down from what the phone heard last.
    saved = json.loads(player.page.evaluate(f"localStorage.getItem('round-clock:{slug}')"))
    assert saved["state"] == "running" and saved["label"] == "Round of play 2"
    copy = player.context.new_page()
    copy.route(f"**{card}", lambda route: route.fulfill(body=cached_card, content_type="text/html"))
    copy.route("**/clock/**", lambda route: route.abort("internetdisconnected"))
    copy.goto(card)
    copied = copy.locator("[data-round-clock]")
    expect(copied).to_have_attribute("data-state", "running")
    expect(copied.locator("[data-clock-label]")).to_have_text("Round of play 2")
    seconds_left = int(copy.locator("[data-clock-face]").inner_text().split(":")[1])
    assert 0 < seconds_left < 30
    copy.close()

    # Reset, a short limit, Start; Pause with three or four seconds left: no screen reaches
    # "Time!" and none buzzes.
    press_and_time(referee, "Reset", "ready", screens)
    referee.page.fill("#id_minutes", "0")
    referee.page.fill("#id_seconds", "8")
    referee.press("Set")
    expect(referee.message()).to_contain_text("Clock set")
    for screen in screens:
        expect(screen.page.locator("[data-clock-face]")).to_have_text("0:08")
    press_and_time(referee, "Start", "running", screens)
    expect(hall.page.locator("[data-clock-face]")).to_have_text("0:04", timeout=8000)
    press_and_time(referee, "Pause", "paused", screens)
    player.page.wait_for_timeout(5000)  # past the moment the run would have ended
    for screen in screens:
        expect(screen.page.locator("[data-clock-notice]")).to_be_hidden()
        assert screen.page.locator("[data-clock-face]").inner_text() != "0:00"
        assert "expired" not in [name for name, _ in screen.page.evaluate("window.__states")]
        assert BUZZER not in screen.page.evaluate("window.__buzzes")
    hall.shot("clock-push-paused-near-the-end")

    for visitor in (referee, player, hall):
        visitor.close()
    problems = [p for p in story.problems if "ERR_INTERNET_DISCONNECTED" not in p]
    assert not problems, problems
