"""The hall screen on a 1920x1080 TV, for a round of 20 matches: a referee finds it on the
tournament's page, the screen fits without scrolling and pages through the board list by itself
("page 1 of 2", then "page 2 of 2"), then shows the latest results; a result verified meanwhile
shows at the screen's next turn without a reload. With JavaScript off the first page of each
panel is still there.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from tests.e2e.browsing import HALL, LAPTOP, Story
from tests.events import build_small_event
from tests.factories import RoundFactory
from tournaments.models import Match
from tournaments.services import clock

pytestmark = [
    pytest.mark.browser,
    pytest.mark.xdist_group("story-hall-screen"),
    pytest.mark.django_db(transaction=True),
]

PASSWORD = "hall-screen"
#: Seconds a page stays up: short, so that the story does not wait long for a page to turn.
SECONDS = 4
#: (points, 20s) of entry A and entry B in each round of a played game: A wins 6-2.
PLAYED = [((2, 0), (2, 1)), ((2, 0), (1, 0)), ((0, 2), (0, 3)), ((2, 0), (1, 1))]
NO_SCROLL = "() => document.scrollingElement.scrollHeight <= window.innerHeight"


def play(match: Match) -> None:
    game = match.games.get(number=1)
    for number, ((pa, pb), (ta, tb)) in enumerate(PLAYED, start=1):
        RoundFactory(
            game=game, number=number, points_a=pa, points_b=pb, twenties_a=ta, twenties_b=tb
        )


def test_the_hall_screen_fits_the_tv_and_pages_by_itself(
    chromium, server, screenshots, fast_passwords
):
    event = build_small_event(players=40, boards=20)
    referee_user = event.users["referee"]
    referee_user.set_password(PASSWORD)
    referee_user.save()
    slug = event.tournament.slug
    matches = list(
        Match.objects.filter(stage=event.stage, round_of_play=1).order_by("board__number")
    )
    assert len(matches) >= 19
    played = matches[:2]
    for match in played:
        play(match)
    now = timezone.now()
    clock.set_up(
        tournament=event.tournament, user=referee_user, duration_s=1800, label="Round 1", now=now
    )
    clock.start(tournament=event.tournament, user=referee_user, now=now)
    story = Story(chromium, server, screenshots)

    # A referee finds the screen and its options on the tournament's page.
    referee = story.visitor("referee", LAPTOP)
    referee.log_in(referee_user.username, PASSWORD, then=event.tournament.get_absolute_url())
    referee.follow(reverse("tournaments:screen_help", args=[slug]), text="Hall screen options")
    expect(referee.page.locator("main")).to_contain_text(f"stage={event.stage.id}")
    referee.shot("hall-screen-help")
    referee.close()

    screen = reverse("tournaments:screen", args=[slug])
    address = f"{screen}?show=now,clock,results&seconds={SECONDS}"
    hall = story.visitor("hall screen", HALL)
    hall.go(address)
    page = hall.page
    board_list = page.locator('[data-panel="now"]')
    results = page.locator('[data-panel="results"]')
    expect(board_list).to_be_visible()
    expect(results).to_be_hidden()
    expect(page.locator(".hall-top [data-round-clock]")).to_contain_text("Round 1")
    indicator = board_list.locator("[data-page-of]")
    expect(indicator).to_have_text(re.compile(r"^page 1 of \d+$"))
    pages = int(indicator.inner_text().rsplit(" ", 1)[1])
    assert pages >= 2, "20 matches in large type do not fit one screen"
    assert page.evaluate(NO_SCROLL), "the hall screen scrolls"
    assert hall.overflow() == 0
    font_px = page.evaluate("() => parseFloat(getComputedStyle(document.body).fontSize)")
    assert font_px >= 30, f"type of {font_px}px is too small for the back of the hall"
    shown = board_list.locator("tbody tr.game:visible")
    first_page = shown.count()
    assert 0 < first_page < len(matches)
    first_board = shown.first.locator("td.board").inner_text()
    hall.shot("hall-screen-1")

    # The next page comes up by itself within the set seconds, and still fits.
    expect(indicator).to_have_text(f"page 2 of {pages}", timeout=(SECONDS + 2) * 1000)
    assert page.evaluate(NO_SCROLL)
    assert shown.first.locator("td.board").inner_text() != first_board
    assert board_list.locator("tr.group:visible").count() == 1  # the round's heading again on top
    hall.shot("hall-screen-2")

    # Meanwhile a third result becomes official: the results panel shows it when its turn
    # comes, without the page reloading (the board list went on paging).
    page.evaluate("() => { window.__still_here = true; }")
    play(matches[2])
    expect(results).to_be_visible(timeout=(SECONDS * pages + 4) * 1000)
    expect(board_list).to_be_hidden()
    assert page.evaluate(NO_SCROLL)
    lines = results.locator("tbody tr.result")
    expect(lines).to_have_count(3)
    expect(lines.first).to_contain_text(matches[2].entry_a.name)
    assert page.evaluate("() => window.__still_here === true"), "the screen reloaded"
    hall.shot("hall-screen-3")
    hall.close()

    # Without JavaScript: every panel, each with its first page.
    still = story.browser.new_context(
        java_script_enabled=False,
        base_url=server,
        viewport={"width": HALL.width, "height": HALL.height},
    )
    plain = still.new_page()
    plain.goto(address)
    expect(plain.locator('[data-panel="now"] tbody tr:visible').first).to_be_visible()
    assert 0 < plain.locator('[data-panel="now"] tbody tr:visible').count() < len(matches) + 1
    expect(plain.locator('[data-panel="results"]')).to_be_visible()
    expect(plain.locator('[data-panel="results"] tbody tr.result')).to_have_count(3)
    still.close()

    # A wrong option: a page that says which one, not a server error.
    wrong = story.visitor("hall screen", HALL)
    response = wrong.page.goto(f"{screen}?show=now,scores")
    assert response is not None and response.status == 400
    expect(wrong.page.locator(".screen-error")).to_contain_text("“show” cannot be “now,scores”")
    story.problems[:] = [p for p in story.problems if "400 for GET" not in p]
    wrong.close()

    assert not story.problems, story.problems
    assert not story.missing_links, story.missing_links
