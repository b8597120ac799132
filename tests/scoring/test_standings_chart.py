"""The standings chart can be read: a legend says what the bars and colours are, and the phone
layout's labels fit a 390 px screen at 12 px or more.

The SVG is checked as the page serves it: text cannot wrap in SVG, so a label longer than its
room would run off the drawing; every label's estimated width must stay inside the viewBox.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from django.urls import reverse

from scoring.standings.charts import PHONE_WIDTH, phone_chart, standings_chart
from tests.factories import EntryFactory, StageFactory
from tests.scoring.test_standings_pages import play
from tournaments.svg.text import CHAR_EM, fit, text_width

SVG = "{http://www.w3.org/2000/svg}"
#: A 390 px phone less the page's padding (main: .5rem each side).
PHONE_CHART_PX = 390 - 2 * 8
LONG_NAME = "Jean-Baptiste Castonguay-Villeneuve / Marie-Ève Trottier-Lachapelle"


def rows(count: int = 12, *, long: bool = True) -> list[tuple[int, str, int, int, bool]]:
    names = [LONG_NAME if long and i % 3 == 0 else f"Player {i}" for i in range(count)]
    return [(i + 1, n, 400 - i * 7, 90 - i, i < 4) for i, n in enumerate(names)]


def charts_in(body: str) -> dict[str, ET.Element]:
    """The page's chart SVGs by layout (``chart-wide``, ``chart-phone``)."""
    found = {}
    for part in body.split('<figure class="chart ')[1:]:
        layout = part.split('"', 1)[0]
        svg = part[part.index("<svg") : part.index("</svg>") + len("</svg>")]
        found[layout] = ET.fromstring(svg)
    return found


def label_extent(svg: ET.Element) -> list[tuple[str, float, float]]:
    """Every text of the drawing with the x range it covers (estimated), in viewBox units,
    taking the translations of the groups around it into account (they are only vertical)."""
    extents = []
    for text in svg.iter(f"{SVG}text"):
        x = float(text.get("x", 0))
        font = float(text.get("font-size") or _inherited_font(svg, text))
        width = text_width(text.text or "", font)
        anchor = text.get("text-anchor", "start")
        left = {"start": x, "end": x - width, "middle": x - width / 2}[anchor]
        extents.append((text.text or "", left, left + width))
    return extents


def _inherited_font(svg: ET.Element, node: ET.Element) -> str:
    for group in svg.iter(f"{SVG}g"):
        if node in list(group) and group.get("font-size"):
            return group.get("font-size")
    raise AssertionError(f"no font size for {node.text!r}")


@pytest.mark.django_db
def test_the_page_draws_a_legend_in_both_layouts(client):
    stage = StageFactory(games_per_entry=1, advance_count=2)
    entries = [EntryFactory(category=stage.category) for _ in range(4)]
    play(stage, entries[0], entries[1], [((2, 0), (3, 1))] * 4)
    play(stage, entries[2], entries[3], [((2, 0), (1, 0))] * 2 + [((0, 2), (0, 0))] * 2)
    url = reverse("scoring:standings", args=[stage.category.tournament.slug, stage.id])
    charts = charts_in(client.get(url).content.decode())
    assert set(charts) == {"chart-wide", "chart-phone"}
    for svg in charts.values():
        texts = [t.text for t in svg.iter(f"{SVG}text")]
        for words in ("Points", "20s", "Numbers: points · 20s", "Longest bar: the stage's best"):
            assert words in texts, texts
        assert "Points, advancing" in texts
        swatches = {r.get("class") for r in svg.find(f"{SVG}g[@class='legend']")}
        assert {"points", "points advances", "twenties"} <= swatches
        # Each bar names its entry, with the numbers, in a tooltip.
        assert any("points" in (t.text or "") for t in svg.iter(f"{SVG}title"))


def test_no_advancing_colour_in_the_legend_when_nobody_advances():
    chart = phone_chart([(1, "A", 10, 2, False), (2, "B", 8, 1, False)])
    assert [i.text for i in chart.legend][:2] == ["Points", "20s"]


@pytest.mark.django_db
def test_at_phone_width_the_drawing_and_its_labels_stay_inside(client):
    stage = StageFactory(games_per_entry=1)
    long_one = EntryFactory(
        category=stage.category,
        player__first_name="Jean-Baptiste",
        player__last_name="Castonguay-Villeneuve-Trottier-Lachapelle",
    )
    others = [EntryFactory(category=stage.category) for _ in range(3)]
    play(stage, long_one, others[0], [((2, 0), (3, 1))] * 4)
    play(stage, others[1], others[2], [((2, 0), (1, 0))] * 4)
    url = reverse("scoring:standings", args=[stage.category.tournament.slug, stage.id])
    svg = charts_in(client.get(url).content.decode())["chart-phone"]
    _, _, width, height = (float(v) for v in svg.get("viewBox").split())
    assert width == PHONE_WIDTH <= PHONE_CHART_PX  # drawn at a unit per pixel or more
    for text, left, right in label_extent(svg):
        assert left >= 0 and right <= width, (text, left, right)
    fonts = [float(t.get("font-size") or _inherited_font(svg, t)) for t in svg.iter(f"{SVG}text")]
    # At a 390 px phone the drawing is scaled by PHONE_CHART_PX / width >= 1.
    assert min(fonts) * PHONE_CHART_PX / width >= 12
    assert any("…" in (t.text or "") for t in svg.iter(f"{SVG}text"))  # the long name was cut
    assert height > 0


def test_phone_labels_fit_whatever_the_names_and_numbers():
    chart = phone_chart(rows(30))
    for bar in chart.bars:
        label = text_width(bar.label, chart.label_font)
        value = text_width(bar.value, chart.value_font)
        assert label + value + 8 <= chart.width, bar
        assert bar.points_width <= chart.width and bar.twenties_width <= chart.width
    for item in chart.legend:
        assert item.text_x + text_width(item.text, chart.legend_font) <= chart.width, item
    assert chart.bars[0].label.endswith("…") and chart.bars[1].label == "2. Player 1"


def test_wide_labels_and_values_stay_inside_the_wide_drawing():
    chart = standings_chart(rows(30))
    for bar in chart.bars:
        assert text_width(bar.label, chart.label_font) <= chart.label_x
        assert bar.value_x + text_width(bar.value, chart.value_font) <= chart.width
    assert chart.top > 0 and chart.height == chart.top + 30 * 20


def test_fit_cuts_to_the_room_with_an_ellipsis():
    assert fit("short", 100, 12) == "short"
    cut = fit("x" * 50, 100, 12)
    assert cut.endswith("…") and len(cut) * CHAR_EM * 12 <= 100
