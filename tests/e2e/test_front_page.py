"""The front page in a real chromium, on a phone and a laptop: three tournaments (live now,
upcoming, past) each under its heading and each leading to its own page; a search narrows the
list; a tournament published while the page is open appears on it by itself."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from tests.e2e.browsing import LAPTOP, PHONE, Story
from tests.factories import TournamentFactory

pytestmark = [
    pytest.mark.browser,
    pytest.mark.xdist_group("story-front-page"),
    pytest.mark.django_db(transaction=True),
]

TODAY = timezone.localdate()
DAY = timedelta(days=1)


def test_three_tournaments_under_their_headings_on_a_phone_and_a_laptop(
    chromium, server, screenshots
):
    live = TournamentFactory(
        name="Tavistock Open", venue="Tavistock", starts_on=TODAY, ends_on=TODAY + DAY
    )
    TournamentFactory(name="Ottawa Cup", venue="Ottawa", starts_on=TODAY + 30 * DAY)
    TournamentFactory(
        name="WCC 2025", venue="Tavistock", starts_on=TODAY - 200 * DAY, ends_on=TODAY - 199 * DAY
    )
    story = Story(chromium, server, screenshots)
    for device in (PHONE, LAPTOP):
        visitor = story.visitor("spectator", device)
        visitor.go(reverse("home"))
        for section, name in (
            ("live", "Tavistock Open"),
            ("upcoming", "Ottawa Cup"),
            ("past", "WCC 2025"),
        ):
            expect(visitor.page.locator(f"#{section}")).to_contain_text(name)
        assert visitor.overflow() == 0
        visitor.shot("front-page")

    phone = story.visitor("player", PHONE)
    phone.go(reverse("home"))
    phone.page.fill("#index-q", "tavistock")
    phone.page.press("#index-q", "Enter")
    expect(phone.page.locator("#live")).to_contain_text("Tavistock Open")
    expect(phone.page.locator("#past")).to_contain_text("WCC 2025")
    expect(phone.page.get_by_text("Ottawa Cup")).to_have_count(0)
    phone.follow(live.get_absolute_url(), text="Tavistock Open")
    expect(phone.page.locator("h1, h2").first).to_contain_text("Tavistock Open")

    # A tournament published while the front page is open shows up there by itself.
    laptop = story.visitor("organizer", LAPTOP)
    laptop.go(reverse("home"))
    TournamentFactory(name="Paris Classic", venue="Paris", starts_on=TODAY + 60 * DAY)
    expect(laptop.page.locator("#upcoming")).to_contain_text("Paris Classic", timeout=15_000)
    assert not story.problems, story.problems
