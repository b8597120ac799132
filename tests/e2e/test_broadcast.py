"""The broadcast kit in a real chromium: the organizer queues a match from the organizer's
pages on a laptop; a referee scores its rounds on a phone with the big buttons and the 20s
steppers; the overlay, open at 1920x1080 as a streaming program's browser source, shows each new
round's points and a changed win chance without a reload.

The full overlay follows the match through its event stream, and never polls the JSON feed
while the stream speaks; the lower third is opened with its stream refused (answered 204, what
ends an ``EventSource`` for good, as behind a buffering proxy) and falls back to polling the feed.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from simulation.models import FeaturedMatch, LiveRound
from tests.e2e.browsing import HALL, LAPTOP, PHONE, Story
from tests.events import build_small_event
from tournaments.services import clock as clocks

pytestmark = [
    pytest.mark.browser,
    pytest.mark.xdist_group("story-broadcast"),
    pytest.mark.django_db(transaction=True),
]

PASSWORD = "on-the-air"


def test_a_featured_match_scored_round_by_round_updates_its_overlay_and_win_chance(
    chromium, server, screenshots, fast_passwords
):
    event = build_small_event()
    for role in ("organizer", "referee"):
        event.users[role].set_password(PASSWORD)
        event.users[role].save()
    slug = event.tournament.slug
    story = Story(chromium, server, screenshots)
    a, b = str(event.match.entry_a), str(event.match.entry_b)

    organizer = story.visitor("organizer", LAPTOP)
    organizer.log_in(
        event.users["organizer"].username,
        PASSWORD,
        then=reverse("tournaments:manage", args=[slug]),
    )
    organizer.follow(reverse("broadcast:queue", args=[slug]), text="Stream queue")
    organizer.page.select_option("#id_match", str(event.match.pk))
    organizer.press("Add to the queue")
    expect(organizer.message()).to_contain_text("The stream queue is changed")
    expect(organizer.page.locator("[data-queue] li").first).to_contain_text("On air")
    featured = FeaturedMatch.objects.get(match=event.match)
    organizer.shot("stream-queue")

    clocks.set_up(
        tournament=event.tournament,
        user=event.users["referee"],
        duration_s=1200,
        label="Round of play 1",
        now=timezone.now(),
    )
    overlay = story.visitor("overlay", HALL)
    asked: list[str] = []
    overlay.page.on("request", lambda request: asked.append(request.url))
    overlay.go(reverse("broadcast:overlay", args=[slug]) + "?layout=full")
    panel = overlay.page.locator("[data-overlay-panel]")
    expect(panel).to_contain_text(a)
    expect(panel).to_contain_text(b)
    expect(overlay.page.locator("[data-ov-points-a]")).to_have_text("0")
    expect(overlay.page.locator("[data-round-clock]")).to_contain_text("Round of play 1")
    expect(overlay.page.locator("[data-clock-face]")).to_have_text("20:00")
    chance = overlay.page.locator("[data-ov-chance]")
    before = int(chance.get_attribute("data-ov-chance"))
    assert overlay.page.evaluate("() => getComputedStyle(document.body).backgroundColor") in (
        "rgba(0, 0, 0, 0)",
        "transparent",
    )

    referee = story.visitor("referee", PHONE)
    score_url = reverse("broadcast:score", args=[slug, featured.pk])
    referee.log_in(event.users["referee"].username, PASSWORD, then=score_url)
    plus_a = referee.page.locator(".live-twenties .stepper").first.locator("[data-step='1']")
    plus_a.click()
    plus_a.click()
    expect(referee.page.locator("[data-twenties-a]")).to_have_value("2")
    referee.page.locator("[data-points='2-0']").click()
    expect(referee.message()).to_contain_text("Round saved")
    assert referee.overflow() == 0
    referee.shot("live-scorer")

    expect(overlay.page.locator("[data-ov-points-a]")).to_have_text("2", timeout=10_000)
    expect(panel.locator(".ov-a .ov-20s")).to_have_text("2")
    after_one = int(chance.get_attribute("data-ov-chance"))
    assert after_one > before

    referee.page.locator("[data-points='2-0']").click()
    expect(referee.message()).to_contain_text("Round saved")
    expect(overlay.page.locator("[data-ov-points-a]")).to_have_text("4", timeout=10_000)
    after_two = int(chance.get_attribute("data-ov-chance"))
    assert after_two > after_one
    # the changes came through the stream: the feed was never polled
    assert any("/overlay/events/" in url for url in asked), asked
    assert not any("/api/" in url for url in asked), asked
    overlay.shot("overlay-full")

    # a wrong tap is taken back, and the overlay follows
    referee.press("Undo the last round")
    expect(referee.message()).to_contain_text("taken back")
    expect(overlay.page.locator("[data-ov-points-a]")).to_have_text("2", timeout=10_000)
    assert LiveRound.objects.filter(featured=featured).count() == 1

    public = story.visitor("visitor", PHONE)
    public.go(reverse("broadcast:match", args=[slug, featured.pk]))
    expect(public.page.locator("[data-live-note]")).to_contain_text("the scorecard is official")
    expect(public.page.locator("[data-win-chance]")).to_have_attribute(
        "data-win-chance", str(after_one)
    )
    assert public.overflow() == 0
    public.shot("featured-match")

    lower = story.visitor("lower-third", HALL)
    lower.page.route("**/overlay/events/", lambda route: route.fulfill(status=204, body=""))
    lower.go(reverse("broadcast:overlay", args=[slug]) + "?layout=lower-third")
    expect(lower.page.locator(".ov-lower-third [data-ov-points-a]")).to_have_text("2")
    lower.shot("overlay-lower-third")

    for visitor in (organizer, overlay, referee, public, lower):
        visitor.close()
    assert not story.problems, story.problems
