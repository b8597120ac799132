"""The round clock in a real chromium: a referee sets and starts it on a laptop, the hall screen
and a player's card on a phone count down, and at zero the phone buzzes (the vibration stands in
for the sound, which a headless browser cannot be asked about) and states the equalising-shot
rule. With JavaScript off, the card shows the time left as of loading and a refresh link.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.e2e.browsing import LAPTOP, PHONE, Story
from tests.events import PLAYER, build_small_event

pytestmark = [
    pytest.mark.browser,
    pytest.mark.xdist_group("story-round-clock"),
    pytest.mark.django_db(transaction=True),
]

PASSWORD = "clock-watcher"
#: Long enough for the phone to load the card while time is left, short enough not to wait long.
SECONDS = 12
#: Records the buzzer's vibration, where the page can see it.
RECORD_VIBRATION = (
    "window.__buzzes = []; navigator.vibrate = (p) => { window.__buzzes.push(p); return true; };"
)


def test_the_clock_counts_down_everywhere_and_states_the_rule_at_zero(
    chromium, server, screenshots, fast_passwords
):
    event = build_small_event()
    for role in ("referee", PLAYER):
        event.users[role].set_password(PASSWORD)
        event.users[role].save()
    slug = event.tournament.slug
    card = reverse("scoring:cards:card", args=[slug, event.stage.id, event.player.id])
    story = Story(chromium, server, screenshots)

    referee = story.visitor("referee", LAPTOP)
    referee.log_in(
        event.users["referee"].username, PASSWORD, then=event.tournament.get_absolute_url()
    )
    referee.follow(reverse("tournaments:clock", args=[slug]), text="Round clock")
    referee.page.fill("#id_label", "Round of play 1")
    referee.page.fill("#id_minutes", "0")
    referee.page.fill("#id_seconds", str(SECONDS))
    referee.press("Set")
    expect(referee.message()).to_contain_text("Clock set")
    referee.press("Start")
    expect(referee.page.locator("[data-clock-state]")).to_have_text("running")
    referee.shot("clock-control")

    player = story.visitor("player", PHONE)
    player.context.add_init_script(RECORD_VIBRATION)
    player.log_in(event.users[PLAYER].username, PASSWORD, then=card)
    clock = player.page.locator("[data-round-clock]")
    expect(clock).to_contain_text("Round of play 1")
    first = player.page.locator("[data-clock-face]").inner_text()
    assert first.startswith("0:") and 0 < int(first[2:]) <= SECONDS
    expect(player.page.locator("[data-clock-sound]")).to_be_visible()
    assert player.overflow() == 0
    player.shot("clock-running")

    hall = story.visitor("hall screen", LAPTOP)
    hall.go(reverse("tournaments:now", args=[slug]))
    expect(hall.page.locator("[data-round-clock]")).to_contain_text("Round of play 1")

    notice = player.page.locator("[data-clock-notice]")
    expect(notice).to_be_visible(timeout=(SECONDS + 10) * 1000)
    expect(notice).to_contain_text("equalising shot")
    expect(player.page.locator("[data-clock-face]")).to_have_text("0:00")
    assert player.page.evaluate("window.__buzzes.length") == 1  # buzzed once, at zero
    player.shot("clock-time-up")
    expect(hall.page.locator("[data-clock-notice]")).to_be_visible()
    hall.shot("hall-time-up")

    # A reload after the buzzer shows the rule but does not buzz again.
    player.page.reload()
    expect(player.page.locator("[data-clock-notice]")).to_be_visible()
    player.page.wait_for_timeout(600)
    assert player.page.evaluate("window.__buzzes.length") == 0

    # Reset: every page goes back to the full time, without the rule, at its next poll.
    referee.press("Reset")
    expect(referee.page.locator("[data-clock-state]")).to_have_text("ready to start")
    expect(player.page.locator("[data-clock-notice]")).to_be_hidden(timeout=30_000)
    expect(player.page.locator("[data-clock-face]")).to_have_text(f"0:{SECONDS}")

    # Without JavaScript: the time as of loading, and a way to ask again.
    still = story.browser.new_context(java_script_enabled=False, base_url=server)
    page = still.new_page()
    page.goto(reverse("tournaments:now", args=[slug]))
    expect(page.locator(".round-clock")).to_contain_text(f"0:{SECONDS}")
    assert "Refresh" in page.content()
    still.close()

    for visitor in (referee, player, hall):
        visitor.close()
    assert not story.problems, story.problems
