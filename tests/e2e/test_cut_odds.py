"""Live cut odds in a real chromium, on a phone and a laptop: a preliminary in progress shows
every entry's chance of the cut on its standings page, a result is verified with the results
service, and the odds on the open pages move without anyone pressing reload."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from simulation.odds import services
from tests.e2e.browsing import HALL, LAPTOP, PHONE, Story, Visitor
from tests.simulation.odds.support import games_to_play, play_round, preliminary
from tests.tournaments.test_stages import record

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.xdist_group("story-cut-odds"),
    pytest.mark.django_db(transaction=True),
]


def shown_odds(visitor: Visitor) -> dict[int, str]:
    """Each entry's cut chance as the page shows it, by entry id."""
    rows = visitor.page.locator("[data-cut-odds] tr[data-entry]")
    return {
        int(row.get_attribute("data-entry")): row.locator("[data-odds-cut]").inner_text()
        for row in rows.all()
    }


def number(text: str) -> float:
    return float(text.rstrip("%").lstrip("<>"))


def test_the_odds_on_the_standings_page_move_after_a_verified_result(
    chromium, server, screenshots, tasks_in_place
):
    stage, entries = preliminary(8, advance=4)
    play_round(stage, 1)
    services.refresh_cut_odds(stage)
    slug = stage.category.tournament.slug
    story = Story(chromium, server, screenshots)
    visitors = [story.visitor("fan", PHONE), story.visitor("coach", LAPTOP)]

    before = {}
    for visitor in visitors:
        visitor.go(reverse("scoring:standings", args=[slug, stage.id]))
        expect(visitor.page.locator("[data-cut-odds] tr[data-entry]")).to_have_count(len(entries))
        expect(visitor.page.locator("[data-odds-fresh]")).to_contain_text("after 4 results")
        expect(visitor.page.locator("[data-cut-odds] svg.odds-bar")).to_have_count(len(entries))
        before[visitor.who] = shown_odds(visitor)
        assert set(before[visitor.who]) == {e.id for e in entries}
        assert visitor.overflow() == 0
        # Every figure is on the screen: the table needs no sideways scrolling either (a pixel
        # of rounding aside).
        wrap = visitor.page.locator("#cut-odds .table-wrap")
        assert wrap.evaluate("w => w.scrollWidth - w.clientWidth") <= 1
        visitor.shot("cut-odds-before", at=visitor.page.locator("#cut-odds"))
    assert before["fan"] == before["coach"]

    # Round 2's first game: the entry drawn second wins it, 8-0 with three 20s. The result is
    # official as it is recorded; its odds are worked out by the task the result queues.
    game = games_to_play(stage)[0]
    winner, loser = game.match.entry_b_id, game.match.entry_a_id
    record(game, "b", (0, 3))

    for visitor in visitors:
        # The open page hears of the new version and draws itself again.
        expect(visitor.page.locator("[data-odds-fresh]")).to_contain_text(
            "after 5 results", timeout=30_000
        )
        after = shown_odds(visitor)
        assert number(after[winner]) > number(before[visitor.who][winner]), (before, after)
        assert number(after[loser]) < number(before[visitor.who][loser]), (before, after)
        assert visitor.overflow() == 0
        visitor.shot("cut-odds-after", at=visitor.page.locator("#cut-odds"))

    # The stage's own odds page says the same, with each entry's sentence.
    phone = visitors[0]
    phone.follow(reverse("odds:stage", args=[slug, stage.id]), text="Odds of the cut")
    expect(phone.page.locator("[data-odds-sentence]")).to_have_count(len(entries))
    expect(phone.page.locator("[data-odds-sentence]").first).to_contain_text("Makes the top 4 in")
    assert shown_odds(phone) == shown_odds(visitors[1])
    assert phone.overflow() == 0
    phone.shot("cut-odds-page")

    # The winner's own page gives its line of the odds, as the stage's page says it.
    winner_entry = next(e for e in entries if e.id == winner)
    phone.go(reverse("tournaments:player", args=[slug, winner_entry.player.number]))
    line = phone.page.locator(f'[data-odds-entry="{winner}"]')
    expect(line).to_contain_text(f"Makes the top 4 in {shown_odds(visitors[1])[winner]}")
    assert phone.overflow() == 0
    phone.shot("cut-odds-player-line", at=line)

    # The hall screen's odds panel: every entry, with its bar.
    hall = story.visitor("hall screen", HALL)
    hall.go(reverse("tournaments:screen", args=[slug]) + f"?show=odds&stage={stage.id}")
    panel = hall.page.locator('[data-panel="odds"]')
    expect(panel.locator("svg.odds-bar")).to_have_count(len(entries))
    expect(panel).to_contain_text("after 5 results")
    hall.shot("cut-odds-hall-screen")

    for visitor in (*visitors, hall):
        visitor.close()
    assert not story.problems, story.problems
