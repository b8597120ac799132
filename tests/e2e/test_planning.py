"""An organizer plans a 100-player day in a real chromium, on a phone and on a laptop.

Done when: a planning dry run of a 100-player event shows its finish-time distribution and a
format comparison. The tournament has 40 registered players so far (registration still open)
and 25 boards; the organizer, on a 390x844 phone, follows the simulation page's link to the
planning form, asks for 100 entries with the formats offered (8 or 10 preliminary games, 16 or
24 to the playoffs, best of 3 or 5), starts the run and lands on its result: a histogram of
finish times per stage with its median and 90th percentile marked, and the eight formats side
by side, the page never wider than the phone. On a laptop the same result reads whole.
Screenshots are left in tests/artifacts/e2e/planning/.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import expect

from simulation.models import PlanningRun, Status
from tests.e2e.browsing import LAPTOP, PHONE, Screenshots, Story
from tests.e2e.conftest import SCREENSHOT_DIR
from tests.factories import BoardFactory, CategoryFactory, EntryFactory, StageFactory
from tournaments.models import Stage, Tournament, TournamentRole

pytestmark = [
    pytest.mark.browser,
    pytest.mark.xdist_group("story-planning"),
    pytest.mark.django_db(transaction=True),
]

PASSWORD = "board-and-discs"


def hundred_player_event() -> Tournament:
    tournament = Tournament.objects.create(name="Spring Open", slug="spring-open", game_minutes=20)
    category = CategoryFactory(tournament=tournament, name="Competitive singles")
    EntryFactory.create_batch(40, category=category)
    BoardFactory.create_batch(25, tournament=tournament)
    StageFactory(
        category=category, kind=Stage.Kind.PRELIMINARY, order=1, games_per_entry=8, advance_count=16
    )
    StageFactory(category=category, kind=Stage.Kind.KNOCKOUT, order=2, best_of=3)
    organizer = User.objects.create_user("planner", password=PASSWORD)
    TournamentRole.objects.create(
        tournament=tournament, user=organizer, role=TournamentRole.Role.ORGANIZER
    )
    return tournament


@pytest.fixture
def planning_shots() -> Screenshots:
    """The story's screenshots in tests/artifacts/e2e/planning/, emptied first."""
    folder = SCREENSHOT_DIR / "planning"
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.png"):
        old.unlink()
    return Screenshots(folder)


def test_a_hundred_player_day_is_planned_on_a_phone_and_read_on_a_laptop(
    chromium, server, planning_shots, settings, tasks_in_place, fast_passwords
):
    settings.LONG_WORK_IN_REQUEST = True  # the run's task runs in the request, as tasks do here
    tournament = hundred_player_event()
    story = Story(chromium, server, planning_shots)

    phone = story.visitor("planner", PHONE)
    hub = reverse("simulation:hub", args=[tournament.slug])
    phone.log_in("planner", PASSWORD, hub)
    phone.page.get_by_role("link", name="Plan the day").first.click()
    expect(phone.page.locator("#plan-form")).to_be_visible()
    entries = phone.page.locator("#id_entries")
    expect(entries).to_have_value("40")
    entries.fill("100")
    expect(phone.page.locator("#id_boards")).to_have_value("25")
    for name, values in (("prelim_games", "8 10"), ("playoffs", "16 24"), ("best_of", "3 5")):
        for value in values.split():
            expect(phone.page.locator(f"input[name={name}][value='{value}']")).to_be_checked()
    assert phone.overflow() == 0
    phone.shot("planning-form")
    with phone.page.expect_navigation():
        phone.page.locator("#plan-form").get_by_role("button", name="Plan the day").click()
    comparison = phone.page.locator("#plan-comparison")
    expect(comparison).to_be_visible(timeout=60_000)
    run = PlanningRun.objects.get(tournament=tournament)
    assert run.status == Status.DONE and run.options["entries"] == 100
    assert run.result["entries"] == 100

    rows = comparison.locator("tbody tr")
    expect(rows).to_have_count(8)
    expect(rows.first.locator("th")).to_have_text("8 games, top 16, best of 3")
    for cell in rows.first.locator("td").all_text_contents()[:2]:
        assert ":" in cell  # clock times of the day
    charts = phone.page.locator("svg.plan-histogram")
    expect(charts).to_have_count(16)  # 8 formats x (preliminary, playoffs)
    first = charts.first
    expect(first).to_be_visible()
    assert first.locator("rect.plan-bar").count() == 16
    expect(first.locator("text.plan-median-label")).to_contain_text("median")
    expect(first.locator("text.plan-p90-label")).to_contain_text("90%")
    assert phone.overflow() == 0
    phone.shot("planning-result")

    laptop = story.visitor("planner-laptop", LAPTOP)
    page = reverse("planning:run", args=[tournament.slug, run.pk])
    laptop.log_in("planner", PASSWORD, page)
    expect(laptop.page.locator("#plan-comparison tbody tr")).to_have_count(8)
    expect(laptop.page.locator("svg.plan-histogram").first).to_be_visible()
    box = laptop.page.locator("svg.plan-histogram").first.bounding_box()
    assert box is not None and box["width"] > 360
    assert laptop.overflow() == 0
    laptop.shot("planning-laptop")
    assert not story.problems, story.problems
