"""The knockout bracket and the pools page on a 390x844 phone, in a real chromium: the bracket
in its phone layout (rounds one under another) fits the screen, with no page to scroll sideways,
no text past the drawing's edge and every text at 12 px or more; the hall screen's 1920x1080
shows the wide layout, whole. The pools page, with a crosstable of eight, leaves the page
itself still: a table too wide for the phone scrolls inside its own frame.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.e2e.browsing import HALL, PHONE, Story
from tests.tournaments.test_stages import field, record
from tournaments.models import Match, Player, Stage
from tournaments.services.draws import draw_knockout, draw_round_robin

pytestmark = [
    pytest.mark.browser,
    pytest.mark.xdist_group("story-bracket-phone"),
    pytest.mark.django_db(transaction=True),
]

LONG_FIRST, LONG_LAST = "Jean-Baptiste", "Castonguay-Villeneuve-Trottier"

#: Per text of the drawing: its own words (a cut name's tooltip left out), its font size as
#: drawn and how far it sticks out of the drawing on either side (0 when inside), in CSS px.
TEXT_GEOMETRY = """(svg) => {
  const box = svg.getBoundingClientRect();
  const scale = box.width / svg.viewBox.baseVal.width;
  return [...svg.querySelectorAll('text')].map(t => {
    const r = t.getBoundingClientRect();
    return { text: t.firstChild ? t.firstChild.nodeValue : '',
             px: parseFloat(getComputedStyle(t).fontSize) * scale,
             out: Math.max(0, box.left - r.left, r.right - box.right) };
  });
}"""


def eight_entry_event():
    """Eight entries: one pool of eight (round 1 played), then a knockout of the eight with two
    quarterfinals played; one entry has a name too long for a phone's line."""
    category, entries = field(8, boards=4)
    Player.objects.filter(pk=entries[0].player_id).update(
        first_name=LONG_FIRST, last_name=LONG_LAST
    )
    pools = Stage.objects.create(category=category, name="Pools", kind="round-robin", order=1)
    draw_round_robin(pools, pool_count=1)
    for match in Match.objects.filter(stage=pools, round_of_play=1, entry_b__isnull=False):
        record(match.games.get(), "a", (3, 1))
    knockout = Stage.objects.create(category=category, name="Knockout", kind="knockout", order=2)
    draw_knockout(knockout, entries)
    for match in Match.objects.filter(stage=knockout).order_by("bracket_slot")[:2]:
        record(match.games.get(), "a", (5, 2))
    return category, pools, knockout


def test_the_bracket_and_the_pools_fit_a_phone(chromium, server, screenshots):
    category, pools, knockout = eight_entry_event()
    slug = category.tournament.slug
    story = Story(chromium, server, screenshots)

    phone = story.visitor("fan", PHONE)
    phone.go(reverse("tournaments:bracket", args=[slug, knockout.id]))
    drawing = phone.page.locator("figure.bracket-phone svg")
    expect(drawing).to_be_visible()
    expect(phone.page.locator("figure.bracket-wide svg")).to_be_hidden()
    assert phone.overflow() == 0
    expect(drawing.locator("g.match")).to_have_count(4 + 2 + 1)
    headings = drawing.locator("text.round").all_text_contents()
    assert headings == ["Quarterfinals", "Semifinals", "Final"]
    expect(drawing.locator("g.side.win")).to_have_count(2)
    texts = drawing.evaluate(TEXT_GEOMETRY)
    cut = [t["text"] for t in texts if t["text"].endswith("…")]
    assert cut and LONG_FIRST.startswith(cut[0][:6]), texts  # the long name was cut to fit
    expect(drawing.locator("title", has_text=LONG_LAST)).to_have_count(2)  # QF1, and SF1
    for t in texts:
        assert t["px"] >= 12, t
        assert t["out"] <= 0.5, t
    assert drawing.evaluate("s => s.getBoundingClientRect().right") <= PHONE.width
    phone.shot("bracket")

    # The pools page: the crosstable of eight scrolls inside its frame, never the page.
    phone.follow(reverse("tournaments:pools", args=[slug, pools.id]))
    cross = phone.page.locator("table.cross")
    expect(cross).to_be_visible()
    expect(cross.locator("tbody tr")).to_have_count(8)
    assert phone.overflow() == 0
    frame = cross.locator("xpath=..")
    assert frame.evaluate("f => f.clientWidth") <= PHONE.width
    assert frame.evaluate("f => getComputedStyle(f).overflowX") == "auto"
    phone.shot("pools")
    phone.shot("pools-crosstable", at=cross)

    # The hall screen: the wide bracket, rounds side by side, whole on the screen.
    hall = story.visitor("hall", HALL)
    hall.go(reverse("tournaments:bracket", args=[slug, knockout.id]))
    wide = hall.page.locator("figure.bracket-wide svg")
    expect(wide).to_be_visible()
    expect(hall.page.locator("figure.bracket-phone svg")).to_be_hidden()
    assert hall.overflow() == 0
    figure = hall.page.locator("figure.bracket-wide")
    assert figure.evaluate("f => f.scrollWidth <= f.clientWidth")
    hall.shot("bracket")

    for visitor in (phone, hall):
        visitor.close()
    assert not story.problems, story.problems
