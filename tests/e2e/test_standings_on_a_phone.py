"""The standings page on a 390x844 phone, in a real chromium: the chart in its phone layout,
with its legend, fits the screen (nothing to scroll sideways, no label past the drawing's edge)
and its text is drawn at 12 px or more; and a club's page on another site frames the embed.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.e2e.browsing import PHONE, Story
from tests.tournaments.test_public_pages import event
from tournaments.models import Player

pytestmark = [
    pytest.mark.browser,
    pytest.mark.xdist_group("story-standings-phone"),
    pytest.mark.django_db(transaction=True),
]

#: Per text of the visible chart: its font size as drawn, and how far it sticks out of the
#: drawing on either side (0 when inside), in CSS pixels.
TEXT_GEOMETRY = """(svg) => {
  const box = svg.getBoundingClientRect();
  const scale = box.width / svg.viewBox.baseVal.width;
  return [...svg.querySelectorAll('text')].map(t => {
    const r = t.getBoundingClientRect();
    return { text: t.textContent, px: parseFloat(getComputedStyle(t).fontSize) * scale,
             out: Math.max(0, box.left - r.left, r.right - box.right) };
  });
}"""


@contextmanager
def club_site(body: str) -> Iterator[str]:
    """A club's page served from another origin (127.0.0.1 on a port of its own; the app is
    at localhost). On this machine, as Chromium lets no public address load a local one."""
    page = body.encode()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args) -> None:
            pass

    httpd = HTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_the_standings_chart_fits_a_phone_and_a_club_can_frame_it(chromium, server, screenshots):
    category, entries, stages = event(9)
    Player.objects.filter(pk=entries[0].player_id).update(
        first_name="Jean-Baptiste", last_name="Castonguay-Villeneuve-Trottier"
    )
    slug, stage = category.tournament.slug, stages["prelim"]
    story = Story(chromium, server, screenshots)

    phone = story.visitor("fan", PHONE)
    phone.go(reverse("scoring:standings", args=[slug, stage.id]))
    chart = phone.page.locator("figure.chart-phone svg")
    expect(chart).to_be_visible()
    expect(phone.page.locator("figure.chart-wide svg")).to_be_hidden()
    expect(chart.locator("text", has_text="Points, advancing")).to_have_count(1)
    assert phone.overflow() == 0
    texts = chart.evaluate(TEXT_GEOMETRY)
    assert any(t["text"].endswith("…") for t in texts), texts  # the long name was cut to fit
    for t in texts:
        assert t["px"] >= 12, t
        assert t["out"] <= 0.5, t
    phone.shot("standings-chart")

    # The "Embed" disclosure opens on a tap and its code is selected by the next.
    phone.page.get_by_text("Embed", exact=True).click()
    snippet = phone.page.locator("details.embed-snippet textarea")
    expect(snippet).to_be_visible()
    snippet.click()
    selected = snippet.evaluate("f => f.selectionEnd - f.selectionStart")
    assert selected == len(snippet.input_value()) > 0
    assert phone.overflow() == 0
    phone.shot("standings-embed-code", at=snippet)

    # A club's own page (another origin) with that code in it shows the standings.
    club = story.visitor("club site", PHONE)
    code = snippet.input_value()
    html = (
        f"<!doctype html><meta name=viewport content='width=device-width'><h1>Our club</h1>{code}"
    )
    with club_site(html) as address:
        assert not code.split('"')[1].startswith(address)  # another origin than the app's
        club.page.goto(address)
        framed = club.page.frame_locator("iframe")
        expect(framed.locator("figure.chart-phone svg")).to_be_visible()
        expect(framed.locator("header.top")).to_have_count(0)
        assert club.overflow() == 0
        club.shot("standings-framed-on-a-club-site")

    for visitor in (phone, club):
        visitor.close()
    assert not story.problems, story.problems
