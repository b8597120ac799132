"""A public page follows the event by itself: a spectator's phone shows the standings, the
scoring table verifies a result elsewhere, and the phone shows it within seconds, without
anyone touching it (``tournaments.live``)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.e2e.browsing import PHONE, Story
from tests.events import build_small_event

pytestmark = [
    pytest.mark.browser,
    pytest.mark.xdist_group("story-live-pages"),
    pytest.mark.django_db(transaction=True),
]


def test_the_standings_on_a_phone_show_a_result_verified_elsewhere(chromium, server, screenshots):
    event = build_small_event()
    story = Story(chromium, server, screenshots)
    spectator = story.visitor("spectator", PHONE)
    spectator.go(reverse("scoring:standings", args=[event.tournament.slug, event.stage.id]))
    name = event.player.player.first_name
    leader = spectator.page.locator("table.standings tbody tr").first
    expect(leader).not_to_contain_text("6")  # nobody has points yet
    spectator.shot("standings-before")

    # Elsewhere: the game is played, signed and verified at the scoring table.
    event.play_and_verify()

    # The phone reloads on its own at the next poll: the winner leads with 6 points.
    expect(leader).to_contain_text(name, timeout=15_000)
    expect(leader).to_contain_text("6")
    spectator.shot("standings-after")
    assert not story.problems, story.problems
